/**
 * The third culling condition of paper 002 (section 5.1, Algorithm 1's ContourOverlapTest,
 * continuous as in section 5.3): projected along the axis V of the node's normal cone, no two
 * pieces (chains) of the node's contour meet, at any time of the motion (motionCones.ts).
 *
 * Each contour vertex is projected at s = 0 and s = 1 onto the plane normal to V; projection is
 * linear, so the projected vertex moves linearly between them, give or take its deviation. What the
 * tests need is how far two contour vertices p and q can stray from their predicted relative
 * position, rel(p, q): at most the sum of their own bounds (the projection of a box of half-size
 * dev lies in a disc of radius sqrt(3) dev), and, with per-edge bounds, at most the sum of the edge
 * bounds along the contour between them (each edge's vector strays by at most its bound, so a path
 * of edges by at most their sum), whichever is smaller. Near each other along the contour (where
 * pieces hand over) the second is the tight one.
 *
 * As the paper does, bounding boxes of the projected edges (here swept over the motion) go first;
 * edge pairs whose boxes meet get an exact-sign test:
 *
 * - two edges without a common vertex are apart at time s when both ends of one lie strictly on
 *   the same side of the other's line. The side is the sign of the 2D cross product
 *   o(s) = (B - A) x (Q - A), quadratic in s: its Bernstein coefficients bound it on [0, 1], widened
 *   by what rel() lets it change. Undecided intervals are halved (twice at most).
 * - two edges meeting at a vertex (where one piece hands over to the next) overlap beyond it only
 *   when they fold back onto each other: apart when their directions' cross product keeps one
 *   sign, or their dot product stays positive, over the interval.
 *
 * Anything undecided counts as a meeting (the node is not culled): the test never passes a
 * contour that could touch itself.
 */
import type { CullingMotion } from './motionCones';

const SQRT3 = Math.sqrt(3);
/** Relative float64 rounding of a 2D cross or dot product of differences, and of a projection. */
const ROUNDING = 1e-12;
/** Halvings of the time interval for an undecided edge pair (each level doubles the work of that pair). */
const MAX_SPLITS = 2;
/** Floats per contour vertex: projected position at s = 0 (x, y) and at s = 1 (x, y). */
const POINT_FLOATS = 4;

export class ContourTest {
  private point = new Float64Array(0);
  /** Per contour vertex: its own bound (sqrt(3) dev + rounding), and its box radius. */
  private own = new Float64Array(0);
  private boxRadius = new Float64Array(0);
  /** Per contour vertex: the sum of the edge bounds along the contour up to it (with per-edge bounds). */
  private prefix = new Float64Array(0);
  private loopTotal = 0;
  private loopBounds = false;
  private count = 0;
  private box = new Float64Array(0);
  private chainBox = new Float64Array(0);
  /** Edge pairs examined by the exact-sign test (a statistic of the last calls). */
  exactTests = 0;

  private grow(edges: number, chains: number): void {
    if (this.point.length < POINT_FLOATS * edges) {
      this.point = new Float64Array(POINT_FLOATS * edges * 2);
      this.own = new Float64Array(edges * 2);
      this.boxRadius = new Float64Array(edges * 2);
      this.prefix = new Float64Array(edges * 2 + 1);
      this.box = new Float64Array(4 * edges * 2);
    }
    if (this.chainBox.length < 4 * chains) this.chainBox = new Float64Array(4 * chains * 2);
  }

  /** How far contour vertices p and q (loop positions) may stray from their predicted relative position. */
  private rel(p: number, q: number): number {
    let r = this.own[p] + this.own[q];
    if (this.loopBounds) {
      const d = Math.abs(this.prefix[q] - this.prefix[p]);
      r = Math.min(r, Math.min(d, this.loopTotal - d) + ROUNDING * this.loopTotal);
    }
    return r;
  }

  /**
   * Whether the chains of one contour stay apart in projection along unit V (vx, vy, vz):
   * contour edges from[k] -> to[k] for k in [begin, end), consecutive along one closed loop (to[k]
   * = from[k + 1], the last edge ending where the first starts), chain c covering [chainStart[c],
   * chainEnd[c]) for c in [chainBegin, chainStop). `edgeOf` (the topology's edge index of each
   * contour edge) lets the motion's per-edge bounds tighten rel(); null: per-vertex bounds only.
   */
  chainsApart(
    m: CullingMotion, vx: number, vy: number, vz: number,
    from: Uint32Array, to: Uint32Array, begin: number, end: number,
    chainStart: Uint32Array, chainEnd: Uint32Array, chainBegin: number, chainStop: number,
    edgeOf: Uint32Array | null = null,
  ): boolean {
    const count = end - begin, chains = chainStop - chainBegin;
    if (chains < 2) return false;
    this.grow(count, chains);
    this.count = count;
    // Frame (U, W) of the plane normal to V.
    let ux: number, uy: number, uz: number;
    if (Math.abs(vx) < 0.9) {
      ux = 0; uy = vz; uz = -vy; // V x (1, 0, 0)
    } else {
      ux = -vz; uy = 0; uz = vx; // V x (0, 1, 0)
    }
    const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
    ux /= ul; uy /= ul; uz /= ul;
    const wx = vy * uz - vz * uy, wy = vz * ux - vx * uz, wz = vx * uy - vy * ux;
    const x = m.start, mv = m.move, dev = m.deviation, edgeDev = m.edgeDeviation ?? null;
    const point = this.point, own = this.own, prefix = this.prefix;
    this.loopBounds = edgeDev !== null && edgeOf !== null;
    prefix[0] = 0;
    for (let i = 0; i < count; i++) {
      const v = from[begin + i];
      const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
      const qx = px + mv[3 * v], qy = py + mv[3 * v + 1], qz = pz + mv[3 * v + 2];
      const p = POINT_FLOATS * i;
      point[p] = px * ux + py * uy + pz * uz;
      point[p + 1] = px * wx + py * wy + pz * wz;
      point[p + 2] = qx * ux + qy * uy + qz * uz;
      point[p + 3] = qx * wx + qy * wy + qz * wz;
      const rounding = ROUNDING * (Math.abs(px) + Math.abs(py) + Math.abs(pz) + Math.abs(qx) + Math.abs(qy) + Math.abs(qz));
      // Without any bound the motion is exact; with only per-edge bounds a vertex on its own is unbounded.
      own[i] = rounding + (dev ? SQRT3 * dev[v] : this.loopBounds ? Infinity : 0);
      this.boxRadius[i] = rounding;
      if (this.loopBounds) {
        const e = edgeOf![begin + i], u = from[begin + i], w = to[begin + i];
        let b = edgeDev![e];
        if (dev) b = Math.min(b, SQRT3 * (dev[u] + dev[w]));
        prefix[i + 1] = prefix[i] + b;
      }
    }
    this.loopTotal = this.loopBounds ? prefix[count] : 0;
    // Box radius per vertex: each vertex within it of its predicted position, up to one translation
    // common to the contour (which moves boxes alike). Per-vertex bounds give it directly; with
    // per-edge bounds only, any two vertices stray apart by at most half the loop's sum, and points
    // that pairwise close lie within that over sqrt(3) of one centre (Jung's theorem in the plane).
    const boxRadius = this.boxRadius;
    const jung = (this.loopTotal / (2 * Math.sqrt(3))) * (1 + 1e-9);
    for (let i = 0; i < count; i++) boxRadius[i] = dev || !this.loopBounds ? own[i] : jung + boxRadius[i];
    const box = this.box, chainBox = this.chainBox;
    for (let i = 0; i < count; i++) {
      const a = POINT_FLOATS * i, b = POINT_FLOATS * ((i + 1) % count);
      const r = Math.max(boxRadius[i], boxRadius[(i + 1) % count]);
      const q = 4 * i;
      box[q] = Math.min(point[a], point[a + 2], point[b], point[b + 2]) - r;
      box[q + 1] = Math.min(point[a + 1], point[a + 3], point[b + 1], point[b + 3]) - r;
      box[q + 2] = Math.max(point[a], point[a + 2], point[b], point[b + 2]) + r;
      box[q + 3] = Math.max(point[a + 1], point[a + 3], point[b + 1], point[b + 3]) + r;
    }
    for (let c = 0; c < chains; c++) {
      const q = 4 * c;
      chainBox[q] = chainBox[q + 1] = Infinity;
      chainBox[q + 2] = chainBox[q + 3] = -Infinity;
      for (let i = chainStart[chainBegin + c] - begin; i < chainEnd[chainBegin + c] - begin; i++) {
        chainBox[q] = Math.min(chainBox[q], box[4 * i]);
        chainBox[q + 1] = Math.min(chainBox[q + 1], box[4 * i + 1]);
        chainBox[q + 2] = Math.max(chainBox[q + 2], box[4 * i + 2]);
        chainBox[q + 3] = Math.max(chainBox[q + 3], box[4 * i + 3]);
      }
    }
    for (let c = 0; c < chains; c++) {
      for (let d = c + 1; d < chains; d++) {
        if (!boxesMeet(chainBox, 4 * c, chainBox, 4 * d)) continue;
        const iEnd = chainEnd[chainBegin + c] - begin, jEnd = chainEnd[chainBegin + d] - begin;
        for (let i = chainStart[chainBegin + c] - begin; i < iEnd; i++) {
          if (!boxesMeet(box, 4 * i, chainBox, 4 * d)) continue;
          for (let j = chainStart[chainBegin + d] - begin; j < jEnd; j++) {
            if (!boxesMeet(box, 4 * i, box, 4 * j)) continue;
            const fi = from[begin + i], ti = to[begin + i], fj = from[begin + j], tj = to[begin + j];
            if (ti === fj) {
              if (!this.noFoldBack(i, j)) return false;
            } else if (tj === fi) {
              if (!this.noFoldBack(j, i)) return false;
            } else if (fi === fj || ti === tj) {
              return false; // not a simple loop (cannot happen for loops checked by cullingTree.ts)
            } else {
              this.exactTests++;
              if (!this.apart(i, j, 0, 1, 0)) return false;
            }
          }
        }
      }
    }
    return true;
  }

  /**
   * Sign of o(s) = (B - A) x (Q - A) for s in [s0, s1], A, B, Q contour vertices (loop positions):
   * +1 or -1 when it keeps that sign for every motion within the bounds, 0 when undecided.
   */
  private orientSign(a: number, b: number, q: number, s0: number, s1: number): number {
    const p = this.point;
    const A = POINT_FLOATS * a, B = POINT_FLOATS * b, Q = POINT_FLOATS * q;
    const ax0 = lerp(p[A], p[A + 2], s0), ay0 = lerp(p[A + 1], p[A + 3], s0), ax1 = lerp(p[A], p[A + 2], s1), ay1 = lerp(p[A + 1], p[A + 3], s1);
    const bx0 = lerp(p[B], p[B + 2], s0), by0 = lerp(p[B + 1], p[B + 3], s0), bx1 = lerp(p[B], p[B + 2], s1), by1 = lerp(p[B + 1], p[B + 3], s1);
    const qx0 = lerp(p[Q], p[Q + 2], s0), qy0 = lerp(p[Q + 1], p[Q + 3], s0), qx1 = lerp(p[Q], p[Q + 2], s1), qy1 = lerp(p[Q + 1], p[Q + 3], s1);
    return bernsteinSign(bx0 - ax0, by0 - ay0, bx1 - ax1, by1 - ay1, qx0 - ax0, qy0 - ay0, qx1 - ax1, qy1 - ay1, this.rel(a, b), this.rel(a, q), true);
  }

  /** Whether edges i and j (no common vertex) stay apart over [s0, s1], halving undecided intervals. */
  private apart(i: number, j: number, s0: number, s1: number, depth: number): boolean {
    const n = this.count, i1 = (i + 1) % n, j1 = (j + 1) % n;
    // Both ends of j strictly on one side of i's line, or both ends of i on one side of j's line.
    const a = this.orientSign(i, i1, j, s0, s1);
    if (a !== 0 && a === this.orientSign(i, i1, j1, s0, s1)) return true;
    const b = this.orientSign(j, j1, i, s0, s1);
    if (b !== 0 && b === this.orientSign(j, j1, i1, s0, s1)) return true;
    if (depth >= MAX_SPLITS) return false;
    const mid = 0.5 * (s0 + s1);
    return this.apart(i, j, s0, mid, depth + 1) && this.apart(i, j, mid, s1, depth + 1);
  }

  /**
   * Edges i = (u -> v) and j = (v -> w), consecutive on the loop: whether their projections meet
   * only at v over [0, 1] (not collinear at any time, or always pointing on the same side).
   */
  private noFoldBack(i: number, j: number): boolean {
    const n = this.count, p = this.point;
    const U = POINT_FLOATS * i, V = POINT_FLOATS * j, W = POINT_FLOATS * ((j + 1) % n);
    const d0x = p[V] - p[U], d0y = p[V + 1] - p[U + 1], d1x = p[V + 2] - p[U + 2], d1y = p[V + 3] - p[U + 3];
    const g0x = p[W] - p[V], g0y = p[W + 1] - p[V + 1], g1x = p[W + 2] - p[V + 2], g1y = p[W + 3] - p[V + 3];
    const rD = this.rel(i, j), rG = this.rel(j, (j + 1) % n);
    if (bernsteinSign(d0x, d0y, d1x, d1y, g0x, g0y, g1x, g1y, rD, rG, true) !== 0) return true;
    return bernsteinSign(d0x, d0y, d1x, d1y, g0x, g0y, g1x, g1y, rD, rG, false) > 0;
  }
}

function boxesMeet(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  return a[i] <= b[j + 2] && b[j] <= a[i + 2] && a[i + 1] <= b[j + 3] && b[j + 1] <= a[i + 3];
}

/**
 * Sign over t in [0, 1] of cross(D(t), G(t)) (or dot, `cross` false) for D and G linear from
 * (d0, g0) to (d1, g1), each moved by at most rD, rG: +1, -1 or 0 (undecided).
 */
function bernsteinSign(
  d0x: number, d0y: number, d1x: number, d1y: number, g0x: number, g0y: number, g1x: number, g1y: number, rD: number, rG: number, cross: boolean,
): number {
  if (!(rD < Infinity && rG < Infinity)) return 0;
  const ddx = d1x - d0x, ddy = d1y - d0y, dgx = g1x - g0x, dgy = g1y - g0y;
  let b0: number, b1: number, b2: number;
  if (cross) {
    b0 = d0x * g0y - d0y * g0x;
    b2 = d1x * g1y - d1y * g1x;
    b1 = b0 + 0.5 * (d0x * dgy - d0y * dgx + (ddx * g0y - ddy * g0x));
  } else {
    b0 = d0x * g0x + d0y * g0y;
    b2 = d1x * g1x + d1y * g1y;
    b1 = b0 + 0.5 * (d0x * dgx + d0y * dgy + (ddx * g0x + ddy * g0y));
  }
  const lo = Math.min(b0, b1, b2), hi = Math.max(b0, b1, b2);
  // The answer with err from the norms' bounds first (Math.hypot is a third of this function's
  // time): max(|x|, |y|) <= hypot(x, y) <= |x| + |y|, and errorBound is non-decreasing in its
  // arguments (float64 + and * are monotone), so a decision the bounds settle is the one the exact
  // norms give; only the others compute them.
  const errHi = errorBound(
    (1 + NORM_SLACK) * Math.max(Math.abs(d0x) + Math.abs(d0y), Math.abs(d1x) + Math.abs(d1y)),
    (1 + NORM_SLACK) * Math.max(Math.abs(g0x) + Math.abs(g0y), Math.abs(g1x) + Math.abs(g1y)), rD, rG,
  );
  if (lo > errHi) return 1;
  if (hi < -errHi) return -1;
  const errLo = errorBound(
    (1 - NORM_SLACK) * Math.max(Math.abs(d0x), Math.abs(d0y), Math.abs(d1x), Math.abs(d1y)),
    (1 - NORM_SLACK) * Math.max(Math.abs(g0x), Math.abs(g0y), Math.abs(g1x), Math.abs(g1y)), rD, rG,
  );
  if (!(lo > errLo) && !(hi < -errLo)) return 0;
  const err = errorBound(Math.max(Math.hypot(d0x, d0y), Math.hypot(d1x, d1y)), Math.max(Math.hypot(g0x, g0y), Math.hypot(g1x, g1y)), rD, rG);
  if (lo > err) return 1;
  if (hi < -err) return -1;
  return 0;
}

/** Relative margin on the norms' bounds, for Math.hypot's own rounding (a few ulps). */
const NORM_SLACK = 1e-14;

/** bernsteinSign's bound on how far the motion and rounding move the form, from the two norms (non-decreasing in each argument). */
function errorBound(dMax: number, gMax: number, rD: number, rG: number): number {
  return dMax * rG + rD * gMax + rD * rG + ROUNDING * (dMax + rD + gMax + rG) * (dMax + rD + gMax + rG);
}

function lerp(a: number, b: number, s: number): number {
  return a + (b - a) * s;
}
