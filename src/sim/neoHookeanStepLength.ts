/**
 * Step length of one Neo-Hookean block step (SolverParams.lineSearch; Gauss-Seidel orders).
 *
 * The block step L of neoHookeanCorrection (constraintsCpu.ts) solves its Newton system with a
 * tangent that bounds every stiffness of dP/dF from above, so it never overshoots but is short
 * wherever the bound is loose: by about 3 mu on the volume (the geometric term's bound
 * lambda |J - alpha| sigma_max where the exact term is negative, the log term's negative
 * curvature dropped) and on rotations (exact stiffness 0, bound 1.875 mu at rest). The tet's
 * local problem (others fixed) is to minimise
 *   phi(S) = 1/2 tr(S B S^T) + h^2 V Psi(F0 + S B),
 * whose gradient along L is -<R, L B> (R = -(S + h^2 V P(F)), the step's residual) and whose
 * curvature along L is <L, L B> + h^2 V (L B) : dP/dF : (L B), from the exact Hessian (one
 * directional derivative, no 9x9 matrix). The step length is that quadratic model's minimum,
 * t* = <R, LB> / curvature, clamped to [1, MAX_STEP_LENGTH], and kept only when the exact
 * phi (with the log and the cubic det) at t* is no higher than at 1: the lengthened step is
 * never worse for the tet than the bounded step, which is the stability argument of the bound.
 * Measured (cantilever, 4 iterations): t* lies in [1, 1.5) for all but 1e-4 of the visits.
 * Same steps as stepLength in shaders/xpbdNeoHookean.wgsl.
 */

/** lambda V h^2 (J - alpha), grouped like the residual: (J - 1) / alphaH - 3/4 / alphaD (alpha = 1 + 3 mu / (4 lambda)). */
export function volumeStress(detF: number, alphaD: number, alphaH: number): number {
  return (detF - 1) / alphaH - 0.75 / alphaD;
}

/** Longest step taken, in units of the bounded step. */
export const MAX_STEP_LENGTH = 2;

/**
 * u - log(1 + u) without cancellation (u > -1): the series below |u| = 1e-2 (truncation error
 * u^5 / 5 against the value's u^2 / 2), the formula above (cancellation factor at most 1 / u).
 * Same branches in the WGSL twin, which has no log1p.
 */
export function uMinusLog1p(u: number): number {
  if (Math.abs(u) < 1e-2) return u * u * (0.5 - u * (1 / 3 - 0.25 * u));
  return u - Math.log(1 + u);
}

/**
 * The tet's local problem along a step, phi(S + t L) - phi(S), from the inner products of
 * Y = L B with the state (see neoHookeanStepLength), written as -t <R, Y> plus terms of second
 * and third order in t Y, so that nothing of the size of the stress cancels (the GPU twin is f32):
 *   t^2/2 <L, Y> + (1/alphaD) [t^2/2 |Y|^2 I_C / (I_C + 1) + (u - log(1 + u)) / 2]
 *   + (1/alphaH) dJ^2 / 2 + lambda V h^2 (J - alpha) (t^2 <F, cof Y> + t^3 det Y),
 * u = (2 t <F, Y> + t^2 |Y|^2) / (I_C + 1), dJ = det(F + t Y) - det F = t <cof F, Y> +
 * t^2 <F, cof Y> + t^3 det Y (a 3x3 determinant is cubic).
 */
export interface StepInnerProducts {
  /** <R, Y>: minus the slope of phi along L. */
  ry: number;
  /** <L, Y> = tr(L B L^T): the inertia's curvature. */
  ly: number;
  fy: number;
  yy: number;
  /** <cof F, Y>, <F, cof Y>, det Y. */
  c1: number;
  c2: number;
  c3: number;
}

export function localEnergyChange(t: number, p: StepInnerProducts, ic: number, alphaD: number, hydro: boolean, alphaH: number, stressH: number): number {
  const icPlus1 = ic + 1;
  const u = (t * (2 * p.fy + t * p.yy)) / icPlus1;
  let e = -t * p.ry + 0.5 * t * t * p.ly + (0.5 * t * t * p.yy * (ic / icPlus1) + 0.5 * uMinusLog1p(u)) / alphaD;
  if (hydro) {
    const dJ = t * (p.c1 + t * (p.c2 + t * p.c3));
    e += (0.5 * dJ * dJ) / alphaH + stressH * t * t * (p.c2 + t * p.c3);
  }
  return e;
}

const products: StepInnerProducts = { ry: 0, ly: 0, fy: 0, yy: 0, c1: 0, c2: 0, c3: 0 };

/** The inner products of Y with the state (writes `p`, or a shared scratch object, and returns it). */
export function stepInnerProducts(F: Float64Array, cof: Float64Array, R: Float64Array, L: Float64Array, Y: Float64Array, p: StepInnerProducts = products): StepInnerProducts {
  p.ry = 0; p.ly = 0; p.fy = 0; p.yy = 0; p.c1 = 0;
  for (let i = 0; i < 9; i++) {
    p.ry += R[i] * Y[i];
    p.ly += L[i] * Y[i];
    p.fy += F[i] * Y[i];
    p.yy += Y[i] * Y[i];
    p.c1 += cof[i] * Y[i];
  }
  // cof Y columns y1 x y2, y2 x y0, y0 x y1; <F, cof Y> and det Y = y0 . (y1 x y2).
  const cx = (a: number, b: number, k: number) => Y[a + (k + 1) % 3] * Y[b + (k + 2) % 3] - Y[a + (k + 2) % 3] * Y[b + (k + 1) % 3];
  p.c2 = 0;
  for (let k = 0; k < 3; k++) p.c2 += F[k] * cx(3, 6, k) + F[3 + k] * cx(6, 0, k) + F[6 + k] * cx(0, 3, k);
  p.c3 = Y[0] * cx(3, 6, 0) + Y[1] * cx(3, 6, 1) + Y[2] * cx(3, 6, 2);
  return p;
}

/**
 * The length t (>= 1) to multiply the block step L by. F, cof (= cof F, column-major), detF and
 * ic (= ||F||^2) describe the tet before the step; R its residual; Y = L B the change of F per
 * unit step (B = sum_v w_v g_v g_v^T; the caller forms it without cancellation, constraintsCpu.ts);
 * alphaD = 1 / (mu V h^2); alphaH = 1 / (lambda V h^2) when hydro. stressH = lambda V h^2
 * (J - alpha), grouped as (J - 1) / alphaH - 3/4 / alphaD like the residual (alpha = 1 +
 * 3 mu / (4 lambda), material.ts).
 */
export function neoHookeanStepLength(F: Float64Array, cof: Float64Array, detF: number, ic: number, R: Float64Array, L: Float64Array, Y: Float64Array, alphaD: number, hydro: boolean, alphaH: number): number {
  const p = stepInnerProducts(F, cof, R, L, Y);
  const icPlus1 = ic + 1;
  const stressH = hydro ? volumeStress(detF, alphaD, alphaH) : 0;
  // Curvature of phi along L: inertia, mu (I_C/(I_C+1) I + 2 F F^T / (I_C+1)^2), lambda cof cof^T, lambda (J - alpha) d cof.
  let curvature = p.ly + (p.yy * (ic / icPlus1) + (2 * p.fy * p.fy) / (icPlus1 * icPlus1)) / alphaD;
  if (hydro) curvature += (p.c1 * p.c1) / alphaH + 2 * stressH * p.c2;
  if (!(curvature > 0)) return 1;
  const t = Math.min(MAX_STEP_LENGTH, p.ry / curvature);
  if (!(t > 1)) return 1;
  return localEnergyChange(t, p, ic, alphaD, hydro, alphaH, stressH) <= localEnergyChange(1, p, ic, alphaD, hydro, alphaH, stressH) ? t : 1;
}
