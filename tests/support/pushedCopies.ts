/** Two copies of a shared mesh, one pushed into the other: the inter-object scene of the shortest-path tests. */
import { parseGaiaT } from '../../src/mesh/io/gaiaT';
import { buildTetMesh, mergeTetMeshes } from '../../src/mesh/tetMesh';
import type { TetMesh } from '../../src/mesh/types';
import { readSharedMesh } from './sharedMeshes';

/**
 * The shared mesh `name` (object 0) and a copy of it moved `push` units along +x (object 1), as one
 * TetMesh; the first copy's tets are [0, firstTetCount).
 */
export function pushedCopies(name: string, push: number): { mesh: TetMesh; firstTetCount: number } {
  const m = parseGaiaT(readSharedMesh(name), name);
  const second = Float32Array.from(m.positions);
  for (let i = 0; i < second.length; i += 3) second[i] += push;
  const merged = mergeTetMeshes([m, { positions: second, tets: m.tets }]);
  const mesh = buildTetMesh(merged.arrays, { objectIds: merged.tetObject }).mesh;
  return { mesh, firstTetCount: merged.tetOffsets[1] };
}
