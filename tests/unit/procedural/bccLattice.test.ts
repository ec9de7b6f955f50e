import { describe, expect, it } from 'vitest';
import { BccLattice } from '../../../src/mesh/procedural/bccLattice';

describe('BCC lattice', () => {
  it('places A and B vertices on the two grids and keys every lattice edge uniquely and symmetrically', () => {
    const h = 0.5;
    const L = new BccLattice([1, 2, 3], h, 3, 2, 4);
    expect(L.countA).toBe(4 * 3 * 5);
    expect(L.countB).toBe(3 * 2 * 4);
    const P = new Float64Array(3 * L.vertexCount);
    for (let v = 0; v < L.vertexCount; v++) L.position(v, P, 3 * v);
    expect([...P.subarray(0, 3)]).toEqual([1, 2, 3]);
    const b0 = L.idB(0, 0, 0);
    expect([...P.subarray(3 * b0, 3 * b0 + 3)]).toEqual([1.25, 2.25, 3.25]);
    // Brute force: every pair at distance h (same grid: black) or h sqrt(3)/2 (red).
    const keys = new Map<number, string>();
    let black = 0, red = 0;
    for (let u = 0; u < L.vertexCount; u++) {
      for (let w = u + 1; w < L.vertexCount; w++) {
        const d = Math.hypot(P[3 * u] - P[3 * w], P[3 * u + 1] - P[3 * w + 1], P[3 * u + 2] - P[3 * w + 2]);
        const isBlack = Math.abs(d - h) < 1e-9 && L.isBlack(u, w);
        const isRed = Math.abs(d - (h * Math.sqrt(3)) / 2) < 1e-9;
        if (!isBlack && !isRed) continue;
        if (isBlack) black++;
        else {
          red++;
          expect(L.isBlack(u, w)).toBe(false);
        }
        const k = L.edgeKey(u, w);
        expect(L.edgeKey(w, u)).toBe(k);
        expect(keys.has(k), `key ${k} of ${u}-${w} already used by ${keys.get(k)}`).toBe(false);
        keys.set(k, `${u}-${w}`);
      }
    }
    // Black edges: A grid 3 axes, B grid 3 axes; red: 8 per B vertex.
    const aEdges = 3 * 3 * 5 + 4 * 2 * 5 + 4 * 3 * 4;
    const bEdges = 2 * 2 * 4 + 3 * 1 * 4 + 3 * 2 * 3;
    expect(black).toBe(aEdges + bEdges);
    expect(red).toBe(8 * L.countB);
  });

  it('rejects bad spacing, empty lattices and lattices too large for int32 edge keys', () => {
    expect(() => new BccLattice([0, 0, 0], 0, 2, 2, 2)).toThrow(/spacing 0/);
    expect(() => new BccLattice([0, 0, 0], 1, 0, 2, 2)).toThrow(/0 x 2 x 2 cubes/);
    expect(() => new BccLattice([0, 0, 0], 1, 1000, 1000, 1000)).toThrow(/too large/);
  });
});
