/** Dropping vertices that no tet uses (they would be invisible, massless and unconstrained). */

export interface CompactResult {
  positions: Float32Array;
  tets: Uint32Array;
  /** Old ids of the dropped vertices, ascending. */
  dropped: number[];
  /** Old vertex id -> new id, or -1 for dropped ones (only when something was dropped). */
  remap: Int32Array | null;
}

export function dropUnusedVertices(positions: Float32Array, tets: Uint32Array): CompactResult {
  const vertexCount = positions.length / 3;
  const used = new Uint8Array(vertexCount);
  for (let i = 0; i < tets.length; i++) used[tets[i]] = 1;
  const dropped: number[] = [];
  for (let v = 0; v < vertexCount; v++) if (!used[v]) dropped.push(v);
  if (dropped.length === 0) return { positions, tets, dropped, remap: null };

  const remap = new Int32Array(vertexCount).fill(-1);
  const newPositions = new Float32Array(3 * (vertexCount - dropped.length));
  let next = 0;
  for (let v = 0; v < vertexCount; v++) {
    if (!used[v]) continue;
    remap[v] = next;
    newPositions[3 * next] = positions[3 * v];
    newPositions[3 * next + 1] = positions[3 * v + 1];
    newPositions[3 * next + 2] = positions[3 * v + 2];
    next++;
  }
  const newTets = new Uint32Array(tets.length);
  for (let i = 0; i < tets.length; i++) newTets[i] = remap[tets[i]];
  return { positions: newPositions, tets: newTets, dropped, remap };
}
