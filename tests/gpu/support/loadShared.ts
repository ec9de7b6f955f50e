/** Reads a shared `.t` mesh (made by others) through the project's loader. */
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { readSharedMesh } from '../../support/sharedMeshes';

export function loadSharedTetArrays(name: string): { positions: Float32Array; tets: Uint32Array } {
  const loaded = parseGaiaT(readSharedMesh(name), name);
  return { positions: loaded.positions, tets: loaded.tets };
}
