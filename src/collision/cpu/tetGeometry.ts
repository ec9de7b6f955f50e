/**
 * Point-in-tet predicates of discrete detection (paper 000 section 4), float64. A tet's four
 * barycentric sub-volumes are affine in the point, so they also clip a segment to the tet (the
 * edge points: the part of a boundary edge inside a tet).
 */

/** Six times the signed volume det[b - a, c - a, d - a] of tet t; d given by coordinates. */
function det(x: Float64Array, a: number, b: number, c: number, dx: number, dy: number, dz: number): number {
  const ax = x[3 * a], ay = x[3 * a + 1], az = x[3 * a + 2];
  const ux = x[3 * b] - ax, uy = x[3 * b + 1] - ay, uz = x[3 * b + 2] - az;
  const vx = x[3 * c] - ax, vy = x[3 * c + 1] - ay, vz = x[3 * c + 2] - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

/** Six times the signed volume of tet t (positive: not inverted). */
export function tetVolume6(x: Float64Array, tets: Uint32Array, t: number): number {
  const d = tets[4 * t + 3];
  return det(x, tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], x[3 * d], x[3 * d + 1], x[3 * d + 2]);
}

/**
 * The four sub-volumes (x 6) of tet t with p in place of corner i, into out[o..o+3]. Their sum
 * is the tet's volume x 6; p is strictly inside a positive tet when all four are > 0.
 */
export function subVolumes(x: Float64Array, tets: Uint32Array, t: number, px: number, py: number, pz: number, out: Float64Array, o: number): void {
  const a = tets[4 * t], b = tets[4 * t + 1], c = tets[4 * t + 2], d = tets[4 * t + 3];
  out[o] = -det(x, b, c, d, px, py, pz); // (p, b, c, d): an odd permutation of (b, c, d, p)
  out[o + 1] = det(x, a, c, d, px, py, pz); // (a, p, c, d): even
  out[o + 2] = -det(x, a, b, d, px, py, pz); // (a, b, p, d): odd
  out[o + 3] = det(x, a, b, c, px, py, pz);
}

/** p strictly inside tet t (assumed positive): every sub-volume > 0. `s` is 4 words of scratch. */
export function strictlyInside(x: Float64Array, tets: Uint32Array, t: number, px: number, py: number, pz: number, s: Float64Array): boolean {
  subVolumes(x, tets, t, px, py, pz, s, 0);
  return s[0] > 0 && s[1] > 0 && s[2] > 0 && s[3] > 0;
}

/**
 * Clips segment a + u (b - a), u in [0, 1], to positive tet t: each sub-volume is affine in u,
 * so the part inside is where all four are >= 0. Writes [u0, u1] to out[0..1] and returns
 * u1 - u0 (<= 0: the segment misses the tet, or only touches it). `s` is 8 words of scratch.
 */
export function clipSegment(x: Float64Array, tets: Uint32Array, t: number, a: number, b: number, s: Float64Array, out: Float64Array): number {
  subVolumes(x, tets, t, x[3 * a], x[3 * a + 1], x[3 * a + 2], s, 0);
  subVolumes(x, tets, t, x[3 * b], x[3 * b + 1], x[3 * b + 2], s, 4);
  let u0 = 0, u1 = 1;
  for (let i = 0; i < 4; i++) {
    const fa = s[i], fb = s[4 + i];
    if (fa < 0 && fb < 0) return -1;
    if (fa < 0) u0 = Math.max(u0, fa / (fa - fb)); // enters the half-space
    else if (fb < 0) u1 = Math.min(u1, fa / (fa - fb)); // leaves it
  }
  out[0] = u0;
  out[1] = u1;
  return u1 - u0;
}
