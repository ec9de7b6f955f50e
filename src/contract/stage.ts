/**
 * One stage of the time step (DESIGN.md "One time step"): predict, material, detect, spb,
 * contacts, finalize (and later ccd, bvh). A stage records its compute passes into the frame's
 * encoder for one substep; it owns its pipelines and bind groups (built once) and reads the
 * per-substep parameters through the dynamic-offset slot of `step`, never a writeBuffer inside
 * the frame. The stepping owner (timeStep.ts) calls the stages in order, per substep.
 */
import type { GpuState } from './state';

/** Phases of a frame, for timings: open, stages of later issues add theirs. */
export type PhaseName = 'predict' | 'material' | 'detect' | 'spb' | 'contacts' | 'finalize' | 'ccd' | 'bvh' | 'sync' | 'air';

/** Whether `step`'s round only solves the contacts again (SubstepContext.detectRounds). */
export function resolvesOnly(step: Pick<SubstepContext, 'round' | 'detectRounds'>): boolean {
  return step.detectRounds !== undefined && step.round >= step.detectRounds;
}

export interface SubstepContext {
  /** Substep index in the frame. */
  readonly substep: number;
  /** Substeps in this frame. */
  readonly substeps: number;
  /**
   * Collision round within the substep (SolverParams.collideEvery): the stages marked `perRound`
   * are encoded `rounds` times a substep, round 0 first; 1 round unless collisions run after
   * every material iteration.
   */
  readonly round: number;
  readonly rounds: number;
  /**
   * Rounds below this detect (SolverParams.collideEvery, effectiveDetectionRounds); from it on a
   * round solves the contacts of the substep's last detecting round again: detection, the shortest
   * path and CCD record nothing, the contacts stage its passes only. Absent: every round detects.
   */
  readonly detectRounds?: number;
  /** Opens a compute pass for `phase`, with its timestamp writes when the adapter has them. */
  beginPass(encoder: GPUCommandEncoder, phase: PhaseName, label?: string): GPUComputePassEncoder;
  /** Dynamic offset of this substep's slot in the solver's slot buffer (bind group 1 of the solver kernels). */
  readonly slotOffset: number;
  /** Counts `n` dispatches (direct or indirect) against the phase of the pass opened last. */
  countDispatches(n: number): void;
  /**
   * True while the last stage of a substep that is not the frame's last is recorded and has
   * joined the next substep's first stage (GpuStage.joinsNext): it records that stage's work for
   * the next substep too, and TimeStep does not encode it there.
   */
  readonly joinNext: boolean;
  /** Dynamic offset of the next substep's slot (meaningful while joinNext). */
  readonly nextSlotOffset: number;
}

export interface GpuStage {
  readonly phase: PhaseName;
  /**
   * Encoded once per collision round of the substep (the material iterations and the collision
   * stages; SubstepContext.round), not once per substep. The perRound stages of a time step are
   * consecutive in its list.
   */
  readonly perRound?: boolean;
  /** False when the stage has nothing to do under the current parameters (e.g. collisions off). */
  active?(): boolean;
  /** Once per frame, before the first substep: uniform uploads and counter clears for the frame. */
  beginFrame?(encoder: GPUCommandEncoder): void;
  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void;
  /**
   * Asked once per frame of the substep's last active stage, with the first: true when this
   * stage records `first`'s work for the next substep inside its own dispatches (issue 24:
   * finalize and the next predict in one dispatch). TimeStep then sets step.joinNext on this
   * stage for every substep but the frame's last and skips `first` on every substep but the first.
   */
  joinsNext?(first: GpuStage): boolean;
  destroy?(): void;
}

/**
 * Work MaterialStage encodes into its pass after every material sweep (the colliders' projection
 * included), before Anderson acceleration mixes the sweep: the sliver lift of
 * SolverParams.sliverFloorInSweeps (InversionFloorStage.afterSweep).
 */
export interface AfterMaterialSweep {
  /** Whether it runs in this substep. */
  active(): boolean;
  /** Encodes it into the material's compute pass; returns its dispatches. The pass's pipeline and bind group 0 are left changed. */
  encode(pass: GPUComputePassEncoder, state: GpuState): number;
}
