/**
 * Test oracle: the part of segment a -> b inside a tet, by clipping against the tet's four face
 * half-spaces (each oriented so that the opposite vertex is inside). Written for the tests from
 * the definition (spec "edge (a,b) crossing tet t"), no code shared with src/.
 */
function orient(p: number[], q: number[], r: number[], s: number[]): number {
  const e1 = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], e2 = [r[0] - p[0], r[1] - p[1], r[2] - p[2]], e3 = [s[0] - p[0], s[1] - p[1], s[2] - p[2]];
  return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
}

function corners(x: ArrayLike<number>, tets: ArrayLike<number>, t: number): number[][] {
  return [0, 1, 2, 3].map((k) => [x[3 * tets[4 * t + k]], x[3 * tets[4 * t + k] + 1], x[3 * tets[4 * t + k] + 2]]);
}

/** [t0, t1] of a + t (b - a) inside tet t (closed), or null when empty or of zero length. */
export function clipSegmentToTet(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, a: number[], b: number[]): [number, number] | null {
  const P = corners(x, tets, t);
  const vol = orient(P[0], P[1], P[2], P[3]);
  if (!(vol > 0)) return null;
  let t0 = 0, t1 = 1;
  for (let i = 0; i < 4; i++) {
    // Signed volume with the point in place of vertex i: positive inside face i's half-space.
    const withPoint = (q: number[]): number => orient(...(P.map((c, k) => (k === i ? q : c)) as [number[], number[], number[], number[]]));
    const ga = withPoint(a), gb = withPoint(b);
    if (ga < 0 && gb < 0) return null;
    if (ga < 0) t0 = Math.max(t0, ga / (ga - gb));
    else if (gb < 0) t1 = Math.min(t1, ga / (ga - gb));
  }
  return t1 > t0 ? [t0, t1] : null;
}

/** Smallest barycentric coordinate of p in tet t (positive: strictly inside). */
export function minBarycentric(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, p: number[]): number {
  const P = corners(x, tets, t);
  const vol = orient(P[0], P[1], P[2], P[3]);
  let m = Infinity;
  for (let i = 0; i < 4; i++) m = Math.min(m, orient(...(P.map((c, k) => (k === i ? p : c)) as [number[], number[], number[], number[]])) / vol);
  return m;
}
