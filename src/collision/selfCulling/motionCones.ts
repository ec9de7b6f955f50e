/**
 * Cones over a motion (paper 002 section 5.3, after Tang et al.'s continuous normal cones, ICCD
 * 2009): every vertex moves linearly over the interval, x(s) = start + s * move for s in [0, 1],
 * give or take `deviation` (per vertex, in every coordinate: the vertex is within the box of that
 * half-size around x(s) at every time, independently of the others). The cones bound the normals
 * and edge directions at every time of the interval, for every such motion, so a test that
 * passes on them holds throughout.
 *
 * Triangle normal: with e1(s) = E1 + s W1 and e2(s) = E2 + s W2 its edge vectors, n(s) = e1 x e2
 * is quadratic in s, and in Bernstein form n(s) = (1-s)^2 c0 + 2 s (1-s) c1 + s^2 c2 with
 *   c0 = E1 x E2,  c1 = E1 x E2 + (E1 x W2 + W1 x E2) / 2,  c2 = (E1 + W1) x (E2 + W2):
 * n(s) lies in the convex hull of c0, c1, c2. The deviations move the edges by d1, d2 with
 * |d1| <= r1 = sqrt(3)(dev_a + dev_b), |d2| <= r2 = sqrt(3)(dev_a + dev_c), which moves the normal by
 * at most |e1| r2 + r1 |e2| + r1 r2, with |e_i(s)| <= max(|E_i|, |E_i + W_i|) (a linear function's
 * norm is convex). So the normal stays in the hull of three balls; the cone bounds the balls.
 *
 * Edge direction (u -> v): d(s) = D + s W, moved by at most sqrt(3)(dev_u + dev_v): the cone bounds
 * the balls around D and D + W, whose hull holds every d(s).
 *
 * `edgeDeviation`, when given, bounds each edge's own change directly: |(x_v - x_u) - (D + s W)|
 * stays within edgeDeviation[e] (Euclidean) at every time. A body's motion is smooth, so an edge
 * strays from its predicted vector far less than its ends stray from their predicted positions;
 * the cones use the smaller of the two bounds (contours still need the per-vertex one).
 */
import { mergeBall } from './cones';

export interface CullingMotion {
  /** xyz per vertex at s = 0. */
  start: Float64Array;
  /** xyz per vertex: where it goes over the interval (x(1) = start + move). */
  move: Float64Array;
  /** Per vertex: the half-size of the box around x(s) it stays in; null: exact linear motion. */
  deviation: Float64Array | null;
  /** Per edge of the topology: the largest change of its vector from the prediction (Euclidean); absent or null: from `deviation`. */
  edgeDeviation?: Float64Array | null;
}

const SQRT3 = Math.sqrt(3);
/** Float64 rounding of the cross products, relative to the product of the edge lengths. */
const ROUNDING = 1e-12;
const tmpCone = new Float64Array(4);

/** The bound on edge e's (u -> v) change over the motion: the smaller of the per-vertex and the per-edge one (0 for exact motion). */
function edgeRadius(m: CullingMotion, e: number, u: number, v: number): number {
  let r = m.deviation ? SQRT3 * (m.deviation[u] + m.deviation[v]) : 0;
  if (m.edgeDeviation && e >= 0) r = m.deviation ? Math.min(r, m.edgeDeviation[e]) : m.edgeDeviation[e];
  return r;
}

/**
 * Cone slot `o` of `cones` := the normal cone of triangle (a, b, c) over the motion; `ab` and `ca`
 * its edges' indices in the topology (-1: unknown, the per-vertex bound is used).
 */
export function triangleNormalCone(cones: Float64Array, o: number, m: CullingMotion, a: number, b: number, c: number, ab = -1, ca = -1): void {
  const x = m.start, w = m.move;
  const E1x = x[3 * b] - x[3 * a], E1y = x[3 * b + 1] - x[3 * a + 1], E1z = x[3 * b + 2] - x[3 * a + 2];
  const E2x = x[3 * c] - x[3 * a], E2y = x[3 * c + 1] - x[3 * a + 1], E2z = x[3 * c + 2] - x[3 * a + 2];
  const W1x = w[3 * b] - w[3 * a], W1y = w[3 * b + 1] - w[3 * a + 1], W1z = w[3 * b + 2] - w[3 * a + 2];
  const W2x = w[3 * c] - w[3 * a], W2y = w[3 * c + 1] - w[3 * a + 1], W2z = w[3 * c + 2] - w[3 * a + 2];
  // c0 = E1 x E2
  const c0x = E1y * E2z - E1z * E2y, c0y = E1z * E2x - E1x * E2z, c0z = E1x * E2y - E1y * E2x;
  // E1 x W2 + W1 x E2
  const mx = E1y * W2z - E1z * W2y + (W1y * E2z - W1z * E2y);
  const my = E1z * W2x - E1x * W2z + (W1z * E2x - W1x * E2z);
  const mz = E1x * W2y - E1y * W2x + (W1x * E2y - W1y * E2x);
  const F1x = E1x + W1x, F1y = E1y + W1y, F1z = E1z + W1z;
  const F2x = E2x + W2x, F2y = E2y + W2y, F2z = E2z + W2z;
  const c2x = F1y * F2z - F1z * F2y, c2y = F1z * F2x - F1x * F2z, c2z = F1x * F2y - F1y * F2x;
  const M1 = Math.max(Math.sqrt(E1x * E1x + E1y * E1y + E1z * E1z), Math.sqrt(F1x * F1x + F1y * F1y + F1z * F1z));
  const M2 = Math.max(Math.sqrt(E2x * E2x + E2y * E2y + E2z * E2z), Math.sqrt(F2x * F2x + F2y * F2y + F2z * F2z));
  let eps = ROUNDING * (M1 * M2 + (M1 + M2) * (M1 + M2));
  if (m.deviation || m.edgeDeviation) {
    const r1 = edgeRadius(m, ab, a, b), r2 = edgeRadius(m, ca, a, c);
    eps += M1 * r2 + r1 * M2 + r1 * r2;
  }
  mergeBall(cones, o, c0x, c0y, c0z, eps, tmpCone, true);
  // A ball equal to the first adds nothing while the cone is still the first's (mergeCone of a
  // cone with itself: angle 0, returned unchanged), so it is skipped: a triangle that keeps its
  // shape (no relative motion) gets three equal balls.
  const c1x = c0x + 0.5 * mx, c1y = c0y + 0.5 * my, c1z = c0z + 0.5 * mz;
  const same1 = c1x === c0x && c1y === c0y && c1z === c0z;
  if (!same1) mergeBall(cones, o, c1x, c1y, c1z, eps, tmpCone, false);
  if (!(same1 && c2x === c0x && c2y === c0y && c2z === c0z)) mergeBall(cones, o, c2x, c2y, c2z, eps, tmpCone, false);
}

/** Merges the direction cone of edge u -> v (index e in the topology, or -1) over the motion into cone slot `o` (`first`: sets it). */
export function mergeEdgeDirection(cones: Float64Array, o: number, m: CullingMotion, u: number, v: number, first: boolean, e = -1): void {
  const x = m.start, w = m.move;
  const Dx = x[3 * v] - x[3 * u], Dy = x[3 * v + 1] - x[3 * u + 1], Dz = x[3 * v + 2] - x[3 * u + 2];
  const Fx = Dx + w[3 * v] - w[3 * u], Fy = Dy + w[3 * v + 1] - w[3 * u + 1], Fz = Dz + w[3 * v + 2] - w[3 * u + 2];
  const L = Math.max(Math.sqrt(Dx * Dx + Dy * Dy + Dz * Dz), Math.sqrt(Fx * Fx + Fy * Fy + Fz * Fz));
  const r = ROUNDING * L + edgeRadius(m, e, u, v);
  mergeBall(cones, o, Dx, Dy, Dz, r, tmpCone, first);
  // An edge that keeps its vector: the second ball is the first (triangleNormalCone), skipped.
  if (!(first && Fx === Dx && Fy === Dy && Fz === Dz)) mergeBall(cones, o, Fx, Fy, Fz, r, tmpCone, false);
}
