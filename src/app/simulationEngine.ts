/**
 * What the page needs from a solver, whichever runs it (GPU solver on the page's device, or
 * the CPU reference). The controller talks only to this interface, so choosing the solver is
 * a change in createEngine() (engineFactory.ts) only.
 */
import type { CollisionFrameCounters } from '../collision/counters';
import { lameFromYoung, type Material } from '../sim/material';
import type { Model } from '../sim/model';
import type { SolverParams } from '../contract/params';

/** How one frame's time was measured. */
export type TimingSource = 'gpu-timestamps' | 'cpu-clock';

export interface FrameReport {
  /** Simulation time of the frame in milliseconds (sum of phases when phases are reported). */
  totalMs: number;
  /** Milliseconds per phase, in the order the solver runs them (may be just { step }). */
  phases: Record<string, number>;
  source: TimingSource;
  /**
   * Wall-clock time of the whole frame on the page's thread (submission and waiting included), ms.
   * With frames in flight: from its submission, or the previous frame's completion if later, to
   * its completion (the frames' times add up to the run's).
   */
  wallMs: number;
  /** The runner's per-frame counters (src/runner/report.ts FrameEntry.counters; encodeMs and blockingReadbacks from the GPU engine). */
  counters: {
    dispatches: number; constraintIterations: number; readbacks: number; encodeMs?: number; blockingReadbacks?: number;
    /** Substeps the frame took (more than params.substeps on impact: impactSubsteps) and the closing speed that chose them. */
    substeps?: number; closingSpeed?: number;
    /** Collision rounds a substep (SolverParams.collideEvery), and of those the rounds that detect. */
    collisionRounds?: number;
    detectionRounds?: number;
  };
  /** The frame's collision counters (GPU engine with collisions). */
  collisions?: CollisionFrameCounters;
}

/** The lowest y over all vertices, and the frame whose state it was measured on. */
export interface LowestPoint {
  y: number;
  frame: number;
}

/** Overlay geometry after a frame (GpuEngine.readOverlays): xyz points, 6-number segments a->b, 6-number boxes min->max. */
export interface OverlayData {
  points?: Float32Array;
  paths?: Float32Array;
  ccd?: Float32Array;
  boxes?: Float32Array;
  /** Levels of the BVH (valid levels 0 .. bvhLevels - 1). */
  bvhLevels?: number;
}

export interface SimulationEngine {
  readonly kind: 'gpu' | 'cpu';
  /** One line for the status readout, e.g. "CPU reference solver (float64)". */
  readonly description: string;
  /** The parameters used by the next frame (a copy; change them with setParams). */
  readonly params: SolverParams;
  setParams(params: SolverParams): void;
  /** The scene's objects, materials and counts as built (materials follow setMaterial). */
  readonly model: Model;
  /**
   * Material of object `object`; refreshes masses and element constants from the next
   * frame on. Throws (synchronously) a RangeError naming a value the solver cannot use.
   */
  setMaterial(object: number, material: Material): void;
  /** Advances one frame (params.substeps x params.iterations) and puts it on screen. */
  stepFrame(): Promise<FrameReport>;
  /**
   * Engines that can keep frames in flight (the GPU engine): records and submits the next frame
   * and resolves once it is submitted; `done` resolves with its report once it completed (in
   * submission order). Waits first only when two frames are outstanding.
   */
  submitFrame?(): Promise<{ done: Promise<FrameReport> }>;
  /** With submitFrame: frames the page should keep in flight now (1 while CCD's 'auto' job latency has each frame wait for a job from the frame before it); absent: its own limit. */
  readonly framesInFlightWanted?: number;
  /** Frames submitted since the start or the last reset, completed or not (defaults to `frame`). */
  readonly submittedFrames?: number;
  /** Back to the starting pose at rest; the view shows it. */
  reset(): Promise<void>;
  /** Messages of objects stopped by NaN/Inf that were not taken yet. */
  takeMessages(): string[];
  /**
   * Lowest y over all vertices of the newest state known on the CPU. For a GPU engine this
   * comes from an asynchronous readback (at most one in flight), so it may lag the frame on
   * screen; `frame` says which state it describes.
   */
  lowestPoint(): LowestPoint;
  /** Called when a newer lowest point arrives outside stepFrame/reset (an async readback). */
  onLowestPoint: (() => void) | undefined;
  /** Frames completed since the start or the last reset (frames in flight not counted). */
  readonly frame: number;
  /** Simulated time at the end of the last completed frame, s. */
  readonly time: number;
  dispose(): void;
}

/** Rejects a material the solvers cannot use, naming the field (engines call it before passing it on). */
export function checkMaterial(m: Material): void {
  lameFromYoung(m.youngsModulus, m.poissonRatio);
  if (!(m.density > 0)) throw new RangeError(`density must be positive, got ${m.density}`);
}
