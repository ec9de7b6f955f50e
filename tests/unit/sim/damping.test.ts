import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { neoHookeanEnergy } from '../../../src/sim/energy';
import { rigidMotion } from '../../../src/sim/rigidDamping';
import type { SimSetup } from '../../../src/sim/setup';
import { angularMomentum, blockSetup, centreOfMass, G } from '../../support/blockScenes';
import { rng } from '../../support/random';

/**
 * Damping slows deformation only (Müller et al. 2007, section 3.5), on the float64 CPU
 * reference: rigid motion (free fall, a throw, a spin) is what the undamped integrator gives,
 * while vibrations decay. Before, damping scaled every velocity: a free fall at 2/s dropped
 * 2.79 m in 1 s and a spin kept 13% of its angular momentum.
 */

const norm = (a: readonly number[]): number => Math.hypot(...a);

/** Solver defaults: dt 1/60, 20 substeps x 3 iterations; 1 s. */
function runOneSecond(setup: SimSetup): CpuSolver {
  const s = new CpuSolver(setup);
  for (let f = 0; f < 60; f++) s.stepFrame();
  return s;
}

describe('damping does not slow rigid motion', () => {
  it('a damped body in free fall drops g t^2 / 2 (1 s at 2/s)', () => {
    const setup = blockSetup({ ground: false }, { damping: 2 });
    const y0 = centreOfMass(setup, setup.model.restPositions)[1];
    const s = runOneSecond(setup);
    const drop = y0 - centreOfMass(setup, s.x)[1];
    // Symplectic Euler with N substeps of h: exactly g h^2 N (N + 1) / 2 = g t^2 / 2 (1 + h / t).
    const n = 60 * 20, h = 1 / 1200;
    expect(Math.abs(drop / ((G * h * h * n * (n + 1)) / 2) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(drop / (G / 2) - 1)).toBeLessThan(1.5 * h);
    // Every vertex moves at g t: nothing deformed, nothing damped.
    for (let i = 0; i < setup.model.vertexCount; i++) expect(s.v[3 * i + 1]).toBeCloseTo(-G, 9);
  });

  it('a damped thrown, spinning body keeps its centre-of-mass velocity', () => {
    const setup = blockSetup({ ground: false, velocity: [3, 4, 0], spin: [0, 2, 5] }, { damping: 2 });
    const s = runOneSecond(setup);
    const v = centreOfMass(setup, s.v);
    expect(Math.abs(v[0] - 3)).toBeLessThan(1e-9);
    expect(Math.abs(v[1] - (4 - G))).toBeLessThan(1e-9);
    expect(Math.abs(v[2])).toBeLessThan(1e-9);
  });
});

/**
 * A breathing vibration v = 2/s (x - c), spinning at `spin`, no gravity. Soft (E = 1e3:
 * ~20 rad/s) so that the integrator's own dissipation, strong for omega h near 1 (XPBD is
 * close to implicit Euler), leaves the undamped vibration alive for the comparison.
 */
function vibratingBlock(damping: number, spin: [number, number, number]): SimSetup {
  const setup = blockSetup({ ground: false, spin, youngsModulus: 1e3 }, { damping, gravity: [0, 0, 0] });
  const { restPositions: x, initialVelocities: v } = setup.model;
  const c = centreOfMass(setup, x);
  for (let i = 0; i < setup.model.vertexCount; i++) for (let k = 0; k < 3; k++) v[3 * i + k] += 2 * (x[3 * i + k] - c[k]);
  return setup;
}

/**
 * Vibration energy: elastic energy plus the kinetic energy left after the rigid motion,
 * 1/2 M |v_cm|^2 + 1/2 omega . L with I omega = L solved here by Cramer's rule.
 */
function vibrationEnergy(setup: SimSetup, x: Float64Array, v: Float64Array): number {
  const w = setup.model.invMass;
  const c = centreOfMass(setup, x);
  const vc = centreOfMass(setup, v);
  const l = angularMomentum(setup, x, v);
  const I = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  let kinetic = 0, mass = 0;
  for (let i = 0; i < setup.model.vertexCount; i++) {
    const m = 1 / w[i];
    const r = [x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]];
    const r2 = r[0] ** 2 + r[1] ** 2 + r[2] ** 2;
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) I[a][b] += m * ((a === b ? r2 : 0) - r[a] * r[b]);
    kinetic += 0.5 * m * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
    mass += m;
  }
  const det = (m: number[][]) => m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const omega = [0, 1, 2].map((col) => det(I.map((row, r) => row.map((e, k) => (k === col ? l[r] : e)))) / det(I));
  const rigid = 0.5 * mass * (vc[0] ** 2 + vc[1] ** 2 + vc[2] ** 2) + 0.5 * (omega[0] * l[0] + omega[1] * l[1] + omega[2] * l[2]);
  return neoHookeanEnergy(setup.model, x) + kinetic - rigid;
}

describe('a damped spinning body keeps its angular momentum while its vibration dies', () => {
  const undampedSetup = vibratingBlock(0, [0, 3, 2]);
  const dampedSetup = vibratingBlock(2, [0, 3, 2]);
  const undamped = runOneSecond(undampedSetup);
  const damped = runOneSecond(dampedSetup);
  const l0 = angularMomentum(dampedSetup, dampedSetup.model.restPositions, dampedSetup.model.initialVelocities);

  it('angular momentum after 1 s at 2/s: the undamped integrator\'s, within 1e-3 of |L0|', () => {
    const lu = angularMomentum(undampedSetup, undamped.x, undamped.v);
    const ld = angularMomentum(dampedSetup, damped.x, damped.v);
    // The integrator's own loss (position-based projection of a spin) is a few %.
    expect(norm(lu.map((x, k) => x - l0[k])) / norm(l0)).toBeLessThan(0.05);
    expect(norm(ld.map((x, k) => x - lu[k])) / norm(l0)).toBeLessThan(1e-3);
  });

  it('vibration energy after 1 s while spinning: damped below 0.3 x undamped', () => {
    const e0 = vibrationEnergy(dampedSetup, dampedSetup.model.restPositions, dampedSetup.model.initialVelocities);
    const eu = vibrationEnergy(undampedSetup, undamped.x, undamped.v);
    const ed = vibrationEnergy(dampedSetup, damped.x, damped.v);
    expect(eu).toBeGreaterThan(0.1 * e0); // the undamped body still vibrates (measured 0.26 e0)
    expect(ed).toBeLessThan(0.3 * eu); // measured 0.23: the spin's steady stretch is not damped
    expect(ed).toBeGreaterThan(0);
  });
});

describe('vibration decays at the damping rate', () => {
  it('without spin, vibration energy after 1 s at 2/s is exp(-2) x the undamped one, within 15%', () => {
    // Velocity scaled by (1 - 2 h) per substep: kinetic energy at rate 4/s, half of the
    // energy is kinetic on average, so the energy decays like exp(-2 t) on top of the
    // integrator's own loss (measured 0.138).
    const u = vibratingBlock(0, [0, 0, 0]), d = vibratingBlock(2, [0, 0, 0]);
    const a = runOneSecond(u), b = runOneSecond(d);
    const ratio = vibrationEnergy(d, b.x, b.v) / vibrationEnergy(u, a.x, a.v);
    expect(Math.abs(ratio / Math.exp(-2) - 1)).toBeLessThan(0.15);
  });
});

describe('rigidMotion (section 3.5, steps 1-5)', () => {
  /** Random masses and points, velocities V + W x (x - p) of one rigid motion. */
  function rigidCloud(n: number, line: boolean, seed: number) {
    const r = rng(seed);
    const x = new Float64Array(3 * n), v = new Float64Array(3 * n), w = new Float64Array(n);
    const V = [0.3, -1.2, 0.7], W = line ? [0, 2, -1.5] : [1.1, -0.4, 2.5], p = [5, -3, 2];
    for (let i = 0; i < n; i++) {
      w[i] = i === 1 ? 0 : 0.5 + r(); // vertex 1 is a handle: ignored
      const s = r() * 2 - 1;
      const q = line ? [100 + s, 20, -7] : [100 + r(), 20 + 2 * r(), -7 + 0.5 * r()];
      for (let k = 0; k < 3; k++) x[3 * i + k] = q[k];
      const d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
      v[3 * i] = V[0] + W[1] * d[2] - W[2] * d[1];
      v[3 * i + 1] = V[1] + W[2] * d[0] - W[0] * d[2];
      v[3 * i + 2] = V[2] + W[0] * d[1] - W[1] * d[0];
    }
    return { x, v, w, W };
  }

  /** Largest |rigid_i - v_i| over the free vertices, relative to the largest |v_i|. */
  function misfit(c: ReturnType<typeof rigidCloud>, out: Float64Array): number {
    let worst = 0, scale = 0;
    for (let i = 0; i < c.w.length; i++) {
      if (c.w[i] === 0) continue;
      const r = [c.x[3 * i] - out[0], c.x[3 * i + 1] - out[1], c.x[3 * i + 2] - out[2]];
      const u = [out[3] + out[7] * r[2] - out[8] * r[1], out[4] + out[8] * r[0] - out[6] * r[2], out[5] + out[6] * r[1] - out[7] * r[0]];
      worst = Math.max(worst, Math.hypot(u[0] - c.v[3 * i], u[1] - c.v[3 * i + 1], u[2] - c.v[3 * i + 2]));
      scale = Math.max(scale, Math.hypot(c.v[3 * i], c.v[3 * i + 1], c.v[3 * i + 2]));
    }
    return worst / scale;
  }

  it('recovers omega and every velocity of a rigid motion of random points', () => {
    const c = rigidCloud(40, false, 7);
    const out = new Float64Array(9);
    expect(rigidMotion(c.x, c.v, c.w, 0, 40, out, 0)).toBe(true);
    // Within the inertia regularisation (1e-6 of the trace).
    expect(norm([out[6] - c.W[0], out[7] - c.W[1], out[8] - c.W[2]]) / norm(c.W)).toBeLessThan(1e-5);
    expect(misfit(c, out)).toBeLessThan(1e-5);
  });

  it('points on one line (singular inertia): finite, and still reproduces their velocities', () => {
    const c = rigidCloud(10, true, 8);
    const out = new Float64Array(9);
    expect(rigidMotion(c.x, c.v, c.w, 0, 10, out, 0)).toBe(true);
    for (const a of out) expect(Number.isFinite(a)).toBe(true);
    expect(misfit(c, out)).toBeLessThan(1e-5);
  });

  it('one free vertex: omega = 0, v_cm = its velocity; none: no motion', () => {
    const out = new Float64Array(9);
    expect(rigidMotion(Float64Array.of(1, 2, 3), Float64Array.of(4, 5, 6), Float64Array.of(2), 0, 1, out, 0)).toBe(true);
    expect(Array.from(out)).toEqual([1, 2, 3, 4, 5, 6, 0, 0, 0]);
    expect(rigidMotion(Float64Array.of(1, 2, 3), Float64Array.of(4, 5, 6), Float64Array.of(0), 0, 1, out, 0)).toBe(false);
  });
});
