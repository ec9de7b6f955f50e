/**
 * Several objects in one scene become one TetMesh: concatenated arrays, with the object id of
 * every vertex and tet, so one GPU buffer set and one collision structure serve them all.
 */
import type { TetMeshArrays } from './types';

export interface MergedTetMeshes {
  arrays: TetMeshArrays;
  /** Object id (index in the input list) per vertex and per tet. */
  vertexObject: Uint32Array;
  tetObject: Uint32Array;
  /** First vertex / tet of each object; length objects + 1. */
  vertexOffsets: Uint32Array;
  tetOffsets: Uint32Array;
}

export function mergeTetMeshes(meshes: readonly TetMeshArrays[]): MergedTetMeshes {
  const n = meshes.length;
  const vertexOffsets = new Uint32Array(n + 1);
  const tetOffsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const m = meshes[i];
    if (m.positions.length % 3 !== 0 || m.tets.length % 4 !== 0) {
      throw new Error(`mergeTetMeshes: object ${i} has positions length ${m.positions.length} / tets length ${m.tets.length}, not multiples of 3 / 4`);
    }
    vertexOffsets[i + 1] = vertexOffsets[i] + m.positions.length / 3;
    tetOffsets[i + 1] = tetOffsets[i] + m.tets.length / 4;
  }
  const positions = new Float32Array(3 * vertexOffsets[n]);
  const tets = new Uint32Array(4 * tetOffsets[n]);
  const vertexObject = new Uint32Array(vertexOffsets[n]);
  const tetObject = new Uint32Array(tetOffsets[n]);
  for (let i = 0; i < n; i++) {
    const m = meshes[i];
    const v0 = vertexOffsets[i], t0 = tetOffsets[i];
    positions.set(m.positions, 3 * v0);
    for (let k = 0; k < m.tets.length; k++) tets[4 * t0 + k] = m.tets[k] + v0;
    vertexObject.fill(i, v0, vertexOffsets[i + 1]);
    tetObject.fill(i, t0, tetOffsets[i + 1]);
  }
  return { arrays: { positions, tets }, vertexObject, tetObject, vertexOffsets, tetOffsets };
}
