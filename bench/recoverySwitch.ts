/**
 * The page's blue-tint check (tests/e2e/scenes.test.ts), headless: 3 generated balls
 * (resolution 8, the page's mesh scene: meshPile of generateShape('sphere')) sink into each other
 * in their box with collisions off (2 x 2, 3 passes, DCD mode) for --sink-frames F frames, then
 * collisions and recovery go on at 5 substeps, 6 contact passes (the e2e test's setParams), and
 * the first --frames recovery frames are timed with their collision counters, the GPU phases,
 * the CPU fallback's share, the state (inverted tets, kinetic energy, top speed) and how the last
 * shortest-path dispatch's work spreads over its queries. `--twin cpu` also steps the CPU
 * reference from the GPU's state at the switch (same algorithm, float64, its own counters).
 * docs/collisions.md "Recovery from a deep overlap: the cost of a torn state".
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/recoverySwitch.ts \
 *     [--sink-frames 23,25,27,29] [--frames 2] [--twin cpu] [--copies 3] [--resolution 8]
 */
import { acquireGpu } from '../src/gpu/device';
import { generateShape } from '../src/mesh/procedural/catalog';
import { meshPile } from '../src/scenes/meshPile';
import { GpuSolver } from '../src/sim/gpuSolver';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { inProcessFallback } from '../src/spb/gpu/overflowFallback';
import { RESULT_WORDS } from '../src/collision/gpu/queryList';
import type { SolverParams } from '../src/contract/params';
import { countIntersections } from '../tests/support/intersectionCounter';
import { det } from '../tests/support/tetOracle';
import type { Model } from '../src/sim/model';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/recoverySwitch.ts [--sink-frames 23,25,27,29] [--frames 2] [--twin cpu] [--copies 3] [--resolution 8]',
  values: ['--sink-frames', '--frames', '--twin', '--copies', '--resolution'],
});

/** Inverted tets, kinetic energy, longest tet edge and the scene's extent. */
function shape(m: Model, x: ArrayLike<number>, v: ArrayLike<number>): string {
  let inverted = 0, longest = 0;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < m.tetCount; t++) {
    const q = [m.tets[4 * t], m.tets[4 * t + 1], m.tets[4 * t + 2], m.tets[4 * t + 3]];
    if (!(det(x, q[0], q[1], q[2], q[3]) > 0)) inverted++;
    for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) longest = Math.max(longest, Math.hypot(x[3 * q[a]] - x[3 * q[b]], x[3 * q[a] + 1] - x[3 * q[b] + 1], x[3 * q[a] + 2] - x[3 * q[b] + 2]));
  }
  let ke = 0, vmax = 0;
  for (let i = 0; i < m.vertexCount; i++) {
    for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], x[3 * i + k]); hi[k] = Math.max(hi[k], x[3 * i + k]); }
    const s2 = v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2;
    vmax = Math.max(vmax, Math.sqrt(s2));
    if (m.invMass[i] > 0) ke += (0.5 / m.invMass[i]) * s2;
  }
  return `${inverted} inverted, longest edge ${longest.toFixed(3)}, KE ${ke.toPrecision(3)} J, max speed ${vmax.toFixed(2)}, extent ${hi.map((h, k) => (h - lo[k]).toFixed(2)).join('x')}`;
}

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number): number => (arg(name) === undefined ? fallback : Number(arg(name)));
const sinkList = (arg('sink-frames') ?? '23,25,27,29').split(',').map(Number);
const frames = num('frames', 2);
const ball = generateShape('sphere', {}, num('resolution', 8));
const sinking: Partial<SolverParams> = { collisions: false, recovery: false, substeps: 2, iterations: 2, contactIterations: 3, collisionMode: 'dcd' };
const after: Partial<SolverParams> = { collisions: true, recovery: true, substeps: 5, contactIterations: 6 };
const gpu = await acquireGpu({});

/** The last spb dispatch's per-query results: how its work spreads over the queries. */
async function lastDispatch(solver: GpuSolver): Promise<string> {
  const ql = solver.collisions!.queryList;
  const bytes = 4 * RESULT_WORDS * ql.capacity;
  const staging = gpu.device.createBuffer({ size: 256 + bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = gpu.device.createCommandEncoder();
  enc.copyBufferToBuffer(ql.list, 0, staging, 0, 256);
  enc.copyBufferToBuffer(ql.results, 0, staging, 256, bytes);
  gpu.device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const all = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  const n = Math.min(all[0], ql.capacity);
  const r = all.subarray(64);
  const tr: number[] = [], tet: number[] = [];
  let overflow = 0;
  for (let i = 0; i < n; i++) {
    tr.push(r[RESULT_WORDS * i + 8]);
    tet.push(r[RESULT_WORDS * i + 9]);
    if (r[RESULT_WORDS * i + 6] === 2) overflow++;
  }
  const q = (a: number[], f: number): number => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(f * a.length))] ?? 0;
  const sum = tet.reduce((a, b) => a + b, 0);
  const sorted = [...tet].sort((x, y) => y - x);
  const top1 = sorted.slice(0, Math.ceil(n / 100)).reduce((a, b) => a + b, 0);
  return `last dispatch ${n} queries (${overflow} overflowed): traversals p50 ${q(tr, 0.5)} p99 ${q(tr, 0.99)} max ${q(tr, 1)}; tets p50 ${q(tet, 0.5)} p99 ${q(tet, 0.99)} max ${q(tet, 1)}, the top 1% of queries ${((100 * top1) / Math.max(1, sum)).toFixed(0)}% of ${sum}`;
}
for (const sinkFrames of sinkList) {
  const setup = meshPile.build({ mesh: { name: 'ball', positions: ball.positions, tets: ball.tets }, copies: num('copies', 3) });
  setup.params = { ...setup.params, ...sinking };
  const m = setup.model;
  let fallbackMs = 0, fallbackQueries = 0;
  const inProcess = inProcessFallback();
  const solver = new GpuSolver(gpu, setup, { collisions: { answerOverflowed: async (batch) => {
    const t = performance.now();
    const a = await inProcess(batch);
    fallbackMs += performance.now() - t;
    fallbackQueries += batch.tets.length;
    return a;
  } } });
  for (let f = 0; f < sinkFrames; f++) await solver.stepFrame();
  const x = await solver.readPositions();
  const inside = countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }).inter;
  const atSwitch = shape(m, x, await solver.readVelocities());
  solver.params = { ...solver.params, ...after };
  if (arg('twin') === 'cpu') {
    const cpuSetup = meshPile.build({ mesh: { name: 'ball', positions: ball.positions, tets: ball.tets }, copies: num('copies', 3) });
    cpuSetup.params = { ...cpuSetup.params, ...sinking };
    const cpu = new CpuSimulation(cpuSetup);
    cpu.solver.x.set(x);
    cpu.solver.v.set(await solver.readVelocities());
    cpu.setParams(after);
    for (let f = 1; f <= frames; f++) {
      const t0 = performance.now();
      const cs = (await cpu.stepFrame()).collisions;
      console.log(`    cpu counters: queries ${cs?.spbQueries}, Tr ${cs?.traversals}, Tet ${cs?.tetsVisited}, Q ${cs?.bvhCandidates}, noPath ${cs?.noPath}, skipped ${cs?.skipped}`);
      const inCpu = countIntersections({ positions: cpu.solver.x, tets: m.tets, tetObject: m.tetObject }).inter;
      console.log(`  cpu twin frame ${f}: ${(performance.now() - t0).toFixed(0)} ms; inside ${inCpu}; ${shape(m, cpu.solver.x, cpu.solver.v)}`);
    }
  }
  const rows: string[] = [];
  for (let f = 1; f <= frames; f++) {
    fallbackMs = 0; fallbackQueries = 0;
    const t0 = performance.now();
    const r = await solver.stepFrame();
    const ms = performance.now() - t0;
    const c = r.collisions;
    const xa = await solver.readPositions();
    const inAfter = countIntersections({ positions: xa, tets: m.tets, tetObject: m.tetObject }).inter;
    rows.push(`    ${await lastDispatch(solver)}`);
    rows.push(`  recovery frame ${f}: ${ms.toFixed(0)} ms, queries ${c?.spbQueries}, overflows ${c?.spbOverflows}, Tr ${c?.traversals}, Tet ${c?.tetsVisited}, contacts ${c?.contacts}, noPath ${c?.noPath}, skipped ${c?.skipped}, dropped ${c?.dropped}, cap ${c?.contactCapacity}, readbacks ${c?.readbacks}; inside ${inAfter}; CPU fallback ${fallbackQueries} queries ${fallbackMs.toFixed(0)} ms; ${shape(m, xa, await solver.readVelocities())}; GPU ms ${JSON.stringify(Object.fromEntries(Object.entries(r.gpuPhaseMs ?? {}).map(([k, v]) => [k, Math.round(v as number)])))}`);
  }
  console.log(`sink ${sinkFrames} frames: ${inside} inside at the switch, ${atSwitch}\n${rows.join('\n')}`);
  solver.destroy();
}
process.exit(0);
