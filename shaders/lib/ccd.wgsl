// Conservative continuous collision detection (CCD) narrow phase in f32: vertex-face and edge-edge.
// Included by name (`#include "ccd"`); no bindings. Public functions: ccdVertexFaceDiff / ccdEdgeEdgeDiff
// (a query in difference form), ccdSolve (its first time of contact) and ccdMotionBoxesApart (the cheap test first).
//
// Method: inclusion-based bisection after Wang, Ferguson, Schneider, Jiang, Attene & Panozzo 2021, "A Large
// Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision Detection" (TOG), Sec. 4; our own
// code, the f32 counterpart of src/collision/ccd (float64, CPU). Points move linearly from t = 0 to t = 1. The
// contact function, for u, w in [0, 1] (vertex-face also u + w <= 1),
//   vertex-face: F(t,u,w) = v(t) - f0(t) - u (f1(t) - f0(t)) - w (f2(t) - f0(t))
//   edge-edge:   F(t,u,w) = ea(t) + u (eb(t) - ea(t)) - ec(t) - w (ed(t) - ec(t))
// is multilinear, and both read F = (1-t) F_0(u,w) + t F_1(u,w) with F_j(u,w) = g_j - u e1_j - w e2_j
// (vertex-face: g = v - f0, e1 = f1 - f0, e2 = f2 - f0; edge-edge: g = ea - ec, e1 = ea - eb, e2 = ed - ec,
// all at t = j). The range of a multilinear F over a box is the hull of its 8 corner values. "Contact" means
// |F(t,u,w)|_inf <= separation for some (t,u,w) of the domain.
//
// Search: depth-first over boxes [t0,t1]x[u0,u1]x[w0,w1] of [0,1]^3, each side a dyadic interval stored as
// one u32 (code = 2^level + index, interval [index, index+1] / 2^level; level <= CCD_MAX_LEVEL = 20, so both
// ends are exact f32 values and halving is exact: the boxes tile the domain without gaps). A box is dropped
// when its widened range (below) excludes [-separation, separation] on some axis, or when the widened range of
// n.F excludes [-|n|_1 separation, |n|_1 separation] for one extra direction n (the triangle normal, or the
// edges' common normal: cross(e1, e2) summed over t = 0, 1; n.F is multilinear too, so its range is again the
// hull of its corner values; this one test removes the near-coplanar sliding cases that per-axis hulls can
// only resolve by deep splitting). Otherwise the box is accepted as a hit (a) when a domain corner at its
// lower t has |F^|_inf <= separation + delta (a near contact at t0: nothing in the box can be earlier),
// (b) when its image fits within separation + delta on every axis, (c) when a domain corner at its upper t
// is such a near contact and t is resolved (t-width <= 2^-14, or t-width * Lt <= delta), or (d) when it is
// small: for each side, width * L <= delta or level = 20 (L = per-query bounds on |dF/dt|, |dF/du|,
// |dF/dw|). Else it is split across the side with the largest width * L (t on ties; t first when (c) only
// lacks time resolution) and both halves are pushed, the lower-t half on top. Rules (a) and (c) keep a
// separation > 0 cheap: there the contact set is a 2D patch, whose whole rim (d) alone would refine to
// delta / L. An accepted box sets best = min(best, its t0); boxes with t0 >= best are skipped. Every exact contact lies in a box that was
// accepted (t0 <= t*), skipped (t0 >= best) or is still on the stack, so best <= t* (toi never after the
// first contact). When CCD_MAX_CHECKS (= 4096) boxes were examined, every box still on the stack counts as a
// hit at its t0 (conservative: never a miss). Work per call: at most 4096 range evaluations of 8 corners.
// Stack: one pending sibling per split on the current path, at most 3 * 20 splits, so 61 boxes suffice;
// CCD_STACK = 64 boxes of 3 words in private memory (an overflow, impossible with these constants, would
// also count the box as a hit).
//
// Rigorous widening (why `err` below never lets a contact of the exact float64 query be dropped).
// Notation per axis k: the kernel sees f32 inputs x~ = fl32(x) of the float64 query x, rounded to nearest
// on the CPU (Float32Array): |x - x~| <= 2^-24 |x| (+ 2^-126 if the device flushes a subnormal to 0).
// M = max |x~| over the 8 points, so max |x| <= M / (1 - 2^-24) + 2^-126. D = max |computed g_j, e1_j,
// e2_j| over j = 0, 1. WGSL only promises that +, -, * are "correctly rounded" in its sense (either f32
// neighbour of the exact result, rounding mode unspecified) and may flush subnormals, so we use
// u = 2^-23 per operation: |fl(z) - z| <= u |z| (+ 2^-126 below the normal range).
//  (b) input rounding: F is linear in the 8 points with coefficients summing in absolute value to
//      1 + |1-u-w| + u + w = 2 on the vertex-face domain and (1-u) + u + (1-w) + w = 2 for edge-edge, and
//      p(t) = (1-t) p0 + t p1 is a convex combination, so |F(x) - F(x~)| <= 2 * 2^-24 max|x|
//      <= 2^-23 M (1 + 2^-23) + 2^-125 at every domain point.
//  (a) arithmetic, first order in u, with G, E1, E2 the exact differences of the f32 inputs (|.| <= D (1+u)):
//      g^ = fl(G)                    error <= u D
//      p1 = fl(u_ e1^)               error <= u D (rounding) + u D (from e1^) = 2 u D        (u_ in [0,1] exact)
//      s1 = fl(g^ - p1), |.| <= 2D   error <= 2 u D + u D + 2 u D = 5 u D
//      p2 = fl(w_ e2^)               error <= 2 u D
//      F_j = fl(s1 - p2), |.| <= 3D  error <= 3 u D + 5 u D + 2 u D = 10 u D
//      c0 = fl((1-t) F_0), c1 = fl(t F_1)   errors <= (1-t) 13 u D and t 13 u D  (1 - t exact: t is dyadic)
//      F^ = fl(c0 + c1), |.| <= 3D   error <= 3 u D + 13 u D = 16 u D
//      A fused multiply-add (allowed to the compiler) removes a rounding and only lowers these bounds; second
//      order terms and D's own rounding are far below the spare 4 u D of the constant 20 u D = 2.384e-6 D we
//      use. Below the normal range each of the 13 operations on a corner's path adds at most 2^-126.
//  The exact range of F(x~) over the box lies in [min F^ - 16uD, max F^ + 16uD] (corners hold the extremes),
//  so F(x) at any domain point of the box lies in [lo - err, hi + err] with
//      err = 1.2e-7 M + 2.4e-6 D + 1e-35   (>= 2^-23 M (1+2^-22) + 20 u D + 15 * 2^-126, with the slack
//      covering the rounding of this very expression),
//  and a box is dropped only when lo > thr or hi < -thr on some axis, thr = fl(fl(separation + err) *
//  (1 + 2^-20)) >= separation + err (two roundings of at most 2^-23 each).
//  Normal direction: n is any f32 vector (its own rounding is irrelevant). The computed corner values obey
//  |F^_k| <= 3 D_k (1 + 12u), and dot(n, F^) in f32 (fused or not) is within gamma_3 sum_k |n_k| |F^_k| of
//  n.F^, gamma_3 = 3u / (1 - 3u). So n.F at any domain point lies within
//      errN = sum_k |n_k| (err_k + 1.1e-6 D_k)   (1.1e-6 >= 3 gamma_3 (1 + 12u))
//  of the hull of the computed dot products, and a box is dropped only when that hull lies beyond
//  thrN = fl(sum_k |n_k| (separation + err_k + 1.1e-6 D_k)) * (1 + 2^-18) >= |n|_1 separation + errN (about
//  ten roundings of 2^-23 each, well inside 2^-18); a contact has |n.F| <= |n|_1 |F|_inf <= |n|_1 separation.
//  Exactness of the box corners and of u0 + w0 > 1 (used to drop vertex-face boxes outside u + w <= 1: a faithfully rounded sum exceeds 1
//  only when the exact one does) completes the argument. Inputs must be finite with |x| <= 1e18 (no f32
//  overflow in differences); a larger M returns 0.0 (a conservative hit at t = 0). WGSL lets
//  implementations assume no NaN or infinity, so non-finite inputs must be rejected before upload.
//
// Tolerances: delta = max(2 max_k err_k, 1e-5 max(Lu, Lw), 0.02 separation) (a relative image tolerance,
// at least 2 % of the separation so that a hit's box is not split down to 1e-5 of the edge; the
// separation is an inf-norm distance, so this moves the contact set less than its definition; Lu, Lw are the
// primitives' edge lengths, inf-norm, Lt = |g_1 - g_0| + |e1_1 - e1_0| + |e2_1 - e2_0|). At the reported toi
// some (u, w) of the accepted box has |F|_inf <= separation + 2 err + 3 delta (+ 2^-20 (Lt + Lu + Lw) where a
// side stopped at level 20), or (rule c) some point has |F|_inf <= separation + delta + err at toi + 2^-14:
// the primitives are that close at (or just after) toi. For a contact approached at speed s = |dF/dt|,
// t* - toi <= max((2 err + 3 delta) / s, 2^-14); below 1e-4 for unit-size primitives near the origin closing
// at s >= 1 (err ~ 7e-6, delta ~ 1.5e-5), or 0.06 separation / s where 2 % of the separation is the
// larger. Hits are false positives only for such near misses (or when the check budget runs out).

const CCD_STACK: u32 = 64u;
const CCD_MAX_CHECKS: u32 = 4096u;
const CCD_T_TOL: f32 = 6.103515625e-5; // 2^-14: t-width of a box accepted on a near contact at its upper t
const CCD_MAX_LEVEL: u32 = 20u; // no side is split below 2^-20 (far inside f32's exact dyadics, 2^-24)
const CCD_IMAGE_TOL_REL: f32 = 1e-5;
const CCD_SEPARATION_TOL_REL: f32 = 0.02; // delta >= 2 % of the separation (separationCcd.ts SEPARATION_TOL_REL)
const CCD_ERR_INPUT: f32 = 1.2e-7; // >= 2^-23 (1 + 2^-22): input rounding, term (b)
const CCD_ERR_ARITH: f32 = 2.4e-6; // >= 20 * 2^-23: arithmetic, term (a)
const CCD_ERR_ABS: f32 = 1e-35; // underflow / flushed subnormals
const CCD_ERR_DOT: f32 = 1.1e-6; // >= gamma_3 * 3 (1 + 12u), gamma_3 = 3u / (1 - 3u): rounding of dot(n, F^)
const CCD_MAX_COORD: f32 = 1e18;

// Tests only: 0 removes the widening to show that it matters (tests/gpu/ccdGpuQueries.test.ts,
// tests/gpu/ccdRangeBound.test.ts, which checks err and thrN against exact BigInt corner values). Never set
// it elsewhere: the default 1 is what makes the kernel conservative.
override ccdErrorScale: f32 = 1.0;

// [lo, hi] of the dyadic interval coded as 2^level + index.
fn ccdInterval(code: u32) -> vec2<f32> {
  let level = firstLeadingBit(code);
  let index = code ^ (1u << level);
  let e = -i32(level);
  return vec2<f32>(ldexp(f32(index), e), ldexp(f32(index + 1u), e));
}

fn ccdLevel(code: u32) -> u32 {
  return firstLeadingBit(code);
}

fn ccdInfNorm(a: vec3<f32>) -> f32 {
  let b = abs(a);
  return max(b.x, max(b.y, b.z));
}

// A query in difference form (header): F = (1-t) F_0 + t F_1, F_j = g_j - u e1_j - w e2_j; m = per-axis
// max |input coordinate|.
struct CcdDiff { g0: vec3<f32>, e10: vec3<f32>, e20: vec3<f32>, g1: vec3<f32>, e11: vec3<f32>, e21: vec3<f32>, m: vec3<f32> }

fn ccdVertexFaceDiff(v0: vec3<f32>, fa0: vec3<f32>, fb0: vec3<f32>, fc0: vec3<f32>,
                     v1: vec3<f32>, fa1: vec3<f32>, fb1: vec3<f32>, fc1: vec3<f32>) -> CcdDiff {
  let m = max(max(max(abs(v0), abs(fa0)), max(abs(fb0), abs(fc0))), max(max(abs(v1), abs(fa1)), max(abs(fb1), abs(fc1))));
  return CcdDiff(v0 - fa0, fb0 - fa0, fc0 - fa0, v1 - fa1, fb1 - fa1, fc1 - fa1, m);
}

fn ccdEdgeEdgeDiff(ea0: vec3<f32>, eb0: vec3<f32>, ec0: vec3<f32>, ed0: vec3<f32>,
                   ea1: vec3<f32>, eb1: vec3<f32>, ec1: vec3<f32>, ed1: vec3<f32>) -> CcdDiff {
  let m = max(max(max(abs(ea0), abs(eb0)), max(abs(ec0), abs(ed0))), max(max(abs(ea1), abs(eb1)), max(abs(ec1), abs(ed1))));
  return CcdDiff(ea0 - ec0, ea0 - eb0, ed0 - ec0, ea1 - ec1, ea1 - eb1, ed1 - ec1, m);
}

// D of the header: per-axis max |computed g_j, e1_j, e2_j|.
fn ccdDiffMagnitude(q: CcdDiff) -> vec3<f32> {
  return max(max(abs(q.g0), abs(q.g1)), max(max(abs(q.e10), abs(q.e11)), max(abs(q.e20), abs(q.e21))));
}

// err of the header: per-axis bound on |F(exact float64 inputs) - computed corner value|.
fn ccdErrorBound(q: CcdDiff) -> vec3<f32> {
  return (CCD_ERR_INPUT * q.m + CCD_ERR_ARITH * ccdDiffMagnitude(q) + vec3<f32>(CCD_ERR_ABS)) * ccdErrorScale;
}

// thr of the header: >= separation + err after rounding; a box whose hull lies beyond it on an axis is dropped.
fn ccdThreshold(err: vec3<f32>, separation: f32) -> vec3<f32> {
  return (vec3<f32>(separation) + err) * 1.00000095367431640625; // (1 + 2^-20)
}

// Fourth separating direction n (header): the triangle normal (vertex-face) or the common normal of the two
// edges (edge-edge), both cross(e1, e2) summed over t = 0, 1, scaled to |n|_inf = 1 (0 when degenerate: the
// test then never drops a box).
fn ccdNormal(q: CcdDiff) -> vec3<f32> {
  let c = cross(q.e10 + q.e11, q.e20 + q.e21);
  let cMax = ccdInfNorm(c);
  return select(vec3<f32>(0.0), c / cMax, cMax > 1e-30);
}

// thrN of the header: >= |n|_1 separation + errN after rounding.
fn ccdNormalThreshold(q: CcdDiff, n: vec3<f32>, err: vec3<f32>, separation: f32) -> f32 {
  let e = vec3<f32>(separation) + err + CCD_ERR_DOT * ccdDiffMagnitude(q) * ccdErrorScale;
  return dot(abs(n), e) * 1.000003814697265625; // (1 + 2^-18)
}

// F_j at (u, w): fl(fl(g - fl(u e1)) - fl(w e2)), the evaluation order the error bound assumes.
fn ccdFj(g: vec3<f32>, e1: vec3<f32>, e2: vec3<f32>, u: f32, w: f32) -> vec3<f32> {
  let s1 = g - u * e1;
  return s1 - w * e2;
}

// Corner value from F_0 and F_1 at the same (u, w): fl(fl((1-t) F_0) + fl(t F_1)); 1 - t is exact (dyadic t).
fn ccdMix(f0: vec3<f32>, f1: vec3<f32>, t: f32) -> vec3<f32> {
  return (1.0 - t) * f0 + t * f1;
}

// The computed F at one parameter point (the same arithmetic as the solver's corners; used by the tests).
fn ccdCorner(q: CcdDiff, t: f32, u: f32, w: f32) -> vec3<f32> {
  return ccdMix(ccdFj(q.g0, q.e10, q.e20, u, w), ccdFj(q.g1, q.e11, q.e21, u, w), t);
}

// The search of the header on a query in difference form (ccdVertexFaceDiff, or ccdEdgeEdgeDiff with edge
// A = (ea, eb), edge B = (ec, ed)): the conservative first time of contact in [0,1] under linear motion from
// t=0 to t=1, never after the exact one, or -1.0 when no contact can occur. "Contact" means the primitives
// come within `separation` (>= 0, world units, per-axis inf-norm of the contact function F) of each other.
// Kernels build the difference first and call this once for both pair kinds (a second call site doubles
// the inlined search, which a software adapter pays for in every dispatch: ccdBatch.wgsl, ccdNarrow.wgsl).
fn ccdSolve(q: CcdDiff, vertexFace: bool, separation: f32) -> f32 {
  if (max(q.m.x, max(q.m.y, q.m.z)) > CCD_MAX_COORD) { return 0.0; }
  let g0 = q.g0;
  let e10 = q.e10;
  let e20 = q.e20;
  let g1 = q.g1;
  let e11 = q.e11;
  let e21 = q.e21;
  let err = ccdErrorBound(q);
  let sep = max(separation, 0.0);
  let thr = ccdThreshold(err, sep);
  let errMax = max(err.x, max(err.y, err.z));
  let lu = max(ccdInfNorm(e10), ccdInfNorm(e11));
  let lw = max(ccdInfNorm(e20), ccdInfNorm(e21));
  let lt = ccdInfNorm(g1 - g0) + ccdInfNorm(e11 - e10) + ccdInfNorm(e21 - e20);
  let delta = max(max(2.0 * errMax, CCD_IMAGE_TOL_REL * max(lu, lw)), CCD_SEPARATION_TOL_REL * sep);
  let acc = vec3<f32>(sep + delta);
  let n = ccdNormal(q);
  let thrN = ccdNormalThreshold(q, n, err, sep);

  var stack: array<u32, 192>; // CCD_STACK boxes x (t, u, w) codes
  stack[0] = 1u;
  stack[1] = 1u;
  stack[2] = 1u;
  var sp = 1u;
  var best = 2.0;
  var checks = 0u;
  loop {
    if (sp == 0u || best == 0.0) { break; }
    if (checks >= CCD_MAX_CHECKS) {
      // Out of budget: every box still undecided counts as a hit at its lower t.
      for (var i = 0u; i < sp; i++) { best = min(best, ccdInterval(stack[3u * i]).x); }
      break;
    }
    sp -= 1u;
    let ct = stack[3u * sp];
    let cu = stack[3u * sp + 1u];
    let cw = stack[3u * sp + 2u];
    let t = ccdInterval(ct);
    if (t.x >= best) { continue; }
    checks += 1u;
    let u = ccdInterval(cu);
    let w = ccdInterval(cw);
    if (vertexFace && u.x + w.x > 1.0) { continue; }

    // Hull of the 8 corner values.
    let a00 = ccdFj(g0, e10, e20, u.x, w.x);
    let a01 = ccdFj(g0, e10, e20, u.x, w.y);
    let a10 = ccdFj(g0, e10, e20, u.y, w.x);
    let a11 = ccdFj(g0, e10, e20, u.y, w.y);
    let b00 = ccdFj(g1, e11, e21, u.x, w.x);
    let b01 = ccdFj(g1, e11, e21, u.x, w.y);
    let b10 = ccdFj(g1, e11, e21, u.y, w.x);
    let b11 = ccdFj(g1, e11, e21, u.y, w.y);
    let c000 = ccdMix(a00, b00, t.x);
    let c001 = ccdMix(a01, b01, t.x);
    let c010 = ccdMix(a10, b10, t.x);
    let c011 = ccdMix(a11, b11, t.x);
    let c100 = ccdMix(a00, b00, t.y);
    let c101 = ccdMix(a01, b01, t.y);
    let c110 = ccdMix(a10, b10, t.y);
    let c111 = ccdMix(a11, b11, t.y);
    let lo = min(min(min(c000, c001), min(c010, c011)), min(min(c100, c101), min(c110, c111)));
    let hi = max(max(max(c000, c001), max(c010, c011)), max(max(c100, c101), max(c110, c111)));
    let n0 = vec4<f32>(dot(n, c000), dot(n, c001), dot(n, c010), dot(n, c011));
    let n1 = vec4<f32>(dot(n, c100), dot(n, c101), dot(n, c110), dot(n, c111));
    let nLo = min(n0, n1);
    let nHi = max(n0, n1);
    let loN = min(min(nLo.x, nLo.y), min(nLo.z, nLo.w));
    let hiN = max(max(nHi.x, nHi.y), max(nHi.z, nHi.w));
    if (any(lo > thr) || any(hi < -thr) || loN > thrN || hiN < -thrN) { continue; }

    // Near contact at a corner of the domain: |F^|_inf <= separation + delta there (within the image
    // tolerance, like an accepted box). Vertex-face corners need u + w <= 1 (sums of two multiples of 2^-20
    // in [0, 2] are exact in f32). At the lower t it ends the box (nothing in it can be earlier); at the
    // upper t it ends the box once t is resolved. Without this, a separation > 0 makes the contact set a
    // 2D patch whose whole rim would be refined down to delta / L.
    let in01 = !vertexFace || u.x + w.y <= 1.0;
    let in10 = !vertexFace || u.y + w.x <= 1.0;
    let in11 = !vertexFace || u.y + w.y <= 1.0;
    let near0 = all(abs(c000) <= acc) || (in01 && all(abs(c001) <= acc)) ||
                (in10 && all(abs(c010) <= acc)) || (in11 && all(abs(c011) <= acc));
    if (near0) {
      best = min(best, t.x);
      continue;
    }
    let near1 = all(abs(c100) <= acc) || (in01 && all(abs(c101) <= acc)) ||
                (in10 && all(abs(c110) <= acc)) || (in11 && all(abs(c111) <= acc));
    let wt = t.y - t.x;
    let wu = u.y - u.x;
    let ww = w.y - w.x;
    let tDone = wt * lt <= delta || ccdLevel(ct) >= CCD_MAX_LEVEL;
    let uDone = wu * lu <= delta || ccdLevel(cu) >= CCD_MAX_LEVEL;
    let wDone = ww * lw <= delta || ccdLevel(cw) >= CCD_MAX_LEVEL;
    let imageSmall = all(lo - err >= -acc) && all(hi + err <= acc);
    if (imageSmall || (tDone && uDone && wDone) || (near1 && (tDone || wt <= CCD_T_TOL))) {
      best = min(best, t.x);
      continue;
    }
    if (sp + 2u > CCD_STACK) {
      // No room to split: count the box as a hit at its lower t (conservative).
      best = min(best, t.x);
      continue;
    }
    // Split the undone side with the largest image contribution (t on ties).
    // A near contact at the upper t (not yet resolved in t) asks for time resolution first.
    let kt = select(select(wt * lt, -1.0, tDone), 3.0e38, near1);
    let ku = select(wu * lu, -1.0, uDone);
    let kw = select(ww * lw, -1.0, wDone);
    var lower = vec3<u32>(ct, cu, cw);
    var upper = lower;
    if (kt >= ku && kt >= kw) {
      lower.x = 2u * ct;
      upper.x = 2u * ct + 1u;
    } else if (ku >= kw) {
      lower.y = 2u * cu;
      upper.y = 2u * cu + 1u;
    } else {
      lower.z = 2u * cw;
      upper.z = 2u * cw + 1u;
    }
    // Upper half first, so the lower-t half is examined next (depth first, earliest time first).
    stack[3u * sp] = upper.x;
    stack[3u * sp + 1u] = upper.y;
    stack[3u * sp + 2u] = upper.z;
    stack[3u * sp + 3u] = lower.x;
    stack[3u * sp + 4u] = lower.y;
    stack[3u * sp + 5u] = lower.z;
    sp += 2u;
  }
  return select(-1.0, best, best <= 1.0);
}

// Whether ccdSolve cannot report contact for this motion because the two primitives' boxes over it
// lie farther apart than any contact it accepts (points in the CPU API's order: vertex-face v, f0,
// f1, f2; edge-edge ea, eb, ec, ed; at t = 0, then t = 1). A cheap test a kernel may put before the
// solve (shaders/ccdNarrow.wgsl ccdSweep); it never drops a pair the solve would call a contact:
//   Every point of the domain (u, w in the triangle or on the edges, t in [0, 1]) is a convex
//   combination of the inputs, so it lies in its primitive's box over the motion, and |F|_inf there is
//   at least the boxes' gap on every axis. The solve accepts a box only where an in-domain corner has
//   computed |F^|_inf <= separation + delta, or where the box's hull passed the drop test and its image
//   is at most 3 delta + 2^-20 (Lt + Lu + Lw) wide (header: rules a-d), so some in-domain point has
//   exact |F|_inf <= separation + 2 err + 3 delta + 2^-20 (Lt + Lu + Lw). With M = max |coordinate|:
//   D <= 2M, err <= 4.92e-6 M, delta <= 2e-5 M + 0.02 separation, Lt <= 12 M, Lu, Lw <= 2 M, so that is
//   below 1.06 separation + 8.5e-5 M. The gap computed in f32 is within 2^-23 * 2M of the gap of the
//   inputs (min and max are exact), so a computed gap above 1.06 separation + 2e-4 M (rounded up) rules
//   every accepted box out.
//   Only the search's budget (CCD_MAX_CHECKS: undecided boxes count as hits) could answer a hit for
//   such a pair, and that answer would be a false positive of a pair provably apart.
// Inputs beyond CCD_MAX_COORD are never called apart (the solve answers a conservative hit there).
const CCD_APART_SLACK_REL: f32 = 2e-4;
fn ccdMotionBoxesApart(a0: vec3<f32>, b0: vec3<f32>, c0: vec3<f32>, d0: vec3<f32>,
                       a1: vec3<f32>, b1: vec3<f32>, c1: vec3<f32>, d1: vec3<f32>, vertexFace: bool, separation: f32) -> bool {
  // The second point belongs to the triangle (vertex-face) or to the first edge (edge-edge).
  let bLo = min(b0, b1);
  let bHi = max(b0, b1);
  let lo1 = select(min(min(a0, a1), bLo), min(a0, a1), vertexFace);
  let hi1 = select(max(max(a0, a1), bHi), max(a0, a1), vertexFace);
  let cdLo = min(min(c0, c1), min(d0, d1));
  let cdHi = max(max(c0, c1), max(d0, d1));
  let lo2 = select(cdLo, min(cdLo, bLo), vertexFace);
  let hi2 = select(cdHi, max(cdHi, bHi), vertexFace);
  let gaps = max(lo2 - hi1, lo1 - hi2);
  let m3 = max(max(max(abs(a0), abs(b0)), max(abs(c0), abs(d0))), max(max(abs(a1), abs(b1)), max(abs(c1), abs(d1))));
  let m = max(m3.x, max(m3.y, m3.z));
  if (!(m <= CCD_MAX_COORD)) { return false; }
  let thr = ((1.0 + 3.0 * CCD_SEPARATION_TOL_REL) * max(separation, 0.0) + CCD_APART_SLACK_REL * m + CCD_ERR_ABS) * 1.00000095367431640625; // (1 + 2^-20)
  return max(gaps.x, max(gaps.y, gaps.z)) > thr;
}
