/**
 * Edge-edge CCD over the edges' interiors: each edge is cut to its parameters [EE_END_PARAM,
 * 1 - EE_END_PARAM] at both ends of the substep (points of an edge moving linearly move linearly),
 * so the separation CCD's first time is the first time two points inside both edges come within
 * the separation. Over whole edges that first time can fall where the closest points lie at an
 * edge's end, a vertex's contact that its vertex-triangle pairs carry; such a pair got no
 * edge-edge contact however the edges moved afterwards, and edges that turned about that vertex
 * passed through each other mid-edge later in the substep (docs/collisions.md "Edges searched
 * inside their ends"). A contact at a cut end is the edge's own point next to the vertex, and the
 * edges' cross product there is a separating direction of the two lines.
 */

import { segmentClosestParams } from './segmentClosest';

/** How far inside each end an edge-edge contact's points lie (a fraction of the edge). */
export const EE_END_PARAM = 0.01;

/**
 * q: edge a0 a1, edge b0 b1 at t = 0 (12 numbers), then at t = 1; writes the cut edges to out
 * (same layout) and returns it.
 */
export function interiorEdgeQuery(q: ArrayLike<number>, out: Float64Array): Float64Array {
  for (let o = 0; o < 24; o += 6) {
    for (let k = 0; k < 3; k++) {
      const p = q[o + k], r = q[o + 3 + k], d = r - p;
      out[o + k] = p + EE_END_PARAM * d;
      out[o + 3 + k] = r - EE_END_PARAM * d;
    }
  }
  return out;
}

/**
 * The closest points of the cut edges at time toi, as parameters of the whole edges (inside
 * [EE_END_PARAM, 1 - EE_END_PARAM]), and whether either lies at an end of its cut edge.
 */
export function interiorEdgeParams(cut: ArrayLike<number>, toi: number): [number, number, boolean] {
  const at = (j: number): number[] => [0, 1, 2].map((k) => cut[3 * j + k] + toi * (cut[12 + 3 * j + k] - cut[3 * j + k]));
  const [sa, sb] = segmentClosestParams(at(0), at(1), at(2), at(3));
  const span = 1 - 2 * EE_END_PARAM;
  return [EE_END_PARAM + span * sa, EE_END_PARAM + span * sb, Math.min(sa, sb) <= 0 || Math.max(sa, sb) >= 1];
}
