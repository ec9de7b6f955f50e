/**
 * The Euclidean mode of the query (paper 000 Fig. 15's comparison, the "Euclidean closest point
 * for inter-object pairs" switch): the nearest boundary point among the triangles of p's tet's
 * connected component, with no path validity (no traversal, culling, zero-length rule or
 * skipping at inverted vertices). The excluded triangles (exclusion.ts) stay excluded. One pass
 * of the nearest-first BVH walk (bvhWalk.ts), its radius shrinking to every nearer candidate.
 */
import { closestPointOnTriangle } from '../geometry/closestPointOnTriangle';
import { BVH_COUNT, BVH_LINK } from '../bvh/surfaceBvh';
import { beginBvhWalk, nextBvhLeaf, WALK_DONE, WALK_OVERFLOW } from './bvhWalk';
import { excludesTriangle } from './exclusion';
import type { SpbMeshData } from './meshData';
import { STAT_BVH_CANDIDATES, type SpbWorkspace } from './workspace';

// QUERY_* codes of query.ts (repeated: query.ts imports this file).
const QUERY_NONE = 0;
const QUERY_FOUND = 1;
const QUERY_OVERFLOW = 2;

/**
 * Euclidean mode: the nearest point of the non-excluded triangles of p's tet's component,
 * one nearest-first BVH pass whose radius shrinks to each nearer candidate (ties: the first).
 */
export function nearestInComponent(data: SpbMeshData, ws: SpbWorkspace, px: number, py: number, pz: number, tet: number, e1: number, e2: number): number {
  const x = data.positions;
  const tris = data.triangles;
  const words = data.bvh.nodeWords;
  const order = data.bvh.triangleOrder;
  const cpt = ws.cpt;
  const stats = ws.stats;
  const component = data.tetComponent[tet];
  let r2 = Infinity;
  beginBvhWalk(data, ws, px, py, pz);
  for (;;) {
    const o = nextBvhLeaf(data, ws, px, py, pz, r2, 0);
    if (o === WALK_OVERFLOW) return QUERY_OVERFLOW;
    if (o === WALK_DONE) break;
    const link = words[o + BVH_LINK];
    const end = link + words[o + BVH_COUNT];
    for (let k = link; k < end; k++) {
      const f = order[k];
      stats[STAT_BVH_CANDIDATES]++;
      if (data.triangleComponent[f] !== component) continue;
      const i0 = tris[3 * f], i1 = tris[3 * f + 1], i2 = tris[3 * f + 2];
      if (excludesTriangle(i0, i1, i2, e1, e2)) continue;
      const a = 3 * i0, b = 3 * i1, c = 3 * i2;
      const feature = closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
      const d2 = (cpt[0] - px) * (cpt[0] - px) + (cpt[1] - py) * (cpt[1] - py) + (cpt[2] - pz) * (cpt[2] - pz);
      if (d2 < r2) {
        r2 = d2;
        ws.setResult(f, feature, cpt[0], cpt[1], cpt[2], d2);
      }
    }
  }
  return ws.resultTriangle >= 0 ? QUERY_FOUND : QUERY_NONE;
}
