/**
 * Which boundary triangles a query point never answers with, and which of them culling must
 * not use as witnesses (paper 000 section 3.3, the zero-length case, extended to edge points).
 *
 * A query carries up to two excluded vertices (e1, e2):
 * - a boundary vertex v found inside a tet: (v, -1), every triangle at v is excluded (p is v, so
 *   each of them touches p: no direction to traverse);
 * - a point on boundary edge (a, b) (the centre of the part of the edge inside a tet, paper
 *   section 4): (a, b), only the edge's own two triangles are excluded (they hold p); the other
 *   triangles at a or b are at a positive distance and are candidates like any other;
 * - a tet centroid: (-1, -1), nothing excluded.
 * Rule: f is excluded when it contains e1 and (e2 < 0 or it contains e2).
 */

/** True when triangle (i0, i1, i2) is excluded by (e1, e2) (rule above). */
export function excludesTriangle(i0: number, i1: number, i2: number, e1: number, e2: number): boolean {
  if (e1 < 0) return false;
  if (i0 !== e1 && i1 !== e1 && i2 !== e1) return false;
  return e2 < 0 || i0 === e2 || i1 === e2 || i2 === e2;
}

/**
 * Every triangle holding boundary edge (v, w) is excluded by (e1, e2): for a single vertex when
 * v or w is it, for an edge point when {v, w} is the edge itself. (Culling's eq. 1 witness for a
 * vertex candidate v is the nearer point on its boundary edge (v, w), held by those triangles.)
 */
export function excludesEdge(v: number, w: number, e1: number, e2: number): boolean {
  if (e1 < 0) return false;
  if (e2 < 0) return v === e1 || w === e1;
  return (v === e1 && w === e2) || (v === e2 && w === e1);
}
