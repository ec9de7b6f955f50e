/**
 * Infeasible-region culling (paper 000 section 3.6, eqs. 1-5; supplement 001 Alg. 4).
 *
 * A candidate s on a boundary vertex or edge cannot be the closest boundary point when p lies
 * on the side of a neighbouring boundary edge or face from which a point of that edge/face is
 * nearer (Theorem 2 then puts the answer elsewhere). Face candidates are always feasible.
 *
 * Vertex s (eq. 1): infeasible if (p - s) . (a - s) > 0 for a boundary neighbour a.
 * Edge (v0, v1) (eqs. 4-5): infeasible if p is over either adjacent face, i.e.
 * (p - s) . m > 0 where m is that face's in-plane direction perpendicular to the edge, pointing
 * into the face (toward its third vertex). This is eq. 4/5's n x (v1 - v0) without relying on
 * a winding convention. Eqs. 2-3 never fire for a candidate that is the closest point of a
 * triangle on its edge (p projects inside the edge), so they are not evaluated.
 *
 * The tolerance eps_r is a cosine, so it is independent of the scale and of |p - s|: cull only
 * when (p - s) . e > eps * |p - s| |e| (the authors scaled eps_r by |AB|^2).
 *
 * The nearer point must be a candidate. The excluded faces (exclusion.ts: those at the
 * penetrating vertex v, or the two faces of the penetrating edge (a, b)) are none, and p sits on
 * them (at v, or on edge a-b), where their nearest point is p itself: sliding the path's end from
 * s there (Theorem 2's argument) ends in a path of length 0, so s can be valid only if p's
 * pre-image is on them. The caller passes the excluded pair as (own, own2) when one of its
 * vertices is a vertex of p's tet (then the excluded faces do not make s infeasible; a
 * conservative test: culling less never changes an answer), and -1 otherwise (the usual DCD hit:
 * p in another part's tet, culling as Alg. 4).
 */
import { FEATURE_EDGE01, FEATURE_VERTEX2 } from '../geometry/closestPointOnTriangle';
import { excludesEdge, excludesTriangle } from './exclusion';
import type { SpbMeshData } from './meshData';

/** True unless p is (beyond tolerance) in the infeasible region of candidate s. */
export function isFeasible(
  data: SpbMeshData,
  triangle: number,
  feature: number,
  sx: number, sy: number, sz: number,
  px: number, py: number, pz: number,
  cosTol: number,
  own: number,
  own2 = -1,
): boolean {
  const x = data.positions;
  const tris = data.triangles;
  const dx = px - sx, dy = py - sy, dz = pz - sz;
  const dd = dx * dx + dy * dy + dz * dz;
  const c2 = cosTol * cosTol;
  if (feature <= FEATURE_VERTEX2) {
    const v = tris[3 * triangle + feature];
    const end = data.vertexNeighborOffsets[v + 1];
    for (let j = data.vertexNeighborOffsets[v]; j < end; j++) {
      if (excludesEdge(v, data.vertexNeighbors[j], own, own2)) continue; // the nearer point is on excluded faces only
      const a = 3 * data.vertexNeighbors[j];
      const ex = x[a] - sx, ey = x[a + 1] - sy, ez = x[a + 2] - sz;
      const dot = dx * ex + dy * ey + dz * ez;
      if (dot > 0 && dot * dot > c2 * dd * (ex * ex + ey * ey + ez * ez)) return false;
    }
    return true;
  }
  if (feature > FEATURE_EDGE01 + 2) return true;
  const k = feature - FEATURE_EDGE01;
  const i0 = tris[3 * triangle + k], i1 = tris[3 * triangle + ((k + 1) % 3)];
  const g = data.triangleEdgeNeighbor[3 * triangle + k];
  if (g < 0) return true;
  // The other face's third vertex: xor of its ids with the edge's two.
  const w = tris[3 * g] ^ tris[3 * g + 1] ^ tris[3 * g + 2] ^ i0 ^ i1;
  if (excludesTriangle(i0, i1, w, own, own2)) return true; // the face across is an excluded one
  const a = 3 * i0, b = 3 * i1, c = 3 * w;
  const ex = x[b] - x[a], ey = x[b + 1] - x[a + 1], ez = x[b + 2] - x[a + 2];
  const fx = x[c] - x[a], fy = x[c + 1] - x[a + 1], fz = x[c + 2] - x[a + 2];
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0)) return true;
  const t = (fx * ex + fy * ey + fz * ez) / ee;
  const mx = fx - t * ex, my = fy - t * ey, mz = fz - t * ez;
  const dot = dx * mx + dy * my + dz * mz;
  return !(dot > 0 && dot * dot > c2 * dd * (mx * mx + my * my + mz * mz));
}
