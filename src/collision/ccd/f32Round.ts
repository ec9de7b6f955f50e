/**
 * Box arithmetic shared by the broad phase and its kept pairs: float32 rounding of box corners
 * outward (the boxes must contain what they bound, in the f32 the GPU reads) and the overlap test.
 */

const F32_EPS = 2 ** -23;
const F32_MIN_SUBNORMAL = 2 ** -149;

/** Largest float32 <= x (a box corner rounded outward, never inward). */
export function roundDown(x: number): number {
  const f = Math.fround(x);
  return f <= x ? f : Math.fround(f - Math.abs(f) * F32_EPS - F32_MIN_SUBNORMAL);
}

/** Smallest float32 >= x. */
export function roundUp(x: number): number {
  const f = Math.fround(x);
  return f >= x ? f : Math.fround(f + Math.abs(f) * F32_EPS + F32_MIN_SUBNORMAL);
}

/** Whether box i of a and box j of b (6 floats each: min xyz, max xyz) overlap, touching included. */
export function overlap(a: Float32Array, i: number, b: Float32Array, j: number): boolean {
  const o = 6 * i, p = 6 * j;
  return a[o] <= b[p + 3] && b[p] <= a[o + 3] && a[o + 1] <= b[p + 4] && b[p + 1] <= a[o + 4] && a[o + 2] <= b[p + 5] && b[p + 2] <= a[o + 5];
}
