/** Lumped vertex masses from rest volumes: each tet gives density * volume / 4 to each vertex. */
import type { TetMesh } from './types';

/**
 * @param density a single density, or one per object (indexed by mesh.tetObject).
 * Accumulates in float64 so that thousands of small contributions do not lose precision.
 */
export function computeVertexMasses(mesh: TetMesh, density: number | Float32Array): Float32Array {
  const perObject = typeof density !== 'number';
  if (!perObject && !(density > 0 && Number.isFinite(density))) {
    throw new Error(`computeVertexMasses: density must be a positive finite number, got ${density}`);
  }
  const acc = new Float64Array(mesh.vertexCount);
  for (let t = 0; t < mesh.tetCount; t++) {
    let rho: number;
    if (perObject) {
      const o = mesh.tetObject[t];
      if (o >= density.length) throw new Error(`computeVertexMasses: tet ${t} has object id ${o} but only ${density.length} densities were given`);
      rho = density[o];
      if (!(rho > 0 && Number.isFinite(rho))) throw new Error(`computeVertexMasses: density of object ${o} must be positive and finite, got ${rho}`);
    } else {
      rho = density;
    }
    const share = (rho * mesh.restVolumes[t]) / 4;
    for (let i = 0; i < 4; i++) acc[mesh.tets[4 * t + i]] += share;
  }
  return new Float32Array(acc);
}
