/**
 * Material convergence per iteration (issue 24, "Material convergence"): the Neo-Hookean step's
 * line search and warm start (SolverParams lineSearch, warmStart) against the bounded step from
 * a cold start (both off: the solver from the stability fix until issue 24), on the float64 CPU
 * reference, which runs each order exactly as the GPU does (tests/gpu/xpbdMatchesCpu.test.ts).
 * Prints, asserting nothing:
 *
 *  A. The issue's figure: cantilever at resolution 24 (3,204 tets), E = 1e6, 10 substeps, 11
 *     frames from rest (bench/xpbd.ts's setting); per iteration count, the tip's height error
 *     and the largest vertex error against the converged solution (coloured Gauss-Seidel, 64
 *     iterations, both on), coloured and partitioned Gauss-Seidel, each variant.
 *  B. The same at E = 1e7 and 1e8 (resolution 16), against 512 iterations.
 *  C. The stiff cantilever of bench/solveOrders.ts (resolution 16, E = 1e8, damping 10/s, 2 s,
 *     settled): tip error as a share of the converged sag at 10 x 3 and 10 x 12.
 *  D. An independent truth: a column (0.25 x 1 x 0.25 m, 2 x 8 x 2 cells) settled under its own
 *     weight on frictionless ground shortens by rho g L^2 / (2E); its shortening over that, per
 *     iteration count, at E = 1e7 and 1e8 (10 substeps; converged it is 0.995 on this mesh).
 *  E. (--share-scan) Why the warm start keeps half: the stiff cantilever (resolution 12, 60
 *     frames, partitioned) with warm-start shares 0.5-1 at 1, 2 and 4 iterations: the largest
 *     vertex speed, or the frame where the NaN guard stopped it.
 *
 *   node scripts/run-ts.mjs bench/materialConvergence.ts [--quick] [--share-scan]
 *
 * --quick runs A at resolution 16 and skips C (a few minutes instead of about 20).
 */
import { cantilever } from '../src/scenes/cantilever';
import { CpuSolver } from '../src/sim/cpuSolver';
import { updateMaterialData } from '../src/sim/model';
import type { SolveOrder, SolverParams } from '../src/contract/params';
import type { SimSetup } from '../src/sim/setup';
import { kuhnLattice } from '../tests/support/kuhnLattice';
import { makeSetup } from '../tests/unit/sim/support/setups';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/materialConvergence.ts [--quick] [--share-scan]',
  switches: ['--quick', '--share-scan'],
});

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const shareScan = args.includes('--share-scan');

interface Variant {
  name: string;
  warmStart: boolean;
  lineSearch: boolean;
}
const BEFORE: Variant = { name: 'bounded step, cold start (before)', warmStart: false, lineSearch: false };
const AFTER: Variant = { name: 'line search + warm start (now)', warmStart: true, lineSearch: true };
const VARIANTS: Variant[] = [BEFORE, { name: 'line search only', warmStart: false, lineSearch: true }, { name: 'warm start only', warmStart: true, lineSearch: false }, AFTER];
const ORDERS: SolveOrder[] = ['gauss-seidel', 'partitioned'];

function beam(resolution: number, young: number, params: Partial<SolverParams> = {}): SimSetup {
  const setup = cantilever.build({ resolution });
  setup.model.materials.forEach((m) => (m.youngsModulus = young));
  updateMaterialData(setup.model);
  return { ...setup, params: { ...setup.params, ...params } };
}

function run(setup: SimSetup, frames: number, p: Partial<SolverParams>): Float64Array {
  const s = new CpuSolver({ ...setup, params: { ...setup.params, ...p } });
  for (let f = 0; f < frames; f++) s.stepFrame();
  return s.x;
}

/** Mean height of the beam's free end (the vertices at its largest x). */
function tip(setup: SimSetup, x: Float64Array): number {
  const r = setup.model.restPositions;
  let xmax = -Infinity;
  for (let i = 0; i < r.length; i += 3) xmax = Math.max(xmax, r[i]);
  let sum = 0, n = 0;
  for (let i = 0; i < r.length; i += 3) if (r[i] > xmax - 1e-9) { sum += x[i + 1]; n++; }
  return sum / n;
}

function maxError(a: Float64Array, b: Float64Array): number {
  let e = 0;
  for (let i = 0; i < a.length; i++) e = Math.max(e, Math.abs(a[i] - b[i]));
  return e;
}

const e2 = (x: number) => x.toExponential(2);
const variantParams = (v: Variant) => ({ warmStart: v.warmStart, lineSearch: v.lineSearch });

/** Tables A and B: per-iteration tip and largest vertex error against a converged run. */
function perIteration(resolution: number, young: number, frames: number, refIterations: number, iterations: number[], variants: Variant[]): void {
  const setup = beam(resolution, young);
  const m = setup.model;
  const ref = run(setup, frames, { solveOrder: 'gauss-seidel', iterations: refIterations, ...variantParams(AFTER) });
  const refBefore = run(setup, frames, { solveOrder: 'gauss-seidel', iterations: refIterations, ...variantParams(BEFORE) });
  const sag = tip(setup, m.restPositions) - tip(setup, ref);
  console.log(`\n### Cantilever, resolution ${resolution} (${m.tetCount} tets), E ${young.toExponential(0)}, ${setup.params.substeps} substeps, ${frames} frames from rest`);
  console.log(`Reference: coloured Gauss-Seidel, ${refIterations} iterations, both on (tip ${(sag * 1000).toFixed(2)} mm below rest). The same with both off differs by ${e2(Math.abs(tip(setup, ref) - tip(setup, refBefore)))} at the tip, ${e2(maxError(ref, refBefore))} at the worst vertex (the fixed point's dependence on the path: the floor of every error below).`);
  console.log(`\n| order | variant | ${iterations.map((it) => `${it} it: tip / worst vertex`).join(' | ')} |`);
  console.log(`|---|---|${iterations.map(() => '---').join('|')}|`);
  for (const order of ORDERS) for (const v of variants) {
    const cells = iterations.map((it) => {
      const x = run(setup, frames, { solveOrder: order, iterations: it, ...variantParams(v) });
      return `${e2(Math.abs(tip(setup, x) - tip(setup, ref)))} / ${e2(maxError(x, ref))}`;
    });
    console.log(`| ${order} | ${v.name} | ${cells.join(' | ')} |`);
  }
}

/** Table C: the settled stiff cantilever of bench/solveOrders.ts. */
function stiffCantilever(): void {
  const setup = beam(16, 1e8, { damping: 10 });
  const frames = 120;
  const ref = run(setup, frames, { solveOrder: 'gauss-seidel', substeps: 10, iterations: 100, ...variantParams(AFTER) });
  const refBefore = run(setup, frames, { solveOrder: 'gauss-seidel', substeps: 10, iterations: 100, ...variantParams(BEFORE) });
  const rest = tip(setup, setup.model.restPositions);
  const sag = rest - tip(setup, ref);
  console.log(`\n### Stiff cantilever (bench/solveOrders.ts): resolution 16, E 1e8, damping 10/s, 2 s; tip error as a share of the converged sag`);
  console.log(`Reference: coloured Gauss-Seidel 10 x 100, both on: sag ${(sag * 1000).toFixed(2)} mm (both off: ${((rest - tip(setup, refBefore)) * 1000).toFixed(2)} mm).`);
  console.log('\n| order | variant | 10 x 3 | 10 x 12 |');
  console.log('|---|---|---|---|');
  for (const order of ORDERS) for (const v of [BEFORE, VARIANTS[1], VARIANTS[2], AFTER]) {
    const cells = [3, 12].map((it) => `${((100 * Math.abs(tip(setup, run(setup, frames, { solveOrder: order, substeps: 10, iterations: it, ...variantParams(v) })) - tip(setup, ref))) / sag).toFixed(1)} %`);
    console.log(`| ${order} | ${v.name} | ${cells.join(' | ')} |`);
  }
}

/** Table D: the self-weight column against rho g L^2 / (2E). */
function column(): void {
  const W = 0.25, L = 1, rho = 1000, g = 9.81;
  const lat = kuhnLattice(2, 8, 2, (u, v, w) => [(u / 2) * W, (v / 8) * L, (w / 2) * W]);
  const iterations = [1, 2, 4, 8];
  console.log('\n### Column settled under its own weight (0.25 x 1 x 0.25 m, 192 tets, Poisson 0.3, 10 substeps, damping 30/s, 2 s, partitioned): shortening / (rho g L^2 / 2E)');
  console.log(`\n| E | variant | ${iterations.map((it) => `${it} it`).join(' | ')} |`);
  console.log(`|---|---|${iterations.map(() => '---').join('|')}|`);
  for (const young of [1e7, 1e8]) for (const v of VARIANTS) {
    const cells = iterations.map((it) => {
      const setup = makeSetup([{ positions: lat.positions, tets: lat.tets, material: { youngsModulus: young, poissonRatio: 0.3, density: rho } }], {
        substeps: 10, iterations: it, friction: 0, damping: 30, solveOrder: 'partitioned', ...variantParams(v),
      }, [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }]);
      const x = run(setup, 120, {});
      const r = setup.model.restPositions;
      let top = 0, nTop = 0, bottom = 0, nBottom = 0;
      for (let i = 0; i < setup.model.vertexCount; i++) {
        if (r[3 * i + 1] > L - 1e-6) { top += x[3 * i + 1]; nTop++; }
        if (r[3 * i + 1] < 1e-6) { bottom += x[3 * i + 1]; nBottom++; }
      }
      return ((L - (top / nTop - bottom / nBottom)) / ((rho * g * L * L) / (2 * young))).toFixed(3);
    });
    console.log(`| ${young.toExponential(0)} | ${v.name} | ${cells.join(' | ')} |`);
  }
}

/** Table E: stability of the warm start's share. */
function shareStability(): void {
  const shares = [0.5, 0.6, 0.7, 1];
  console.log('\n### Warm-start share and stability: cantilever resolution 12, partitioned, line search on, 60 frames; largest vertex speed (m/s), or the frame the NaN guard stopped it');
  console.log(`\n| E | iterations | ${shares.map((s) => `share ${s}`).join(' | ')} |`);
  console.log(`|---|---|${shares.map(() => '---').join('|')}|`);
  for (const young of [1e8, 1e10]) for (const it of [1, 2, 4]) {
    const cells = shares.map((share) => {
      const setup = beam(12, young, { solveOrder: 'partitioned', iterations: it, ...variantParams(AFTER) });
      const s = new CpuSolver(setup);
      s.warmStartShare = share;
      let fastest = 0;
      for (let f = 0; f < 60; f++) {
        s.stepFrame();
        if (s.messages.length > 0) return `stopped at frame ${f}`;
        for (let i = 0; i < s.v.length; i++) fastest = Math.max(fastest, Math.abs(s.v[i]));
      }
      return fastest.toFixed(2);
    });
    console.log(`| ${young.toExponential(0)} | ${it} | ${cells.join(' | ')} |`);
  }
}

const t0 = performance.now();
if (quick) perIteration(16, 1e6, 11, 64, [1, 2, 4, 8], VARIANTS);
else perIteration(24, 1e6, 11, 64, [1, 2, 4, 8], VARIANTS);
for (const young of [1e7, 1e8]) perIteration(16, young, 11, 512, [1, 4, 16, 64], [BEFORE, AFTER]);
if (!quick) stiffCantilever();
column();
if (shareScan) shareStability();
console.log(`\n(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(0);
