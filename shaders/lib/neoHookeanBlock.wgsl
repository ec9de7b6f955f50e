// The stable Neo-Hookean tet block (Smith et al. 2018, eq. 14): project(t) takes one Newton step
// of tet t's 3x3 stress multiplier S with a tangent that keeps every stiffness of dP/dF (the
// derivation: neoHookeanCorrection in src/sim/constraintsCpu.ts, its float64 twin);
// lib/neoHookeanSweep.wgsl applies it in place (Gauss-Seidel), lib/neoHookeanWarmStart.wgsl
// starts a substep from it. Shared by xpbdNeoHookean.wgsl (every solve order),
// xpbdNeoHookeanColliders.wgsl (partitioned cells with the colliders after each vertex's last
// visit) and the finalize kernels that warm-start, which bind the tets differently. The
// including kernel declares frame, positions and stress (read_write) and
//   fn tetCorners(t: u32) -> vec4<u32>;  fn tetDmInv(t: u32) -> mat3x3<f32>;
//   fn tetConstants(t: u32) -> vec4<f32> (alphaD, alphaH (<0: off), alpha, Jacobi step scale).

#include "positions"

// Largest stiffness ratio h^2 mu V tr B (the Newton block's conditioning) for which the warm start
// and the line search act: past it f32 loses the step's stiff component (ACCELERATION_MAX_STIFFNESS_RATIO
// in src/sim/constraintsCpu.ts).
const ACCELERATION_MAX_STIFFNESS_RATIO = 1e3;

struct Delta { d0: vec3<f32>, d1: vec3<f32>, d2: vec3<f32>, d3: vec3<f32>, ok: bool }

// Inverse of a symmetric positive definite 3x3 (zero matrix when singular).
fn inverseSym(n: mat3x3<f32>) -> mat3x3<f32> {
  let c0 = cross(n[1], n[2]);
  let c1 = cross(n[2], n[0]);
  let c2 = cross(n[0], n[1]);
  let det = dot(n[0], c0);
  if (!(det > 0.0)) { return mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0)); }
  // Rows of the inverse are the cofactor columns / det; symmetric, so they are its columns too.
  return mat3x3<f32>(c0 / det, c1 / det, c2 / det);
}

// Inverse of the Newton block n = I + q B (B symmetric positive semidefinite), by n = L D L^T
// with diagonal pivoting. The cofactor formula (inverseSym) fails here: for a sliver tet
// B = sum_v w_v g_v g_v^T is nearly rank one (|g_v| ~ 1 / the tet's height), so n's entries
// are ~ q |B| while its small eigenvalues are ~ 1, and the 2x2 minors and the determinant
// are differences of products ~ (q |B|)^2 that cancel: relative error ~ eps cond(n)^2. In f32
// N came out 3-13% wrong on the octopus' 2e-8 m^3 sliver (q tr B ~ 4e3) and the determinant's
// sign flipped once it inverted (the tet skipped, or a huge step when it came out tiny and
// positive): the drop blew up to 1e9 J while the f64 reference did not. LDL^T is backward
// stable (error ~ eps cond(n), the rounding of n itself). The pivots are Schur complements of
// a matrix >= I, so each is >= 1 exactly: flooring them at 1 only removes rounding. The
// largest remaining diagonal as pivot keeps |l| <= 1, so N = sum_k r_k r_k^T / d_k (r_k the
// rows of L^-1) is symmetric positive semidefinite with ||N|| <= 9 at any conditioning
// (exactly, every eigenvalue is <= 1). Float64 twin: inverseNewtonBlock in
// src/sim/constraintsCpu.ts.
fn inverseNewtonBlock(n: mat3x3<f32>) -> mat3x3<f32> {
  var a = n;
  var i = 0u;
  if (a[1][1] > a[i][i]) { i = 1u; }
  if (a[2][2] > a[i][i]) { i = 2u; }
  var j = (i + 1u) % 3u;
  var k = (i + 2u) % 3u;
  let d0 = max(a[i][i], 1.0);
  var lj = a[i][j] / d0;
  var lk = a[i][k] / d0;
  var sj = a[j][j] - lj * a[i][j];
  let sk = a[k][k] - lk * a[i][k];
  if (sk > sj) {
    let t = j; j = k; k = t;
    let tl = lj; lj = lk; lk = tl;
    sj = sk;
  }
  let d1 = max(sj, 1.0);
  let l21 = (a[j][k] - lk * a[i][j]) / d1;
  let d2 = max(a[k][k] - lk * a[i][k] - l21 * l21 * d1, 1.0);
  var ei = vec3<f32>(0.0);
  ei[i] = 1.0;
  var ej = vec3<f32>(0.0);
  ej[j] = 1.0;
  var ek = vec3<f32>(0.0);
  ek[k] = 1.0;
  // Rows of L^-1 in the pivot order (i, j, k).
  let r1 = ej - lj * ei;
  let r2 = ek - l21 * ej + (lj * l21 - lk) * ei;
  return outer(ei, ei / d0) + outer(r1, r1 / d1) + outer(r2, r2 / d2);
}

// a b^T.
fn outer(a: vec3<f32>, b: vec3<f32>) -> mat3x3<f32> {
  return mat3x3<f32>(a * b.x, a * b.y, a * b.z);
}

// The step L (vertices move by w_v L g_v) made torque-free in its own metric: torque is the
// axial vector of F L^T; L' = L - [omega]x F N with (tr G I - G) / 2 omega = -axial(skew(F L^T)),
// G = F N F^T. Derivation: keepAngularMomentum in src/sim/constraintsCpu.ts.
// The multiplier omega of that projection (zero when its system is singular).
fn torqueFreeOmega(L: mat3x3<f32>, F: mat3x3<f32>, N: mat3x3<f32>) -> vec3<f32> {
  let M = F * transpose(L);
  let a = 0.5 * vec3<f32>(M[1][2] - M[2][1], M[2][0] - M[0][2], M[0][1] - M[1][0]);
  let G = (F * N) * transpose(F);
  let tr = G[0].x + G[1].y + G[2].z;
  let I = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
  return -(inverseSym((I * tr - G) * 0.5) * a);
}

// [omega]x Z, column by column.
fn crossColumns(omega: vec3<f32>, Z: mat3x3<f32>) -> mat3x3<f32> {
  return mat3x3<f32>(cross(omega, Z[0]), cross(omega, Z[1]), cross(omega, Z[2]));
}

fn keepAngularMomentum(L: mat3x3<f32>, F: mat3x3<f32>, N: mat3x3<f32>) -> mat3x3<f32> {
  return L - crossColumns(torqueFreeOmega(L, F, N), F * N);
}

fn frob(a: mat3x3<f32>, b: mat3x3<f32>) -> f32 {
  return dot(a[0], b[0]) + dot(a[1], b[1]) + dot(a[2], b[2]);
}

// Longest step of the line search, in units of the bounded step (MAX_STEP_LENGTH in
// src/sim/neoHookeanStepLength.ts).
const MAX_STEP_LENGTH = 2.0;

// u - log(1 + u), u > -1, without cancellation (WGSL has no log1p): series below 1e-2.
fn uMinusLog1p(u: f32) -> f32 {
  if (abs(u) < 1e-2) { return u * u * (0.5 - u * (1.0 / 3.0 - 0.25 * u)); }
  return u - log(1.0 + u);
}

// Inner products of Y = L B with the state: <R,Y>, <L,Y>, <F,Y>, <Y,Y>, <cof F,Y>, <F,cof Y>, det Y.
struct StepProducts { ry: f32, ly: f32, fy: f32, yy: f32, c1: f32, c2: f32, c3: f32 }

// The tet's local energy change along the step, phi(S + t L) - phi(S), as -t <R,Y> plus terms of
// second and third order in t Y (nothing of the stress's size cancels in f32). Twin:
// localEnergyChange in src/sim/neoHookeanStepLength.ts.
fn localEnergyChange(t: f32, p: StepProducts, ic: f32, alphaD: f32, hydro: bool, alphaH: f32, stressH: f32) -> f32 {
  let icPlus1 = ic + 1.0;
  let u = t * (2.0 * p.fy + t * p.yy) / icPlus1;
  var e = -t * p.ry + 0.5 * t * t * p.ly + (0.5 * t * t * p.yy * (ic / icPlus1) + 0.5 * uMinusLog1p(u)) / alphaD;
  if (hydro) {
    let dJ = t * (p.c1 + t * (p.c2 + t * p.c3));
    e = e + 0.5 * dJ * dJ / alphaH + stressH * t * t * (p.c2 + t * p.c3);
  }
  return e;
}

// Line search of the Gauss-Seidel step L (project's STEP_SEARCH; Y = L B): the minimum along L of the tet's
// local energy's quadratic model with the exact Hessian, clamped to [1, MAX_STEP_LENGTH] and kept
// only when the exact local energy there is no higher than at 1. Derivation and measurements:
// neoHookeanStepLength in src/sim/neoHookeanStepLength.ts.
fn stepLength(F: mat3x3<f32>, cofF: mat3x3<f32>, detF: f32, ic: f32, R: mat3x3<f32>, L: mat3x3<f32>, Y: mat3x3<f32>, alphaD: f32, hydro: bool, alphaH: f32) -> f32 {
  let cofY = mat3x3<f32>(cross(Y[1], Y[2]), cross(Y[2], Y[0]), cross(Y[0], Y[1]));
  var p: StepProducts;
  p.ry = frob(R, Y);
  p.ly = frob(L, Y);
  p.fy = frob(F, Y);
  p.yy = frob(Y, Y);
  p.c1 = frob(cofF, Y);
  p.c2 = frob(F, cofY);
  p.c3 = dot(Y[0], cofY[0]);
  let icPlus1 = ic + 1.0;
  var stressH = 0.0;
  if (hydro) { stressH = (detF - 1.0) / alphaH - 0.75 / alphaD; }
  var curvature = p.ly + (p.yy * (ic / icPlus1) + 2.0 * p.fy * p.fy / (icPlus1 * icPlus1)) / alphaD;
  if (hydro) { curvature = curvature + p.c1 * p.c1 / alphaH + 2.0 * stressH * p.c2; }
  if (!(curvature > 0.0)) { return 1.0; }
  let t = min(MAX_STEP_LENGTH, p.ry / curvature);
  if (!(t > 1.0)) { return 1.0; }
  if (localEnergyChange(t, p, ic, alphaD, hydro, alphaH, stressH) <= localEnergyChange(1.0, p, ic, alphaD, hydro, alphaH, stressH)) { return t; }
  return 1.0;
}

// Jacobi: the step (multiplier S and corrections alike) is scaled by the relaxation / mean
// vertex count (constants.w) and xpbdGather.wgsl sums the corrections. The relaxation must
// scale the multiplier too, or the positions solve the problem for masses / relaxation.
// lengthen: how the Gauss-Seidel step is lengthened (src/contract/params.ts lineSearchInSweep):
// STEP_BOUNDED not at all, STEP_SEARCH by stepLength (the length kept in the w of the tet's third
// stress column, 1 where the tet is too stiff to search), STEP_REUSE by the length kept there
// (1 where it holds 0: not searched this substep; the warm start and the clear zero it).
const STEP_BOUNDED = 0u;
const STEP_SEARCH = 1u;
const STEP_REUSE = 2u;
fn project(t: u32, jacobi: bool, lengthen: u32) -> Delta {
  var out: Delta;
  out.ok = false;
  let ids = tetCorners(t);
  let x0 = vertexPosition(ids.x);
  let x1 = vertexPosition(ids.y);
  let x2 = vertexPosition(ids.z);
  let x3 = vertexPosition(ids.w);
  let w0 = vertexInverseMass(ids.x);
  let w1 = vertexInverseMass(ids.y);
  let w2 = vertexInverseMass(ids.z);
  let w3 = vertexInverseMass(ids.w);
  if (w0 + w1 + w2 + w3 == 0.0) { return out; }
  let m = tetDmInv(t);
  // Vertex gradient vectors g_v: rows of Dm^-1 (columns of its transpose); g_0 = -(g_1 + g_2 + g_3).
  let gT = transpose(m);
  let g1 = gT[0];
  let g2 = gT[1];
  let g3 = gT[2];
  let g0 = -(g1 + g2 + g3);
  let F = mat3x3<f32>(x1 - x0, x2 - x0, x3 - x0) * m;
  // d det F / dF: cofactor columns.
  let PH = mat3x3<f32>(cross(F[1], F[2]), cross(F[2], F[0]), cross(F[0], F[1]));
  let detF = dot(F[0], PH[0]);
  let k = tetConstants(t);
  let alphaD = k.x * frame.invH2;
  let hydro = k.y >= 0.0;
  var alphaH = 1.0;
  if (hydro) { alphaH = k.y * frame.invH2; }
  // B = sum_v w_v g_v g_v^T.
  let B = w0 * outer(g0, g0) + w1 * outer(g1, g1) + w2 * outer(g2, g2) + w3 * outer(g3, g3);
  // Tangent bound: a / mu = 1 + lambda |J - alpha| sigma_max / mu (+ the log term), sigma_max^2 <= the largest
  // absolute row sum of F^T F (Gershgorin; exact at rest and for rotations).
  let ftf = transpose(F) * F;
  let one = vec3<f32>(1.0);
  let rowMax = max(dot(abs(ftf[0]), one), max(dot(abs(ftf[1]), one), dot(abs(ftf[2]), one)));
  // Log term: mu/2 log(I_C + 1); its Hessian's largest eigenvalue is mu (I_C - 1) / (I_C + 1)^2.
  let ic = frob(F, F);
  let icPlus1 = ic + 1.0;
  var kTangent = 1.0 + max(0.0, (ic - 1.0) / (icPlus1 * icPlus1));
  if (hydro) { kTangent = kTangent + abs(detF - k.z) / alphaH * sqrt(rowMax) * alphaD; }
  let q = kTangent / alphaD;
  let I = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
  // Non-finite only from non-finite positions (the finalize guard then stops the object).
  if (!finite3(vec3<f32>(q))) { return out; }
  let N = inverseNewtonBlock(I + q * B);
  let S = mat3x3<f32>(stress[3u * t].xyz, stress[3u * t + 1u].xyz, stress[3u * t + 2u].xyz);
  // h^2 V P grouped so that no large rest terms cancel:
  // [(F - cof F) + (cof F / 4 - F / (I_C + 1))] / alphaD + (J - 1) / alphaH cof F.
  var R: mat3x3<f32>;
  if (hydro) {
    R = (S + ((F - PH) + (PH * 0.25 - F * (1.0 / icPlus1))) * (1.0 / alphaD) + PH * ((detF - 1.0) / alphaH)) * -1.0;
  } else {
    R = (S + (F - F * (1.0 / icPlus1)) * (1.0 / alphaD)) * -1.0;
  }
  // The step before N: L = D N.
  var D = R;
  if (hydro) {
    let U = PH * B;
    let sH = frob(U, R * N) / (1.0 + frob(U, PH * N) / alphaH);
    D = R - PH * (sH / alphaH);
  }
  var L = D * N;
  if (jacobi) {
    let g = q * (B[0].x + B[1].y + B[2].z);
    L = L * (jacobiStepScale(1.0 / k.w, g / (1.0 + g)) * frame.relaxation);
  }
  let omega = torqueFreeOmega(L, F, N);
  L = L - crossColumns(omega, F * N);
  let trB = B[0].x + B[1].y + B[2].z;
  var length = 1.0;
  if (!jacobi && lengthen == STEP_SEARCH && trB / alphaD <= ACCELERATION_MAX_STIFFNESS_RATIO) {
    // Y = L B = (D - Omega F - L) / q where q B is large (L B loses L's small stiff component to
    // rounding: a sliver gained energy), the product where it is small. Twin: constraintsCpu.ts.
    var Y = L * B;
    if (q * trB >= 1.0) { Y = (D - crossColumns(omega, F) - L) * (1.0 / q); }
    length = stepLength(F, PH, detF, ic, R, L, Y, alphaD, hydro, alphaH);
  } else if (!jacobi && lengthen == STEP_REUSE) {
    // A fixed scale of the bounded step: the sweep stays smooth in the state, as Anderson
    // acceleration's secant model needs (SolverParams.andersonLineSearchSweeps).
    let kept = stress[3u * t + 2u].w;
    if (kept > 0.0) { length = kept; }
  }
  L = L * length;
  // w: det F and ||F||^2 at this visit, the next substep's warm start's test (warmStart).
  stress[3u * t] = vec4<f32>(S[0] + L[0], detF);
  stress[3u * t + 1u] = vec4<f32>(S[1] + L[1], ic);
  stress[3u * t + 2u] = vec4<f32>(S[2] + L[2], length);
  out.d0 = w0 * (L * g0);
  out.d1 = w1 * (L * g1);
  out.d2 = w2 * (L * g2);
  out.d3 = w3 * (L * g3);
  out.ok = true;
  return out;
}
