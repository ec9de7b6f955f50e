/**
 * CPU (float64) projections of one constraint, shared by the reference solver's
 * Gauss-Seidel and Jacobi orders. Mirrors shaders/xpbdNeoHookean.wgsl and xpbdSpring.wgsl.
 */
import type { Model } from './model';
import { neoHookeanStepLength } from './neoHookeanStepLength';
import type { StepLengthening } from '../contract/params';

// Scratch space reused by every call (the reference runs long tests; no per-tet allocation).
const F = new Float64Array(9);
const P_H = new Float64Array(9);
const g = new Float64Array(12);
const ws = new Float64Array(4);
const B = new Float64Array(9);
const K = new Float64Array(9);
const U = new Float64Array(9);
const R = new Float64Array(9);
const RK = new Float64Array(9);
const UK = new Float64Array(9);
const L = new Float64Array(9);
const D = new Float64Array(9);
const OMEGA_F = new Float64Array(9);
const Y = new Float64Array(9);

/**
 * Jacobi step scale of one constraint block whose vertices are shared, on average, by
 * `meanCount` blocks, and whose geometric share of its diagonal is `theta` = g / (g + alpha)
 * (g = q tr B against 1 for a tet, w_a + w_b against alpha~ for a spring). Block Jacobi on
 * A = J W J^T + alpha converges when the step is at most 1 / the largest eigenvalue of
 * D^-1 A (D: the diagonal blocks); the off-diagonal coupling of a block is the geometric
 * share theta = g / (1 + g) of its diagonal, carried by each of the other blocks at its
 * vertices, so a step of 1 / (1 + (meanCount - 1) theta) is the Gershgorin-style scale: the
 * plain average 1 / meanCount where the geometric term dominates (stiff), the full step
 * where the inertia term dominates and blocks barely interact (soft). A fixed
 * 1 / meanCount made a soft body's material 1 / meanCount as strong per iteration: a free
 * 10 cm cube at E = 1e3 with 3 iterations gained 4x its energy in elastic strain.
 */
export function jacobiStepScale(meanCount: number, theta: number): number {
  return 1 / (1 + Math.max(0, meanCount - 1) * theta);
}

/**
 * Floats of solver state per Neo-Hookean tet: the 3x3 "stress" S it has applied this substep
 * (column-major, 9), then det F and ||F||^2 at its last visit (the warm start's test of how much
 * the tet's shape changed; on the GPU the w of S's first two columns).
 */
export const NEO_HOOKEAN_TET_STATE = 11;

/** Row r of a times row c of b (column-major 3x3): (a b^T)_rc. */
function dot3(a: Float64Array, r: number, b: Float64Array, c: number): number {
  return a[r] * b[c] + a[3 + r] * b[3 + c] + a[6 + r] * b[6 + c];
}

/** out = a * b for symmetric 3x3 b (column-major a; b symmetric so row/column order agree). */
function mulSym(a: Float64Array, b: Float64Array, out: Float64Array): void {
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) out[3 * j + i] = a[i] * b[3 * j] + a[3 + i] * b[3 * j + 1] + a[6 + i] * b[3 * j + 2];
}

// Rows of L^-1 in inverseNewtonBlock.
const LDL_ROWS = [new Float64Array(3), new Float64Array(3), new Float64Array(3)];

/**
 * In place: the Newton block n = I + q B (B symmetric positive semidefinite, column-major
 * 3x3) -> n^-1, by L D L^T with diagonal pivoting. Not the cofactor formula: for a sliver tet
 * B is nearly rank one (|g_v| ~ 1 / the tet's height), n's entries ~ q |B| against
 * eigenvalues ~ 1, and the cofactors and determinant cancel products ~ (q |B|)^2 (relative
 * error ~ eps cond(n)^2): in f32 (the GPU twin) N came out 3-13% wrong on the octopus'
 * 2e-8 m^3 sliver and the determinant's sign flipped once it inverted (the drop blew up to
 * 1e9 J). LDL^T is backward stable (error ~ eps cond(n)). The pivots are Schur complements of
 * a matrix >= I, hence >= 1 exactly, and are floored at 1; the largest remaining diagonal as
 * pivot keeps |l| <= 1, so the result sum_k r_k r_k^T / d_k (r_k the rows of L^-1) is
 * symmetric positive semidefinite with norm <= 9 at any conditioning. Same steps as
 * inverseNewtonBlock in shaders/xpbdNeoHookean.wgsl.
 */
export function inverseNewtonBlock(n: Float64Array): void {
  let i = 0;
  if (n[4] > n[4 * i]) i = 1;
  if (n[8] > n[4 * i]) i = 2;
  let j = (i + 1) % 3, k = (i + 2) % 3;
  const d0 = Math.max(n[4 * i], 1);
  let lj = n[3 * i + j] / d0, lk = n[3 * i + k] / d0;
  let sj = n[4 * j] - lj * n[3 * i + j];
  const sk = n[4 * k] - lk * n[3 * i + k];
  if (sk > sj) {
    const t = j; j = k; k = t;
    const tl = lj; lj = lk; lk = tl;
    sj = sk;
  }
  const d1 = Math.max(sj, 1);
  const l21 = (n[3 * j + k] - lk * n[3 * i + j]) / d1;
  const d2 = Math.max(n[4 * k] - lk * n[3 * i + k] - l21 * l21 * d1, 1);
  // Rows of L^-1 in the pivot order (i, j, k): e_i, e_j - lj e_i, e_k - l21 e_j + (lj l21 - lk) e_i.
  const [r0, r1, r2] = LDL_ROWS;
  r0.fill(0); r1.fill(0); r2.fill(0);
  r0[i] = 1;
  r1[j] = 1; r1[i] = -lj;
  r2[k] = 1; r2[j] = -l21; r2[i] = lj * l21 - lk;
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) n[3 * c + r] = (r0[r] * r0[c]) / d0 + (r1[r] * r1[c]) / d1 + (r2[r] * r2[c]) / d2;
}

const FN = new Float64Array(9);
const OFN = new Float64Array(9);

/**
 * Makes the step L (vertices move by w_v L g_v) carry no torque, as the paper's
 * rotation-invariant constraints and the exact stress (F P^T symmetric) do. Its torque about
 * the origin is the axial vector of F L^T (sum_v x_v g_v^T = F); the approximate tangent
 * (L is right-multiplied by N) does not keep that matrix symmetric, and a stiff body then
 * spun up at every impact. The closest L' in the step's own metric (||Z||^2 = tr(Z N^-1 Z^T))
 * with F L'^T symmetric is L' = L - Omega F N, Omega = [omega]x the multiplier, where
 * skew(F N F^T Omega) = -skew(F L^T); for symmetric G = F N F^T that reads
 * 1/2 (tr G I - G) omega = -axial(skew(F L^T)), a 3x3 positive definite system. Writes
 * Omega F to omegaF when given (zero when no projection was made).
 */
function keepAngularMomentum(L: Float64Array, F: Float64Array, N: Float64Array, omegaF?: Float64Array): void {
  omegaF?.fill(0);
  // a = axial vector of skew(F L^T): (F L^T)_rc = dot3(F, r, L, c).
  const a0 = 0.5 * (dot3(F, 2, L, 1) - dot3(F, 1, L, 2));
  const a1 = 0.5 * (dot3(F, 0, L, 2) - dot3(F, 2, L, 0));
  const a2 = 0.5 * (dot3(F, 1, L, 0) - dot3(F, 0, L, 1));
  // G = F N F^T.
  mulSym(F, N, FN);
  const g00 = dot3(FN, 0, F, 0), g01 = dot3(FN, 0, F, 1), g02 = dot3(FN, 0, F, 2);
  const g11 = dot3(FN, 1, F, 1), g12 = dot3(FN, 1, F, 2), g22 = dot3(FN, 2, F, 2);
  const tr = g00 + g11 + g22;
  // H = (tr G I - G) / 2; solve H omega = -a.
  const h00 = 0.5 * (tr - g00), h11 = 0.5 * (tr - g11), h22 = 0.5 * (tr - g22);
  const h01 = -0.5 * g01, h02 = -0.5 * g02, h12 = -0.5 * g12;
  const c00 = h11 * h22 - h12 * h12, c01 = h02 * h12 - h01 * h22, c02 = h01 * h12 - h02 * h11;
  const det = h00 * c00 + h01 * c01 + h02 * c02;
  if (!(det > 0)) return;
  const c11 = h00 * h22 - h02 * h02, c12 = h02 * h01 - h00 * h12, c22 = h00 * h11 - h01 * h01;
  const w0 = -(c00 * a0 + c01 * a1 + c02 * a2) / det;
  const w1 = -(c01 * a0 + c11 * a1 + c12 * a2) / det;
  const w2 = -(c02 * a0 + c12 * a1 + c22 * a2) / det;
  // L -= Omega (F N): column j of Omega Z is omega x (column j of Z).
  for (let j = 0; j < 3; j++) {
    const z0 = FN[3 * j], z1 = FN[3 * j + 1], z2 = FN[3 * j + 2];
    OFN[3 * j] = w1 * z2 - w2 * z1;
    OFN[3 * j + 1] = w2 * z0 - w0 * z2;
    OFN[3 * j + 2] = w0 * z1 - w1 * z0;
  }
  for (let i = 0; i < 9; i++) L[i] -= OFN[i];
  // Omega F, for the line search's change of F (L' = (D - Omega F) N).
  if (omegaF) {
    for (let j = 0; j < 3; j++) {
      const f0 = F[3 * j], f1 = F[3 * j + 1], f2 = F[3 * j + 2];
      omegaF[3 * j] = w1 * f2 - w2 * f1;
      omegaF[3 * j + 1] = w2 * f0 - w0 * f2;
      omegaF[3 * j + 2] = w0 * f1 - w1 * f0;
    }
  }
}

/**
 * One XPBD step of stable Neo-Hookean tet t, energy density (Smith et al. 2018, eq. 14;
 * material.ts) mu/2 (I_C - 3) + lambda/2 (det F - alpha)^2 - mu/2 log(I_C + 1), I_C = ||F||^2,
 * written so that it stays stable at any stiffness.
 *
 * The tet's multiplier is the 3x3 matrix S it has applied this substep: its vertices have
 * moved by w_v S g_v (g_v the rows of Dm^-1, g_0 = -(g_1 + g_2 + g_3)), the XPBD primal
 * equation x - x~ = W grad C^T lambda (Macklin, Müller, Chentanez 2016, eq. 9) for the
 * constraint vec F, whose gradient is exactly g_v. Implicit Euler holds when
 * S = -h^2 V P(F), P = mu F (1 - 1 / (I_C + 1)) + lambda (det F - alpha) cof F the first
 * Piola-Kirchhoff stress
 * (eq. 12 with compliance: C + alpha lambda = 0). Each visit takes a Newton step on
 * G(dS) = S + dS + h^2 V P(F + dS B), B = sum_v w_v g_v g_v^T (moving by w_v dS g_v changes F
 * by dS B), with the tangent dP/dF replaced by T = a I + lambda vec(cof F) vec(cof F)^T.
 *
 * Why not Macklin & Müller 2021's constraint pair C_D = ||F||, C_H = det F - gamma (one multiplier
 * each): both are pre-stressed (at rest C_D = sqrt 3, multipliers of order mu V h^2 whose
 * forces cancel), so the shear stiffness lives in the geometric terms lambda grad^2 C that
 * XPBD's Gauss-Newton step drops (eq. 11 takes K ~ M) and was integrated explicitly through
 * the lagged multipliers: stable only under a CFL condition (c h / dx below about 0.5; a free
 * cube at E = 1e9 gained 1e10 x its energy). Here the residual G uses the stress of the
 * current shape, and the tangent bounds every stiffness of dP/dF from above: mu I, the
 * volumetric lambda cof F cof F^T exactly, the geometric term lambda (J - alpha)
 * d cof F / dF (eigenvalues +- lambda |J - alpha| sigma_i, sigma the singular values of F) by
 * lambda |J - alpha| sigma_max (sigma_max from a Gershgorin bound on F^T F), and the log
 * term's Hessian by its largest eigenvalue mu (I_C - 1) / (I_C + 1)^2 where positive: a is
 * their sum, so the step never overshoots. The 9x9
 * system is I (x) (I + h^2 V a B) plus a rank one term: a 3x3 inverse and Sherman-Morrison.
 * In compliance form (alphaD = 1/(mu V h^2), alphaH = 1/(lambda V h^2), k = a / mu):
 *   R = -(S + h^2 V P(F)),   N = (I + k B / alphaD)^-1,
 *   U = cof F B,   s = U : (R N) / (1 + U : (cof F N) / alphaH),
 *   dS = (R - s cof F / alphaH) N,   dx_v = w_v dS g_v.
 * The step is then made torque-free (keepAngularMomentum), as the constraints' gradients
 * were: without it a free stiff cube's angular momentum drifted in flight and each impact
 * spun it up (10 cm cube dropped 5 cm, E = 1e9, 20 substeps: motion energy 5.3x the drop's).
 * With lineSearch (Gauss-Seidel only) the torque-free step is then lengthened by up to 2x where
 * the bound made it short (neoHookeanStepLength.ts): 'search' finds the length and writes it to
 * stepLengths[t] (1 where the tet is too stiff to search), 'reuse' scales the step by the length
 * stepLengths[t] holds (1 where it holds 0: not searched this substep), without searching
 * (SolverParams.andersonLineSearchSweeps: an accelerated run's later sweeps), false takes the
 * bounded step alone. The GPU keeps the length in the w of the tet's third stress column.
 * Writes the 4 vertex corrections (12 numbers) to dx and accumulates S in
 * lambda[9t .. 9t+8]. Returns false (no correction) when all four vertices are fixed.
 */
/**
 * Tet t's vertex gradient vectors into g (g_v: rows of Dm^-1, column-major storage: row r is
 * m[o + r], m[o + 3 + r], m[o + 6 + r]; g_0 = -(g_1 + g_2 + g_3)) and its deformation gradient
 * F = sum_v x_v g_v^T (column-major) at positions x.
 */
function gradientsAndF(model: Model, x: Float64Array, t: number): void {
  const tets = model.tets;
  const m = model.dmInv;
  const o = 9 * t;
  for (let r = 0; r < 3; r++) for (let j = 0; j < 3; j++) g[3 * (r + 1) + j] = m[o + 3 * j + r];
  for (let j = 0; j < 3; j++) g[j] = -(g[3 + j] + g[6 + j] + g[9 + j]);
  F.fill(0);
  for (let v = 0; v < 4; v++) {
    const xi = 3 * tets[4 * t + v];
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) F[3 * j + i] += x[xi + i] * g[3 * v + j];
  }
}

export function neoHookeanCorrection(
  model: Model,
  x: Float64Array,
  w: Float64Array,
  t: number,
  lambda: Float64Array,
  invDtSq: number,
  dx: Float64Array,
  jacobiRelaxation = 0,
  lineSearch: StepLengthening = false,
  stepLengths?: Float64Array,
): boolean {
  const tets = model.tets;
  const i0 = tets[4 * t], i1 = tets[4 * t + 1], i2 = tets[4 * t + 2], i3 = tets[4 * t + 3];
  const w0 = w[i0], w1 = w[i1], w2 = w[i2], w3 = w[i3];
  dx.fill(0);
  if (w0 + w1 + w2 + w3 === 0) return false;
  gradientsAndF(model, x, t);
  // Cofactor columns: f1 x f2, f2 x f0, f0 x f1 (= d det F / dF).
  const cross = (a: number, b: number, oo: number) => {
    P_H[oo] = F[a + 1] * F[b + 2] - F[a + 2] * F[b + 1];
    P_H[oo + 1] = F[a + 2] * F[b] - F[a] * F[b + 2];
    P_H[oo + 2] = F[a] * F[b + 1] - F[a + 1] * F[b];
  };
  cross(3, 6, 0);
  cross(6, 0, 3);
  cross(0, 3, 6);
  const detF = F[0] * P_H[0] + F[1] * P_H[1] + F[2] * P_H[2];
  const c = model.tetConstants;
  const alphaD = c[4 * t] * invDtSq;
  const hydro = c[4 * t + 1] >= 0;
  const alphaH = hydro ? c[4 * t + 1] * invDtSq : 0;
  const alpha = c[4 * t + 2]; // rest volume ratio of the energy (material.ts)
  // Bound of the geometric stiffness: sigma_max^2 is at most the largest absolute row sum of
  // F^T F (Gershgorin), which is exact at rest and for any rotation.
  let rowMax = 0;
  for (let a = 0; a < 3; a++) {
    let row = 0;
    for (let b = 0; b < 3; b++) row += Math.abs(F[3 * a] * F[3 * b] + F[3 * a + 1] * F[3 * b + 1] + F[3 * a + 2] * F[3 * b + 2]);
    rowMax = Math.max(rowMax, row);
  }
  const stressH = hydro ? (detF - alpha) / alphaH : 0; // lambda V h^2 (J - alpha)
  let ic = 0;
  for (let i = 0; i < 9; i++) ic += F[i] * F[i];
  const icPlus1 = ic + 1;
  // mu a: mu I, plus the geometric term's bound, plus the log term's largest Hessian
  // eigenvalue mu (I_C - 1) / (I_C + 1)^2 where positive (its negative part only makes a larger).
  const k = 1 + Math.abs(stressH) * Math.sqrt(rowMax) * alphaD + Math.max(0, (ic - 1) / (icPlus1 * icPlus1));
  ws[0] = w0; ws[1] = w1; ws[2] = w2; ws[3] = w3;
  // B = sum_v w_v g_v g_v^T; cH = sum_v w_v |cof F g_v|^2.
  B.fill(0);
  for (let v = 0; v < 4; v++) {
    const wv = ws[v];
    if (wv === 0) continue;
    const gx = g[3 * v], gy = g[3 * v + 1], gz = g[3 * v + 2];
    B[0] += wv * gx * gx; B[1] += wv * gx * gy; B[2] += wv * gx * gz;
    B[4] += wv * gy * gy; B[5] += wv * gy * gz; B[8] += wv * gz * gz;
  }
  B[3] = B[1]; B[6] = B[2]; B[7] = B[5];
  mulSym(P_H, B, U);
  // N = (I + k B / alphaD)^-1, symmetric positive definite, by pivoted LDL^T (inverseNewtonBlock).
  const q = k / alphaD;
  if (!Number.isFinite(q)) return false;
  for (let i = 0; i < 9; i++) K[i] = q * B[i];
  K[0] += 1; K[4] += 1; K[8] += 1;
  inverseNewtonBlock(K);
  const base = NEO_HOOKEAN_TET_STATE * t;
  // h^2 V P = [(F - cof F) + (cof F / 4 - F / (I_C + 1))] / alphaD + (J - 1) / alphaH cof F:
  // the stress mu F - mu F / (I_C + 1) + lambda (J - alpha) cof F (lambda (J - alpha) =
  // lambda (J - 1) - 3 mu / 4), grouped so that no large rest terms cancel (each bracket is
  // 0 at rest and for any rotation; f32 on the GPU would lose them).
  if (hydro) {
    const sJ = (detF - 1) / alphaH;
    for (let i = 0; i < 9; i++) R[i] = -(lambda[base + i] + ((F[i] - P_H[i]) + (0.25 * P_H[i] - F[i] / icPlus1)) / alphaD + sJ * P_H[i]);
  } else {
    for (let i = 0; i < 9; i++) R[i] = -(lambda[base + i] + (F[i] - F[i] / icPlus1) / alphaD);
  }
  mulSym(R, K, RK);
  if (hydro) {
    mulSym(P_H, K, UK);
    let uRK = 0, uPK = 0;
    for (let i = 0; i < 9; i++) { uRK += U[i] * RK[i]; uPK += U[i] * UK[i]; }
    const sH = uRK / (1 + uPK / alphaH);
    for (let i = 0; i < 9; i++) { L[i] = RK[i] - (sH / alphaH) * UK[i]; D[i] = R[i] - (sH / alphaH) * P_H[i]; }
  } else {
    L.set(RK);
    D.set(R);
  }
  // Jacobi (jacobiRelaxation > 0): every tet takes a step of omega / (mean tet count at its
  // vertices) of its own, in its multiplier S and in the positions alike, and the gather sums
  // them. The relaxation must scale the multiplier too: the positions obey x - x~ = sum_t
  // w S_t g only if every position step is w dS g; scaling positions alone by omega solves
  // the problem for masses divided by omega (a different, wrong fixed point). Linearised,
  // this is block Jacobi with steps omega * scale: it converges iff omega * rho(S D^-1 A) < 2,
  // and rho(S D^-1 A) <= max over tets of scale * (largest tet count at its vertices)
  // (src/sim/README.md, "Convergence condition").
  if (jacobiRelaxation > 0) {
    const g = q * (B[0] + B[4] + B[8]);
    const sc = jacobiStepScale(1 / c[4 * t + 3], g / (1 + g)) * jacobiRelaxation;
    for (let i = 0; i < 9; i++) L[i] *= sc;
  }
  const trB = B[0] + B[4] + B[8];
  const search = lineSearch === 'search' && jacobiRelaxation === 0 && trB / alphaD <= ACCELERATION_MAX_STIFFNESS_RATIO;
  keepAngularMomentum(L, F, K, search ? OMEGA_F : undefined);
  // Gauss-Seidel with lineSearch: the torque-free step lengthened where the bound was loose
  // (neoHookeanStepLength.ts; a multiple of a torque-free step is torque-free). Never in Jacobi,
  // whose blocks move at once from the same positions.
  let len = 1;
  if (search) {
    // Y = L B, the change of F per unit step. L = D N with D = R - (sH / alphaH) cof F - Omega F
    // and N = (I + q B)^-1, so L B = D (I - N) / q = (D - L) / q exactly. Where q B is large (a
    // stiff tet, a sliver: q tr B ~ 1e7) that form is accurate and L B is not: L's component
    // along B's large eigenvector is ~1 / (q |B|) of the others and carries their rounding,
    // which the product multiplies by |B| (in f32 a sliver's line search then gained energy).
    if (q * trB >= 1) {
      for (let i = 0; i < 9; i++) Y[i] = (D[i] - OMEGA_F[i] - L[i]) / q;
    } else {
      mulSym(L, B, Y);
    }
    len = neoHookeanStepLength(F, P_H, detF, ic, R, L, Y, alphaD, hydro, alphaH);
  } else if (lineSearch === 'reuse' && jacobiRelaxation === 0 && stepLengths && stepLengths[t] > 0) {
    // The length this tet's last search found: a fixed scale of the bounded step, so the sweep
    // stays smooth in the state (what Anderson acceleration's secant model needs).
    len = stepLengths[t];
  }
  if (lineSearch === 'search' && stepLengths) stepLengths[t] = len;
  if (len !== 1) for (let i = 0; i < 9; i++) L[i] *= len;
  for (let i = 0; i < 9; i++) lambda[base + i] += L[i];
  // The shape at this visit, for the next substep's warm start (neoHookeanWarmStart).
  lambda[base + 9] = detF;
  lambda[base + 10] = ic;
  // dx_v = w_v dS g_v.
  for (let v = 0; v < 4; v++) {
    const wv = ws[v];
    if (wv === 0) continue;
    const gx = g[3 * v], gy = g[3 * v + 1], gz = g[3 * v + 2];
    for (let i = 0; i < 3; i++) dx[3 * v + i] = wv * (L[i] * gx + L[3 + i] * gy + L[6 + i] * gz);
  }
  return true;
}

/**
 * Share of the previous substep's Neo-Hookean multiplier a tet starts the next substep with
 * (SolverParams.warmStart). Why a half: a tet's stress S is re-solved every substep from where
 * it starts, and the iterations remove a fraction g of the start's error; what a warm start
 * carries over that they do not remove, share (1 - g) of the stale stress, acts one substep late,
 * like an explicit force. In the model of one mode (stiffness k, c = h^2 k / (1 + h^2 k); a
 * substep does S <- share (1 - g) S - g c x~, x <- x~ + S) the step map's spectral radius stays
 * <= 1 for every c and every g in [0, 1] exactly when share x (1 - g) <= 1/2 for all g, i.e.
 * share <= 1/2. Measured (cantilever, resolution 12, 60 frames, partitioned, 1-4 iterations):
 * share 0.5 stable at E = 1e8 and 1e10; 0.6 grows at 1e10; 0.7 and more explode at 1e8 even with
 * 4 iterations (all of it: at every iteration count tried). Cold start (share 0) needs the
 * whole stress rebuilt every substep: a stiff cantilever's sag then takes several times more
 * iterations (docs/benchmarks.md).
 */
export const WARM_START_SHARE = 0.5;

/**
 * Largest change of det F (and of ||F||^2 / 3) over a substep with which a tet is still warm
 * started. The share above is a linear argument; where the shape changes fast (an inverted
 * tet unfolding, a hard impact) the last substep's stress is no guess for this one's, and with
 * a non-convex energy the stale start can even lead the iterations to another solution: an
 * inverted sliver (1/1000 thin, volume -5) warm-started gained 15x its energy in a frame in
 * float64 (cold: loses it). Rotations change neither invariant.
 */
export const WARM_START_MAX_SHAPE_CHANGE = 0.01;

/**
 * Largest stiffness ratio h^2 mu V tr B of a tet (its Newton block's conditioning, N =
 * (I + q B)^-1 with q ~ 1.9 h^2 mu V at rest) for which the warm start and the line search act.
 * Past it the step's small component along B's large eigenvector is lost to the f32 twin's
 * rounding (relative error ~ 1e-7 x the ratio): on SwiftShader a 1/1000-thin inverted sliver
 * (ratio ~ 1e7) gained 120x its energy with the line search and 45x with the warm start, while
 * the float64 reference did not. Such a tet's own stiffness dominates its inertia, so its bounded
 * step is already close to exact. Measured ratios: cantilever at E = 1e6 about 1, at 1e8 about
 * 1e2 (resolution 16-24), at 1e10 1e4.
 */
export const ACCELERATION_MAX_STIFFNESS_RATIO = 1e3;

const IDENTITY = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
const W0 = new Float64Array(9);

/**
 * Warm start of tet t at the start of a substep, judged at the positions before predict (the
 * previous substep's end; its corrections are added to the predicted positions, which keeps the
 * relation below because g does not depend on the positions): when its shape changed little
 * since its last visit (det F and ||F||^2 within WARM_START_MAX_SHAPE_CHANGE, det F > 0 at both)
 * its multiplier S becomes share x the previous substep's S, made torque-free at the current shape (keepAngularMomentum
 * in the plain metric: the body has rotated since S was solved, and a step can never remove a
 * torque the start carries, so a rotating stressed body would spin up), and its vertices move
 * by w_v S g_v, which keeps the XPBD primal relation x - x~ = sum_t w S_t g exactly (so the
 * fixed point is the same as from a cold start). The corrections are summed per vertex by the
 * caller after predict (all tets from the same positions). Writes 12 numbers to dx; returns false (dx zero,
 * S zero) when the tet's vertices are all fixed, share is 0, S is not finite or the shape
 * changed too much. Same steps as
 * warmStart in shaders/xpbdNeoHookean.wgsl.
 */
export function neoHookeanWarmStart(model: Model, x: Float64Array, w: Float64Array, t: number, lambda: Float64Array, share: number, invDtSq: number, dx: Float64Array): boolean {
  const tets = model.tets;
  const base = NEO_HOOKEAN_TET_STATE * t;
  dx.fill(0);
  let finite = true;
  for (let i = 0; i < 9; i++) { W0[i] = share * lambda[base + i]; if (!Number.isFinite(W0[i])) finite = false; }
  const i0 = tets[4 * t], i1 = tets[4 * t + 1], i2 = tets[4 * t + 2], i3 = tets[4 * t + 3];
  if (!(share > 0) || !finite || w[i0] + w[i1] + w[i2] + w[i3] === 0) {
    for (let i = 0; i < 9; i++) lambda[base + i] = 0;
    return false;
  }
  gradientsAndF(model, x, t);
  const c0 = F[4] * F[8] - F[5] * F[7], c1 = F[5] * F[6] - F[3] * F[8], c2 = F[3] * F[7] - F[4] * F[6];
  const detF = F[0] * c0 + F[1] * c1 + F[2] * c2;
  let ic = 0;
  for (let i = 0; i < 9; i++) ic += F[i] * F[i];
  const lastDet = lambda[base + 9], lastIc = lambda[base + 10];
  let trB = 0;
  for (let v = 0; v < 4; v++) trB += w[tets[4 * t + v]] * (g[3 * v] * g[3 * v] + g[3 * v + 1] * g[3 * v + 1] + g[3 * v + 2] * g[3 * v + 2]);
  const stiffnessRatio = trB / (model.tetConstants[4 * t] * invDtSq);
  if (!(stiffnessRatio <= ACCELERATION_MAX_STIFFNESS_RATIO && detF > 0 && lastDet > 0 && Math.abs(detF - lastDet) <= WARM_START_MAX_SHAPE_CHANGE && Math.abs(ic - lastIc) <= 3 * WARM_START_MAX_SHAPE_CHANGE)) {
    for (let i = 0; i < 9; i++) lambda[base + i] = 0;
    return false;
  }
  keepAngularMomentum(W0, F, IDENTITY);
  for (let i = 0; i < 9; i++) lambda[base + i] = W0[i];
  for (let v = 0; v < 4; v++) {
    const wv = w[tets[4 * t + v]];
    if (wv === 0) continue;
    const gx = g[3 * v], gy = g[3 * v + 1], gz = g[3 * v + 2];
    for (let i = 0; i < 3; i++) dx[3 * v + i] = wv * (W0[i] * gx + W0[3 + i] * gy + W0[6 + i] * gz);
  }
  return true;
}

/** Distance constraint |x_a - x_b| - L on edge e with compliance `alphaTilde` (already / h^2). */
export function springCorrection(model: Model, x: Float64Array, w: Float64Array, e: number, lambda: Float64Array, alphaTilde: number, dx: Float64Array, jacobiRelaxation = 0): boolean {
  const a = model.edges[2 * e], b = model.edges[2 * e + 1];
  const wa = w[a], wb = w[b];
  dx.fill(0);
  if (wa + wb === 0) return false;
  const ux = x[3 * a] - x[3 * b], uy = x[3 * a + 1] - x[3 * b + 1], uz = x[3 * a + 2] - x[3 * b + 2];
  const len = Math.hypot(ux, uy, uz);
  if (!(len > 1e-12)) return false;
  const C = len - model.edgeRestLength[e];
  let dl = (-C - alphaTilde * lambda[e]) / (wa + wb + alphaTilde);
  // Jacobi: scaled step, multiplier and positions alike (see neoHookeanCorrection).
  if (jacobiRelaxation > 0) dl *= jacobiStepScale(1 / model.edgeJacobiScale[e], (wa + wb) / (wa + wb + alphaTilde)) * jacobiRelaxation;
  lambda[e] += dl;
  const s = dl / len;
  dx[0] = wa * ux * s; dx[1] = wa * uy * s; dx[2] = wa * uz * s;
  dx[3] = -wb * ux * s; dx[4] = -wb * uy * s; dx[5] = -wb * uz * s;
  return true;
}
