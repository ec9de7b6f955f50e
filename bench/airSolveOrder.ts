/**
 * Air constraint orders compared on the float64 CPU reference (it executes each order exactly
 * as the GPU's passes do): partitioned Gauss-Seidel (one dispatch per cell pass), coloured
 * Gauss-Seidel (one dispatch per colour per pass) and Jacobi with mass splitting (three
 * dispatches per pass, CPU only), at several pass counts, on
 *   - the air-boxes stack (3 boxes of 2 cells) pressed to a quarter of its height and released
 *     (75 frames, 10 substeps): air tets still inverted after the passes (summed over substeps),
 *     penetrating boundary vertices at the end (the brute-force counter), centroid order kept;
 *   - the same boxes thrown onto each other without the press (20 frames): inverted after the
 *     passes (the method's invariant);
 *   - dispatches per substep each order records on the GPU.
 *
 *   node scripts/run-ts.mjs bench/airSolveOrder.ts [--passes 2,4,8] [--orders partitioned,coloured,jacobi]
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import type { AirSolve } from '../src/contract/params';
import type { SimSetup } from '../src/sim/setup';
import { countIntersections } from '../tests/support/intersectionCounter';
import { pressedAirStack } from '../tests/support/pressedAirStack';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/airSolveOrder.ts [--passes 2,4,8] [--orders partitioned,coloured,jacobi]',
  values: ['--passes', '--orders'],
});

const args = process.argv.slice(2);
const arg = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const passesList = arg('passes', '2,4,8').split(',').map(Number);

function stack(solve: AirSolve, passes: number, press: boolean): SimSetup {
  return pressedAirStack({ collisionMode: 'air', airSolve: solve, airIterations: passes }, press);
}

const order = (s: CpuSolver) => {
  const m = s.model;
  const c = m.objectNames.map((_, o) => {
    const r = [0, 0, 0];
    const n = m.objectVertexOffsets[o + 1] - m.objectVertexOffsets[o];
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) for (let k = 0; k < 3; k++) r[k] += s.x[3 * v + k] / n;
    return r;
  });
  return [0, 1, 2].map((k) => c.map((_, o) => o).sort((a, b) => c[a][k] - c[b][k]).join(''));
};

console.log('| order | passes | dispatches per substep | pressed: inverted after passes (sum) | pressed: penetrating at end | order kept | thrown: inverted after passes (sum) | ms |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const passes of passesList) {
  for (const solve of (arg('orders', 'partitioned,coloured,jacobi').split(',') as AirSolve[])) {
    const t0 = performance.now();
    const s = new CpuSolver(stack(solve, passes, true));
    const start = order(s);
    let after = 0, passDispatches = 0;
    for (let f = 0; f < 75; f++) { s.stepFrame(); const a = s.collisionCounters.air!; after += a.invertedAfter; passDispatches = a.passDispatches; }
    const hits = countIntersections({ positions: s.x, tets: s.model.tets, tetObject: s.model.tetObject }, { self: false });
    const kept = order(s).filter((o, k) => o === start[k]).length;
    const thrownSetup = stack(solve, passes, false);
    const m = thrownSetup.model;
    for (let v = m.objectVertexOffsets[1]; v < m.vertexCount; v++) m.initialVelocities[3 * v + 1] = -2;
    const t = new CpuSolver(thrownSetup);
    let thrown = 0;
    for (let f = 0; f < 20; f++) { t.stepFrame(); thrown += t.collisionCounters.air!.invertedAfter; }
    const dispatches = (solve === 'jacobi' ? 3 : passDispatches) * passes + 1;
    console.log(`| ${solve} | ${passes} | ${dispatches} | ${after} | ${hits.inter} | ${kept} of 3 | ${thrown} | ${(performance.now() - t0).toFixed(0)} |`);
  }
}
