/**
 * Deformed distance field (Fisher and Lin 2001 section 5.2), the 'ddf' method: for a point p in
 * tet t, with u its barycentrics in t's current shape (eq. 4),
 *   depth      d~ = sum_i u_i d_i                                   (eq. 3, = eq. 5)
 *   direction  n = F^-T g~ / |F^-T g~|,  g~ = sum_i u_i g_i
 * where d_i and g_i are the rest field's distance and direction at t's vertices
 * (distanceField.ts) and F = Ds Dm^-1 is t's deformation gradient: a distance gradient is a
 * covector, so it maps by F^-T (a sheared block's top face stays level and so does its
 * direction; mapped by F it would tilt with the shear). Where the vertices' directions cancel
 * (|g~| < 1e-6, a medial surface), the direction is that of eq. 5's own gradient,
 * -F^-T grad_X d~. The contact target is s = p + d~ n, as the paper's penalty pushes p by d~
 * along the field's steepest descent.
 *
 * The result record is the shortest path's (src/spb): point s, distance d~, and a boundary
 * triangle that carries the contact's reaction (eq. 6 needs one): the current boundary triangle
 * of t's component nearest to s, the query's own triangles excluded (the Euclidean walk of
 * src/spb/euclideanQuery.ts from s), with the feature of s's closest point on it. The contact
 * stage anchors s on that triangle as for the other methods. Depth 0 (every vertex of t on the
 * boundary: the field vanishes there, the paper's limit for thin parts) gives no target
 * (QUERY_NONE), as does a flat or inverted t.
 */
import type { SpbMeshData } from '../spb/meshData';
import { nearestInComponent } from '../spb/euclideanQuery';
import { QUERY_FOUND, QUERY_NONE } from '../spb/query';
import type { SpbWorkspace } from '../spb/workspace';
import type { RestDistanceField } from './distanceField';
import type { TetFrame } from './tetFrame';

/** |g~| below this: the vertices' directions cancel, eq. 5's gradient is used instead. */
export const DDF_DIRECTION_CANCEL = 1e-6;

/** Scratch of ddfTarget: the rest-frame components and the mapped direction. */
const y = new Float64Array(3);
const dir = new Float64Array(3);

/**
 * The 'ddf' target of p in tet `tet` at the current positions `current.positions`; e1, e2: the
 * query's excluded vertices (src/spb/exclusion.ts). Result in ws.result* (the record above);
 * returns QUERY_FOUND or QUERY_NONE. Counts the anchor's BVH candidates in ws.stats.
 */
export function ddfTarget(field: RestDistanceField, current: SpbMeshData, ws: SpbWorkspace, frame: TetFrame, px: number, py: number, pz: number, tet: number, e1: number, e2: number): number {
  if (!frame.load(current.positions, current.tets, tet, px, py, pz)) return QUERY_NONE;
  const u = frame.u;
  const ids = current.tets;
  const X = field.restPositions;
  const g = field.direction;
  let depth = 0, gx = 0, gy = 0, gz = 0;
  for (let i = 0; i < 4; i++) {
    const v = ids[4 * tet + i];
    depth += u[i] * field.distance[v];
    gx += u[i] * g[3 * v];
    gy += u[i] * g[3 * v + 1];
    gz += u[i] * g[3 * v + 2];
  }
  if (!(depth > 0)) return QUERY_NONE;
  // Rest-frame components along the rest edges X_j - X_0 (Dm^T g~), or of -grad d~ (eq. 5).
  const v0 = ids[4 * tet];
  const cancel = !(Math.hypot(gx, gy, gz) >= DDF_DIRECTION_CANCEL);
  for (let j = 1; j <= 3; j++) {
    const v = ids[4 * tet + j];
    y[j - 1] = cancel
      ? field.distance[v0] - field.distance[v]
      : (X[3 * v] - X[3 * v0]) * gx + (X[3 * v + 1] - X[3 * v0 + 1]) * gy + (X[3 * v + 2] - X[3 * v0 + 2]) * gz;
  }
  frame.mapCovector(y[0], y[1], y[2], dir, 0);
  const len = Math.hypot(dir[0], dir[1], dir[2]);
  if (!(len > 0)) return QUERY_NONE;
  const sx = px + (depth * dir[0]) / len, sy = py + (depth * dir[1]) / len, sz = pz + (depth * dir[2]) / len;
  if (nearestInComponent(current, ws, sx, sy, sz, tet, e1, e2) !== QUERY_FOUND) return QUERY_NONE;
  ws.setResult(ws.resultTriangle, ws.resultFeature, sx, sy, sz, depth * depth);
  return QUERY_FOUND;
}
