import { describe, expect, it } from 'vitest';
import { vertexIncidence } from '../../../src/mesh/vertexIncidence';

/** Brute force: for each vertex, scan every element and list those with it as a corner (ascending). */
function incidentByScan(corners: ArrayLike<number>, arity: number, vertexCount: number): number[][] {
  const lists: number[][] = Array.from({ length: vertexCount }, () => []);
  for (let v = 0; v < vertexCount; v++) {
    for (let e = 0; e < corners.length / arity; e++) {
      for (let k = 0; k < arity; k++) if (corners[arity * e + k] === v) lists[v].push(e);
    }
  }
  return lists;
}

function rows(inc: { offsets: Uint32Array; ids: Uint32Array }, vertexCount: number): number[][] {
  return Array.from({ length: vertexCount }, (_, v) => Array.from(inc.ids.subarray(inc.offsets[v], inc.offsets[v + 1])));
}

describe('vertexIncidence', () => {
  it('lists, per vertex, the elements with it as a corner, as a scan over all elements does', () => {
    let seed = 7;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
    for (const arity of [1, 2, 3, 4]) {
      const vertexCount = 23, elements = 40;
      const corners = Uint32Array.from({ length: arity * elements }, () => rand(vertexCount));
      const inc = vertexIncidence(corners, arity, vertexCount);
      expect(inc.offsets[vertexCount]).toBe(corners.length);
      expect(rows(inc, vertexCount)).toEqual(incidentByScan(corners, arity, vertexCount));
    }
  });

  it('gives the two tets sharing a face each of the face corners, and the lone apexes one tet', () => {
    // Two tets glued on face (1, 2, 3): vertices 0 and 4 are apexes.
    const inc = vertexIncidence(new Uint32Array([0, 1, 2, 3, 4, 3, 2, 1]), 4, 5);
    expect(rows(inc, 5)).toEqual([[0], [0, 1], [0, 1], [0, 1], [1]]);
    // Arity 1: the corner indices themselves (tet 1's corners are 4..7).
    expect(rows(vertexIncidence(new Uint32Array([0, 1, 2, 3, 4, 3, 2, 1]), 1, 5), 5)).toEqual([[0], [1, 7], [2, 6], [3, 5], [4]]);
  });

  it('refuses a corner outside the vertex range, naming the element', () => {
    expect(() => vertexIncidence(new Uint32Array([0, 1, 2, 9]), 4, 5)).toThrow(/element 0 names vertex 9/);
    expect(() => vertexIncidence(new Uint32Array([0, 1, 2]), 2, 5)).toThrow(/not a whole number of elements of 2/);
  });
});
