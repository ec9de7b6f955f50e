/** Test meshes on a Kuhn lattice (tests/support/kuhnLattice.ts), built into TetMeshes. */
import type { TetMesh } from '../../../src/mesh/types';
import { kuhnLattice } from '../../support/kuhnLattice';
import { meshFrom } from './helpers';

export interface LatticeMesh {
  mesh: TetMesh;
  /** Lattice cell (i, j, k) per tet. */
  cellOfTet: Int32Array;
  /** Vertex id of lattice point (i, j, k). */
  vertexId(i: number, j: number, k: number): number;
}

export function latticeMesh(nu: number, nv: number, nw: number, map: (u: number, v: number, w: number) => [number, number, number]): LatticeMesh {
  const { positions, tets, cellOfTet, vertexId } = kuhnLattice(nu, nv, nw, map);
  return { mesh: meshFrom(positions, tets), cellOfTet, vertexId };
}
