/** Shared helpers of the shortest-path tests: meshes from plain arrays, brute-force oracles. */
import { CPT_OUT_LENGTH, closestPointOnTriangle } from '../../../src/geometry/closestPointOnTriangle';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';

/** Builds a TetMesh from plain arrays (procedural test shapes). */
export function meshFrom(positions: ArrayLike<number>, tets: ArrayLike<number>): TetMesh {
  return buildTetMesh({ positions: Float32Array.from(positions), tets: Uint32Array.from(tets) }, { source: 'test' }).mesh;
}

const out = new Float64Array(CPT_OUT_LENGTH);

/** Brute force: Euclidean distance from p to the nearest of the given triangles (all when `only` is absent). */
export function bruteForceDistance(positions: ArrayLike<number>, triangles: ArrayLike<number>, p: ArrayLike<number>, only?: (t: number) => boolean): number {
  let best = Infinity;
  for (let t = 0; t < triangles.length / 3; t++) {
    if (only && !only(t)) continue;
    const a = 3 * triangles[3 * t], b = 3 * triangles[3 * t + 1], c = 3 * triangles[3 * t + 2];
    closestPointOnTriangle(
      p[0], p[1], p[2],
      positions[a], positions[a + 1], positions[a + 2],
      positions[b], positions[b + 1], positions[b + 2],
      positions[c], positions[c + 1], positions[c + 2],
      out,
    );
    const d2 = (out[0] - p[0]) ** 2 + (out[1] - p[1]) ** 2 + (out[2] - p[2]) ** 2;
    if (d2 < best) best = d2;
  }
  return Math.sqrt(best);
}
