import { describe, expect, it } from 'vitest';
import { cellFinalVertices } from '../../../src/mesh/cellFinalVertices';
import { partitionedColouring, type PartitionedColouring } from '../../../src/mesh/partitionedColouring';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

/**
 * Oracle without the function's bookkeeping: for each vertex, scan every cell of every pass for
 * an element holding it; its cell must be one of the last such pass and hold it, and every
 * vertex must be listed exactly once.
 */
function checkFinals(p: PartitionedColouring, tets: Uint32Array, vertexCount: number): void {
  const finals = cellFinalVertices(p, tets, 4, vertexCount);
  expect(finals).not.toBeNull();
  const { offsets, vertices } = finals!;
  const cellCount = p.cells.length / 2;
  expect(offsets.length).toBe(cellCount + 1);
  const listedIn = new Int32Array(vertexCount).fill(-1);
  for (let c = 0; c < cellCount; c++) {
    for (let j = offsets[c]; j < offsets[c + 1]; j++) {
      expect(listedIn[vertices[j]], `vertex ${vertices[j]} listed twice`).toBe(-1);
      listedIn[vertices[j]] = c;
    }
  }
  const cellTets = (c: number): number[] => {
    const first = p.cells[2 * c], colours = p.cells[2 * c + 1];
    return Array.from(p.order.subarray(p.colourStarts[first], p.colourStarts[first + colours]));
  };
  const holds = (c: number, v: number) => cellTets(c).some((t) => [0, 1, 2, 3].some((k) => tets[4 * t + k] === v));
  const passOf = (c: number) => p.passes.findIndex((q) => c >= q.cellBase && c < q.cellBase + q.cellCount);
  // Per vertex, the last pass with a cell holding it (brute force over all cells).
  const lastPass = new Int32Array(vertexCount).fill(-1);
  for (let c = 0; c < cellCount; c++) {
    const g = passOf(c);
    for (const t of cellTets(c)) for (let k = 0; k < 4; k++) lastPass[tets[4 * t + k]] = Math.max(lastPass[tets[4 * t + k]], g);
  }
  for (let v = 0; v < vertexCount; v++) {
    expect(listedIn[v], `vertex ${v} not listed`).toBeGreaterThanOrEqual(0);
    expect(passOf(listedIn[v]), `vertex ${v}`).toBe(lastPass[v]);
    expect(holds(listedIn[v], v), `vertex ${v}`).toBe(true);
  }
}

describe('cellFinalVertices: the cell of each vertex\'s last visit in the partitioned order', () => {
  it('the shared octopus and cube: every vertex once, in a cell of the last pass that holds it', () => {
    for (const name of ['Octopus_Inflated_5k_noIntersection.t', 'Cube.t']) {
      const { positions, tets } = loadSharedTetArrays(name);
      const n = positions.length / 3;
      checkFinals(partitionedColouring(tets, 4, positions, n), tets, n);
    }
  });

  // Two small tets and one long sliver spanning both (as in partitionedColouring.test.ts): with
  // the cells fitting half the tets, the sliver is left over.
  const positions = [0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1, 10, 0, 0, 10.1, 0, 0, 10, 0.1, 0, 10, 0, 0.1];
  const tets = Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 4, 5]);

  it('with a leftover pass (one tet too wide for the cells): its single cell lists the vertices it visits last', () => {
    const p = partitionedColouring(tets, 4, positions, 8, undefined, { extentQuantile: 0.5 });
    expect(p.leftoverPass).toBe(true);
    checkFinals(p, tets, 8);
    // The sliver's vertices are last visited in the leftover pass's cell.
    const finals = cellFinalVertices(p, tets, 4, 8)!;
    const leftoverCell = p.passes[p.passes.length - 1].cellBase;
    expect(Array.from(finals.vertices.subarray(finals.offsets[leftoverCell], finals.offsets[leftoverCell + 1]))).toEqual([0, 1, 4, 5]);
  });

  it('null where some vertex is last visited outside a cell: leftover colours dispatched one by one, or a vertex in no tet', () => {
    const byColour = partitionedColouring(tets, 4, positions, 8, undefined, { extentQuantile: 0.5, leftoverCellLimit: 0 });
    expect(byColour.leftoverCount).toBe(1);
    expect(cellFinalVertices(byColour, tets, 4, 8)).toBeNull();
    // One vertex more than the tets use.
    const p = partitionedColouring(tets, 4, [...positions, 5, 5, 5], 9);
    expect(cellFinalVertices(p, tets, 4, 9)).toBeNull();
    expect(cellFinalVertices(partitionedColouring(tets, 4, positions, 8), tets, 4, 8)).not.toBeNull();
  });
});
