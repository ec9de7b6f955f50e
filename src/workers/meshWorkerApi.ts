/**
 * The contract between the page and the mesh worker (types only, so importing it never
 * pulls the worker's code into the page bundle).
 */
import type { TetMesh } from '../mesh/types';

/** A mesh file as text, named as the user's file (the extension picks the format). */
export interface MeshFileText {
  name: string;
  text: string;
}

/** Figures shown in the page's statistics readout. */
export interface MeshStats {
  vertices: number;
  tets: number;
  boundaryTriangles: number;
  minDihedralDeg: number;
  maxDihedralDeg: number;
  /** Time spent in the worker: generation (or parsing) plus validation and topology. */
  milliseconds: number;
  /** What the mesh is: a shape name or the imported file names. */
  source: string;
}

export interface MeshJobResult {
  mesh: TetMesh;
  stats: MeshStats;
  /** Validation warnings (e.g. unused vertices dropped, orientation flipped), as messages. */
  warnings: string[];
}

/** One shape parameter as the GUI shows it. */
export interface ShapeParameterInfo {
  name: string;
  min: number;
  max: number;
  default: number;
  step?: number;
  description?: string;
}

export interface ShapeInfo {
  name: string;
  label: string;
  defaultResolution: number;
  minResolution: number;
  maxResolution: number;
  parameters: ShapeParameterInfo[];
}

export interface MeshWorkerApi {
  /** The procedural shapes and their parameters (plain data: the SDFs stay in the worker). */
  catalog(): ShapeInfo[];
  generate(
    name: string,
    params: Record<string, number>,
    resolution: number,
    onProgress?: (fraction: number) => void,
  ): Promise<MeshJobResult>;
  /** Parses and validates mesh files (.t, .node + .ele, .msh, .vtk). Throws MeshParseError / MeshValidationError. */
  parse(files: MeshFileText[]): Promise<MeshJobResult>;
}
