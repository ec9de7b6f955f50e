/** Float32 rounding of box corners outward (the broad phase's boxes must contain what they bound, in the f32 the GPU reads). */

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
