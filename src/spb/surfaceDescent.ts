/**
 * Surface descent from a culled candidate (an addition to paper 001's Alg. 3; see README.md).
 *
 * Infeasible-region culling (section 3.6) rejects a vertex/edge candidate because a nearer point
 * lies on an adjacent face. Skipping it, as Alg. 4 does, leaves the search radius unbounded
 * until some candidate is valid, so the BVH keeps offering triangles. Instead we step onto that
 * nearer point and traverse from the first feasible one at once: an extra candidate, never a
 * different answer (the BVH still offers every triangle within the radius).
 */
import { closestPointOnTriangle, FEATURE_EDGE01, FEATURE_FACE } from '../geometry/closestPointOnTriangle';
import { excludesTriangle } from './exclusion';
import { isFeasible } from './feasibleRegion';
import type { SpbMeshData } from './meshData';
import type { SpbQueryConfig } from './query';
import { supportOnTriangle } from './support';
import { TRAVERSE_FAIL, TRAVERSE_FOUND, tetrahedralTraverse } from './traverse';
import { STAT_DESCENT_CANDIDATES, type SpbWorkspace } from './workspace';

/** Steps of the surface descent from a culled candidate. */
const MAX_DESCENT = 16;

/**
 * Surface descent from culled candidate (triangle f, feature, distance^2 d2): step to the
 * nearer closest point on the face(s) that made it infeasible (across the edge, or along the
 * vertex's boundary edge most aligned with p - s), until a candidate is feasible (a local
 * minimum of the distance on the surface), then traverse it if it is nearer than the current
 * radius. Returns a TRAVERSE_* code; on success ws.result* is set. Triangles of the same
 * component only (neighbours across edges always are). (exclude, exclude2): the excluded pair
 * (exclusion.ts); (own, own2): the same pair or -1 (feasibleRegion.ts).
 */
export function descend(
  data: SpbMeshData,
  ws: SpbWorkspace,
  cfg: SpbQueryConfig,
  f: number,
  feature: number,
  d2: number,
  lo2: number,
  r2: number,
  px: number, py: number, pz: number,
  exclude: number,
  exclude2: number,
  own: number,
  own2: number,
): number {
  const x = data.positions;
  const tris = data.triangles;
  const cpt = ws.cpt;
  const tol = cfg.tolerances;
  let curF = f, curFeature = feature, curD2 = d2;
  for (let step = 0; step < MAX_DESCENT; step++) {
    // Downhill neighbourhood: from an edge, the other face across it (p is over that face);
    // from a vertex, the two faces along its boundary edge most aligned with p - s.
    const k = curFeature >= FEATURE_EDGE01 ? curFeature - FEATURE_EDGE01 : curFeature;
    const v = tris[3 * curF + k];
    let bestF = -1, bestFeature = 0, bestD2 = curD2, bx = 0, by = 0, bz = 0;
    let only = -1, along = -1;
    if (curFeature >= FEATURE_EDGE01) {
      only = data.triangleEdgeNeighbor[3 * curF + k];
      if (only < 0) return TRAVERSE_FAIL;
    } else {
      const sx = x[3 * v], sy = x[3 * v + 1], sz = x[3 * v + 2];
      let bestCos = -Infinity;
      for (let j = data.vertexNeighborOffsets[v]; j < data.vertexNeighborOffsets[v + 1]; j++) {
        const a = 3 * data.vertexNeighbors[j];
        const ex = x[a] - sx, ey = x[a + 1] - sy, ez = x[a + 2] - sz;
        const cos = ((px - sx) * ex + (py - sy) * ey + (pz - sz) * ez) / Math.sqrt(ex * ex + ey * ey + ez * ez);
        if (cos > bestCos) {
          bestCos = cos;
          along = data.vertexNeighbors[j];
        }
      }
    }
    const j0 = only >= 0 ? 0 : data.vertexTriangleOffsets[v];
    const j1 = only >= 0 ? 1 : data.vertexTriangleOffsets[v + 1];
    for (let j = j0; j < j1; j++) {
      const g = only >= 0 ? only : data.vertexTriangles[j];
      const i0 = tris[3 * g], i1 = tris[3 * g + 1], i2 = tris[3 * g + 2];
      if (only < 0 && i0 !== along && i1 !== along && i2 !== along) continue;
      if (excludesTriangle(i0, i1, i2, exclude, exclude2)) continue;
      const a = 3 * i0, b = 3 * i1, c = 3 * i2;
      const gf = closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
      ws.stats[STAT_DESCENT_CANDIDATES]++;
      const e2 = (cpt[0] - px) * (cpt[0] - px) + (cpt[1] - py) * (cpt[1] - py) + (cpt[2] - pz) * (cpt[2] - pz);
      if (e2 < bestD2) {
        bestF = g;
        bestFeature = gf;
        bestD2 = e2;
        bx = cpt[0];
        by = cpt[1];
        bz = cpt[2];
      }
    }
    if (bestF < 0 || !(bestD2 < r2)) return TRAVERSE_FAIL; // no progress, or no longer nearer than the radius
    // Nearer than an earlier pass's radius: this candidate and every one further downhill were
    // tested by that pass (and had no valid path, or the search would have stopped).
    if (bestD2 < lo2) return TRAVERSE_FAIL;
    if (bestD2 <= tol.zeroLength * tol.zeroLength * data.tetSize2[data.triangleTet[bestF]]) {
      // Zero-length: p itself (query.ts): valid when p's pre-image lies on that triangle.
      if (!supportOnTriangle(data, ws, bestF)) return TRAVERSE_FAIL;
      ws.setResult(bestF, bestFeature, bx, by, bz, bestD2);
      return TRAVERSE_FOUND;
    }
    curF = bestF;
    curFeature = bestFeature;
    curD2 = bestD2;
    if (bestFeature === FEATURE_FACE || isFeasible(data, bestF, bestFeature, bx, by, bz, px, py, pz, tol.culling, own, own2)) {
      const st = tetrahedralTraverse(data, ws, tol, bestF, bx, by, bz, px, py, pz);
      if (st === TRAVERSE_FOUND) ws.setResult(bestF, bestFeature, bx, by, bz, bestD2);
      return st;
    }
  }
  return TRAVERSE_FAIL;
}
