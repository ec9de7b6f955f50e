import { CpuSolver } from '../../../../src/sim/cpuSolver';
import type { SolverParams } from '../../../../src/contract/params';
import { kuhnLattice } from '../../../support/kuhnLattice';
import { makeSetup } from './setups';

/**
 * A column settling on the ground under its own weight, against the analytic shortening
 * rho g L^2 / 2E of a bar loaded by its own weight: 0.25 x 1 x 0.25 m, 2 x 8 x 2 cells, E = 1e7,
 * 10 substeps, on the float64 reference. c h / dx is about 1.5, so a few Gauss-Seidel iterations
 * leave it softer than its E (it shortens more). Settled by damping in 1 s (the same to 4 digits
 * at 4 s). Converged, this mesh shortens 0.995 x rho g L^2 / 2E. Returns |shortening / analytic - 1|.
 */
export function columnShorteningError(iterations: number, p: Partial<SolverParams>): number {
  const W = 0.25, L = 1, E = 1e7, rho = 1000, g = 9.81;
  const lat = kuhnLattice(2, 8, 2, (u, v, w) => [(u / 2) * W, (v / 8) * L, (w / 2) * W]);
  const setup = makeSetup([{ positions: lat.positions, tets: lat.tets, material: { youngsModulus: E, poissonRatio: 0.3, density: rho } }], {
    substeps: 10, iterations, friction: 0, damping: 30, solveOrder: 'partitioned', ...p,
  }, [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }]);
  const s = new CpuSolver(setup);
  for (let f = 0; f < 60; f++) s.stepFrame();
  const rest = setup.model.restPositions;
  let top = 0, nTop = 0, bottom = 0, nBottom = 0;
  for (let v = 0; v < setup.model.vertexCount; v++) {
    if (rest[3 * v + 1] > L - 1e-6) { top += s.x[3 * v + 1]; nTop++; }
    if (rest[3 * v + 1] < 1e-6) { bottom += s.x[3 * v + 1]; nBottom++; }
  }
  return Math.abs((L - (top / nTop - bottom / nBottom)) / ((rho * g * L * L) / (2 * E)) - 1);
}
