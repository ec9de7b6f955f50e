/**
 * The one stepping owner (DESIGN.md "One time step"): an ordered, open list of stages over one
 * GpuState. A frame is one command buffer: every active stage's beginFrame once, then per
 * substep every active stage's encode in list order. The page (app/gpuEngine.ts) and the
 * runner (sim/simulation.ts) both step through GpuSolver, which steps through this.
 *
 *   const ts = new TimeStep(ctx, state, [predict, material, finalize]);
 *   ts.insertBefore('finalize', contacts);            // detect, spb, contacts go here
 *   const r = await ts.stepFrame(substeps, (s) => slotOffsetOf(s));
 *   r.dispatchesByPhase.material; r.gpuPhaseMs?.finalize; r.passes
 *
 * Stages open their passes through SubstepContext.beginPass, which adds the pass's timestamp
 * writes (one begin/end pair per pass, summed per phase) and records the pass's phase; they
 * count their dispatches with SubstepContext.countDispatches.
 */
import type { GpuContext } from '../gpu/device';
import type { GpuStage, PhaseName, SubstepContext } from '../contract/stage';
import type { GpuState } from '../contract/state';
import { PhaseTimer, type PhaseTimes } from './timing';

export interface FrameRecord {
  /** GPU time per phase (ms) of the phases that ran, or null without timestamp queries. */
  gpuPhaseMs: PhaseTimes | null;
  /** Dispatches of the frame, in total and per phase. */
  dispatches: number;
  dispatchesByPhase: Partial<Record<PhaseName, number>>;
  /** Phase of every compute pass of the frame, in recording order. */
  passes: PhaseName[];
}

export class TimeStep {
  private readonly list: GpuStage[] = [];
  private readonly timer: PhaseTimer;
  private readonly device: GPUDevice;

  /**
   * `slots`: frames that may be in flight at once (their timestamps are read back into one
   * staging buffer each; GpuSolver uses 2, encodeFrame's and readTimes' `slot` picks one).
   */
  constructor(
    ctx: GpuContext,
    readonly state: GpuState,
    stages: readonly GpuStage[] = [],
    slots = 1,
  ) {
    this.device = ctx.device;
    this.timer = new PhaseTimer(ctx, slots);
    for (const s of stages) this.add(s);
  }

  /** The stages in stepping order. */
  get stages(): readonly GpuStage[] {
    return this.list;
  }

  /** Phases of the stages in order (a phase appears once, at its first stage). */
  get phases(): PhaseName[] {
    return [...new Set(this.list.map((s) => s.phase))];
  }

  /** Appends `stage` at the end of the substep. */
  add(stage: GpuStage): void {
    if (this.list.includes(stage)) throw new Error(`TimeStep: stage of phase '${stage.phase}' is already in the list`);
    this.list.push(stage);
  }

  /** Inserts `stage` before the first stage of `phase`. */
  insertBefore(phase: PhaseName, stage: GpuStage): void {
    this.insertAt(this.list.findIndex((s) => s.phase === phase), phase, 'insertBefore', stage);
  }

  /** Inserts `stage` after the last stage of `phase`. */
  insertAfter(phase: PhaseName, stage: GpuStage): void {
    let i = this.list.length - 1;
    while (i >= 0 && this.list[i].phase !== phase) i--;
    this.insertAt(i < 0 ? -1 : i + 1, phase, 'insertAfter', stage);
  }

  private insertAt(index: number, phase: PhaseName, how: string, stage: GpuStage): void {
    if (index < 0) throw new Error(`TimeStep.${how}('${phase}'): no stage of phase '${phase}' (have: ${this.phases.join(', ') || 'none'})`);
    if (this.list.includes(stage)) throw new Error(`TimeStep.${how}('${phase}'): stage of phase '${stage.phase}' is already in the list`);
    this.list.splice(index, 0, stage);
  }

  /** Takes `stage` out of the list (the caller then owns it again). */
  remove(stage: GpuStage): void {
    const i = this.list.indexOf(stage);
    if (i < 0) throw new Error(`TimeStep.remove: stage of phase '${stage.phase}' is not in the list`);
    this.list.splice(i, 1);
  }

  /**
   * Records one frame of `substeps` substeps into `encoder`, timestamp resolves included (no
   * submission; read the times with readTimes(slot) once it completed). `slotOffset(s)` is the
   * dynamic offset of substep s's slot (SubstepContext.slotOffset); `slot` the timestamp
   * read-back slot of this frame (0 unless several frames are in flight).
   *
   * One SubstepContext per frame, its substep fields updated in place: the encode path runs
   * substeps x stages times per frame and allocates nothing per substep (the budget
   * is 2 ms of JavaScript per frame for the 8-octopus scene).
   */
  encodeFrame(encoder: GPUCommandEncoder, substeps: number, slotOffset: (substep: number) => number, slot = 0): Omit<FrameRecord, 'gpuPhaseMs'> {
    if (!Number.isInteger(substeps) || substeps < 1) throw new RangeError(`TimeStep: substeps must be a positive integer, got ${substeps}`);
    const active = this.list.filter((s) => s.active?.() ?? true);
    const timer = this.timer;
    const passes: PhaseName[] = [];
    const byPhase: Partial<Record<PhaseName, number>> = {};
    let dispatches = 0;
    timer.beginFrame(slot);
    for (const stage of active) stage.beginFrame?.(encoder);
    const step = {
      substep: 0,
      substeps,
      slotOffset: 0,
      beginPass(enc: GPUCommandEncoder, phase: PhaseName, label?: string): GPUComputePassEncoder {
        passes.push(phase);
        const writes = timer.writes(phase);
        return enc.beginComputePass(writes ? { label: label ?? phase, timestampWrites: writes } : { label: label ?? phase });
      },
      countDispatches(n: number): void {
        const phase = passes[passes.length - 1];
        if (phase === undefined) throw new Error('TimeStep: countDispatches before any beginPass');
        byPhase[phase] = (byPhase[phase] ?? 0) + n;
        dispatches += n;
      },
    } satisfies SubstepContext;
    for (let s = 0; s < substeps; s++) {
      step.substep = s;
      step.slotOffset = slotOffset(s);
      for (let k = 0; k < active.length; k++) active[k].encode(encoder, this.state, step);
    }
    timer.resolve(encoder);
    return { dispatches, dispatchesByPhase: byPhase, passes };
  }

  /** Records, submits and waits for one frame; reads the per-phase timestamps. */
  async stepFrame(substeps: number, slotOffset: (substep: number) => number): Promise<FrameRecord> {
    const encoder = this.device.createCommandEncoder({ label: 'timeStep.frame' });
    const record = this.encodeFrame(encoder, substeps, slotOffset);
    this.device.queue.submit([encoder.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    return { ...record, gpuPhaseMs: await this.readTimes() };
  }

  /** GPU time per phase of the last frame encoded into `slot`, once its submission completed. */
  readTimes(slot = 0): Promise<PhaseTimes | null> {
    return this.timer.read(slot);
  }

  /** Destroys the timer and every stage in the list (the list owns its stages). */
  destroy(): void {
    for (const s of this.list) s.destroy?.();
    this.timer.destroy();
  }
}
