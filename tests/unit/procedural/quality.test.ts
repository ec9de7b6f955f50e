import { describe, expect, it } from 'vitest';
import { tetQuality } from '../../../src/mesh/procedural/quality';

describe('tet quality', () => {
  it('gives arccos(1/3) for every dihedral angle of a regular tet', () => {
    const s = 1 / Math.sqrt(2);
    // Regular tet: alternate corners of a cube, positively oriented.
    const P = new Float32Array([1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1].map((x) => x * s));
    const q = tetQuality(P, new Uint32Array([0, 1, 3, 2]));
    expect(q.invertedCount).toBe(0);
    const expected = (Math.acos(1 / 3) * 180) / Math.PI;
    expect(q.minDihedralDeg).toBeCloseTo(expected, 4);
    expect(q.maxDihedralDeg).toBeCloseTo(expected, 4);
    expect(q.totalVolume).toBeGreaterThan(0);
  });

  it('gives 90 and arccos(1/sqrt 3) degrees for the corner tet, and counts inverted tets', () => {
    const P = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const q = tetQuality(P, new Uint32Array([0, 1, 2, 3, 0, 2, 1, 3]));
    expect(q.invertedCount).toBe(1);
    expect(q.maxDihedralDeg).toBeCloseTo(90, 4);
    expect(q.minDihedralDeg).toBeCloseTo((Math.acos(1 / Math.sqrt(3)) * 180) / Math.PI, 4);
    expect(q.totalVolume).toBeCloseTo(0, 9); // +1/6 - 1/6
    expect(q.minVolume).toBeCloseTo(-1 / 6, 6);
  });
});
