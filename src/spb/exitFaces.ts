/**
 * Exit-face selection (paper 001, Alg. 2), in the 2D frame of the ray.
 *
 * Every vertex is projected onto the plane orthogonal to the ray (origin s, so the ray is the
 * 2D origin O). The ray entered the tet through face (a, b, c) and O lies in that face's
 * projection; it leaves through the side face (x, y, d) whose projection also contains O, which
 * for the directed edge x -> y of the entry face (counter-clockwise after the sign fix) is
 * "O right of or on line d -> x and left of or on line d -> y", i.e. det(d', x') >= 0 and
 * det(d', y') <= 0 (det(q, r) = q.u r.v - q.v r.u is O's side of line q -> r). Relaxing both
 * with eps_i lets a ray that passes near an edge or vertex select every face it may leave
 * through (branching), which is what makes the traversal robust (section 3.3).
 *
 * Because this compares the sides of one line and never the direction along the ray, the same
 * test works in inverted tets, where the ray leaves backward (section 3.5).
 */
import { TET_FACES } from '../mesh/types';

/** Local vertices of each face, flattened: face f = (FACE_VERTS[3f], FACE_VERTS[3f+1], FACE_VERTS[3f+2]). */
const FACE_VERTS = new Uint8Array(TET_FACES.flat());

/**
 * Bit mask of exit faces (bit k = local face k) of a tet entered through local face `entry`.
 * `proj` holds (u, v, z) per local vertex. `eps` is eps_i, an area (scaled by h^2 by the caller).
 */
export function exitFaceMask(proj: Float64Array, entry: number, eps: number): number {
  const ia = FACE_VERTS[3 * entry], ib = FACE_VERTS[3 * entry + 1], ic = FACE_VERTS[3 * entry + 2];
  const au = proj[3 * ia], av = proj[3 * ia + 1];
  const bu = proj[3 * ib], bv = proj[3 * ib + 1];
  const cu = proj[3 * ic], cv = proj[3 * ic + 1];
  const du = proj[3 * entry], dv = proj[3 * entry + 1];
  // Orientation of the projected entry face: flips the tests so its edges run counter-clockwise.
  // An entry face seen edge-on (|orient| <= eps) gives sign 0: every side face is selected.
  const orient = (bu - au) * (cv - av) - (bv - av) * (cu - au);
  const sign = orient > eps ? 1 : orient < -eps ? -1 : 0;
  const da = sign * (du * av - dv * au);
  const db = sign * (du * bv - dv * bu);
  const dc = sign * (du * cv - dv * cu);
  let mask = 0;
  // Edge a -> b: side face (a, b, d) is the face opposite c.
  if (da >= -eps && db <= eps) mask |= 1 << ic;
  // Edge b -> c: opposite a.
  if (db >= -eps && dc <= eps) mask |= 1 << ia;
  // Edge c -> a: opposite b.
  if (dc >= -eps && da <= eps) mask |= 1 << ib;
  return mask;
}

/**
 * Range [lo, hi] of the ray parameter (z, in units of |p - s|) where the ray meets the plane of
 * entry face `entry`: the point from O's 2D barycentrics in the projected face. A face seen
 * edge-on has no single crossing; then the range of its vertices' z is returned. Writes to out[0..1].
 */
export function entryParameterRange(proj: Float64Array, entry: number, eps: number, out: Float64Array): void {
  const ia = FACE_VERTS[3 * entry], ib = FACE_VERTS[3 * entry + 1], ic = FACE_VERTS[3 * entry + 2];
  const au = proj[3 * ia], av = proj[3 * ia + 1], az = proj[3 * ia + 2];
  const bu = proj[3 * ib], bv = proj[3 * ib + 1], bz = proj[3 * ib + 2];
  const cu = proj[3 * ic], cv = proj[3 * ic + 1], cz = proj[3 * ic + 2];
  const wa = bu * cv - bv * cu;
  const wb = cu * av - cv * au;
  const wc = au * bv - av * bu;
  const sum = wa + wb + wc;
  if (sum > eps || sum < -eps) {
    const z = (wa * az + wb * bz + wc * cz) / sum;
    out[0] = z;
    out[1] = z;
  } else {
    out[0] = Math.min(az, bz, cz);
    out[1] = Math.max(az, bz, cz);
  }
}
