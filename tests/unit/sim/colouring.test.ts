import { describe, expect, it } from 'vitest';
import { greedyColouring } from '../../../src/mesh/colouring';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

describe('greedyColouring', () => {
  it('gives every tet of a real mesh one colour, with no shared vertex inside a colour', () => {
    const { positions, tets } = loadSharedTetArrays('octopus_2KFaces.t');
    const n = positions.length / 3;
    const c = greedyColouring(tets, 4, n);
    const seen = new Uint8Array(tets.length / 4);
    for (let k = 0; k < c.colourCount; k++) {
      const owner = new Int32Array(n).fill(-1);
      for (let i = c.offsets[k]; i < c.offsets[k + 1]; i++) {
        const t = c.order[i];
        expect(seen[t]).toBe(0);
        seen[t] = 1;
        for (let j = 0; j < 4; j++) {
          const v = tets[4 * t + j];
          expect(owner[v]).toBe(-1);
          owner[v] = t;
        }
      }
    }
    expect(seen.every((s) => s === 1)).toBe(true);
    // A colouring needs at least max vertex degree colours (all tets at that vertex conflict).
    const degree = new Uint32Array(n);
    for (const v of tets) degree[v]++;
    expect(c.colourCount).toBeGreaterThanOrEqual(Math.max(...degree));
    expect(c.colourCount).toBeLessThan(100);
  });

  it('ignores fixed vertices as conflicts and needs more than 32 colours when the degree demands it', () => {
    // 40 edges all sharing vertex 0: 40 colours unless 0 is fixed, then 1.
    const edges = new Uint32Array(80);
    for (let e = 0; e < 40; e++) { edges[2 * e] = 0; edges[2 * e + 1] = e + 1; }
    expect(greedyColouring(edges, 2, 41).colourCount).toBe(40);
    const fixed = new Uint8Array(41); fixed[0] = 1;
    expect(greedyColouring(edges, 2, 41, fixed).colourCount).toBe(1);
  });
});
