/**
 * Shortest path to boundary for one point (supplement 001, Alg. 3).
 *
 * Candidates come from the surface BVH nearest box first; each triangle contributes only the
 * Euclidean closest point to p (Theorem 2). A candidate is kept when its segment to p is a valid
 * path (tetrahedralTraverse), and the search radius then shrinks to its distance, so boxes and
 * triangles no nearer than the best valid candidate are never tested. There is no candidate
 * cap: every query runs until the radius has excluded all remaining boxes, so the answer is the
 * nearest valid candidate (the authors stopped after 500 candidates).
 *
 * Expanding search. Until a candidate is valid the radius is unbounded, and a depth-first walk
 * that enters the wrong subtree first (p inside an overlapping part: the nearest surfaces are
 * the other part's, all invalid) tests that whole subtree. Measured on a beam bent so its ends
 * overlap: 156 candidates and, with culling, 2,800 descent closest points per query. So the
 * walk runs in passes: pass k takes only candidates with lo2 <= d2 < hi2, starting from
 * hi2 = SPB_SEARCH_START2 h^2 (h: longest edge of p's tet) and growing by SPB_SEARCH_GROWTH2.
 * It stops after the first pass with a valid candidate (every nearer candidate was tested in
 * this or an earlier pass, so it is the nearest valid one) or the first pass that the radius did
 * not cut (every candidate was tested), or the unbounded pass (hi2 = Infinity; BIG in WGSL):
 * what that one cuts has d2 = Infinity or NaN, never a path, and widening on would never end.
 * Answers are the same as one unbounded pass.
 *
 * Culling. A culled vertex/edge candidate starts a surface descent (surfaceDescent.ts) to the
 * nearer point on its neighbouring faces, traversed at once so that a valid one bounds the
 * radius. After SPB_DESCENT_FAILURES descents without a valid path, culled candidates are only
 * skipped (Alg. 4 as written): in overlapping parts the descents land on the wrong layer and each
 * costs a failed traversal, more than the traversals culling saves.
 *
 * Euclidean mode (per query, paper Fig. 15's comparison): the nearest boundary point among the
 * triangles of p's tet's connected component, with no path validity (no traversal, no culling,
 * no zero-length rule, no skipping at inverted vertices); the excluded triangles stay excluded.
 * One pass of the same BVH walk, the radius shrinking to every nearer candidate.
 *
 * The BVH walk (bvhWalk.ts, shared with the Euclidean mode) keeps its stack in the workspace:
 * fixed in the static twin (overflow flagged), growing in the dynamic version.
 */
import { closestPointOnTriangle, FEATURE_FACE } from '../geometry/closestPointOnTriangle';
import { BVH_COUNT, BVH_LINK } from '../bvh/surfaceBvh';
import { beginBvhWalk, nextBvhLeaf, WALK_DONE, WALK_OVERFLOW } from './bvhWalk';
import { isFeasible } from './feasibleRegion';
import type { SpbMeshData } from './meshData';
import { SPB_DESCENT_FAILURES, SPB_SEARCH_GROWTH2, SPB_SEARCH_SKIP2, SPB_SEARCH_START2, type SpbTolerances } from './settings';
import { cullingClearance2, exactClearance2 } from './cullingGuard';
import { nearestInComponent } from './euclideanQuery';
import { excludesTriangle } from './exclusion';
import { descend } from './surfaceDescent';
import { computeSupport, supportOnTriangle } from './support';
import { TRAVERSE_FOUND, TRAVERSE_OVERFLOW, tetrahedralTraverse } from './traverse';
import { STAT_BVH_CANDIDATES, STAT_CULLED, STAT_OVERFLOWS, type SpbWorkspace } from './workspace';

export { computeSupport } from './support';

/** Query outcomes. */
export const QUERY_NONE = 0;
export const QUERY_FOUND = 1;
export const QUERY_OVERFLOW = 2;
/** p is a boundary vertex of an inverted boundary tet, inside its own piece: skipped (section 3.5). */
export const QUERY_SKIPPED = 3;

export interface SpbQueryConfig {
  culling: boolean;
  tolerances: Readonly<SpbTolerances>;
}

/** True when some boundary triangle at vertex v belongs to an inverted tet. */
export function isInvertedBoundaryVertex(data: SpbMeshData, v: number): boolean {
  for (let j = data.vertexTriangleOffsets[v]; j < data.vertexTriangleOffsets[v + 1]; j++) {
    if (data.tetInverted[data.triangleTet[data.vertexTriangles[j]]]) return true;
  }
  return false;
}

/** Whether boundary vertex v lies in tet's connected component (a self query: section 3.5's skip applies). */
export function ownComponent(data: SpbMeshData, v: number, tet: number): boolean {
  const j = data.vertexTriangleOffsets[v];
  if (j >= data.vertexTriangleOffsets[v + 1]) return false;
  return data.tetComponent[data.triangleTet[data.vertexTriangles[j]]] === data.tetComponent[tet];
}

/**
 * Closest boundary point reachable by a valid path from p (as the point of tet `tet`).
 * `excludeVertex` (or -1): the boundary vertex whose position p is; its own triangles are not
 * candidates (the zero-length case). `excludeVertex2` (or -1): for a point on boundary edge
 * (excludeVertex, excludeVertex2), only the edge's own two triangles are excluded (exclusion.ts).
 * `euclidean`: the nearest boundary point of p's component, no path validity (file comment).
 * Result in ws.result*; returns a QUERY_* code.
 */
export function shortestPathToBoundary(
  data: SpbMeshData,
  ws: SpbWorkspace,
  cfg: SpbQueryConfig,
  px: number, py: number, pz: number,
  tet: number,
  excludeVertex: number,
  excludeVertex2 = -1,
  euclidean = false,
): number {
  ws.beginQuery();
  const status = euclidean
    ? nearestInComponent(data, ws, px, py, pz, tet, excludeVertex, excludeVertex2)
    : run(data, ws, cfg, px, py, pz, tet, excludeVertex, excludeVertex2);
  if (status === QUERY_OVERFLOW) ws.stats[STAT_OVERFLOWS]++;
  ws.endQuery();
  return status;
}

/** True when tet t has vertex v. */
function tetHas(ids: Uint32Array, t: number, v: number): boolean {
  return v >= 0 && (ids[4 * t] === v || ids[4 * t + 1] === v || ids[4 * t + 2] === v || ids[4 * t + 3] === v);
}

function run(data: SpbMeshData, ws: SpbWorkspace, cfg: SpbQueryConfig, px: number, py: number, pz: number, tet: number, excludeVertex: number, excludeVertex2: number): number {
  const tol = cfg.tolerances;
  // Section 3.5 limits the skip to self-intersection: a query of a vertex (or edge end) on an
  // inverted boundary tet is skipped only when p lies in that vertex's own piece. A point inside
  // another object is answered (skipping it too left a landing cube's corners without any contact).
  if (excludeVertex >= 0 && isInvertedBoundaryVertex(data, excludeVertex) && ownComponent(data, excludeVertex, tet)) return QUERY_SKIPPED;
  if (excludeVertex >= 0 && excludeVertex2 >= 0 && isInvertedBoundaryVertex(data, excludeVertex2) && ownComponent(data, excludeVertex2, tet)) return QUERY_SKIPPED;
  computeSupport(data, ws, tet, px, py, pz, tol.barycentric);

  const x = data.positions;
  const tris = data.triangles;
  const words = data.bvh.nodeWords;
  const order = data.bvh.triangleOrder;
  const cpt = ws.cpt;
  const stats = ws.stats;
  const zero2 = tol.zeroLength * tol.zeroLength;
  const component = data.tetComponent[tet];
  // Candidates nearer than this may be culled without a closer look (cullingGuard.ts); beyond
  // it, nearer than exact2 (computed when first needed).
  const clear2 = cfg.culling ? cullingClearance2(data, component, px, py, pz) : 0;
  let exact2 = -1;
  // The excluded faces keep a candidate feasible only when p's pre-image may lie on them: a
  // vertex of the excluded pair is one of p's tet's (feasibleRegion.ts).
  const ids = data.tets;
  const isOwn = excludeVertex >= 0 && (tetHas(ids, tet, excludeVertex) || tetHas(ids, tet, excludeVertex2));
  const own = isOwn ? excludeVertex : -1;
  const own2 = isOwn ? excludeVertex2 : -1;
  // Expanding search (file comment): pass k takes the candidates with lo2 <= d2 < hi2.
  const h2 = data.tetSize2[tet];
  let lo2 = 0;
  let failedDescents = 0;
  let hi2 = h2 > 0 ? SPB_SEARCH_START2 * h2 : Infinity;
  for (;;) {
    let r2 = hi2;
    // Something was left out by the radius: without a valid candidate, a wider pass is needed.
    let cut = false;
    // Boxes entirely within half the previous radius hold only candidates already tested (the
    // margin keeps this exact under rounding: their d2 is far below lo2, never near it).
    const inner2 = SPB_SEARCH_SKIP2 * lo2;
    beginBvhWalk(data, ws, px, py, pz);
    for (;;) {
      const o = nextBvhLeaf(data, ws, px, py, pz, r2, inner2);
      if (o === WALK_OVERFLOW) return QUERY_OVERFLOW;
      if (o === WALK_DONE) break;
      const link = words[o + BVH_LINK];
      const end = link + words[o + BVH_COUNT];
      for (let k = link; k < end; k++) {
        const f = order[k];
        if (data.triangleComponent[f] !== component) { // another piece: no element traversal reaches p
          stats[STAT_BVH_CANDIDATES]++;
          continue;
        }
        const i0 = tris[3 * f], i1 = tris[3 * f + 1], i2 = tris[3 * f + 2];
        if (excludesTriangle(i0, i1, i2, excludeVertex, excludeVertex2)) {
          stats[STAT_BVH_CANDIDATES]++;
          continue;
        }
        const a = 3 * i0, b = 3 * i1, c = 3 * i2;
        const feature = closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
        const sx = cpt[0], sy = cpt[1], sz = cpt[2];
        const d2 = (sx - px) * (sx - px) + (sy - py) * (sy - py) + (sz - pz) * (sz - pz);
        if (d2 < lo2) continue; // tested in an earlier pass (not counted again)
        stats[STAT_BVH_CANDIDATES]++;
        if (!(d2 < r2)) {
          cut = true;
          continue;
        }
        // Zero-length segment (section 3.3): no direction to traverse. Valid, at distance 0, when
        // p's pre-image lies on f; otherwise another pre-image's boundary (the excluded vertex's
        // own triangles never get here).
        if (d2 <= zero2 * data.tetSize2[data.triangleTet[f]]) {
          if (supportOnTriangle(data, ws, f)) {
            r2 = d2;
            ws.setResult(f, feature, sx, sy, sz, d2);
          }
          continue;
        }
        let cull = cfg.culling && feature !== FEATURE_FACE && !isFeasible(data, f, feature, sx, sy, sz, px, py, pz, tol.culling, own, own2);
        // Only where Theorem 2 holds: the ball through s meets no inverted tet (cullingGuard.ts).
        if (cull && !(d2 < clear2)) {
          if (exact2 < 0) exact2 = exactClearance2(data, component, px, py, pz);
          cull = d2 < exact2;
        }
        if (cull) {
          stats[STAT_CULLED]++;
          // A nearer point exists on the triangles around this vertex/edge: descend to it and try
          // it now, so that a valid path shrinks the radius early (an extra candidate, never a
          // different answer: the BVH still offers every triangle within the radius), unless
          // descents have failed SPB_DESCENT_FAILURES times in this query (file comment).
          if (failedDescents >= SPB_DESCENT_FAILURES) continue;
          const st = descend(data, ws, cfg, f, feature, d2, lo2, r2, px, py, pz, excludeVertex, excludeVertex2, own, own2);
          if (st === TRAVERSE_OVERFLOW) return QUERY_OVERFLOW;
          if (st === TRAVERSE_FOUND) r2 = ws.resultDistance2;
          else failedDescents++;
          continue;
        }
        const st = tetrahedralTraverse(data, ws, tol, f, sx, sy, sz, px, py, pz);
        if (st === TRAVERSE_OVERFLOW) return QUERY_OVERFLOW;
        if (st === TRAVERSE_FOUND) {
          r2 = d2; // Alg. 3 line 9: shrink the radius to |s - p|
          ws.setResult(f, feature, sx, sy, sz, d2);
        }
      }
    }
    if (ws.walkCut) cut = true;
    // The unbounded pass was the last: what it cut has d2 = Infinity or NaN, never a path.
    if (ws.resultTriangle >= 0 || !cut || hi2 === Infinity) break;
    lo2 = hi2;
    hi2 *= SPB_SEARCH_GROWTH2;
  }
  return ws.resultTriangle >= 0 ? QUERY_FOUND : QUERY_NONE;
}
