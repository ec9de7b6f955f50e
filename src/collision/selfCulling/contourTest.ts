/**
 * The third culling condition of paper 002 (section 5.1, Algorithm 1's ContourOverlapTest,
 * continuous as in section 5.3): projected along the axis V of the node's normal cone, no two
 * pieces (chains) of the node's contour meet, at any time of the motion (motionCones.ts).
 *
 * Each contour vertex is projected at s = 0 and s = 1 onto the plane normal to V; projection is
 * linear, so the projected vertex moves linearly between them, give or take its deviation (the
 * projection of a box of half-size dev lies in a disc of radius sqrt(3) dev). As the paper does,
 * bounding boxes of the projected edges (here swept over the motion) go first; edge pairs whose
 * boxes meet get an exact-sign test:
 *
 * - two edges without a common vertex are apart at time s when both ends of one lie strictly on
 *   the same side of the other's line. The side is the sign of the 2D cross product
 *   o(s) = (B - A) x (Q - A), quadratic in s: its Bernstein coefficients bound it on [0, 1], widened
 *   by what the deviations can change it. Undecided intervals are halved (twice at most).
 * - two edges meeting at a vertex (where one chain hands over to the next) overlap beyond it only
 *   when they fold back onto each other: apart when their directions' cross product keeps one
 *   sign, or their dot product stays positive, over the interval.
 *
 * Anything undecided counts as a meeting (the node is not culled): the test never passes a
 * contour that could touch itself.
 */
import type { CullingMotion } from './motionCones';

const SQRT3 = Math.sqrt(3);
/** Relative float64 rounding of a 2D cross or dot product of differences. */
const ROUNDING = 1e-12;
/** Halvings of the time interval for an undecided edge pair (each level doubles the work of that pair). */
const MAX_SPLITS = 2;
/** Floats per projected contour edge: from (x0, y0, x1, y1), to (x0, y0, x1, y1), radii of from and to. */
const EDGE_FLOATS = 10;

export class ContourTest {
  private edge = new Float64Array(0);
  private box = new Float64Array(0);
  private chainBox = new Float64Array(0);
  /** Edge pairs examined by the exact-sign test (a statistic of the last calls). */
  exactTests = 0;

  private grow(edges: number, chains: number): void {
    if (this.edge.length < EDGE_FLOATS * edges) {
      this.edge = new Float64Array(EDGE_FLOATS * edges * 2);
      this.box = new Float64Array(4 * edges * 2);
    }
    if (this.chainBox.length < 4 * chains) this.chainBox = new Float64Array(4 * chains * 2);
  }

  /**
   * Whether the chains of one contour stay apart in projection along unit V (vx, vy, vz):
   * contour edges from[k] -> to[k] for k in [begin, end), chain c covering [chainStart[c],
   * chainEnd[c]) for c in [chainBegin, chainStop), consecutive along one closed loop.
   */
  chainsApart(
    m: CullingMotion, vx: number, vy: number, vz: number,
    from: Uint32Array, to: Uint32Array, begin: number, end: number,
    chainStart: Uint32Array, chainEnd: Uint32Array, chainBegin: number, chainStop: number,
  ): boolean {
    const count = end - begin, chains = chainStop - chainBegin;
    if (chains < 2) return false;
    this.grow(count, chains);
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
    const x = m.start, mv = m.move, dev = m.deviation;
    const edge = this.edge, box = this.box, chainBox = this.chainBox;
    for (let i = 0; i < count; i++) {
      const o = EDGE_FLOATS * i;
      for (let end_ = 0; end_ < 2; end_++) {
        const v = end_ === 0 ? from[begin + i] : to[begin + i];
        const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
        const qx = px + mv[3 * v], qy = py + mv[3 * v + 1], qz = pz + mv[3 * v + 2];
        const p = o + 4 * end_;
        edge[p] = px * ux + py * uy + pz * uz;
        edge[p + 1] = px * wx + py * wy + pz * wz;
        edge[p + 2] = qx * ux + qy * uy + qz * uz;
        edge[p + 3] = qx * wx + qy * wy + qz * wz;
        const scale = Math.abs(px) + Math.abs(py) + Math.abs(pz) + Math.abs(qx) + Math.abs(qy) + Math.abs(qz);
        edge[o + 8 + end_] = (dev ? SQRT3 * dev[v] : 0) + ROUNDING * scale;
      }
      const r = Math.max(edge[o + 8], edge[o + 9]);
      const b = 4 * i;
      box[b] = Math.min(edge[o], edge[o + 2], edge[o + 4], edge[o + 6]) - r;
      box[b + 1] = Math.min(edge[o + 1], edge[o + 3], edge[o + 5], edge[o + 7]) - r;
      box[b + 2] = Math.max(edge[o], edge[o + 2], edge[o + 4], edge[o + 6]) + r;
      box[b + 3] = Math.max(edge[o + 1], edge[o + 3], edge[o + 5], edge[o + 7]) + r;
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
              if (!noFoldBack(edge, EDGE_FLOATS * i, EDGE_FLOATS * j)) return false;
            } else if (tj === fi) {
              if (!noFoldBack(edge, EDGE_FLOATS * j, EDGE_FLOATS * i)) return false;
            } else if (fi === fj || ti === tj) {
              return false; // not a simple loop (cannot happen for loops checked by cullingTree.ts)
            } else {
              this.exactTests++;
              if (!apart(edge, EDGE_FLOATS * i, EDGE_FLOATS * j, 0, 1, 0)) return false;
            }
          }
        }
      }
    }
    return true;
  }
}

function boxesMeet(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  return a[i] <= b[j + 2] && b[j] <= a[i + 2] && a[i + 1] <= b[j + 3] && b[j + 1] <= a[i + 3];
}

/**
 * Sign of o(s) = (B - A) x (Q - A) for s in [s0, s1]: +1 or -1 when it keeps that sign for every
 * motion within the deviations, 0 when undecided. Points are given at s = 0 and s = 1 (x0, y0,
 * x1, y1) with their deviation radii.
 */
function orientSign(
  a: Float64Array, ao: number, ar: number, b: Float64Array, bo: number, br: number, q: Float64Array, qo: number, qr: number, s0: number, s1: number,
): number {
  // Positions at s0 and s1 (linear motion).
  const ax0 = lerp(a[ao], a[ao + 2], s0), ay0 = lerp(a[ao + 1], a[ao + 3], s0), ax1 = lerp(a[ao], a[ao + 2], s1), ay1 = lerp(a[ao + 1], a[ao + 3], s1);
  const bx0 = lerp(b[bo], b[bo + 2], s0), by0 = lerp(b[bo + 1], b[bo + 3], s0), bx1 = lerp(b[bo], b[bo + 2], s1), by1 = lerp(b[bo + 1], b[bo + 3], s1);
  const qx0 = lerp(q[qo], q[qo + 2], s0), qy0 = lerp(q[qo + 1], q[qo + 3], s0), qx1 = lerp(q[qo], q[qo + 2], s1), qy1 = lerp(q[qo + 1], q[qo + 3], s1);
  return bernsteinSign(bx0 - ax0, by0 - ay0, bx1 - ax1, by1 - ay1, qx0 - ax0, qy0 - ay0, qx1 - ax1, qy1 - ay1, ar + br, qr + ar, true);
}

/**
 * Sign over t in [0, 1] of cross(D(t), G(t)) (or dot, `cross` false) for D and G linear from
 * (d0, g0) to (d1, g1), each moved by at most rD, rG: +1, -1 or 0 (undecided).
 */
function bernsteinSign(
  d0x: number, d0y: number, d1x: number, d1y: number, g0x: number, g0y: number, g1x: number, g1y: number, rD: number, rG: number, cross: boolean,
): number {
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
  const dMax = Math.max(Math.hypot(d0x, d0y), Math.hypot(d1x, d1y));
  const gMax = Math.max(Math.hypot(g0x, g0y), Math.hypot(g1x, g1y));
  const err = dMax * rG + rD * gMax + rD * rG + ROUNDING * (dMax + rD + gMax + rG) * (dMax + rD + gMax + rG);
  const lo = Math.min(b0, b1, b2), hi = Math.max(b0, b1, b2);
  if (lo > err) return 1;
  if (hi < -err) return -1;
  return 0;
}

function lerp(a: number, b: number, s: number): number {
  return a + (b - a) * s;
}

/** Whether edges i and j (no common vertex) stay apart over [s0, s1], halving undecided intervals. */
function apart(e: Float64Array, i: number, j: number, s0: number, s1: number, depth: number): boolean {
  const ri0 = e[i + 8], ri1 = e[i + 9], rj0 = e[j + 8], rj1 = e[j + 9];
  // Both ends of j strictly on one side of i's line, or both ends of i on one side of j's line.
  const a = orientSign(e, i, ri0, e, i + 4, ri1, e, j, rj0, s0, s1);
  if (a !== 0 && a === orientSign(e, i, ri0, e, i + 4, ri1, e, j + 4, rj1, s0, s1)) return true;
  const b = orientSign(e, j, rj0, e, j + 4, rj1, e, i, ri0, s0, s1);
  if (b !== 0 && b === orientSign(e, j, rj0, e, j + 4, rj1, e, i + 4, ri1, s0, s1)) return true;
  if (depth >= MAX_SPLITS) return false;
  const mid = 0.5 * (s0 + s1);
  return apart(e, i, j, s0, mid, depth + 1) && apart(e, i, j, mid, s1, depth + 1);
}

/**
 * Edges i = (u -> v) and j = (v -> w): whether their projections meet only at v over [0, 1] (not
 * collinear at any time, or always pointing on the same side).
 */
function noFoldBack(e: Float64Array, i: number, j: number): boolean {
  // Directions v - u and w - v at s = 0 and 1, and what the deviations can move them by.
  const d0x = e[i + 4] - e[i], d0y = e[i + 5] - e[i + 1], d1x = e[i + 6] - e[i + 2], d1y = e[i + 7] - e[i + 3];
  const g0x = e[j + 4] - e[j], g0y = e[j + 5] - e[j + 1], g1x = e[j + 6] - e[j + 2], g1y = e[j + 7] - e[j + 3];
  const rD = e[i + 8] + e[i + 9], rG = e[j + 8] + e[j + 9];
  if (bernsteinSign(d0x, d0y, d1x, d1y, g0x, g0y, g1x, g1y, rD, rG, true) !== 0) return true;
  return bernsteinSign(d0x, d0y, d1x, d1y, g0x, g0y, g1x, g1y, rD, rG, false) > 0;
}
