/** Closest points of two segments, as parameters (the CPU twins of ccdNarrow.wgsl segmentClosestParams). */

function dot(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/**
 * Closest points of segments p1 q1 and p2 q2 as parameters (on the first, on the second), clamped
 * (Ericson 5.1.9); parallel segments take 0 on the first (ccdNarrow.wgsl segmentClosestParams).
 */
export function segmentClosestParams(p1: readonly number[], q1: readonly number[], p2: readonly number[], q2: readonly number[]): [number, number] {
  const d1 = [q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2]];
  const d2 = [q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2]];
  const r = [p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]];
  const a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  const clamp = (t: number): number => (t < 0 ? 0 : t > 1 ? 1 : t);
  if (!(a > 0) && !(e > 0)) return [0, 0];
  if (!(a > 0)) return [0, clamp(f / e)];
  const c = dot(d1, r);
  if (!(e > 0)) return [clamp(-c / a), 0];
  const b = dot(d1, d2);
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
  return [s, u];
}
