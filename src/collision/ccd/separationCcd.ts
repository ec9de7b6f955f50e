/**
 * CCD with a separation, float64: the first time in [0, 1] at which two primitives moving linearly
 * come within `separation` of each other (|F(t, u, w)|_inf <= separation, F the contact function of
 * index.ts), or -1. The float64 twin of shaders/lib/ccd.wgsl (same contact set, same search, same
 * acceptance rules), used by the CPU reference's CCD stage (src/collision/cpu/ccdCpu.ts); index.ts
 * is the exact zero-separation entry point tested on the shared benchmark queries.
 *
 * Search (as the WGSL): depth-first over dyadic boxes [t0,t1] x [u0,u1] x [w0,w1] of [0,1]^3, the
 * lower-t half examined first, boxes at or after the best toi so far skipped. A box is dropped when
 * the hull of its 8 corner values (exact for a multilinear F), widened by the rounding bound below,
 * excludes [-separation, separation] on an axis, or when the hull of n.F does (n: the triangle's
 * normal or the edges' common normal, summed over t = 0, 1). Otherwise it is a hit at its t0 when a
 * domain corner at its lower t is a near contact (|F|_inf <= separation + delta, delta the largest of
 * twice the rounding bound, 1e-5 of the edge length and 2 % of the separation), when its image fits
 * within separation + delta, when it is small, or when a corner at its upper t is a near contact and t
 * is resolved; else it is split across its side with the largest width x Lipschitz bound. Before the
 * search (this twin only), a pair whose gap at t = 0 less the most its relative motion can close
 * stays above twice what any hit needs is answered -1 at once: the answer the search would give.
 *
 * Rounding: inputs are float64 and exact; the corners are computed in difference form
 * F = (1 - t) F_0 + t F_1, F_j = g_j - u e1_j - w e2_j (dyadic t, u, w: exact), at most 13 rounded
 * operations on a path, each intermediate <= 3 D (D: per-axis max |computed g, e1, e2|), so
 * |computed - exact| <= 20 u D with u = 2^-53 (the WGSL header's derivation with float64's u and no
 * input rounding); 24 u D + 1e-300 is used. n.F: within 2e-15 D of the computed dot products per
 * axis (3 gamma_3 (1 + 12u) < 1.1e-15). Thresholds are rounded up by a factor 1 + 1e-12.
 * Hence no contact of the exact inputs is ever dropped (toi <= the first time within the separation),
 * and a hit is early by at most (2 err + 3 delta) / s for a contact approached at speed s
 * (shaders/lib/ccd.wgsl's header).
 */

import { closestPointOnTriangle } from '../../geometry/closestPointOnTriangle';
import { segmentClosestParamsInto } from './segmentClosest';

const MAX_CHECKS = 4096;
const STACK_BOXES = 64;
const T_TOL = 2 ** -14;
const MAX_LEVEL = 20;
const IMAGE_TOL_REL = 1e-5;
/**
 * delta is also at least this fraction of the separation (shaders/lib/ccd.wgsl CCD_SEPARATION_TOL_REL):
 * a pair that comes within 1.02 x the separation may be a hit, and a hit's box is no longer split until
 * a corner lies within the separation plus 1e-5 of the edge length. The separation is an inf-norm
 * distance (up to sqrt 3 x that in Euclidean length), so this moves the contact set by less than its
 * own definition already does. Measured on the 3-cube stack (resolution 4, 25 frames): 57 M box checks
 * -> 9.5 M, the runner's CCD phase 30.5 s -> 8.9 s and its whole run 54 s -> 32 s (docs/benchmarks.md
 * "A hit's search resolved to a fraction of the separation").
 */
const SEPARATION_TOL_REL = 0.02;
const ERR_ARITH = 24 * 2 ** -53;
const ERR_DOT = 2e-15;
const ERR_ABS = 1e-300;
const ROUND_UP = 1 + 1e-12;

/** Reused scratch (the CPU stage calls this thousands of times per substep). */
const diff = new Float64Array(18); // g0, e10, e20, g1, e11, e21 (3 each)
const stack = new Float64Array(6 * STACK_BOXES); // t0, t1, u0, u1, w0, w1 per box
const corner = new Float64Array(24); // 8 corners x 3: index (it * 4 + iu * 2 + iw)
const dScratch = new Float64Array(3), errScratch = new Float64Array(3), thrScratch = new Float64Array(3);
const loScratch = new Float64Array(3), hiScratch = new Float64Array(3);

/** q: 4 points at t = 0 (12 numbers) then at t = 1; vertex-face v, f0, f1, f2; edge-edge a0, a1, b0, b1. */
function difference(vertexFace: boolean, q: ArrayLike<number>): void {
  for (let j = 0; j < 2; j++) {
    const o = 12 * j;
    for (let k = 0; k < 3; k++) {
      const p0 = q[o + k], p1 = q[o + 3 + k], p2 = q[o + 6 + k], p3 = q[o + 9 + k];
      if (vertexFace) {
        // F = v - f0 - u (f1 - f0) - w (f2 - f0)
        diff[9 * j + k] = p0 - p1;
        diff[9 * j + 3 + k] = p2 - p1;
        diff[9 * j + 6 + k] = p3 - p1;
      } else {
        // F = a0 + u (a1 - a0) - b0 - w (b1 - b0) = (a0 - b0) - u (a0 - a1) - w (b1 - b0)
        diff[9 * j + k] = p0 - p2;
        diff[9 * j + 3 + k] = p0 - p1;
        diff[9 * j + 6 + k] = p3 - p2;
      }
    }
  }
}

const cpt = new Float64Array(6);
const ab = new Float64Array(2); // closest parameters on the two edges

function infNorm(o: number): number {
  return Math.max(Math.abs(diff[o]), Math.abs(diff[o + 1]), Math.abs(diff[o + 2]));
}

/** Whether a domain corner of the box at its lower (it 0) or upper (1) t is within acc (corner[] of the box). */
function nearCorner(it: number, vertexFace: boolean, u0: number, u1: number, w0: number, w1: number, acc: number): boolean {
  for (let iu = 0; iu < 2; iu++) {
    for (let iw = 0; iw < 2; iw++) {
      if (vertexFace && (iu === 0 ? u0 : u1) + (iw === 0 ? w0 : w1) > 1) continue;
      const c = 3 * (4 * it + 2 * iu + iw);
      if (Math.abs(corner[c]) <= acc && Math.abs(corner[c + 1]) <= acc && Math.abs(corner[c + 2]) <= acc) return true;
    }
  }
  return false;
}

/** The pair's difference F at its Euclidean closest points at t = 0 (3 numbers). */
const startGap = new Float64Array(3);

/** Writes into out the difference of the pair's Euclidean closest points at t = 0 (vertex minus triangle; edge a minus edge b). */
function closestDifferenceAtStart(vertexFace: boolean, q: ArrayLike<number>, out: Float64Array): void {
  if (vertexFace) {
    closestPointOnTriangle(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11], cpt);
    for (let k = 0; k < 3; k++) out[k] = q[k] - cpt[k];
    return;
  }
  segmentClosestParamsInto(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11], ab);
  const a = ab[0], b = ab[1];
  for (let k = 0; k < 3; k++) out[k] = q[k] + a * (q[3 + k] - q[k]) - (q[6 + k] + b * (q[9 + k] - q[6 + k]));
}

/**
 * First time in [0, 1] within `separation` (inf-norm of F), or -1. `vertexFace`: q is vertex, f0, f1,
 * f2; else edge a0 a1, edge b0 b1. Inputs must be finite.
 */
export function ccdWithin(vertexFace: boolean, q: ArrayLike<number>, separation: number): number {
  if (q.length !== 24) throw new RangeError(`ccdWithin: expected 24 numbers (4 points at t0, then at t1), got ${q.length}`);
  for (let i = 0; i < 24; i++) if (!Number.isFinite(q[i])) throw new RangeError(`ccdWithin: coordinate ${i} (point ${Math.floor(i / 3) % 4} at t${i < 12 ? 0 : 1}) is ${q[i]}, not finite`);
  difference(vertexFace, q);
  const sep = Math.max(separation, 0);
  // Fast path: within the separation at t = 0 (resting pairs): a contact exists and 0 is the
  // first time. A pair within it only at t = 1 is searched, as the GPU searches every pair: the
  // contact takes the closest points at its time of impact, and time 0's may lie the whole
  // substep's motion away (a block sliding at 2.5 m/s over a slab's edges: 4 mm against a 1 mm
  // separation; that contact braked the slide; docs/collisions.md "Apart pairs that face each other").
  const g = startGap;
  closestDifferenceAtStart(vertexFace, q, g);
  if (Math.abs(g[0]) <= sep && Math.abs(g[1]) <= sep && Math.abs(g[2]) <= sep) return 0;
  const D = dScratch, err = errScratch, thr = thrScratch;
  D[0] = D[1] = D[2] = 0;
  let errMax = 0;
  for (let k = 0; k < 3; k++) {
    for (let a = 0; a < 6; a++) D[k] = Math.max(D[k], Math.abs(diff[3 * a + k]));
    err[k] = ERR_ARITH * D[k] + ERR_ABS;
    thr[k] = (sep + err[k]) * ROUND_UP;
    errMax = Math.max(errMax, err[k]);
  }
  const lu = Math.max(infNorm(3), infNorm(12));
  const lw = Math.max(infNorm(6), infNorm(15));
  let lt = 0;
  for (let o = 0; o < 9; o += 3) lt += Math.max(Math.abs(diff[9 + o] - diff[o]), Math.abs(diff[10 + o] - diff[o + 1]), Math.abs(diff[11 + o] - diff[o + 2]));
  const delta = Math.max(2 * errMax, IMAGE_TOL_REL * Math.max(lu, lw), SEPARATION_TOL_REL * sep);
  const acc = sep + delta;
  // Apart for the whole substep: the inf-norm gap at t = 0 (at least the Euclidean one / sqrt 3)
  // less the most it can close (lt bounds |F(1, u, w) - F(0, u, w)|_inf) stays above twice what any hit of the search
  // below needs (a point within sep + err + 3 delta: a box small on every side spans at most 3
  // delta), so the search would drop every box and answer -1 too (where it ran out of checks or
  // stack it would have answered a conservative time instead). Most candidate pairs of the
  // broad phase are such (neighbouring features of one flat surface, whose boxes overlap); they
  // cost this bound instead of a search (docs/benchmarks.md "The float64 CCD's pairs apart").
  if (Math.hypot(g[0], g[1], g[2]) * (1 - 1e-9) / Math.sqrt(3) - lt > 2 * (sep + 2 * delta + 2 * errMax)) return -1;
  // Fourth direction: cross(e1_0 + e1_1, e2_0 + e2_1), scaled to |n|_inf = 1.
  const ax = diff[3] + diff[12], ay = diff[4] + diff[13], az = diff[5] + diff[14];
  const bx = diff[6] + diff[15], by = diff[7] + diff[16], bz = diff[8] + diff[17];
  let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const nMax = Math.max(Math.abs(nx), Math.abs(ny), Math.abs(nz));
  if (nMax > 1e-300) { nx /= nMax; ny /= nMax; nz /= nMax; } else { nx = ny = nz = 0; }
  const thrN = (Math.abs(nx) * (sep + err[0] + ERR_DOT * D[0]) + Math.abs(ny) * (sep + err[1] + ERR_DOT * D[1]) + Math.abs(nz) * (sep + err[2] + ERR_DOT * D[2])) * ROUND_UP;

  let sp = 1;
  stack[0] = 0; stack[1] = 1; stack[2] = 0; stack[3] = 1; stack[4] = 0; stack[5] = 1;
  let best = 2;
  let checks = 0;
  const lo = loScratch, hi = hiScratch;
  while (sp > 0 && best !== 0) {
    if (checks >= MAX_CHECKS) {
      for (let i = 0; i < sp; i++) best = Math.min(best, stack[6 * i]);
      break;
    }
    const o = 6 * --sp;
    const t0 = stack[o], t1 = stack[o + 1], u0 = stack[o + 2], u1 = stack[o + 3], w0 = stack[o + 4], w1 = stack[o + 5];
    if (t0 >= best) continue;
    checks++;
    if (vertexFace && u0 + w0 > 1) continue;
    // The 8 corner values and their hulls, axis by axis (a box is dropped at the first axis whose
    // hull excludes the separation), then along n. F at (u, w) is one line in t for both ends of
    // the box: F_0 and F_1 once per (u, w).
    const s0 = 1 - t0, s1 = 1 - t1;
    let dropped = false;
    for (let k = 0; k < 3 && !dropped; k++) {
      let loK = Infinity, hiK = -Infinity;
      for (let iu = 0; iu < 2; iu++) {
        const u = iu === 0 ? u0 : u1;
        for (let iw = 0; iw < 2; iw++) {
          const w = iw === 0 ? w0 : w1;
          const c0 = 3 * (2 * iu + iw) + k; // corner (t0, u, w), axis k; (t1, u, w) is 12 further
          const f0 = diff[k] - u * diff[3 + k] - w * diff[6 + k];
          const f1 = diff[9 + k] - u * diff[12 + k] - w * diff[15 + k];
          const v0 = s0 * f0 + t0 * f1;
          const v1 = s1 * f0 + t1 * f1;
          corner[c0] = v0;
          corner[c0 + 12] = v1;
          if (v0 < loK) loK = v0;
          if (v0 > hiK) hiK = v0;
          if (v1 < loK) loK = v1;
          if (v1 > hiK) hiK = v1;
        }
      }
      lo[k] = loK;
      hi[k] = hiK;
      dropped = loK > thr[k] || hiK < -thr[k];
    }
    if (dropped) continue;
    let loN = Infinity, hiN = -Infinity;
    for (let c = 0; c < 24; c += 3) {
      const dotN = nx * corner[c] + ny * corner[c + 1] + nz * corner[c + 2];
      if (dotN < loN) loN = dotN;
      if (dotN > hiN) hiN = dotN;
    }
    if (loN > thrN || hiN < -thrN) continue;
    if (nearCorner(0, vertexFace, u0, u1, w0, w1, acc)) {
      best = Math.min(best, t0);
      continue;
    }
    const near1 = nearCorner(1, vertexFace, u0, u1, w0, w1, acc);
    const wt = t1 - t0, wu = u1 - u0, ww = w1 - w0;
    const tDone = wt * lt <= delta || wt <= 2 ** -MAX_LEVEL;
    const uDone = wu * lu <= delta || wu <= 2 ** -MAX_LEVEL;
    const wDone = ww * lw <= delta || ww <= 2 ** -MAX_LEVEL;
    const imageSmall = lo[0] - err[0] >= -acc && lo[1] - err[1] >= -acc && lo[2] - err[2] >= -acc && hi[0] + err[0] <= acc && hi[1] + err[1] <= acc && hi[2] + err[2] <= acc;
    if (imageSmall || (tDone && uDone && wDone) || (near1 && (tDone || wt <= T_TOL))) {
      best = Math.min(best, t0);
      continue;
    }
    if (sp + 2 > STACK_BOXES) {
      best = Math.min(best, t0);
      continue;
    }
    const kt = near1 ? Infinity : tDone ? -1 : wt * lt;
    const ku = uDone ? -1 : wu * lu;
    const kw = wDone ? -1 : ww * lw;
    // Upper half first, so the lower-t half is examined next: both halves copy the box, then one
    // side of each is cut at its middle.
    const a = 6 * sp, b = a + 6;
    for (let k = 0; k < 6; k++) stack[a + k] = stack[b + k] = stack[o + k];
    const side = kt >= ku && kt >= kw ? 0 : ku >= kw ? 2 : 4;
    const m = 0.5 * (stack[o + side] + stack[o + side + 1]);
    stack[a + side] = m; // upper half [m, hi]
    stack[b + side + 1] = m; // lower half [lo, m]
    sp += 2;
  }
  return best <= 1 ? best : -1;
}
