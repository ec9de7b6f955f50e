/**
 * The rest pose's closest boundary point (paper 000 section 5.5, Figs. 22-23), the
 * 'restClosest' method: p, the point of tet t, maps to the rest pose by its barycentrics in t's
 * current shape, P = sum_i u_i X_i; the closest boundary point of the rest mesh's component of t
 * to P (the query's own triangles excluded, as for the shortest path) is found by the Euclidean
 * walk of src/spb/euclideanQuery.ts over the rest BVH; and it maps back through its triangle:
 * with b its barycentrics on rest triangle f, s = sum_k b_k x_k at the current positions.
 * Result record as the shortest path's: point s, distance |s - p|, triangle f, the feature of
 * the rest closest point. A flat or inverted t gives no target (QUERY_NONE).
 */
import { closestPointOnTriangle } from '../geometry/closestPointOnTriangle';
import type { SpbMeshData } from '../spb/meshData';
import { nearestInComponent } from '../spb/euclideanQuery';
import { QUERY_FOUND, QUERY_NONE } from '../spb/query';
import type { SpbWorkspace } from '../spb/workspace';
import type { TetFrame } from './tetFrame';

/**
 * The 'restClosest' target of p in tet `tet`: `rest` the rest pose (restPose.ts), `current` the
 * same mesh at the current positions; e1, e2 the query's excluded vertices. Result in ws.result*;
 * returns a QUERY_* code (QUERY_OVERFLOW only with a workspace of fixed capacities).
 */
export function restClosestTarget(rest: SpbMeshData, current: SpbMeshData, ws: SpbWorkspace, frame: TetFrame, px: number, py: number, pz: number, tet: number, e1: number, e2: number): number {
  if (!frame.load(current.positions, current.tets, tet, px, py, pz)) return QUERY_NONE;
  const u = frame.u;
  const X = rest.positions;
  let rx = 0, ry = 0, rz = 0;
  for (let i = 0; i < 4; i++) {
    const v = 3 * rest.tets[4 * tet + i];
    rx += u[i] * X[v];
    ry += u[i] * X[v + 1];
    rz += u[i] * X[v + 2];
  }
  const status = nearestInComponent(rest, ws, rx, ry, rz, tet, e1, e2);
  if (status !== QUERY_FOUND) return status;
  const f = ws.resultTriangle;
  const t = rest.triangles;
  const a = 3 * t[3 * f], b = 3 * t[3 * f + 1], c = 3 * t[3 * f + 2];
  const cpt = ws.cpt;
  closestPointOnTriangle(rx, ry, rz, X[a], X[a + 1], X[a + 2], X[b], X[b + 1], X[b + 2], X[c], X[c + 1], X[c + 2], cpt);
  const x = current.positions;
  const sx = cpt[3] * x[a] + cpt[4] * x[b] + cpt[5] * x[c];
  const sy = cpt[3] * x[a + 1] + cpt[4] * x[b + 1] + cpt[5] * x[c + 1];
  const sz = cpt[3] * x[a + 2] + cpt[4] * x[b + 2] + cpt[5] * x[c + 2];
  ws.setResult(f, ws.resultFeature, sx, sy, sz, (sx - px) ** 2 + (sy - py) ** 2 + (sz - pz) ** 2);
  return QUERY_FOUND;
}
