import { describe, expect, it } from 'vitest';
import { faceNeighbors } from '../../../src/mesh/procedural/faceNeighbors';
import { stuffIsosurface } from '../../../src/mesh/procedural/isosurfaceStuffing';
import { sphere } from '../../../src/mesh/procedural/sdf';
import { rng } from '../../support/random';

describe('faceNeighbors', () => {
  it('matches a brute-force face map, ignoring dead tets', () => {
    const out = stuffIsosurface({ sdf: sphere(0, 0, 0, 0.5), bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] }, spacing: 0.12 });
    const T = out.tets.length / 4;
    const rand = rng(5);
    const alive = new Uint8Array(T).map(() => (rand() < 0.8 ? 1 : 0));
    const nb = faceNeighbors(out.tets, alive);
    const local = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
    const owners = new Map<string, number[]>();
    for (let t = 0; t < T; t++) {
      if (!alive[t]) continue;
      for (const f of local) {
        const key = f.map((k) => out.tets[4 * t + k]).sort((a, b) => a - b).join(',');
        owners.set(key, [...(owners.get(key) ?? []), t]);
      }
    }
    let interior = 0;
    for (let t = 0; t < T; t++) {
      for (let i = 0; i < 4; i++) {
        if (!alive[t]) {
          expect(nb[4 * t + i]).toBe(-1);
          continue;
        }
        const key = local[i].map((k) => out.tets[4 * t + k]).sort((a, b) => a - b).join(',');
        const o = owners.get(key)!;
        expect(o.length).toBeLessThanOrEqual(2);
        const expected = o.length === 2 ? o.find((x) => x !== t)! : -1;
        expect(nb[4 * t + i]).toBe(expected);
        if (expected >= 0) interior++;
      }
    }
    expect(interior).toBeGreaterThan(1000);
  });
});
