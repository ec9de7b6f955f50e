/**
 * Conservative range of the CCD contact function F(t, u, v) over a parameter box
 * (Wang et al. 2021, "A Large Scale Benchmark and an Inclusion-Based Algorithm for CCD", Sec. 4:
 * an inclusion function for F over a box).
 *
 * Every point moves linearly in t, so F is multilinear in (t, u, v) (degree <= 1 in each variable):
 *   vertex-face: F = v(t) - f0(t) - u (f1(t) - f0(t)) - w (f2(t) - f0(t))
 *   edge-edge:   F = a0(t) + u (a1(t) - a0(t)) - b0(t) - w (b1(t) - b0(t))
 * A multilinear function attains its extremes over a box at the box's corners, so the exact range over
 * the box is the hull of the 8 exact corner values.
 *
 * Rounding bound (why `errorBound` below is rigorous). Box corners t, u, w are dyadic numbers in [0, 1]
 * produced by exact halving, so they carry no error. Per coordinate k let M = max |x_k| over the 8 input
 * points. Each corner value is computed with at most 19 rounded operations (+, -, *), every intermediate
 * (exact or computed) has magnitude <= 8 M (points <= M, differences <= 2M, terms <= 2M, partial sums <= 6M),
 * each rounding adds at most u_r * 8 M with u_r = 2^-53, and errors pass through +/- unchanged and through a
 * product with a factor in [0, 1] without growth. Hence |computed - exact| <= 19 * 8 * 2^-53 * M, plus at
 * most 19 * 2^-1074 from gradual underflow. We use 32 * 8 * 2^-53 * M + 1e-300, which exceeds that; the
 * spare 13 * 8 * 2^-53 * M also covers the rounding of the final `lo - err` / `hi + err` (half an ulp of a
 * value <= 7 M).
 */

export const QueryKind = { VertexFace: 0, EdgeEdge: 1 } as const;
export type QueryKind = (typeof QueryKind)[keyof typeof QueryKind];

const UNIT_ROUNDOFF = 2 ** -53;
const ROUNDING_FACTOR = 32 * 8 * UNIT_ROUNDOFF;

/**
 * Prepared query: positions at t0 (p0, 12 numbers) and displacement t0->t1 (d, 12 numbers, rounded), plus the
 * per-coordinate rounding bound. Structure of arrays, reused by the solver for every box.
 */
export interface PreparedQuery {
  kind: QueryKind;
  p0: Float64Array;
  d: Float64Array;
  err: Float64Array; // 3 numbers: rigorous bound on |computed corner value - exact| per coordinate
  scale: number; // max |coordinate| over all 24 numbers
}

export function prepareQuery(kind: QueryKind, q: ArrayLike<number>): PreparedQuery {
  const p0 = new Float64Array(12);
  const d = new Float64Array(12);
  const err = new Float64Array(3);
  const mag = [0, 0, 0];
  for (let i = 0; i < 12; i++) {
    const a = q[i];
    const b = q[i + 12];
    p0[i] = a;
    d[i] = b - a;
    const k = i % 3;
    mag[k] = Math.max(mag[k], Math.abs(a), Math.abs(b));
  }
  for (let k = 0; k < 3; k++) err[k] = ROUNDING_FACTOR * mag[k] + 1e-300;
  return { kind, p0, d, err, scale: Math.max(mag[0], mag[1], mag[2]) };
}

/**
 * Writes into out[0..5] the conservative range [lo_k, hi_k] (k = x, y, z as out[2k], out[2k+1]) of F over
 * [t0,t1] x [u0,u1] x [w0,w1]: hull of the 8 computed corner values widened by the rounding bound.
 */
export function contactRange(
  pq: PreparedQuery,
  t0: number,
  t1: number,
  u0: number,
  u1: number,
  w0: number,
  w1: number,
  out: Float64Array,
): void {
  const { p0, d, err } = pq;
  const vf = pq.kind === QueryKind.VertexFace;
  for (let k = 0; k < 3; k++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let it = 0; it < 2; it++) {
      const t = it === 0 ? t0 : t1;
      const x0 = p0[k] + t * d[k];
      const x1 = p0[3 + k] + t * d[3 + k];
      const x2 = p0[6 + k] + t * d[6 + k];
      const x3 = p0[9 + k] + t * d[9 + k];
      // vertex-face: x0 = v, x1 = f0, x2 = f1, x3 = f2; edge-edge: x0 = a0, x1 = a1, x2 = b0, x3 = b1
      let base: number, eu: number, ew: number;
      if (vf) {
        base = x0 - x1;
        eu = -(x2 - x1);
        ew = -(x3 - x1);
      } else {
        base = x0 - x2;
        eu = x1 - x0;
        ew = -(x3 - x2);
      }
      for (let iu = 0; iu < 2; iu++) {
        const a = base + (iu === 0 ? u0 : u1) * eu;
        const f0 = a + w0 * ew;
        const f1 = a + w1 * ew;
        if (f0 < lo) lo = f0;
        if (f0 > hi) hi = f0;
        if (f1 < lo) lo = f1;
        if (f1 > hi) hi = f1;
      }
    }
    out[2 * k] = lo - err[k];
    out[2 * k + 1] = hi + err[k];
  }
}
