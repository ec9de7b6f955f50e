/** Closest points of two segments, as parameters (the CPU twins of ccdNarrow.wgsl segmentClosestParams). */

const clamp = (t: number): number => (t < 0 ? 0 : t > 1 ? 1 : t);

/**
 * Closest points of segments p1 q1 and p2 q2 as parameters (on the first, on the second), clamped
 * (Ericson 5.1.9); parallel segments take 0 on the first (ccdNarrow.wgsl segmentClosestParams).
 * Coordinates one by one and the answer in out[0], out[1]: nothing allocated (the CCD's hot loop).
 */
export function segmentClosestParamsInto(
  p1x: number, p1y: number, p1z: number, q1x: number, q1y: number, q1z: number,
  p2x: number, p2y: number, p2z: number, q2x: number, q2y: number, q2z: number,
  out: Float64Array,
): void {
  const d1x = q1x - p1x, d1y = q1y - p1y, d1z = q1z - p1z;
  const d2x = q2x - p2x, d2y = q2y - p2y, d2z = q2z - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  out[0] = 0;
  out[1] = 0;
  if (!(a > 0) && !(e > 0)) return;
  if (!(a > 0)) {
    out[1] = clamp(f / e);
    return;
  }
  const c = d1x * rx + d1y * ry + d1z * rz;
  if (!(e > 0)) {
    out[0] = clamp(-c / a);
    return;
  }
  const b = d1x * d2x + d1y * d2y + d1z * d2z;
  const den = a * e - b * b;
  let s = den > 1e-12 * a * e ? clamp((b * f - c * e) / den) : 0;
  let u = (b * s + f) / e;
  if (u < 0) {
    u = 0;
    s = clamp(-c / a);
  } else if (u > 1) {
    u = 1;
    s = clamp((b - c) / a);
  }
  out[0] = s;
  out[1] = u;
}

const scratch = new Float64Array(2);

/** segmentClosestParamsInto on points given as arrays, returning [on the first, on the second]. */
export function segmentClosestParams(p1: readonly number[], q1: readonly number[], p2: readonly number[], q2: readonly number[]): [number, number] {
  segmentClosestParamsInto(p1[0], p1[1], p1[2], q1[0], q1[1], q1[2], p2[0], p2[1], p2[2], q2[0], q2[1], q2[2], scratch);
  return [scratch[0], scratch[1]];
}
