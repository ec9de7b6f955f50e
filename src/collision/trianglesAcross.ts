/** Triangle adjacency of the boundary surface (the GPU's packed topology and the CPU's CCD contacts read it). */
import type { TetMesh } from '../mesh/types';

/** For each boundary triangle and edge k (vertex k to k + 1), the other triangle on that edge. */
export function trianglesAcross(mesh: TetMesh): Uint32Array {
  const tris = mesh.boundaryTriangles;
  const triCount = tris.length / 3;
  const edgeCount = mesh.boundaryEdges.length / 2;
  const across = new Uint32Array(3 * triCount).fill(0xffffffff);
  for (let e = 0; e < edgeCount; e++) {
    const a = mesh.boundaryEdges[2 * e], b = mesh.boundaryEdges[2 * e + 1];
    const t0 = mesh.boundaryEdgeTriangles[2 * e], t1 = mesh.boundaryEdgeTriangles[2 * e + 1];
    for (const [t, other] of [[t0, t1], [t1, t0]]) {
      for (let k = 0; k < 3; k++) {
        const u = tris[3 * t + k], w = tris[3 * t + ((k + 1) % 3)];
        if ((u === a && w === b) || (u === b && w === a)) across[3 * t + k] = other;
      }
    }
  }
  for (let i = 0; i < across.length; i++) {
    if (across[i] === 0xffffffff) throw new Error(`collision topology: boundary triangle ${Math.floor(i / 3)} has no neighbour across its edge ${i % 3} (open boundary surface)`);
  }
  return across;
}
