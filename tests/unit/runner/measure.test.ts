/**
 * State measures against closed forms on a lattice box: volume and centre of a box, momentum
 * of a translation (M v), angular momentum of a rigid rotation (I w, with I of a box of point
 * masses summed directly), and lumped masses summing to density x volume.
 */
import { describe, expect, it } from 'vitest';
import { kuhnLattice } from '../../support/kuhnLattice';
import { measureState } from '../../../src/runner/measure';
import { buildModel, lumpedMasses } from '../../../src/sim/model';
import { defaultParams } from '../../../src/contract/params';

const [a, b, c] = [2, 1, 0.5];
const box = kuhnLattice(4, 2, 2, (i, j, k) => [1 + (a * i) / 4, 3 + (b * j) / 2, -1 + (c * k) / 2]);
const model = buildModel([{ name: 'box', positions: box.positions, tets: box.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 800 } }]);
const mass = lumpedMasses(model);
const x = Float64Array.from(box.positions);
const n = model.vertexCount;

describe('runner state measures', () => {
  it('mass, volume, centre and lowest point of a box', () => {
    const s = measureState(model, mass, x, new Float64Array(3 * n), defaultParams());
    expect(s.totalMass).toBeCloseTo(800 * a * b * c, 9);
    expect(s.volume).toBeCloseTo(a * b * c, 12);
    expect(s.centreOfMass[0]).toBeCloseTo(1 + a / 2, 12);
    expect(s.centreOfMass[1]).toBeCloseTo(3 + b / 2, 12);
    expect(s.centreOfMass[2]).toBeCloseTo(-1 + c / 2, 12);
    expect(s.lowestPoint).toBe(3);
    expect(s.energy.kinetic).toBe(0);
    expect(s.energy.elastic).toBeCloseTo(0, 6);
    // Gravitational energy of a box: M g y_centre.
    expect(s.energy.gravitational).toBeCloseTo(800 * a * b * c * 9.81 * (3 + b / 2), 6);
  });

  it('translation: momentum M v, no angular momentum about the centre', () => {
    const v = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) v.set([0.5, -2, 1], 3 * i);
    const s = measureState(model, mass, x, v, defaultParams());
    const M = 800 * a * b * c;
    expect(s.momentum[0]).toBeCloseTo(0.5 * M, 9);
    expect(s.momentum[1]).toBeCloseTo(-2 * M, 9);
    for (const L of s.angularMomentum) expect(Math.abs(L)).toBeLessThan(1e-9);
    expect(s.energy.kinetic).toBeCloseTo(0.5 * M * (0.25 + 4 + 1), 9);
  });

  it('rigid rotation about the centre: L = I w with I summed from point masses', () => {
    const w = [0.3, -1.2, 2];
    const cx = [1 + a / 2, 3 + b / 2, -1 + c / 2];
    const v = new Float64Array(3 * n);
    // Inertia tensor I = sum m (|r|^2 Id - r r^T): an independent formula from sum m r x (w x r).
    const I = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const r = [x[3 * i] - cx[0], x[3 * i + 1] - cx[1], x[3 * i + 2] - cx[2]];
      v.set([w[1] * r[2] - w[2] * r[1], w[2] * r[0] - w[0] * r[2], w[0] * r[1] - w[1] * r[0]], 3 * i);
      const r2 = r[0] ** 2 + r[1] ** 2 + r[2] ** 2;
      for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) I[3 * p + q] += mass[i] * ((p === q ? r2 : 0) - r[p] * r[q]);
    }
    const s = measureState(model, mass, x, v, defaultParams());
    for (let p = 0; p < 3; p++) {
      const expected = I[3 * p] * w[0] + I[3 * p + 1] * w[1] + I[3 * p + 2] * w[2];
      expect(s.angularMomentum[p]).toBeCloseTo(expected, 9);
    }
  });

  it('non-finite vertices are counted and left out', () => {
    const bad = Float64Array.from(x);
    bad[0] = NaN;
    const s = measureState(model, mass, bad, new Float64Array(3 * n), defaultParams());
    expect(s.nonFiniteVertices).toBe(1);
    expect(s.totalMass).toBeCloseTo(800 * a * b * c - mass[0], 9);
  });
});
