/**
 * p as the point of its tet (the pre-image the query is about): its support, the tet vertices
 * with a barycentric coordinate above the tolerance. A tet containing every support vertex holds
 * the same pre-image point (p on a face, edge or vertex of its tet is also in the tets around
 * it), and a boundary triangle holding every support vertex holds p's pre-image on the boundary.
 */
import type { SpbMeshData } from './meshData';
import type { SpbWorkspace } from './workspace';

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

/**
 * True when p, as the point of its tet, lies on boundary triangle f: every support vertex (see
 * computeSupport) is a vertex of f. Then the zero-length segment from p to its closest point on f
 * is a valid path of length 0 (p's pre-image is on the boundary). Otherwise a candidate that
 * coincides with p is another pre-image's boundary and has no direction to traverse (section 3.3).
 */
export function supportOnTriangle(data: SpbMeshData, ws: SpbWorkspace, f: number): boolean {
  const a = data.triangles[3 * f], b = data.triangles[3 * f + 1], c = data.triangles[3 * f + 2];
  for (let i = 0; i < ws.supportCount; i++) {
    const v = ws.support[i];
    if (v !== a && v !== b && v !== c) return false;
  }
  return true;
}
