/**
 * Continuous collision detection (CCD) that never misses: public entry point, float64.
 *
 * Method: inclusion-based root finding in the spirit of Wang, Ferguson, Schneider, Jiang, Attene & Panozzo,
 * "A Large Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision Detection" (TOG 2021).
 * Points move linearly from t = 0 to t = 1. The contact function F(t, u, w) (vertex-face: v - [(1-u-w) f0 +
 * u f1 + w f2], u, w >= 0, u + w <= 1; edge-edge: ea(t, u) - eb(t, w), u, w in [0, 1]) is multilinear, so its
 * range over a box is the hull of its 8 corner values; contactRange.ts computes that hull in floating point and
 * widens it by a rigorous rounding bound. inclusionSolver.ts bisects [0,1]^3 best-first by lowest t, dropping
 * only boxes whose widened range excludes 0.
 *
 * Guarantee: no false negatives (an exact contact in [0,1] is always reported, also for degenerate coplanar,
 * parallel or sliding motion) and toi <= the exact first contact time. Hits may be false positives when the
 * primitives come within about imageTol * max(1, |coordinates|) (1e-9 relative) or a box of width 1e-6 cannot
 * be separated, or when the search gives up after maxChecks boxes (reported as a hit at the earliest live t).
 */
import { prepareQuery, QueryKind } from './contactRange';
import { DEFAULT_SOLVER_OPTIONS, solveInclusion, type SolverOptions } from './inclusionSolver';

export interface CcdResult {
  hit: boolean;
  toi: number; // in [0, 1]; for a hit never after the first contact; 1 when there is no hit
}

/** Beyond this magnitude, differences could overflow and the rounding bound would no longer be valid. */
const MAX_COORDINATE = 1e100;

function validate(name: string, q: ArrayLike<number>): void {
  if (q == null || typeof q.length !== 'number') {
    throw new RangeError(`${name}: expected an array of 24 numbers, got ${String(q)}`);
  }
  if (q.length !== 24) {
    throw new RangeError(`${name}: expected 24 numbers (4 points at t0, then at t1), got ${q.length}`);
  }
  for (let i = 0; i < 24; i++) {
    const x = q[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new RangeError(`${name}: coordinate ${i} (point ${Math.floor(i / 3)}, axis ${'xyz'[i % 3]}) is ${x}, not finite`);
    }
    if (Math.abs(x) > MAX_COORDINATE) {
      throw new RangeError(`${name}: coordinate ${i} = ${x} exceeds ${MAX_COORDINATE} in magnitude`);
    }
  }
}

/** q: v, f0, f1, f2 at t0 (12 numbers), then the same at t1. */
export function vertexFaceCcd(q: ArrayLike<number>, opts: SolverOptions = DEFAULT_SOLVER_OPTIONS): CcdResult {
  validate('vertexFaceCcd', q);
  const r = solveInclusion(prepareQuery(QueryKind.VertexFace, q), opts);
  return { hit: r.hit, toi: r.toi };
}

/** q: ea0, ea1, eb0, eb1 at t0 (12 numbers), then the same at t1. */
export function edgeEdgeCcd(q: ArrayLike<number>, opts: SolverOptions = DEFAULT_SOLVER_OPTIONS): CcdResult {
  validate('edgeEdgeCcd', q);
  const r = solveInclusion(prepareQuery(QueryKind.EdgeEdge, q), opts);
  return { hit: r.hit, toi: r.toi };
}

export { DEFAULT_SOLVER_OPTIONS, type SolverOptions } from './inclusionSolver';
