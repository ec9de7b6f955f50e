/**
 * CPU (float64) projections of one constraint, shared by the reference solver's
 * Gauss-Seidel and Jacobi orders. Mirrors shaders/xpbdNeoHookean.wgsl and xpbdSpring.wgsl.
 */
import type { Model } from './model';

// Scratch space reused by every call (the reference runs long tests; no per-tet allocation).
const d = new Float64Array(9);
const F = new Float64Array(9);
const P_H = new Float64Array(9);
const gD = new Float64Array(12);
const gH = new Float64Array(12);
const ws = new Float64Array(4);

/**
 * Stable Neo-Hookean tet t (Macklin & Müller 2021): deviatoric C_D = ||F||_F and hydrostatic
 * C_H = det F - gamma, solved together as one 2x2 XPBD block (Macklin, Müller, Chentanez
 * 2016, eq. 18 with both rows): at F = I the two gradients are parallel and only the
 * coupled solve leaves the rest shape exactly at rest. Writes the 4 vertex corrections
 * (12 numbers) to dx and accumulates the multipliers lambda[2t], lambda[2t+1].
 * Returns false (no correction) when all four vertices are fixed.
 */
export function neoHookeanCorrection(
  model: Model,
  x: Float64Array,
  w: Float64Array,
  t: number,
  lambda: Float64Array,
  invDtSq: number,
  dx: Float64Array,
  jacobiRelaxation = 0,
): boolean {
  const tets = model.tets;
  const i0 = tets[4 * t], i1 = tets[4 * t + 1], i2 = tets[4 * t + 2], i3 = tets[4 * t + 3];
  const w0 = w[i0], w1 = w[i1], w2 = w[i2], w3 = w[i3];
  dx.fill(0);
  if (w0 + w1 + w2 + w3 === 0) return false;
  const m = model.dmInv;
  const o = 9 * t;
  // Ds columns.
  for (let k = 0; k < 3; k++) {
    d[k] = x[3 * i1 + k] - x[3 * i0 + k];
    d[3 + k] = x[3 * i2 + k] - x[3 * i0 + k];
    d[6 + k] = x[3 * i3 + k] - x[3 * i0 + k];
  }
  // F = Ds * Dm^-1, column-major.
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) F[3 * j + i] = d[i] * m[o + 3 * j] + d[3 + i] * m[o + 3 * j + 1] + d[6 + i] * m[o + 3 * j + 2];
  // Cofactor columns: f1 x f2, f2 x f0, f0 x f1 (= d det F / dF).
  const cross = (a: number, b: number, out: Float64Array, oo: number) => {
    out[oo] = F[a + 1] * F[b + 2] - F[a + 2] * F[b + 1];
    out[oo + 1] = F[a + 2] * F[b] - F[a] * F[b + 2];
    out[oo + 2] = F[a] * F[b + 1] - F[a + 1] * F[b];
  };
  cross(3, 6, P_H, 0);
  cross(6, 0, P_H, 3);
  cross(0, 3, P_H, 6);
  const detF = F[0] * P_H[0] + F[1] * P_H[1] + F[2] * P_H[2];
  let normF = 0;
  for (let k = 0; k < 9; k++) normF += F[k] * F[k];
  normF = Math.sqrt(normF);
  const c = model.tetConstants;
  const alphaD = c[4 * t] * invDtSq;
  const hydro = c[4 * t + 1] >= 0;
  const alphaH = hydro ? c[4 * t + 1] * invDtSq : 0;
  const gamma = c[4 * t + 2];
  // Vertex gradients: G = P * Dm^-T, columns are the gradients of vertices 1..3; vertex 0 gets minus their sum.
  const invNorm = normF > 1e-12 ? 1 / normF : 0;
  for (let j = 0; j < 3; j++) {
    for (let i = 0; i < 3; i++) {
      let sD = 0, sH = 0;
      // (P Dm^-T)[i][j] = sum_k P[i][k] * Dm^-1[j][k]
      for (let k = 0; k < 3; k++) {
        sD += F[3 * k + i] * m[o + 3 * k + j];
        sH += P_H[3 * k + i] * m[o + 3 * k + j];
      }
      gD[3 * (j + 1) + i] = sD * invNorm;
      gH[3 * (j + 1) + i] = sH;
    }
  }
  for (let i = 0; i < 3; i++) {
    gD[i] = -(gD[3 + i] + gD[6 + i] + gD[9 + i]);
    gH[i] = -(gH[3 + i] + gH[6 + i] + gH[9 + i]);
  }
  ws[0] = w0; ws[1] = w1; ws[2] = w2; ws[3] = w3;
  let aDD = alphaD, aDH = 0, aHH = alphaH;
  for (let v = 0; v < 4; v++) {
    for (let i = 0; i < 3; i++) {
      aDD += ws[v] * gD[3 * v + i] * gD[3 * v + i];
      aDH += ws[v] * gD[3 * v + i] * gH[3 * v + i];
      aHH += ws[v] * gH[3 * v + i] * gH[3 * v + i];
    }
  }
  const bD = -normF - alphaD * lambda[2 * t];
  let dlD: number, dlH: number;
  if (hydro) {
    const bH = -(detF - gamma) - alphaH * lambda[2 * t + 1];
    const det = aDD * aHH - aDH * aDH;
    if (!(Math.abs(det) > 1e-30 * (aDD * aHH + 1e-300))) return false;
    dlD = (bD * aHH - aDH * bH) / det;
    dlH = (aDD * bH - aDH * bD) / det;
  } else {
    if (!(aDD > 0)) return false;
    dlD = bD / aDD;
    dlH = 0;
  }
  // Jacobi (jacobiRelaxation > 0): every constraint takes a step of omega / (mean vertex
  // count) of its own, in the multipliers and in the positions alike, and the gather sums
  // them. The relaxation omega must scale the multiplier too: XPBD's positions obey
  // x - x~ = W grad C^T lambda (Macklin et al. 2016, eq. 9 to 12) only if every position
  // step is W grad C^T times the multiplier step; scaling positions alone by omega solves
  // the problem for masses divided by omega (a different, wrong fixed point). Linearised,
  // this is block Jacobi on (J W J^T + alpha) dlambda = -(C + alpha lambda) with steps
  // omega * scale (D: the 2x2 diagonal blocks): it converges iff omega * rho(S D^-1 A) < 2,
  // and rho(S D^-1 A) <= max over tets of scale * (largest constraint count at its
  // vertices) (src/sim/README.md, "Convergence condition").
  if (jacobiRelaxation > 0) {
    dlD *= c[4 * t + 3] * jacobiRelaxation;
    dlH *= c[4 * t + 3] * jacobiRelaxation;
  }
  lambda[2 * t] += dlD;
  lambda[2 * t + 1] += dlH;
  for (let v = 0; v < 4; v++) for (let i = 0; i < 3; i++) dx[3 * v + i] = ws[v] * (gD[3 * v + i] * dlD + gH[3 * v + i] * dlH);
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
  if (jacobiRelaxation > 0) dl *= model.edgeJacobiScale[e] * jacobiRelaxation;
  lambda[e] += dl;
  const s = dl / len;
  dx[0] = wa * ux * s; dx[1] = wa * uy * s; dx[2] = wa * uz * s;
  dx[3] = -wb * ux * s; dx[4] = -wb * uy * s; dx[5] = -wb * uz * s;
  return true;
}
