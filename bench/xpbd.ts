/**
 * XPBD benchmark (prints figures; asserts nothing).
 *   node scripts/run-ts.mjs bench/xpbd.ts [--quick]
 * 1. Convergence per millisecond, Gauss-Seidel vs Jacobi, on the cantilever scene: tip
 *    deflection error against a 64-iteration Gauss-Seidel reference after 10 frames, and the
 *    GPU solve time (timestamp queries) it took.
 * 2. Throughput on the octopus drop at about 10k, 50k and 200k tets, each solve order:
 *    frame time and tet-iterations per second (tets x iterations x substeps / frame time).
 * On a software adapter compare ratios within one run, not absolute times.
 */
import { acquireGpu } from '../src/gpu/device';
import { findScene } from '../src/scenes/registry';
import type { SolverParams } from '../src/contract/params';
import type { SimSetup } from '../src/sim/setup';
import { Simulation } from '../src/sim/simulation';

const quick = process.argv.includes('--quick');
const ctx = await acquireGpu({ onLost: (r) => { console.error(`device lost: ${r}`); process.exit(3); } });
console.log(`adapter: ${ctx.description}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}`);

interface RunResult { wallMs: number; solveMs: number | null; tip: number; frames: number }

async function run(setup: SimSetup, params: Partial<SolverParams>, frames: number): Promise<RunResult> {
  const sim = new Simulation(ctx, setup);
  sim.setParams(params);
  let wall = 0;
  let solve: number | null = 0;
  for (let f = 0; f < frames; f++) {
    const s = await sim.stepFrame();
    // The first frame includes shader compilation (SwiftShader JIT-compiles at first use).
    if (f === 0 && frames > 1) continue;
    wall += s.wallMs;
    if (s.gpuPhasesMs && solve !== null) solve += s.gpuPhasesMs.material ?? 0;
    else solve = null;
  }
  const x = await sim.solver.readPositions();
  // Tip: mean y of the vertices at the far end in x.
  let maxX = -Infinity;
  for (let i = 0; i < x.length; i += 3) maxX = Math.max(maxX, setup.model.restPositions[i]);
  let sum = 0, n = 0;
  for (let i = 0; i < x.length; i += 3) if (setup.model.restPositions[i] > maxX - 0.02) { sum += x[i + 1]; n++; }
  sim.destroy();
  const timedFrames = frames === 1 ? 1 : frames - 1;
  return { wallMs: wall / timedFrames, solveMs: solve, tip: sum / n, frames };
}

// 1. Convergence per ms.
{
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
  const sizes: [string, number, number][] = quick ? [['~10k', 24, 2]] : [['~10k', 24, 3], ['~50k', 42, 2], ['~200k', 66, 2]];
  console.log('\n## Throughput: octopus drop, dt 1/60, 20 substeps x 3 iterations (first frame excluded when 2+ frames)');
  console.log('| size | tets | colours | order | frame ms (wall) | GPU solve ms/frame | tet-iterations/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, res, frames] of sizes) {
    const t0 = performance.now();
    const setup = scene.build({ resolution: res });
    const buildMs = performance.now() - t0;
    const m = setup.model;
    for (const order of ['gauss-seidel', 'jacobi'] as const) {
      const r = await run(setup, { solveOrder: order }, frames);
      const p = setup.params;
      const rate = (m.tetCount * p.iterations * p.substeps) / (r.wallMs / 1000);
      const solve = r.solveMs === null ? 'n/a' : (r.solveMs / r.frames).toFixed(0);
      console.log(`| ${label} | ${m.tetCount} | ${m.tetColouring.colourCount} | ${order} | ${r.wallMs.toFixed(0)} | ${solve} | ${rate.toExponential(2)} |`);
    }
    console.error(`(${label}: scene built in ${buildMs.toFixed(0)} ms)`);
  }
}
ctx.device.destroy();
