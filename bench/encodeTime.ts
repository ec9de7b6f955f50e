/**
 * JavaScript time to record and submit one frame (encodeMs), and frame wall time with one and
 * two frames in flight (prints figures; asserts nothing; docs/benchmarks.md "Frames in flight and
 * encode time").
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/encodeTime.ts \
 *     [--copies 8] [--frames 5] [--order partitioned|gauss-seidel|jacobi] [--in-flight 1,2] [--record-reps 20] [--record-only] [--settle-s 10] [--contact-dispatch auto|workgroup|grid]
 *
 * The scene is octopus-box (paper Fig. 9) at --copies octopi, collisions on (hybrid: detect,
 * shortest path, CCD, contacts), its own parameters (5 substeps x 5 iterations since issue 24, paper Table 1; --substeps and --iterations override), CCD's broad
 * phase and the BVH rebuilds in the runner's worker pool. The first frame (shader compilation,
 * the first CCD job) is left out of every figure. Per run: encodeMs median and max, and where it
 * goes (the collisions' prepareFrame less its waits, TimeStep.encodeFrame, the rest:
 * constants, scripts, readback copies, finish and submit; and the solver's own split of every
 * frame, GpuFrameResult.encodeSplitMs), dispatches and compute passes per frame, blocking
 * readbacks, and the wall time per frame (run time / frames).
 */
import { cpus, loadavg } from 'node:os';
import { acquireGpu } from '../src/gpu/device';
import { runnerCcdPool } from '../src/runner/ccdWorkerBundle';
import { runFrames } from '../src/runner/frameLoop';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { CONTACT_DISPATCHES, type SolverParams } from '../src/contract/params';
import { Simulation, type FrameStats } from '../src/sim/simulation';
import type { EncodeSplit } from '../src/sim/gpuSolver';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/encodeTime.ts [--copies 8] [--frames 5] [--order partitioned|gauss-seidel|jacobi] [--in-flight 1,2]\n' +
    '  [--substeps S] [--iterations I] [--record-reps 20] [--record-only] [--settle-s 10] [--contact-dispatch auto|workgroup|grid]',
  values: ['--copies', '--frames', '--order', '--in-flight', '--substeps', '--iterations', '--record-reps', '--settle-s', '--contact-dispatch'],
  switches: ['--record-only'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const copies = Number(flag('copies', '8'));
const frames = Number(flag('frames', '5'));
const order = process.argv.includes('--order') ? (flag('order', '') as SolverParams['solveOrder']) : undefined;
const inFlight = flag('in-flight', '1,2').split(',').map(Number) as (1 | 2)[];
/** Override the scene's substeps / iterations (the issue's before: --substeps 20 --iterations 3). */
const stepOverride: Partial<SolverParams> = {};
for (const k of ['substeps', 'iterations'] as const) {
  if (!process.argv.includes(`--${k}`)) continue;
  const v = Number(flag(k, ''));
  if (!(Number.isInteger(v) && v >= 1)) throw new Error(`--${k} must be an integer >= 1, got ${flag(k, '')}`);
  stepOverride[k] = v;
}
if (process.argv.includes('--contact-dispatch')) {
  const d = flag('contact-dispatch', '') as SolverParams['contactDispatch'];
  if (!CONTACT_DISPATCHES.includes(d)) throw new Error(`--contact-dispatch must be one of ${CONTACT_DISPATCHES.join(', ')}, got ${d}`);
  stepOverride.contactDispatch = d;
}
if (!(Number.isInteger(copies) && copies >= 1)) throw new Error(`--copies must be an integer >= 1, got ${flag('copies', '')}`);
if (!(Number.isInteger(frames) && frames >= 2)) throw new Error(`--frames must be an integer >= 2 (the first is left out), got ${flag('frames', '')}`);
if (!inFlight.every((k) => k === 1 || k === 2)) throw new Error(`--in-flight must list 1 and/or 2, got ${flag('in-flight', '')}`);

const ctx = await acquireGpu({ onLost: (r) => { console.error(`device lost: ${r}`); process.exit(3); } });
const pool = await runnerCcdPool(process.cwd());
const scene = findScene('octopus-box');
const setup0 = scene.build({ copies, meshes: readSceneMeshes(scene) });
console.log(`adapter: ${ctx.description}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}; collision worker threads: ${pool.size}`);
// JavaScript times on a shared machine follow its load: say what it was.
console.log(`CPU cores: ${cpus().length}; load average (1, 5, 15 min) at start: ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
console.log(`octopus-box, ${copies} octopi: ${setup0.model.vertexCount} vertices, ${setup0.model.tetCount} tets, ${setup0.model.tetColouring.colourCount} tet colours`);

/**
 * Recording alone (no submission, so SwiftShader's threads executing earlier frames take no CPU
 * from it): TimeStep.encodeFrame + finish on the first frame's state, `reps` times, with each
 * stage's encode timed per phase and the pass encoder's calls counted (a separate, wrapped run:
 * the wrapping costs time of its own).
 */
async function recordingOnly(sim: Simulation, reps: number): Promise<void> {
  // Shared passes (the default since issue 24) against one pass per stage, in this one run.
  for (const merge of [false, true]) {
    sim.solver.timeStep.mergePasses = merge;
    console.log(`\n${merge ? 'shared passes (TimeStep.mergePasses, the default)' : 'one compute pass per stage (TimeStep.mergePasses = false, the recording before issue 24)'}:`);
    await recordingOnlyOnce(sim, reps);
  }
}

async function recordingOnlyOnce(sim: Simulation, reps: number): Promise<void> {
  const solver = sim.solver;
  const p = sim.params;
  const device = ctx.device;
  const offset = (s: number): number => (solver as unknown as { xpbd: { substepOffset(s: number): number } }).xpbd.substepOffset(s);
  const times: number[] = [];
  const byStage = new Map<string, number>();
  const stages = solver.timeStep.stages;
  const originals = stages.map((st) => st.encode.bind(st));
  const timeStages = (on: boolean): void => stages.forEach((st, i) => {
    st.encode = on
      ? (e, state, step) => { const t0 = performance.now(); originals[i](e, state, step); byStage.set(st.phase, (byStage.get(st.phase) ?? 0) + performance.now() - t0); }
      : originals[i];
  });
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    const encoder = device.createCommandEncoder({ label: 'bench.recordOnly' });
    solver.timeStep.encodeFrame(encoder, p.substeps, offset, 0);
    encoder.finish();
    times.push(performance.now() - t0);
  }
  timeStages(true);
  const stageReps = 10;
  for (let r = 0; r < stageReps; r++) {
    const encoder = device.createCommandEncoder({ label: 'bench.recordOnly' });
    solver.timeStep.encodeFrame(encoder, p.substeps, offset, 0);
    encoder.finish();
  }
  timeStages(false);
  // Calls on the pass encoders of one frame, per phase.
  const calls = new Map<string, Record<string, number>>();
  const encoder = device.createCommandEncoder({ label: 'bench.count' });
  const begin = encoder.beginComputePass.bind(encoder);
  encoder.beginComputePass = (d?: GPUComputePassDescriptor) => {
    const pass = begin(d);
    const phase = d?.label ?? '?';
    const c = calls.get(phase) ?? { passes: 0, setPipeline: 0, setBindGroup: 0, dispatch: 0, samePipeline: 0, sameGroup: 0 };
    // Calls that change nothing: the pipeline already set, the group (no dynamic offsets) already bound at that index.
    let current: GPUComputePipeline | undefined;
    const bound: unknown[] = [];
    calls.set(phase, c);
    c.passes++;
    const sp = pass.setPipeline.bind(pass), sb = pass.setBindGroup.bind(pass) as (...a: unknown[]) => void;
    const dw = pass.dispatchWorkgroups.bind(pass), di = pass.dispatchWorkgroupsIndirect.bind(pass);
    pass.setPipeline = (x) => { c.setPipeline++; if (x === current) c.samePipeline++; current = x; sp(x); };
    pass.setBindGroup = ((...a: unknown[]) => {
      c.setBindGroup++;
      const offsets = a[2] as ArrayLike<number> | undefined;
      const plain = offsets === undefined || offsets.length === 0;
      if (plain && bound[a[0] as number] === a[1]) c.sameGroup++;
      bound[a[0] as number] = plain ? a[1] : undefined;
      sb(...a);
    }) as typeof pass.setBindGroup;
    pass.dispatchWorkgroups = (x, y, z) => { c.dispatch++; dw(x, y, z); };
    pass.dispatchWorkgroupsIndirect = (b, o) => { c.dispatch++; di(b, o); };
    return pass;
  };
  solver.timeStep.encodeFrame(encoder, p.substeps, offset, 0);
  encoder.finish();
  const total = { passes: 0, setPipeline: 0, setBindGroup: 0, dispatch: 0, samePipeline: 0, sameGroup: 0 };
  for (const c of calls.values()) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += c[k];
  // The floor: the same number of passes and calls on a trivial kernel, no JavaScript of ours in between.
  const floor = callFloor(total, reps);
  console.log(`recording only (TimeStep.encodeFrame + finish, no submit), ${p.substeps} substeps x ${p.iterations} iterations, solve order ${p.solveOrder}, ${reps} repetitions: median ${f2(median(times))} ms, min ${f2(Math.min(...times))}, max ${f2(Math.max(...times))}`);
  console.log(`  per stage (ms per frame, ${stageReps} timed frames): ${[...byStage].map(([k, v]) => `${k} ${f2(v / stageReps)}`).join(', ')}`);
  console.log(`  dispatches per substep: ${f2(total.dispatch / p.substeps)}; calls dropped as already set: ${solver.timeStep.skippedCalls}`);
  console.log(`  pass encoder calls per frame: ${total.passes} passes, ${total.setPipeline} setPipeline (${total.samePipeline} of them setting the pipeline already set), ${total.setBindGroup} setBindGroup (${total.sameGroup} binding the group already bound), ${total.dispatch} dispatches`);
  console.log(`  the same calls on a trivial kernel (Dawn's own cost, no code of ours): median ${f2(floor.median)} ms, min ${f2(floor.min)} ms; with timestamp writes on every pass: median ${f2(floor.stampedMedian)} ms`);
  console.log(`  by pass label: ${[...calls].map(([k, c]) => `${k} ${c.passes}/${c.setPipeline}/${c.setBindGroup}/${c.dispatch}`).join(', ')} (passes/setPipeline/setBindGroup/dispatches)`);
  console.log(`  repeated calls by pass label: ${[...calls].filter(([, c]) => c.samePipeline + c.sameGroup > 0).map(([k, c]) => `${k} ${c.samePipeline}/${c.sameGroup}`).join(', ')} (setPipeline/setBindGroup)`);
}

/** Time to record `n` passes with the given setPipeline / setBindGroup / dispatch counts spread over them, on a one-line kernel. */
function callFloor(n: { passes: number; setPipeline: number; setBindGroup: number; dispatch: number }, reps: number): { median: number; min: number; stampedMedian: number } {
  const device = ctx.device;
  const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> b: array<u32>; @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) { if (g.x == 0u) { b[0] = b[0] + 1u; } }' });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const buffer = device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE });
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
  const querySet = ctx.features.has('timestamp-query') ? device.createQuerySet({ type: 'timestamp', count: 2 * n.passes }) : undefined;
  const per = (k: number, p: number): number => Math.floor((k * (p + 1)) / n.passes) - Math.floor((k * p) / n.passes);
  const once = (stamped: boolean): number => {
    const t0 = performance.now();
    const encoder = device.createCommandEncoder();
    for (let p = 0; p < n.passes; p++) {
      const pass = encoder.beginComputePass(stamped && querySet ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 2 * p, endOfPassWriteIndex: 2 * p + 1 } } : {});
      const pipes = per(n.setPipeline, p), groups = per(n.setBindGroup, p), dispatches = per(n.dispatch, p);
      for (let i = 0; i < Math.max(pipes, groups, dispatches); i++) {
        if (i < pipes || i === 0) pass.setPipeline(pipeline);
        if (i < groups) pass.setBindGroup(0, group);
        if (i < dispatches) pass.dispatchWorkgroups(1);
      }
      pass.end();
    }
    encoder.finish();
    return performance.now() - t0;
  };
  const plain: number[] = [];
  const stamped: number[] = [];
  for (let r = 0; r < reps; r++) {
    plain.push(once(false));
    stamped.push(once(true));
  }
  buffer.destroy();
  querySet?.destroy();
  return { median: median(plain), min: Math.min(...plain), stampedMedian: median(stamped) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f2 = (x: number): string => x.toFixed(2);
const recordReps = Number(flag('record-reps', '20'));
/** Only the recording-alone figures (one real frame first), no timed runs. */
const recordOnly = process.argv.includes('--record-only');
/** Seconds to wait after the first frame before the recording-alone figures. */
const settleS = Number(flag('settle-s', '10'));

for (const k of inFlight) {
  const setup = scene.build({ copies, meshes: readSceneMeshes(scene) });
  const sim = new Simulation(ctx, setup, { collisions: { workerJobs: pool.factory } });
  if (order) sim.setParams({ solveOrder: order });
  sim.setParams(stepOverride);
  // Where encodeMs goes: the two big callees timed from outside (their own JavaScript; prepareFrame less its waits).
  const solver = sim.solver;
  const split = { prepare: 0, encode: 0, passes: 0 };
  const encodeFrame = solver.timeStep.encodeFrame.bind(solver.timeStep);
  solver.timeStep.encodeFrame = (...a: Parameters<typeof encodeFrame>) => {
    const t0 = performance.now();
    const r = encodeFrame(...a);
    split.encode = performance.now() - t0;
    split.passes = r.passes.length;
    return r;
  };
  const collisions = solver.collisions!;
  const prepareFrame = collisions.prepareFrame.bind(collisions);
  collisions.prepareFrame = async (state) => {
    const t0 = performance.now();
    const w = await prepareFrame(state);
    split.prepare = performance.now() - t0 - w.waitMs;
    return w;
  };
  const stats: FrameStats[] = [];
  let tStart = 0;
  if (k === inFlight[0]) {
    // One real frame first (pipelines compiled, CCD candidates uploaded), then recording alone,
    // once the worker jobs that frame started (CCD broad phase, BVH rebuild) had time to end:
    // on 2 cores they would otherwise take the CPU from the recording being timed.
    await sim.stepFrame();
    await new Promise((r) => setTimeout(r, 1000 * settleS));
    await recordingOnly(sim, recordReps);
    sim.reset();
    if (recordOnly) {
      sim.destroy();
      break;
    }
  }
  await runFrames(sim, {
    frames,
    framesInFlight: k,
    beforeFrame: () => undefined,
    stateDue: () => false,
    afterFrame: async (f, s) => {
      stats.push(s);
      if (f === 1) tStart = performance.now();
    },
  });
  const wallPerFrame = (performance.now() - tStart) / (frames - 1);
  const timed = stats.slice(1);
  const enc = timed.map((s) => s.encodeMs);
  console.log(`\nframes in flight ${k}, solve order ${sim.params.solveOrder}, ${sim.params.substeps} substeps x ${sim.params.iterations} iterations, collision mode ${sim.params.collisionMode}:`);
  console.log(`  encodeMs per frame: median ${f2(median(enc))}, max ${f2(Math.max(...enc))} (frames 2..${frames}: ${enc.map(f2).join(' ')})`);
  console.log(`  last frame's split: prepareFrame ${f2(split.prepare)} ms (less waits), TimeStep.encodeFrame ${f2(split.encode)} ms, rest ${f2(timed[timed.length - 1].encodeMs - split.prepare - split.encode)} ms`);
  // The solver's own split of every frame (GpuFrameResult.encodeSplitMs), medians over the timed frames.
  const parts = Object.keys(timed[0].encodeSplitMs ?? {}) as (keyof EncodeSplit)[];
  console.log(`  encodeMs by part, median over frames 2..${frames} (ms): ${parts.map((k) => `${k} ${f2(median(timed.map((s) => s.encodeSplitMs![k])))}`).join(', ')}`);
  console.log(`  dispatches per frame: ${timed.map((s) => s.dispatches).join(' ')}; compute passes: ${split.passes}`);
  console.log(`  blocking readbacks per frame: ${timed.map((s) => s.blockingReadbacks).join(' ')}`);
  console.log(`  CCD wait per frame (ms): ${timed.map((s) => f2(s.collisions?.ccd?.waitMs ?? 0)).join(' ')}`);
  console.log(`  wall time per frame: ${f2(wallPerFrame)} ms (frames 2..${frames}, completion to completion)`);
  sim.destroy();
}
console.log(`\nload average (1, 5, 15 min) at the end: ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
pool.terminate();
ctx.device.destroy();
