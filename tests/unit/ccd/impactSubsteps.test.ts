/**
 * Impact-adaptive substeps (issue 19; src/collision/ccd/impactSubsteps.ts): the closing speed read
 * from CCD's candidates, against analytic cases (two bodies head-on close at the sum of their
 * speeds; a rigid motion closes nothing) and a finite-difference oracle of each pair's distance, and
 * the substep count against its formula.
 */
import { describe, expect, it } from 'vitest';
import { ccdTopologyOf, sweptCandidates } from '../../../src/collision/ccd/broadPhase';
import { candidateClosingSpeed, IMPACT_TRAVEL_RATIO, impactSubstepCount } from '../../../src/collision/ccd/impactSubsteps';
import { CpuCollisionStage } from '../../../src/collision/cpu/cpuCollisionStage';
import { checkParams, defaultParams, effectiveImpactSubsteps } from '../../../src/contract/params';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { bodiesSetup, cubePart } from '../collision/scenes';
import { rng } from '../../support/random';

/** Distance of point p to triangle (a, b, c): the test's own geometry (projection inside, else the nearest edge). */
function triangleDistance(x: ArrayLike<number>, p: number, a: number, b: number, c: number): number {
  const P = (i: number): number[] => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  const sub = (u: number[], w: number[]): number[] => u.map((ui, k) => ui - w[k]);
  const dot = (u: number[], w: number[]): number => u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
  const cross = (u: number[], w: number[]): number[] => [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  const [pp, A, B, C] = [P(p), P(a), P(b), P(c)];
  const n = cross(sub(B, A), sub(C, A));
  const nn = Math.sqrt(dot(n, n));
  const h = dot(sub(pp, A), n) / nn;
  const proj = pp.map((pk, k) => pk - (h * n[k]) / nn);
  const inside = [[A, B], [B, C], [C, A]].every(([u, w]) => dot(cross(sub(w, u), sub(proj, u)), n) >= 0);
  if (inside) return Math.abs(h);
  const segment = (u: number[], w: number[]): number => {
    const e = sub(w, u);
    const s = Math.min(1, Math.max(0, dot(sub(pp, u), e) / dot(e, e)));
    const d = sub(pp, u.map((uk, k) => uk + s * e[k]));
    return Math.sqrt(dot(d, d));
  };
  return Math.min(segment(A, B), segment(B, C), segment(C, A));
}

describe('closing speed of CCD candidates', () => {
  it('two cubes head-on at +-v close at 2v; the frame before they are within reach closes nothing', () => {
    const v = 8;
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.1, [-0.13, 0, 0]), velocity: [v, 0, 0] },
        { part: cubePart(2, 0.1, [0.03, 0.013, 0.007]), velocity: [-v, 0, 0] },
      ],
      { gravity: [0, 0, 0] },
    );
    const stage = new CpuCollisionStage(setup.model);
    const x = Float64Array.from(setup.model.restPositions), vel = Float64Array.from(setup.model.initialVelocities);
    // Gap 6 cm closing at 16 m/s: they meet in 3.75 ms, within a frame of 1/60 s.
    const p = { ...defaultParams({ gravity: [0, 0, 0] }) };
    expect(stage.closingSpeed(x, vel, p)).toBeCloseTo(2 * v, 9);
    // 6 cm apart at 1 m/s each: 30 ms to meet, beyond the frame: nothing closes within it.
    const slow = vel.map((u) => u / v);
    expect(stage.closingSpeed(x, slow, p)).toBe(0);
  });

  it('a body spinning and flying (a rigid motion) closes none of its own pairs', () => {
    const setup = bodiesSetup([{ part: cubePart(3, 0.1, [0, 0, 0]), velocity: [0, 0, 0] }], { gravity: [0, 0, 0] });
    const m = setup.model;
    const x = Float64Array.from(m.restPositions);
    const v = new Float64Array(x.length);
    const omega = [12, -30, 7], c = [0.05, 0.05, 0.05], drift = [3, -1, 2];
    for (let i = 0; i < m.vertexCount; i++) {
      const r = [0, 1, 2].map((k) => x[3 * i + k] - c[k]);
      v[3 * i] = drift[0] + omega[1] * r[2] - omega[2] * r[1];
      v[3 * i + 1] = drift[1] + omega[2] * r[0] - omega[0] * r[2];
      v[3 * i + 2] = drift[2] + omega[0] * r[1] - omega[1] * r[0];
    }
    const stage = new CpuCollisionStage(m);
    const speed = stage.closingSpeed(x, v, defaultParams({ gravity: [0, 0, 0], selfCollision: true, dt: 0.1 }));
    // |omega| R is about 2.8 m/s: a rate along a fixed normal would report about that much.
    expect(speed).toBeLessThan(1e-9);
  });

  it('matches the largest closing rate of the pairs\' distances by central differences (random motion)', () => {
    const r = rng(11);
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.1, [0, 0, 0]), velocity: [0, 0, 0] },
        { part: cubePart(2, 0.1, [0.105, 0.02, -0.01]), velocity: [0, 0, 0] },
      ],
      { gravity: [0, 0, 0] },
    );
    const m = setup.model;
    const mesh = buildTetMesh({ positions: Float32Array.from(m.restPositions), tets: m.tets }, { objectIds: m.tetObject }).mesh;
    const topo = ccdTopologyOf(mesh);
    const x = Float64Array.from(m.restPositions);
    const v = x.map(() => 2 * r() - 1);
    const x4 = new Float32Array(4 * m.vertexCount), v4 = new Float32Array(4 * m.vertexCount);
    for (let i = 0; i < m.vertexCount; i++) for (let k = 0; k < 3; k++) { x4[4 * i + k] = x[3 * i + k]; v4[4 * i + k] = v[3 * i + k]; }
    const c = sweptCandidates(topo, x4, v4, { horizon: 0.05, gravity: [0, 0, 0], margin: 0.01 }, true);
    expect(c.vertexFace.length).toBeGreaterThan(100);
    const eps = 1e-6;
    const ahead = x.map((xi, j) => xi + eps * v[j]), behind = x.map((xi, j) => xi - eps * v[j]);
    let oracle = 0;
    for (let k = 0; k < c.vertexFace.length; k += 2) {
      const p = c.vertexFace[k], f = 3 * c.vertexFace[k + 1];
      const [a, b, cc] = [topo.triangles[f], topo.triangles[f + 1], topo.triangles[f + 2]];
      const closing = -(triangleDistance(ahead, p, a, b, cc) - triangleDistance(behind, p, a, b, cc)) / (2 * eps);
      oracle = Math.max(oracle, closing);
    }
    expect(oracle).toBeGreaterThan(0.1);
    // An infinite horizon: every closing pair counts, so the two maxima are over the same pairs.
    expect(candidateClosingSpeed(topo, c.vertexFace, x, v, 3, Infinity)).toBeCloseTo(oracle, 6);
    expect(candidateClosingSpeed(topo, c.vertexFace, x4, v4, 4, Infinity)).toBeCloseTo(oracle, 4);
    // Finite horizons: a pair counts when its distance closes within the horizon at its rate. The
    // oracle keeps every pair (no pruning); the function skips pairs by speed and box distance.
    const horizons = [1e-3, 4e-3, 1.6e-2, 6.4e-2];
    const oracles = horizons.map((h) => {
      let best = 0;
      for (let k = 0; k < c.vertexFace.length; k += 2) {
        const p = c.vertexFace[k], f = 3 * c.vertexFace[k + 1];
        const [a, b, cc] = [topo.triangles[f], topo.triangles[f + 1], topo.triangles[f + 2]];
        const closing = -(triangleDistance(ahead, p, a, b, cc) - triangleDistance(behind, p, a, b, cc)) / (2 * eps);
        if (closing > best && triangleDistance(x, p, a, b, cc) <= closing * h) best = closing;
      }
      return best;
    });
    // The horizons reach different pairs: none at 1 ms, then ever faster ones (measured 0, 1.57, 2.06, 2.23 m/s).
    expect(oracles[0]).toBe(0);
    for (let i = 1; i < horizons.length; i++) expect(oracles[i]).toBeGreaterThan(oracles[i - 1] + 0.1);
    horizons.forEach((h, i) => expect(candidateClosingSpeed(topo, c.vertexFace, x, v, 3, h), `horizon ${h}`).toBeCloseTo(oracles[i], 6));
  });

  it('refuses candidate lists and arrays that do not fit', () => {
    const setup = bodiesSetup([{ part: cubePart(1, 0.1, [0, 0, 0]), velocity: [0, 0, 0] }], {});
    const m = setup.model;
    const topo = ccdTopologyOf(buildTetMesh({ positions: Float32Array.from(m.restPositions), tets: m.tets }).mesh);
    const x = Float64Array.from(m.restPositions);
    expect(() => candidateClosingSpeed(topo, new Uint32Array(3), x, x, 3, 1)).toThrow(/odd length 3/);
    expect(() => candidateClosingSpeed(topo, new Uint32Array(2), x.subarray(3), x, 3, 1)).toThrow(/fewer than 8 vertices/);
    expect(() => candidateClosingSpeed(topo, new Uint32Array(2), x, x, 3, -1)).toThrow(/horizon must be >= 0/);
  });
});

describe('substeps of a frame on impact', () => {
  const base = { dt: 1 / 60, substeps: 4, impactSubsteps: 16, meanEdge: 0.031 };
  it('enough that the closing speed travels at most IMPACT_TRAVEL_RATIO mean edges a substep, between substeps and impactSubsteps', () => {
    // 1.5 m/s: 25 mm a frame, 3.1 mm a substep allowed: ceil(8.06) = 9.
    expect(impactSubstepCount({ ...base, closingSpeed: 1.5 })).toBe(Math.ceil((1.5 / 60) / (IMPACT_TRAVEL_RATIO * 0.031)));
    expect(impactSubstepCount({ ...base, closingSpeed: 1.5 })).toBe(9);
    expect(impactSubstepCount({ ...base, closingSpeed: 4 })).toBe(16); // wants 22, capped
    expect(impactSubstepCount({ ...base, closingSpeed: 0.5 })).toBe(4); // wants 3, never below substeps
    expect(impactSubstepCount({ ...base, closingSpeed: 0 })).toBe(4);
    expect(impactSubstepCount({ ...base, closingSpeed: 4, impactSubsteps: 0 })).toBe(4); // off
    expect(impactSubstepCount({ ...base, closingSpeed: 4, impactSubsteps: 4 })).toBe(4); // <= substeps: off
    // After a frame with more, at least half of them (a landing that squashes on over frames).
    expect(impactSubstepCount({ ...base, closingSpeed: 0, previousSubsteps: 16 })).toBe(8);
    expect(impactSubstepCount({ ...base, closingSpeed: 0, previousSubsteps: 7 })).toBe(4); // ceil(3.5), never below substeps
    expect(impactSubstepCount({ ...base, closingSpeed: 1.5, previousSubsteps: 16 })).toBe(9); // the speed asks for more than half
    expect(impactSubstepCount({ ...base, closingSpeed: 0, previousSubsteps: 4 })).toBe(4);
    expect(impactSubstepCount({ ...base, closingSpeed: 4, previousSubsteps: 16, impactSubsteps: 0 })).toBe(4); // off
  });

  it("'auto' (the default) allows twice the substeps and at least 24; a number is the cap itself; anything else is refused", () => {
    expect(defaultParams().impactSubsteps).toBe('auto');
    expect(effectiveImpactSubsteps({ substeps: 4, impactSubsteps: 'auto' })).toBe(24);
    expect(effectiveImpactSubsteps({ substeps: 12, impactSubsteps: 'auto' })).toBe(24);
    expect(effectiveImpactSubsteps({ substeps: 20, impactSubsteps: 'auto' })).toBe(40);
    expect(effectiveImpactSubsteps({ substeps: 50, impactSubsteps: 'auto' })).toBe(100);
    expect(effectiveImpactSubsteps({ substeps: 20, impactSubsteps: 0 })).toBe(0);
    expect(effectiveImpactSubsteps({ substeps: 20, impactSubsteps: 24 })).toBe(24);
    expect(() => checkParams(defaultParams({ impactSubsteps: 2.5 }))).toThrow(/impactSubsteps must be 'auto' or an integer >= 0/);
    expect(() => checkParams(defaultParams({ impactSubsteps: 'max' as unknown as number }))).toThrow(/impactSubsteps/);
    // At the default and 20 substeps on 31 mm edges (a tenth of an edge a substep): 3 m/s wants
    // ceil(16.1) = 17 (never below 20), 6 m/s ceil(32.3) = 33, 9 m/s 49, capped at 40.
    const at = (closingSpeed: number): number => impactSubstepCount({ dt: 1 / 60, substeps: 20, impactSubsteps: effectiveImpactSubsteps(defaultParams()), meanEdge: 0.031, closingSpeed });
    expect([at(3), at(6), at(9)]).toEqual([20, 33, 40]);
  });
});
