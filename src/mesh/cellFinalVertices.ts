/**
 * Per cell of a partitioned colouring (partitionedColouring.ts), the vertices whose last visit of
 * an iteration is in that cell: the cell of the last pass whose cells hold a constraint of the
 * vertex (cells of one pass share no vertex, so that cell is unique). After its sweep a cell's
 * workgroup may then work on those vertices alone (xpbdNeoHookeanColliders.wgsl projects them out
 * of the colliders): no later pass of the iteration reads or writes them.
 */
import type { PartitionedColouring } from './partitionedColouring';

export interface CellFinalVertices {
  /** Per cell (all passes, the leftover pass's one included), cellCount + 1 offsets into `vertices`. */
  offsets: Uint32Array;
  /** Vertex ids, cell by cell, ascending within a cell. */
  vertices: Uint32Array;
}

/**
 * Null when some vertex is last visited elsewhere: in no constraint at all, or in a leftover
 * colour dispatched on its own (the partition has leftovers but no leftover pass).
 * `elements` holds `arity` vertex ids per constraint (4 for tets).
 */
export function cellFinalVertices(partition: PartitionedColouring, elements: Uint32Array, arity: number, vertexCount: number): CellFinalVertices | null {
  if (partition.leftoverCount > 0 && !partition.leftoverPass) return null;
  const cellCount = partition.cells.length / 2;
  const lastCell = new Int32Array(vertexCount).fill(-1);
  const { order, cells, colourStarts } = partition;
  // Passes run in order, so a later pass's cell overwrites an earlier one's.
  for (const pass of partition.passes) {
    for (let c = pass.cellBase; c < pass.cellBase + pass.cellCount; c++) {
      const firstColour = cells[2 * c];
      const colours = cells[2 * c + 1];
      for (let n = colourStarts[firstColour]; n < colourStarts[firstColour + colours]; n++) {
        const e = order[n];
        for (let k = 0; k < arity; k++) lastCell[elements[arity * e + k]] = c;
      }
    }
  }
  const offsets = new Uint32Array(cellCount + 1);
  for (let v = 0; v < vertexCount; v++) {
    if (lastCell[v] < 0) return null;
    offsets[lastCell[v] + 1]++;
  }
  for (let c = 0; c < cellCount; c++) offsets[c + 1] += offsets[c];
  const cursor = offsets.slice(0, cellCount);
  const vertices = new Uint32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) vertices[cursor[lastCell[v]]++] = v;
  return { offsets, vertices };
}
