/** What every loader returns: the raw arrays plus where each element came from. */
import type { MeshIssue, TetMeshArrays } from '../types';

export type MeshFormat = 't' | 'tetgen' | 'gmsh' | 'vtk';

export interface LoadedMesh extends TetMeshArrays {
  format: MeshFormat;
  /** File name, used in every later message (pass the object as buildTetMesh's options). */
  source: string;
  /** 1-based source line of each vertex and tet. */
  vertexLines: Uint32Array;
  tetLines: Uint32Array;
  /** Things skipped while reading (other element types, unknown records). */
  warnings: MeshIssue[];
}
