/**
 * The contract between the page and the CPU solver worker (types only, so importing it never
 * pulls the solver into the page's thread).
 */
import type { CollisionFrameCounters } from '../collision/counters';
import type { Material } from '../sim/material';
import type { SolverParams } from '../contract/params';
import type { PageSceneSource, SceneOverrides } from './scene/pageScene';

/** The worker builds the same scene as the page (buildPageScene): its scripts are functions and cannot be sent. */
export interface CpuSceneRequest {
  source: PageSceneSource;
  overrides: SceneOverrides;
}

/** The state after a frame (or a reset), positions transferred (moved, not copied). */
export interface CpuFrameResult {
  /** xyz per vertex, float32 for drawing. */
  positions: Float32Array;
  frame: number;
  /** Simulated time, s. */
  time: number;
  /** Lowest y over all vertices, from the float64 state. */
  minY: number;
  /** Solver time in the worker, ms. */
  solveMs: number;
  /** Messages of objects stopped by NaN/Inf during this frame. */
  messages: string[];
  /** Collision counters of the frame (summed over its substeps). */
  collisions?: CollisionFrameCounters;
  /** Substeps the frame took (more than params.substeps on impact: impactSubsteps; params.substeps after a reset). */
  substeps: number;
  /** The closing speed that chose them (collision/ccd/impactSubsteps.ts); absent when not measured. */
  closingSpeed?: number;
}

export interface CpuSolverWorkerApi {
  /** Builds the model (colouring included) and the solver; returns the starting state. */
  init(request: CpuSceneRequest): CpuFrameResult;
  step(params: SolverParams): CpuFrameResult;
  reset(): CpuFrameResult;
  setMaterial(object: number, material: Material): void;
}
