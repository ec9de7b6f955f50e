/**
 * XPBD benchmark (prints figures; asserts nothing).
 *   node scripts/run-ts.mjs bench/xpbd.ts [--quick] [--throughput-only] [--sizes 24,42,66] [--frames N] [--balance valence,count]
 *     [--repeat R] [--no-collisions]
 * 1. Convergence per millisecond, Gauss-Seidel vs Jacobi, on the cantilever scene: tip
 *    deflection error against a 64-iteration Gauss-Seidel reference after 10 frames, and the
 *    GPU solve time (timestamp queries) it took. Skipped with --throughput-only.
 * 2. Throughput on the octopus drop at about 10k, 50k and 200k tets (--sizes: the generated
 *    octopus's resolutions), each solve order (partitioned, coloured Gauss-Seidel, Jacobi):
 *    frame time, the material's GPU ms and dispatches a frame, its GPU us a dispatch, and
 *    tet-iterations per second (tets x iterations x substeps / frame time). --frames N frames a
 *    run (the first excluded), while the octopus falls (no contacts yet). --balance: the
 *    partitioned order once per pass-assignment rule listed (PartitionOptions.balance; default
 *    the model's own, 'valence'), with its rounds per iteration (the sum of the passes' largest
 *    local colour counts: the serial steps of an iteration). --repeat R runs the configurations R
 *    times over, alternating (a GPU's clocks drift between runs); --no-collisions drops the
 *    scene's collision stages so that the frame is the material's and the integration's.
 * On a software adapter compare ratios within one run, not absolute times.
 */
import { acquireGpu } from '../src/gpu/device';
import { findScene } from '../src/scenes/registry';
import { SOLVE_ORDERS, type SolverParams } from '../src/contract/params';
import type { SimSetup } from '../src/sim/setup';
import { Simulation } from '../src/sim/simulation';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/xpbd.ts [--quick] [--throughput-only] [--sizes 24,42,66] [--frames N] [--balance valence,count] [--repeat R] [--no-collisions]',
  values: ['--sizes', '--frames', '--balance', '--repeat'],
  switches: ['--quick', '--throughput-only', '--no-collisions'],
});
const quick = process.argv.includes('--quick');
const throughputOnly = process.argv.includes('--throughput-only');
function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
const sizeFlag = flag('sizes');
const sizeList = sizeFlag?.split(',').map(Number);
if (sizeList && !sizeList.every((r) => Number.isInteger(r) && r >= 4)) throw new Error(`--sizes takes octopus resolutions (integers >= 4), got ${sizeFlag}`);
const framesFlag = flag('frames') === undefined ? undefined : Number(flag('frames'));
const repeat = Number(flag('repeat') ?? 1);
if (!(Number.isInteger(repeat) && repeat >= 1)) throw new Error(`--repeat must be a positive integer, got ${flag('repeat')}`);
const collisionsOff = process.argv.includes('--no-collisions');
const balanceFlag = flag('balance');
const balances = (balanceFlag ?? 'valence').split(',');
if (!balances.every((b) => b === 'valence' || b === 'count')) throw new Error(`--balance takes valence and/or count, got ${balanceFlag}`);
if (framesFlag !== undefined && !(Number.isInteger(framesFlag) && framesFlag >= 2)) throw new Error(`--frames must be an integer >= 2 (the first is left out), got ${flag('frames')}`);
const ctx = await acquireGpu({ onLost: (r) => { console.error(`device lost: ${r}`); process.exit(3); } });
console.log(`adapter: ${ctx.description}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}`);

interface RunResult { wallMs: number; solveMs: number | null; tip: number; frames: number; materialDispatches: number; materialMedianMs: number | null; gpuMedianMs: number | null }

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function run(setup: SimSetup, params: Partial<SolverParams>, frames: number): Promise<RunResult> {
  // Built with the params: the GPU solver takes the partition's pass rule when it is built.
  const sim = new Simulation(ctx, { ...setup, params: { ...setup.params, ...params } });
  let wall = 0;
  let solve: number | null = 0;
  let materialDispatches = 0;
  const materialMs: number[] = [];
  const gpuMs: number[] = [];
  for (let f = 0; f < frames; f++) {
    const s = await sim.stepFrame();
    // The first frame includes shader compilation (SwiftShader JIT-compiles at first use).
    if (f === 0 && frames > 1) continue;
    wall += s.wallMs;
    materialDispatches += s.dispatchesByPhase?.material ?? 0;
    if (s.gpuPhasesMs && solve !== null) {
      solve += s.gpuPhasesMs.material ?? 0;
      materialMs.push(s.gpuPhasesMs.material ?? 0);
      gpuMs.push(Object.values(s.gpuPhasesMs).reduce((a, b) => a + (b ?? 0), 0));
    } else solve = null;
  }
  const x = await sim.solver.readPositions();
  // Tip: mean y of the vertices at the far end in x.
  let maxX = -Infinity;
  for (let i = 0; i < x.length; i += 3) maxX = Math.max(maxX, setup.model.restPositions[i]);
  let sum = 0, n = 0;
  for (let i = 0; i < x.length; i += 3) if (setup.model.restPositions[i] > maxX - 0.02) { sum += x[i + 1]; n++; }
  sim.destroy();
  const timedFrames = frames === 1 ? 1 : frames - 1;
  return {
    wallMs: wall / timedFrames, solveMs: solve, tip: sum / n, frames, materialDispatches: materialDispatches / timedFrames,
    materialMedianMs: materialMs.length ? median(materialMs) : null, gpuMedianMs: gpuMs.length ? median(gpuMs) : null,
  };
}

// 1. Convergence per ms.
if (!throughputOnly) {
  const scene = findScene('cantilever');
  const setup = scene.build({ resolution: quick ? 16 : 24 });
  const m = setup.model;
  const frames = 11;
  console.log(`\n## Convergence: cantilever, ${m.tetCount} tets, ${m.tetColouring.colourCount} colours, ${frames} frames of dt 1/60 x 10 substeps (GPU time: last ${frames - 1})`);
  const ref = await run(setup, { solveOrder: 'gauss-seidel', iterations: 64 }, frames);
  console.log(`reference (Gauss-Seidel, 64 iterations): tip y = ${ref.tip.toFixed(5)}`);
  console.log('| order | relaxation | iterations | tip error | GPU solve ms | error x ms |');
  console.log('|---|---|---|---|---|---|');
  const configs: [SolverParams['solveOrder'], number][] = [['gauss-seidel', 1], ['jacobi', 1], ['jacobi', 4]];
  for (const [order, relax] of configs) {
    for (const it of quick ? [1, 4] : order === 'gauss-seidel' ? [1, 2, 4, 8] : [1, 4, 16, 64]) {
      const r = await run(setup, { solveOrder: order, iterations: it, jacobiRelaxation: relax }, frames);
      const err = Math.abs(r.tip - ref.tip);
      const ms = r.solveMs ?? r.wallMs * (frames - 1);
      console.log(`| ${order} | ${order === 'jacobi' ? relax : '-'} | ${it} | ${err.toExponential(2)} | ${ms.toFixed(1)} | ${(err * ms).toExponential(2)} |`);
    }
  }
}

// 2. Throughput.
{
  const scene = findScene('octopus-drop');
  const defaults: [number, number][] = quick ? [[24, 2]] : [[24, 3], [42, 2], [66, 2]];
  const sizes = sizeList ? sizeList.map((r) => [r, framesFlag ?? 3]) : defaults.map(([r, f]) => [r, framesFlag ?? f]);
  console.log('\n## Throughput: octopus drop, dt 1/60, 20 substeps x 3 iterations (first frame excluded when 2+ frames)');
  console.log(`collisions ${collisionsOff ? 'off' : 'on (as the scene sets them)'}; each configuration ${repeat} time(s), alternating; GPU figures: median over the timed frames (timestamp queries)`);
  console.log('| resolution | tets | colours | order | rounds / iteration | frame ms (wall) | GPU material ms/frame | GPU ms/frame, all phases | material dispatches/frame | GPU us/dispatch | tet-iterations/s |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [res, frames] of sizes) {
    const t0 = performance.now();
    const setup = scene.build({ resolution: res });
    const buildMs = performance.now() - t0;
    const m = setup.model;
    const runs = SOLVE_ORDERS.flatMap((order): { order: SolverParams['solveOrder']; balance: 'valence' | 'count' | undefined }[] => (order === 'partitioned' ? balances.map((b) => ({ order, balance: b as 'valence' | 'count' })) : [{ order, balance: undefined }]));
    for (let rep = 0; rep < repeat; rep++) for (const { order, balance } of runs) {
      // The pass rule (SolverParams.partitionBalance): the solver rebuilds the model's partition with it.
      const rule = balance ?? setup.params.partitionBalance;
      const r = await run(setup, collisionsOff ? { solveOrder: order, collisions: false, partitionBalance: rule } : { solveOrder: order, partitionBalance: rule }, frames);
      const rounds = m.tetPartition.passes.reduce((sum, q) => sum + q.maxColours, 0);
      const p = setup.params;
      const rate = (m.tetCount * p.iterations * p.substeps) / (r.wallMs / 1000);
      const solveMs = r.materialMedianMs;
      const perDispatch = solveMs === null || r.materialDispatches === 0 ? 'n/a' : ((1000 * solveMs) / r.materialDispatches).toFixed(1);
      const label = order === 'partitioned' ? `partitioned (${balance})` : order;
      const serial = order === 'partitioned' ? rounds : order === 'gauss-seidel' ? m.tetColouring.colourCount : 1;
      console.log(`| ${res} | ${m.tetCount} | ${m.tetColouring.colourCount} | ${label} | ${serial} | ${r.wallMs.toFixed(0)} | ${solveMs === null ? 'n/a' : solveMs.toFixed(2)} | ${r.gpuMedianMs === null ? 'n/a' : r.gpuMedianMs.toFixed(2)} | ${r.materialDispatches.toFixed(0)} | ${perDispatch} | ${rate.toExponential(2)} |`);
    }
    console.error(`(resolution ${res}: scene built in ${buildMs.toFixed(0)} ms)`);
  }
}
ctx.device.destroy();
