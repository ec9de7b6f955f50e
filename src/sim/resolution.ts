/**
 * Whether a solver setting can resolve a material: the stiffness number kappa = c h / dx, the
 * number of smallest elements a pressure wave (c = sqrt((lambda_L + 2 mu_L) / rho)) crosses
 * in one substep h. XPBD is stable at any kappa, but a Gauss-Seidel sweep carries a
 * correction about one element, so with fewer iterations than kappa the solve does not
 * converge: the body acts softer than its Young's modulus and stiff impacts leave elastic
 * transients (src/sim/README.md, "Stiffness and convergence"; measured on a 10 cm cube
 * dropped 5 cm: kappa 0.9 with 3 iterations and kappa 29 with 30 converge, kappa 3.7 with 3
 * and kappa 29 with 10 do not).
 */
import { lameFromYoung, type Material } from './material';
import type { Model } from './model';
import type { SolverParams } from '../contract/params';

export interface MaterialResolution {
  /** c h / dx. */
  kappa: number;
  /** Pressure wave speed (m/s). */
  waveSpeed: number;
  /** Shortest tet edge (m). */
  shortestEdge: number;
  /** Null when the iterations resolve kappa; otherwise what to change, in words. */
  warning: string | null;
}

/** Shortest edge of the tets (4 vertex ids each) at positions (xyz per vertex). */
export function shortestTetEdge(positions: ArrayLike<number>, tets: ArrayLike<number>): number {
  let best = Infinity;
  for (let t = 0; t < tets.length; t += 4) {
    for (let a = 0; a < 3; a++) for (let b = a + 1; b < 4; b++) {
      const i = 3 * tets[t + a], j = 3 * tets[t + b];
      const d = (positions[i] - positions[j]) ** 2 + (positions[i + 1] - positions[j + 1]) ** 2 + (positions[i + 2] - positions[j + 2]) ** 2;
      if (d > 0 && d < best) best = d;
    }
  }
  return Math.sqrt(best);
}

/** Shortest rest edge of each object of a model (from its edge list). */
export function shortestEdgeOfObjects(model: Model): Float64Array {
  const shortest = new Float64Array(model.objectNames.length).fill(Infinity);
  for (let e = 0; e < model.edgeCount; e++) {
    const o = model.vertexObject[model.edges[2 * e]];
    shortest[o] = Math.min(shortest[o], model.edgeRestLength[e]);
  }
  return shortest;
}

export function materialResolution(material: Material, shortestEdge: number, params: Pick<SolverParams, 'dt' | 'substeps' | 'iterations'>): MaterialResolution {
  const { mu, lambda } = lameFromYoung(material.youngsModulus, material.poissonRatio);
  const waveSpeed = Math.sqrt((lambda + 2 * mu) / material.density);
  const h = params.dt / params.substeps;
  const kappa = (waveSpeed * h) / shortestEdge;
  let warning: string | null = null;
  if (kappa > params.iterations) {
    const substeps = Math.ceil((params.substeps * kappa) / params.iterations);
    const iterations = Math.ceil(kappa);
    warning =
      `Young's modulus ${material.youngsModulus} Pa is stiffer than ${params.substeps} substeps x ${params.iterations} iterations resolve: ` +
      `a pressure wave crosses ${kappa.toFixed(1)} of the smallest elements (${shortestEdge.toPrecision(2)} m) per substep. ` +
      `The material stays stable, but the body acts softer than set and impacts leave brief elastic transients; ` +
      `use about ${substeps} substeps or ${iterations} iterations to resolve it.`;
  }
  return { kappa, waveSpeed, shortestEdge, warning };
}
