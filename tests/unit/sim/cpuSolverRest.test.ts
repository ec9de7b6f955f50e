import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { makeSetup } from './support/setups';

/**
 * Law: with no gravity, no colliders and the rest shape as the initial state, the net
 * elastic force is zero, so the body stays exactly at rest: no drift, no energy gain.
 * 1,000 substeps for each constraint type and solve order.
 */
describe('CPU reference: a body at rest without gravity stays at rest', () => {
  const cube = loadSharedTetArrays('Cube.t');
  for (const constraint of ['neohookean', 'springs'] as const) {
    for (const solveOrder of ['gauss-seidel', 'jacobi'] as const) {
      it(`${constraint}, ${solveOrder}: 1,000 substeps`, () => {
        const setup = makeSetup([{ ...cube, material: { youngsModulus: 1e4, poissonRatio: 0.45 } }], {
          gravity: [0, 0, 0], substeps: 10, iterations: 2, constraint, solveOrder,
        });
        const s = new CpuSolver(setup);
        for (let f = 0; f < 100; f++) s.stepFrame();
        let drift = 0;
        for (let i = 0; i < s.x.length; i++) drift = Math.max(drift, Math.abs(s.x[i] - setup.model.restPositions[i]));
        // Cube.t spans [-1, 1]: 1e-9 is round-off over 1,000 substeps.
        expect(drift).toBeLessThan(1e-9);
        expect(s.kineticEnergy()).toBeLessThan(1e-12);
        expect(s.messages).toEqual([]);
      });
    }
  }
});
