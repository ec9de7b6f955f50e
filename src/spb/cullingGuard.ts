/**
 * Where culling is sound (paper 000 section 3.6 rests on Theorem 2, proved for deformations
 * without inversions, section 3.5).
 *
 * Culling a vertex/edge candidate s claims: were p-s a valid path, so would be the path to the
 * nearer closest point s' of a neighbouring face, because sliding the path's end from s to s'
 * keeps it valid where the deformation is locally one-to-one around the swept triangle
 * (p, s, s'). That triangle lies in the ball around p of radius |p - s|. Inverted tets fold the
 * mesh over itself (the deformation is not one-to-one around them), so a candidate is culled only
 * when that ball meets no inverted tet of p's component; elsewhere in the same object culling
 * goes on as usual.
 *
 * Two tiers, so that a query far from every inversion pays one pass over a short list: the
 * radius around p clear of the inverted tets' bounding spheres (cullingClearance2, once per
 * query), then, only when a candidate beyond it is about to be culled, the radius clear of the
 * tets themselves (exactClearance2, at most once per query: slivers at twisted roots have
 * spheres far larger than themselves).
 */
import { closestPointOnTriangle } from '../geometry/closestPointOnTriangle';
import type { SpbMeshData } from './meshData';

/** Relative margin: f32 rounding on the GPU never lets a ball that touches an inverted tet pass. */
const MARGIN = 1e-3;

const cpt = new Float64Array(6);

/** Distance from p to the surface of listed inverted tet i's bounding sphere (negative inside), grown by MARGIN. */
function sphereGap(data: SpbMeshData, i: number, px: number, py: number, pz: number): number {
  const s = data.invertedSpheres;
  const o = 4 * i;
  return Math.sqrt((px - s[o]) ** 2 + (py - s[o + 1]) ** 2 + (pz - s[o + 2]) ** 2) - (1 + MARGIN) * s[o + 3];
}

/**
 * Squared radius around p clear of the bounding spheres of the inverted tets of p's component:
 * Infinity without inversions there, 0 when the inverted tets were too many to list
 * (SPB_INVERTED_LIST: then nothing is culled in components with inversions).
 */
export function cullingClearance2(data: SpbMeshData, component: number, px: number, py: number, pz: number): number {
  if (data.componentInverted[component] === 0) return Infinity;
  if (data.invertedCount > data.invertedTets.length) return 0;
  let clear = Infinity;
  for (let i = 0; i < data.invertedCount; i++) {
    if (data.tetComponent[data.invertedTets[i]] !== component) continue;
    const gap = sphereGap(data, i, px, py, pz);
    if (gap < clear) clear = gap;
  }
  return clear > 0 ? clear * clear : 0;
}

/** Orientation of q against the plane of (a, b, c): the triple product (b - a) x (c - a) . (q - a). */
function side(x: Float64Array, a: number, b: number, c: number, qx: number, qy: number, qz: number): number {
  const ex = x[b] - x[a], ey = x[b + 1] - x[a + 1], ez = x[b + 2] - x[a + 2];
  const fx = x[c] - x[a], fy = x[c + 1] - x[a + 1], fz = x[c + 2] - x[a + 2];
  return (ey * fz - ez * fy) * (qx - x[a]) + (ez * fx - ex * fz) * (qy - x[a + 1]) + (ex * fy - ey * fx) * (qz - x[a + 2]);
}

/** Squared distance from p to triangle (a, b, c) (vertex offsets into x). */
function faceDistance2(x: Float64Array, a: number, b: number, c: number, px: number, py: number, pz: number): number {
  closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
  return (cpt[0] - px) ** 2 + (cpt[1] - py) ** 2 + (cpt[2] - pz) ** 2;
}

/** Squared distance from p to tet t, exact: 0 inside (either orientation), else its nearest face. */
function tetDistance2(data: SpbMeshData, t: number, px: number, py: number, pz: number): number {
  const x = data.positions;
  const ids = data.tets;
  const v0 = 3 * ids[4 * t], v1 = 3 * ids[4 * t + 1], v2 = 3 * ids[4 * t + 2], v3 = 3 * ids[4 * t + 3];
  // Inside: on the side of every face where its opposite vertex is.
  if (
    side(x, v1, v2, v3, px, py, pz) * side(x, v1, v2, v3, x[v0], x[v0 + 1], x[v0 + 2]) >= 0 &&
    side(x, v0, v2, v3, px, py, pz) * side(x, v0, v2, v3, x[v1], x[v1 + 1], x[v1 + 2]) >= 0 &&
    side(x, v0, v1, v3, px, py, pz) * side(x, v0, v1, v3, x[v2], x[v2 + 1], x[v2 + 2]) >= 0 &&
    side(x, v0, v1, v2, px, py, pz) * side(x, v0, v1, v2, x[v3], x[v3 + 1], x[v3 + 2]) >= 0
  ) {
    return 0;
  }
  return Math.min(
    faceDistance2(x, v1, v2, v3, px, py, pz),
    faceDistance2(x, v0, v2, v3, px, py, pz),
    faceDistance2(x, v0, v1, v3, px, py, pz),
    faceDistance2(x, v0, v1, v2, px, py, pz),
  );
}

/**
 * Squared radius around p clear of the inverted tets of p's component themselves (exact), for a
 * candidate beyond `clear2` (the spheres' clearance). Computed once per query, at the first
 * candidate that needs it; tets whose sphere is farther than the best so far are skipped.
 */
export function exactClearance2(data: SpbMeshData, component: number, px: number, py: number, pz: number): number {
  if (data.invertedCount > data.invertedTets.length) return 0;
  let best = Infinity;
  for (let i = 0; i < data.invertedCount; i++) {
    const t = data.invertedTets[i];
    if (data.tetComponent[t] !== component) continue;
    const gap = sphereGap(data, i, px, py, pz);
    if (gap > 0 && gap * gap >= best) continue;
    const d2 = tetDistance2(data, t, px, py, pz);
    if (d2 < best) best = d2;
  }
  return best / ((1 + MARGIN) * (1 + MARGIN));
}
