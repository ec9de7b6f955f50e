import { describe, expect, it } from 'vitest';
import { cantilever } from '../../../src/scenes/cantilever';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { neoHookeanEnergy, totalEnergy } from '../../../src/sim/energy';
import { updateMaterialData } from '../../../src/sim/model';
import { localEnergyChange, stepInnerProducts, volumeStress } from '../../../src/sim/neoHookeanStepLength';
import { rng } from '../../support/random';
import { makeSetup } from './support/setups';
import { columnShorteningError } from './support/settlingColumn';

/**
 * The Neo-Hookean step's convergence aids (issue 24): the line search on the block's step and
 * the warm start of the stress multipliers (SolverParams lineSearch, warmStart), on the float64
 * reference. The energy laws at every stiffness are tests/unit/sim/stiffness.test.ts's, run with
 * both on (the defaults); the GPU twin is held to this reference by tests/gpu/xpbdMatchesCpu.test.ts.
 */

describe("the line search's local energy (neoHookeanStepLength.ts) is the energy's own change", () => {
  // One tet, deformed at random; a stress S and a step L at random. The closed form (cubic det,
  // log1p, no large terms cancelling) against energy.ts evaluated at the moved positions: the
  // tet's local problem phi(S + t L) - phi(S) = t <S, Y> + t^2/2 <L, Y> + h^2 (E(x + t dx) - E(x)),
  // Y = L B, dx_v = w_v L g_v; the slope's stress term by central differences of E.
  it('within 1e-7 of the change, at t = 0.5, 1, 1.5, 2, compressed, stretched and sheared tets', () => {
    const h = 1 / 600;
    const setup = makeSetup([{ positions: [0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1], tets: [0, 1, 2, 3], material: { youngsModulus: 1e6, poissonRatio: 0.3 } }], {});
    const m = setup.model;
    const c = m.tetConstants;
    const alphaD = c[0] / (h * h), alphaH = c[1] / (h * h);
    const gv: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]];
    for (let r = 0; r < 3; r++) for (let j = 0; j < 3; j++) gv[r + 1][j] = m.dmInv[3 * j + r];
    for (let j = 0; j < 3; j++) gv[0][j] = -(gv[1][j] + gv[2][j] + gv[3][j]);
    const r = rng(5);
    const energy = (x: Float64Array) => h * h * neoHookeanEnergy(m, x);
    for (const scale of [0.7, 1.2, 1]) {
      for (let trial = 0; trial < 4; trial++) {
        const x = Float64Array.from(m.restPositions, (p, i) => p * (i % 3 === 1 ? scale : 1) + (r() - 0.5) * 0.03);
        const F = new Float64Array(9);
        for (let v = 0; v < 4; v++) for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) F[3 * j + i] += x[3 * v + i] * gv[v][j];
        const col = (a: number) => [F[3 * a], F[3 * a + 1], F[3 * a + 2]];
        const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
        const cof = Float64Array.from([...cross(col(1), col(2)), ...cross(col(2), col(0)), ...cross(col(0), col(1))]);
        const detF = F[0] * cof[0] + F[1] * cof[1] + F[2] * cof[2];
        let ic = 0;
        for (const f of F) ic += f * f;
        const stressScale = 1 / alphaD;
        const S = Float64Array.from({ length: 9 }, () => (r() - 0.5) * stressScale);
        const L = Float64Array.from({ length: 9 }, () => (r() - 0.5) * 0.3 * stressScale);
        // Y = L B, dx_v = w_v L g_v.
        const dx = new Float64Array(12);
        const Y = new Float64Array(9);
        for (let v = 0; v < 4; v++) {
          const w = m.invMass[v];
          for (let i = 0; i < 3; i++) dx[3 * v + i] = w * (L[i] * gv[v][0] + L[3 + i] * gv[v][1] + L[6 + i] * gv[v][2]);
          for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) Y[3 * j + i] += dx[3 * v + i] * gv[v][j];
        }
        const moved = (t: number) => Float64Array.from(x, (p, i) => p + t * dx[i]);
        const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => { let s = 0; for (let i = 0; i < 9; i++) s += a[i] * b[i]; return s; };
        const d = 1e-4;
        const slope = (energy(moved(d)) - energy(moved(-d))) / (2 * d);
        // R = -(S + h^2 V P): <R, Y> = -<S, Y> - dE/dt.
        const R = new Float64Array(9);
        const p = stepInnerProducts(F, cof, R, L, Y, { ry: 0, ly: 0, fy: 0, yy: 0, c1: 0, c2: 0, c3: 0 });
        p.ry = -dot(S, Y) - slope;
        const stressH = volumeStress(detF, alphaD, alphaH);
        for (const t of [0.5, 1, 1.5, 2]) {
          const direct = t * dot(S, Y) + 0.5 * t * t * dot(L, Y) + energy(moved(t)) - energy(x);
          const closed = localEnergyChange(t, p, ic, alphaD, true, alphaH, stressH);
          expect(Math.abs(closed - direct), `scale ${scale}, t ${t}`).toBeLessThan(1e-7 * (Math.abs(direct) + Math.abs(t * dot(S, Y))));
        }
      }
    }
  });
});

describe('a column settling under its own weight (rho g L^2 / 2E) converges in fewer iterations', () => {
  // support/settlingColumn.ts: 0.25 x 1 x 0.25 m at E 1e7 on the ground, 10 substeps, partitioned.
  const shorteningError = columnShorteningError;

  it('4 iterations: the error against the analytic shortening falls from 21% to 12%, and beats 5 iterations of the bounded cold step (more dispatches)', () => {
    const before4 = shorteningError(4, { lineSearch: false, warmStart: false });
    const before5 = shorteningError(5, { lineSearch: false, warmStart: false });
    const now4 = shorteningError(4, { lineSearch: true, warmStart: true });
    // Measured 2026-11-23: 0.215, 0.129, 0.119.
    expect(before4).toBeGreaterThan(0.18);
    expect(now4).toBeLessThan(0.6 * before4);
    // Matched cost: partitioned, 4 dispatches an iteration; the warm start adds 2 a substep (18 < 20).
    expect(now4).toBeLessThan(before5);
  });
});

describe('the warm start keeps half the stress: a stiff cantilever with 1 iteration stays stable', () => {
  // E = 1e8 (c h / dx about 2 at resolution 8), 1 iteration a substep: the solve removes little
  // of a stale stress, and a warm start that carried all of it drove the beam like an explicit
  // force (measured at share 1: +440 J of motion from rest in 60 frames). Clamped beam released
  // from rest: kinetic + gravitational energy never exceed the start (implicit Euler only dissipates).
  function motionGain(share: number): number {
    const setup = cantilever.build({ resolution: 8 });
    setup.model.materials.forEach((mat) => (mat.youngsModulus = 1e8));
    updateMaterialData(setup.model);
    const s = new CpuSolver({ ...setup, params: { ...setup.params, iterations: 1, warmStart: true, lineSearch: true } });
    s.warmStartShare = share;
    const opts = { constraint: 'neohookean' as const, springCompliance: 0, gravity: setup.params.gravity };
    const motion = () => { const e = totalEnergy(setup.model, s.x, s.v, opts); return e.kinetic + e.gravitational; };
    const start = motion();
    let worst = -Infinity;
    for (let f = 0; f < 60; f++) {
      s.stepFrame();
      worst = Math.max(worst, motion() - start);
    }
    return worst;
  }

  it('at the share used (0.5) no motion energy is gained; at share 1 the beam gains hundreds of joules', () => {
    expect(motionGain(0.5)).toBeLessThanOrEqual(0);
    expect(motionGain(1)).toBeGreaterThan(10);
  });
});
