import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { fixedHandle } from '../../../src/sim/handles';
import type { SolverParams } from '../../../src/sim/params';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { makeSetup } from './support/setups';

/**
 * Both solve orders converge to the same answer as iterations grow: the error against a
 * 64-iteration Gauss-Seidel solution of the same frames shrinks steadily. (Jacobi that
 * averages positions but not multipliers stalls after one iteration; averaging only the
 * positions converges to a different answer, that of heavier vertices.)
 */
describe('iterations converge for both solve orders', () => {
  const beam = loadSharedTetArrays('Beam.t');
  const solve = (p: Partial<SolverParams>) => {
    const setup = makeSetup([{ ...beam, material: { youngsModulus: 1e6, poissonRatio: 0.3, density: 100 }, pin: (x) => (x < -0.9 ? 0 : -1) }], { substeps: 5, ...p }, [], [fixedHandle]);
    const s = new CpuSolver(setup);
    for (let f = 0; f < 10; f++) s.stepFrame();
    return s.x;
  };
  const ref = solve({ solveOrder: 'gauss-seidel', iterations: 64 });
  const error = (x: Float64Array) => {
    let e = 0;
    for (let i = 0; i < x.length; i++) e = Math.max(e, Math.abs(x[i] - ref[i]));
    return e;
  };
  for (const solveOrder of ['gauss-seidel', 'jacobi'] as const) {
    it(solveOrder, () => {
      const e = [1, 4, 16, 64].map((iterations) => error(solve({ solveOrder, iterations })));
      expect(e[1]).toBeLessThan(0.7 * e[0]);
      expect(e[2]).toBeLessThan(0.7 * e[1]);
      expect(e[3]).toBeLessThan(0.7 * e[2]);
      // Jacobi converges to the Gauss-Seidel answer, not to a nearby one.
      expect(e[3]).toBeLessThan(0.05 * e[0]);
    });
  }
});
