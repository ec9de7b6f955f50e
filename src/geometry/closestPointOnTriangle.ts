/**
 * Closest point on a triangle to a point, with the feature it lies on and its barycentrics.
 *
 * The shortest-path query (paper 000, Theorem 2) tests one candidate per boundary face: the
 * Euclidean closest point, and infeasible-region culling (section 3.6) needs to know whether
 * that point is on a vertex, an edge or the face interior. Voronoi-region tests in the style of
 * Ericson (Real-Time Collision Detection, 5.1.5) give both at once; each region test is a sign of
 * dot products, so a point exactly on a region border gets the lower-dimensional feature.
 *
 * Allocation-free: results go to a caller-provided scratch array, features are small integers
 * (the WGSL port uses the same codes).
 */

/** Feature codes. Edge k joins vertex k and vertex (k + 1) % 3. */
export const FEATURE_VERTEX0 = 0;
export const FEATURE_VERTEX1 = 1;
export const FEATURE_VERTEX2 = 2;
export const FEATURE_EDGE01 = 3;
export const FEATURE_EDGE12 = 4;
export const FEATURE_EDGE20 = 5;
export const FEATURE_FACE = 6;

/** True for the three vertex codes. */
export function isVertexFeature(feature: number): boolean {
  return feature <= FEATURE_VERTEX2;
}

/** True for the three edge codes. */
export function isEdgeFeature(feature: number): boolean {
  return feature >= FEATURE_EDGE01 && feature <= FEATURE_EDGE20;
}

/**
 * Squared area-vector length below which a triangle counts as degenerate, relative to its
 * longest squared edge squared: |n|^2 < DEGENERATE_REL * maxEdge2^2. Such triangles have no
 * stable plane, so the closest point is taken on the nearest of the three edges instead.
 */
export const DEGENERATE_REL = 1e-14;

/** Output layout of `out` (length >= 6): point xyz, then barycentrics (wa, wb, wc), sum 1. */
export const CPT_OUT_LENGTH = 6;

function setResult(
  out: Float64Array,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  wa: number, wb: number, wc: number,
): void {
  out[0] = wa * ax + wb * bx + wc * cx;
  out[1] = wa * ay + wb * by + wc * cy;
  out[2] = wa * az + wb * bz + wc * cz;
  out[3] = wa;
  out[4] = wb;
  out[5] = wc;
}

/**
 * Parameter t in [0, 1] of the closest point on segment (a, a + e) to point d (d given relative
 * to a); 0 for a zero-length segment.
 */
function segmentParam(dx: number, dy: number, dz: number, ex: number, ey: number, ez: number): number {
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0)) return 0;
  const t = (dx * ex + dy * ey + dz * ez) / ee;
  return t <= 0 ? 0 : t >= 1 ? 1 : t;
}

/**
 * Closest point on triangle (a, b, c) to p. Writes point and barycentrics to `out`, returns the
 * feature code. Robust for degenerate triangles (collinear or coincident vertices): they fall
 * back to the closest of the three edges, reporting vertex or edge features only.
 */
export function closestPointOnTriangle(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  out: Float64Array,
): number {
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const bcx = cx - bx, bcy = cy - by, bcz = cz - bz;
  const ab2 = abx * abx + aby * aby + abz * abz;
  const ac2 = acx * acx + acy * acy + acz * acz;
  const bc2 = bcx * bcx + bcy * bcy + bcz * bcz;
  const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const maxE2 = Math.max(ab2, ac2, bc2);
  if (!(n2 > DEGENERATE_REL * maxE2 * maxE2)) return closestOnDegenerate(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz, out);

  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  // Vertex region of a.
  if (d1 <= 0 && d2 <= 0) {
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 1, 0, 0);
    return FEATURE_VERTEX0;
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  // Vertex region of b.
  if (d3 >= 0 && d4 <= d3) {
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 0, 1, 0);
    return FEATURE_VERTEX1;
  }
  // Edge region of ab.
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 1 - t, t, 0);
    return FEATURE_EDGE01;
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  // Vertex region of c.
  if (d6 >= 0 && d5 <= d6) {
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 0, 0, 1);
    return FEATURE_VERTEX2;
  }
  // Edge region of ca.
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 1 - t, 0, t);
    return FEATURE_EDGE20;
  }
  // Edge region of bc.
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
    setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 0, 1 - t, t);
    return FEATURE_EDGE12;
  }
  // Face interior: va, vb, vc are the (scaled) barycentrics, their sum is |n|^2 > 0.
  const inv = 1 / (va + vb + vc);
  const v = vb * inv;
  const w = vc * inv;
  setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, 1 - v - w, v, w);
  return FEATURE_FACE;
}

/** Degenerate triangle: the closest point of its three edges (segments). */
function closestOnDegenerate(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  out: Float64Array,
): number {
  let best = Infinity;
  let feature = FEATURE_VERTEX0;
  let wa = 1, wb = 0, wc = 0;
  for (let k = 0; k < 3; k++) {
    // Edge k from vertex k to vertex (k + 1) % 3.
    const sx = k === 0 ? ax : k === 1 ? bx : cx, sy = k === 0 ? ay : k === 1 ? by : cy, sz = k === 0 ? az : k === 1 ? bz : cz;
    const ex = (k === 0 ? bx : k === 1 ? cx : ax) - sx;
    const ey = (k === 0 ? by : k === 1 ? cy : ay) - sy;
    const ez = (k === 0 ? bz : k === 1 ? cz : az) - sz;
    const t = segmentParam(px - sx, py - sy, pz - sz, ex, ey, ez);
    const qx = sx + t * ex - px, qy = sy + t * ey - py, qz = sz + t * ez - pz;
    const d2 = qx * qx + qy * qy + qz * qz;
    if (d2 < best) {
      best = d2;
      const k1 = (k + 1) % 3;
      if (t <= 0) feature = k;
      else if (t >= 1) feature = k1;
      else feature = FEATURE_EDGE01 + k;
      const w0 = 1 - t;
      wa = (k === 0 ? w0 : 0) + (k1 === 0 ? t : 0);
      wb = (k === 1 ? w0 : 0) + (k1 === 1 ? t : 0);
      wc = (k === 2 ? w0 : 0) + (k1 === 2 ? t : 0);
      if (feature <= FEATURE_VERTEX2) {
        wa = feature === 0 ? 1 : 0;
        wb = feature === 1 ? 1 : 0;
        wc = feature === 2 ? 1 : 0;
      }
    }
  }
  setResult(out, ax, ay, az, bx, by, bz, cx, cy, cz, wa, wb, wc);
  return feature;
}

/**
 * Barycentrics of b and c for p's projection on the plane of (a, b, c) (Ericson 3.4), unclamped
 * (a's is 1 - out[0] - out[1]), into out[0..2); (0, 0) for a degenerate triangle. Each point is
 * given relative to a: u = b - a, v = c - a, d = p - a. Twin: projectedBarycentrics in
 * shaders/lib/closestPointOnTriangle.wgsl.
 */
export function projectedBarycentrics(
  ux: number, uy: number, uz: number, vx: number, vy: number, vz: number, dx: number, dy: number, dz: number, out: Float64Array,
): void {
  const uu = ux * ux + uy * uy + uz * uz, uv = ux * vx + uy * vy + uz * vz, vv = vx * vx + vy * vy + vz * vz;
  const du = dx * ux + dy * uy + dz * uz, dv = dx * vx + dy * vy + dz * vz;
  const den = uu * vv - uv * uv;
  if (!(den > 0)) {
    out[0] = out[1] = 0;
    return;
  }
  out[0] = (vv * du - uv * dv) / den;
  out[1] = (uu * dv - uv * du) / den;
}
