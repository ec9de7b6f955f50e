/**
 * Dispatches per substep by phase, compute passes and encode time per frame, from the solver's
 * own counters (FrameStats), for scenes at their defaults (issue 24's dispatch budget: at most 20
 * per substep on the octopus drop with hybrid collisions). Prints figures; asserts nothing.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/dispatches.ts \
 *     [--scenes octopus-drop,octopus-box] [--frames 2] [--size N] [--max-storage-buffers N] [--hardware-plans]
 *
 * --hardware-plans: on a software adapter, record the plans a hardware one records
 * (FinalizeStage.warmStartNextSubstep, off by default on software adapters, where it is slow;
 * CcdStage.substepBoxes, on there: CCD's rounds in one dispatch each):
 * the counts a GPU's runner reports. The frames are the same either way.
 *
 * --max-storage-buffers N (>= 10): a device with at most N storage buffers per kernel (Chrome on
 * Metal exposes 10; SwiftShader 12), so that the figures are those of such a device's plans.
 *
 * Frame 1 is left out (pipeline compilation, the first CCD job); the figures are of the last
 * frame. Uses only FrameStats fields older trees have too (passes where present), so the same
 * file measures a checkout from before issue 24.
 */
import { acquireGpu, isSoftwareAdapter } from '../src/gpu/device';
import { runnerCcdPool } from '../src/runner/ccdWorkerBundle';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { Simulation, type FrameStats } from '../src/sim/simulation';
import { detectionRefitsOn } from '../src/collision/gpu/detectStage';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/dispatches.ts [--scenes octopus-drop,octopus-box] [--frames 2] [--size N] [--max-storage-buffers N] [--hardware-plans]',
  values: ['--scenes', '--frames', '--size', '--max-storage-buffers'],
  switches: ['--hardware-plans'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const sceneNames = flag('scenes', 'octopus-drop,octopus-box').split(',');
const frames = Number(flag('frames', '2'));
const size = process.argv.includes('--size') ? Number(flag('size', '')) : undefined;
if (!(Number.isInteger(frames) && frames >= 2)) throw new Error(`--frames must be an integer >= 2 (the first is left out), got ${flag('frames', '')}`);
if (size !== undefined && !(Number.isInteger(size) && size >= 1)) throw new Error(`--size must be an integer >= 1, got ${flag('size', '')}`);
const maxStorageBuffers = process.argv.includes('--max-storage-buffers') ? Number(flag('max-storage-buffers', '')) : undefined;
// Below 10 the solver's CCD narrow phase, contact passes and finalize-and-predict kernels (10 each) fail validation.
if (maxStorageBuffers !== undefined && !(Number.isInteger(maxStorageBuffers) && maxStorageBuffers >= 10)) {
  throw new Error(`--max-storage-buffers must be an integer >= 10 (the solver's largest kernels bind 10), got ${flag('max-storage-buffers', '')}`);
}

const hardwarePlans = process.argv.includes('--hardware-plans');
const ctx = await acquireGpu({ onLost: (r) => { console.error(`device lost: ${r}`); process.exit(3); }, maxStorageBuffersPerShaderStage: maxStorageBuffers });
const pool = await runnerCcdPool(process.cwd());
console.log(`adapter: ${ctx.description}; plans: ${hardwarePlans || !isSoftwareAdapter(ctx) ? "a hardware adapter's" : "a software adapter's (--hardware-plans for a GPU's)"}`);
// The BVH refit runs inside detection's dispatches only where a kernel may bind REFIT_IN_DETECTION_STORAGE_BUFFERS (10; detectStage.ts).
console.log(`storage buffers per kernel: ${ctx.device.limits.maxStorageBuffersPerShaderStage} (adapter: ${ctx.adapter.limits.maxStorageBuffersPerShaderStage}); BVH refit inside detection's dispatches: ${detectionRefitsOn(ctx.device) ? 'yes' : 'no (2 dispatches of its own a substep)'}`);
console.log('| scene | tets | substeps x iterations | collision mode | dispatches / frame | per substep | by phase, per substep | passes / frame | encode ms |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const name of sceneNames) {
  const scene = findScene(name);
  const setup = scene.build({ ...(size !== undefined ? { size } : {}), meshes: readSceneMeshes(scene) });
  const sim = new Simulation(ctx, setup, { collisions: { workerJobs: pool.factory } });
  const finalize = sim.solver.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as { warmStartNextSubstep?: boolean };
  if (hardwarePlans) {
    finalize.warmStartNextSubstep = true;
    // One CCD dispatch a round, not the sweep and the solve (CcdStage.substepBoxes).
    if (sim.solver.collisions) sim.solver.collisions.ccd.substepBoxes = false;
  }
  let last: FrameStats | undefined;
  for (let f = 0; f < frames; f++) last = await sim.stepFrame();
  const s = last!;
  const p = sim.params;
  const per = (n: number): string => (n / p.substeps).toFixed(2).replace(/\.00$/, '');
  const phases = Object.entries(s.dispatchesByPhase).map(([k, n]) => `${k} ${per(n ?? 0)}`).join(', ');
  const passes = (s as FrameStats & { passes?: number }).passes;
  console.log(`| ${name} | ${setup.model.tetCount} | ${p.substeps} x ${p.iterations} | ${p.collisions ? p.collisionMode : 'off'} | ${s.dispatches} | ${per(s.dispatches)} | ${phases} | ${passes ?? 'n/a'} | ${s.encodeMs.toFixed(2)} |`);
  sim.destroy();
}
pool.terminate();
ctx.device.destroy();
