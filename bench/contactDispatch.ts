/**
 * The contact passes as grid dispatches against one workgroup's sweep (SolverParams.contactDispatch,
 * src/collision/gpu/contactStage.ts) inside the GPU time step: per scene and mode, F frames
 * (the first --skip left out of the means) of the full step (collision jobs on this thread), and
 * per frame the mean of: wall ms (stepFrame: record, submit, wait), GPU ms per phase from the
 * timestamp queries (the contacts phase is the one the modes differ in), dispatches, and the
 * contacts solved a substep (DCD + CCD). On a software adapter compare ratios only; on a real GPU
 * this is what decides the 'auto' limit.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/contactDispatch.ts \
 *     [--scenes octopus-box,octopus-drop] [--sizes octopus-box=8] [--frames 40] [--skip 10]
 */
import { acquireGpu } from '../src/gpu/device';
import { CONTACT_DISPATCHES, type ContactDispatch } from '../src/contract/params';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { GpuSolver } from '../src/sim/gpuSolver';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/contactDispatch.ts [--scenes octopus-box,octopus-drop] [--sizes octopus-box=8] [--frames 40] [--skip 10] [--modes grid,workgroup]',
  values: ['--scenes', '--sizes', '--frames', '--skip', '--modes'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const scenes = flag('scenes', 'octopus-box,octopus-drop').split(',').filter((s) => s);
const frames = Number(flag('frames', '40'));
const skip = Number(flag('skip', '10'));
const modes = flag('modes', 'grid,workgroup').split(',') as ContactDispatch[];
if (!(Number.isInteger(frames) && Number.isInteger(skip) && skip >= 0 && frames > skip)) throw new Error(`--frames must be an integer above --skip (got ${frames}, ${skip})`);
for (const m of modes) if (!CONTACT_DISPATCHES.includes(m)) throw new Error(`--modes: ${m} is not one of ${CONTACT_DISPATCHES.join(', ')}`);
const sizes = new Map<string, number>();
for (const part of flag('sizes', '').split(',').filter((s) => s)) {
  const [k, v] = part.split('=');
  sizes.set(k, Number(v));
}

const ctx = await acquireGpu();
console.log(`adapter: ${ctx.description}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}; ${frames} frames a run, means over frames ${skip + 1}-${frames}`);
console.log('\n| scene | dispatch | wall ms / frame | GPU ms / frame (all phases) | GPU contacts ms / frame | dispatches / frame | contacts / substep |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const name of scenes) {
  const scene = findScene(name);
  for (const mode of modes) {
    const setup = scene.build({ size: sizes.get(name), meshes: readSceneMeshes(scene) });
    setup.params = { ...setup.params, contactDispatch: mode };
    const solver = new GpuSolver(ctx, setup);
    let wall = 0, gpu = 0, gpuContacts = 0, dispatches = 0, contacts = 0, k = 0;
    try {
      for (let f = 0; f < frames; f++) {
        const t0 = performance.now();
        const r = await solver.stepFrame();
        const ms = performance.now() - t0;
        if (f < skip) continue;
        k++;
        wall += ms;
        const phases = r.gpuPhaseMs ?? {};
        gpu += Object.values(phases).reduce((a: number, b) => a + (b ?? 0), 0);
        gpuContacts += phases.contacts ?? 0;
        dispatches += r.dispatches;
        const c = r.collisions;
        if (c) contacts += (c.contacts + c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge) / Math.max(1, r.substeps ?? setup.params.substeps);
      }
    } finally {
      solver.destroy();
    }
    const m = (x: number, d = 2): string => (x / k).toFixed(d);
    console.log(`| ${name} (${setup.model.tetCount} tets) | ${mode} | ${m(wall)} | ${m(gpu, 3)} | ${m(gpuContacts, 3)} | ${m(dispatches, 0)} | ${m(contacts, 0)} |`);
  }
}
process.exit(0);
