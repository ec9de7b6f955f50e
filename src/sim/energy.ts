/**
 * Total mechanical energy of a simulation state (float64): kinetic, elastic and
 * gravitational. The physics tests use it as the law "energy never grows" (implicit Euler,
 * which XPBD approximates, only dissipates), and the runner reports it per frame.
 *
 * Elastic energy is the potential whose gradient the constraints follow (XPBD: U = C^T
 * alpha^-1 C / 2, Macklin, Müller, Chentanez 2016, eq. 4), measured from the rest shape so
 * that a body at rest has none:
 * - stable Neo-Hookean (Smith et al. 2018, eq. 14): per tet V [mu/2 (I_C - 3 - log((I_C + 1) / 4))
 *   + lambda/2 ((det F - alpha)^2 - (1 - alpha)^2)], I_C = ||F||^2, with mu V, lambda V and
 *   alpha read from the model's per-tet constants (so it follows the model's material mapping);
 * - springs: per edge (|x_a - x_b| - L)^2 / (2 compliance).
 */
import type { Model } from './model';
import type { ConstraintType } from '../contract/params';

export interface EnergyBreakdown {
  kinetic: number;
  elastic: number;
  gravitational: number;
  total: number;
}

export interface EnergyOptions {
  constraint: ConstraintType;
  /** Spring compliance (m/N), used when constraint is 'springs'. */
  springCompliance: number;
  gravity: readonly [number, number, number];
}

/**
 * Energy of positions x and velocities v (3 numbers per vertex, model order). Vertices with
 * inverse mass 0 (handles) carry no kinetic or gravitational energy. Positions may be a
 * float32 readback (GPU) or float64.
 */
export function totalEnergy(model: Model, x: ArrayLike<number>, v: ArrayLike<number>, opts: EnergyOptions): EnergyBreakdown {
  let kinetic = 0;
  let gravitational = 0;
  const g = opts.gravity;
  for (let i = 0; i < model.vertexCount; i++) {
    const w = model.invMass[i];
    if (!(w > 0)) continue;
    const m = 1 / w;
    kinetic += 0.5 * m * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
    gravitational -= m * (g[0] * x[3 * i] + g[1] * x[3 * i + 1] + g[2] * x[3 * i + 2]);
  }
  const elastic = opts.constraint === 'neohookean' ? neoHookeanEnergy(model, x) : springEnergy(model, x, opts.springCompliance);
  return { kinetic, elastic, gravitational, total: kinetic + elastic + gravitational };
}

const F = new Float64Array(9);

/** Stable Neo-Hookean energy of every tet, zero at rest. */
export function neoHookeanEnergy(model: Model, x: ArrayLike<number>): number {
  let e = 0;
  for (let t = 0; t < model.tetCount; t++) e += neoHookeanTetEnergy(model, x, t);
  return e;
}

/**
 * Stable Neo-Hookean energy of tet t (zero at rest). `out`, when given, receives its det F
 * (bench/impactEnergy.ts lists it beside the energy).
 */
export function neoHookeanTetEnergy(model: Model, x: ArrayLike<number>, t: number, out?: { det: number }): number {
  const { tets, dmInv: m, tetConstants: c } = model;
  const i0 = tets[4 * t], i1 = tets[4 * t + 1], i2 = tets[4 * t + 2], i3 = tets[4 * t + 3];
  const o = 9 * t;
  // F = Ds Dm^-1 (column-major Dm^-1, Ds columns x1-x0, x2-x0, x3-x0).
  let normSq = 0;
  for (let i = 0; i < 3; i++) {
    const d1 = x[3 * i1 + i] - x[3 * i0 + i];
    const d2 = x[3 * i2 + i] - x[3 * i0 + i];
    const d3 = x[3 * i3 + i] - x[3 * i0 + i];
    for (let j = 0; j < 3; j++) {
      const f = d1 * m[o + 3 * j] + d2 * m[o + 3 * j + 1] + d3 * m[o + 3 * j + 2];
      F[3 * j + i] = f;
      normSq += f * f;
    }
  }
  const det =
    F[0] * (F[4] * F[8] - F[5] * F[7]) - F[3] * (F[1] * F[8] - F[2] * F[7]) + F[6] * (F[1] * F[5] - F[2] * F[4]);
  if (out) out.det = det;
  const muV = 1 / c[4 * t];
  let e = 0.5 * muV * (normSq - 3 - Math.log((normSq + 1) / 4));
  if (c[4 * t + 1] > 0) {
    const lambdaV = 1 / c[4 * t + 1];
    const alpha = c[4 * t + 2];
    e += 0.5 * lambdaV * ((det - alpha) ** 2 - (1 - alpha) ** 2);
  }
  return e;
}

/** Spring energy of every edge, zero at rest. */
export function springEnergy(model: Model, x: ArrayLike<number>, compliance: number): number {
  if (!(compliance > 0)) return 0;
  let e = 0;
  for (let k = 0; k < model.edgeCount; k++) {
    const a = model.edges[2 * k], b = model.edges[2 * k + 1];
    const len = Math.hypot(x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]);
    e += (len - model.edgeRestLength[k]) ** 2 / (2 * compliance);
  }
  return e;
}
