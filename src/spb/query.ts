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
 * The BVH walk is inlined (the layout of src/bvh/surfaceBvh.ts) so that its stack is one of the
 * workspace's: fixed in the static twin (overflow flagged), growing in the dynamic version.
 */
import { closestPointOnTriangle, FEATURE_FACE } from '../geometry/closestPointOnTriangle';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS } from '../bvh/surfaceBvh';
import { isFeasible } from './feasibleRegion';
import type { SpbMeshData } from './meshData';
import type { SpbTolerances } from './settings';
import { descend } from './surfaceDescent';
import { TRAVERSE_FOUND, TRAVERSE_OVERFLOW, tetrahedralTraverse } from './traverse';
import { STAT_BVH_CANDIDATES, STAT_CULLED, STAT_OVERFLOWS, type SpbWorkspace } from './workspace';

/** Query outcomes. */
export const QUERY_NONE = 0;
export const QUERY_FOUND = 1;
export const QUERY_OVERFLOW = 2;
/** p is a boundary vertex of an inverted boundary tet: skipped (section 3.5). */
export const QUERY_SKIPPED = 3;

export interface SpbQueryConfig {
  culling: boolean;
  tolerances: Readonly<SpbTolerances>;
}

function boxDistance2(nodes: Float32Array, o: number, px: number, py: number, pz: number): number {
  const dx = Math.max(nodes[o] - px, 0, px - nodes[o + 4]);
  const dy = Math.max(nodes[o + 1] - py, 0, py - nodes[o + 5]);
  const dz = Math.max(nodes[o + 2] - pz, 0, pz - nodes[o + 6]);
  return dx * dx + dy * dy + dz * dz;
}

/** Triple product i . (j x k). */
function vol(ix: number, iy: number, iz: number, jx: number, jy: number, jz: number, kx: number, ky: number, kz: number): number {
  return ix * (jy * kz - jz * ky) - iy * (jx * kz - jz * kx) + iz * (jx * ky - jy * kx);
}

/**
 * The support of p in tet `tet`: the vertices whose barycentric coordinate exceeds the
 * tolerance. Any tet containing all of them contains p as the same pre-image point. A tet too
 * flat to give barycentrics keeps all 4 (only itself is accepted).
 */
export function computeSupport(data: SpbMeshData, ws: SpbWorkspace, tet: number, px: number, py: number, pz: number, baryTol: number): void {
  const x = data.positions;
  const o = 4 * tet;
  const ids = data.tets;
  const a = 3 * ids[o], b = 3 * ids[o + 1], c = 3 * ids[o + 2], d = 3 * ids[o + 3];
  // Barycentrics as ratios of signed volumes: w_i = vol(tet with p in place of vertex i) / vol.
  const pax = x[a] - px, pay = x[a + 1] - py, paz = x[a + 2] - pz;
  const pbx = x[b] - px, pby = x[b + 1] - py, pbz = x[b + 2] - pz;
  const pcx = x[c] - px, pcy = x[c + 1] - py, pcz = x[c + 2] - pz;
  const pdx = x[d] - px, pdy = x[d + 1] - py, pdz = x[d + 2] - pz;
  const wa = vol(pbx, pby, pbz, pcx, pcy, pcz, pdx, pdy, pdz); // opposite a: (p, b, c, d)
  const wb = -vol(pax, pay, paz, pcx, pcy, pcz, pdx, pdy, pdz);
  const wc = vol(pax, pay, paz, pbx, pby, pbz, pdx, pdy, pdz);
  const wd = -vol(pax, pay, paz, pbx, pby, pbz, pcx, pcy, pcz);
  const total = wa + wb + wc + wd;
  const h2 = data.tetSize2[tet];
  ws.supportCount = 0;
  if (!(Math.abs(total) > 1e-12 * h2 * Math.sqrt(h2))) {
    for (let i = 0; i < 4; i++) ws.support[ws.supportCount++] = ids[o + i];
    return;
  }
  const inv = 1 / total;
  if (wa * inv > baryTol) ws.support[ws.supportCount++] = ids[o];
  if (wb * inv > baryTol) ws.support[ws.supportCount++] = ids[o + 1];
  if (wc * inv > baryTol) ws.support[ws.supportCount++] = ids[o + 2];
  if (wd * inv > baryTol) ws.support[ws.supportCount++] = ids[o + 3];
  if (ws.supportCount === 0) for (let i = 0; i < 4; i++) ws.support[ws.supportCount++] = ids[o + i];
}

/** True when some boundary triangle at vertex v belongs to an inverted tet. */
export function isInvertedBoundaryVertex(data: SpbMeshData, v: number): boolean {
  for (let j = data.vertexTriangleOffsets[v]; j < data.vertexTriangleOffsets[v + 1]; j++) {
    if (data.tetInverted[data.triangleTet[data.vertexTriangles[j]]]) return true;
  }
  return false;
}

/**
 * Closest boundary point reachable by a valid path from p (as the point of tet `tet`).
 * `excludeVertex` (or -1): the boundary vertex whose position p is; its own triangles are not
 * candidates (the zero-length case). Result in ws.result*; returns a QUERY_* code.
 */
export function shortestPathToBoundary(
  data: SpbMeshData,
  ws: SpbWorkspace,
  cfg: SpbQueryConfig,
  px: number, py: number, pz: number,
  tet: number,
  excludeVertex: number,
): number {
  ws.beginQuery();
  const status = run(data, ws, cfg, px, py, pz, tet, excludeVertex);
  if (status === QUERY_OVERFLOW) ws.stats[STAT_OVERFLOWS]++;
  ws.endQuery();
  return status;
}

function run(data: SpbMeshData, ws: SpbWorkspace, cfg: SpbQueryConfig, px: number, py: number, pz: number, tet: number, excludeVertex: number): number {
  const tol = cfg.tolerances;
  if (excludeVertex >= 0 && isInvertedBoundaryVertex(data, excludeVertex)) return QUERY_SKIPPED;
  computeSupport(data, ws, tet, px, py, pz, tol.barycentric);

  const x = data.positions;
  const tris = data.triangles;
  const nodes = data.bvh.nodes;
  const words = data.bvh.nodeWords;
  const order = data.bvh.triangleOrder;
  const cpt = ws.cpt;
  const stats = ws.stats;
  const zero2 = tol.zeroLength * tol.zeroLength;
  const component = data.tetComponent[tet];
  let r2 = Infinity;
  let top = 0;
  if (data.bvh.nodeCount > 0) ws.bvhStack[top++] = 0;
  while (top > 0) {
    const node = ws.bvhStack[--top];
    const o = node * BVH_NODE_WORDS;
    if (boxDistance2(nodes, o, px, py, pz) >= r2) continue; // the radius shrank since the push
    const count = words[o + BVH_COUNT];
    const link = words[o + BVH_LINK];
    if (count === 0) {
      const dl = boxDistance2(nodes, link * BVH_NODE_WORDS, px, py, pz);
      const dr = boxDistance2(nodes, (link + 1) * BVH_NODE_WORDS, px, py, pz);
      // Push the farther child first so the nearer one is visited first.
      const nearFirst = dl <= dr;
      const far = nearFirst ? link + 1 : link;
      const dFar = nearFirst ? dr : dl;
      const dNear = nearFirst ? dl : dr;
      if (dFar < r2) {
        if (top >= ws.bvhStack.length && !ws.growBvhStack()) return QUERY_OVERFLOW;
        ws.bvhStack[top++] = far;
      }
      if (dNear < r2) {
        if (top >= ws.bvhStack.length && !ws.growBvhStack()) return QUERY_OVERFLOW;
        ws.bvhStack[top++] = nearFirst ? link : link + 1;
      }
      continue;
    }
    for (let k = link; k < link + count; k++) {
      const f = order[k];
      stats[STAT_BVH_CANDIDATES]++;
      if (data.triangleComponent[f] !== component) continue; // another piece: no element traversal reaches p
      const i0 = tris[3 * f], i1 = tris[3 * f + 1], i2 = tris[3 * f + 2];
      if (i0 === excludeVertex || i1 === excludeVertex || i2 === excludeVertex) continue;
      const a = 3 * i0, b = 3 * i1, c = 3 * i2;
      const feature = closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
      const sx = cpt[0], sy = cpt[1], sz = cpt[2];
      const d2 = (sx - px) * (sx - px) + (sy - py) * (sy - py) + (sz - pz) * (sz - pz);
      if (!(d2 < r2)) continue;
      // Zero-length segment: no direction to traverse, cannot be a valid path (section 3.3).
      if (d2 <= zero2 * data.tetSize2[data.triangleTet[f]]) continue;
      if (cfg.culling && feature !== FEATURE_FACE && !isFeasible(data, f, feature, sx, sy, sz, px, py, pz, tol.culling)) {
        stats[STAT_CULLED]++;
        // A nearer point exists on the triangles around this vertex/edge: descend to it and try
        // it now, so that a valid path shrinks the radius early (an extra candidate, never a
        // different answer: the BVH still offers every triangle within the radius).
        const st = descend(data, ws, cfg, f, feature, d2, r2, px, py, pz, excludeVertex);
        if (st === TRAVERSE_OVERFLOW) return QUERY_OVERFLOW;
        if (st === TRAVERSE_FOUND) r2 = ws.resultDistance2;
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
  return ws.resultTriangle >= 0 ? QUERY_FOUND : QUERY_NONE;
}
