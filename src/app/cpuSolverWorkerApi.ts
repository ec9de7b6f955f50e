/**
 * The contract between the page and the CPU solver worker (types only, so importing it never
 * pulls the solver into the page's thread).
 */
import type { Material } from '../sim/material';
import type { SolverParams } from '../sim/params';
import type { DropPlacement } from '../scenes/meshDrop';

export interface CpuSceneRequest {
  name: string;
  /** xyz per vertex and 4 ids per tet (copies: the page keeps its mesh). */
  positions: Float32Array;
  tets: Uint32Array;
  material: Material;
  params: SolverParams;
  placement: DropPlacement;
}

/** The state after a frame (or a reset), positions transferred (moved, not copied). */
export interface CpuFrameResult {
  /** xyz per vertex, float32 for drawing. */
  positions: Float32Array;
  frame: number;
  /** Lowest y over all vertices, from the float64 state. */
  minY: number;
  /** Solver time in the worker, ms. */
  solveMs: number;
  /** Messages of objects stopped by NaN/Inf during this frame. */
  messages: string[];
}

export interface CpuSolverWorkerApi {
  /** Builds the model (colouring included) and the solver; returns the starting state. */
  init(request: CpuSceneRequest): CpuFrameResult;
  step(params: SolverParams): CpuFrameResult;
  reset(): CpuFrameResult;
  setMaterial(material: Material): void;
}
