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
 * Stages open their passes through SubstepContext.beginPass and count their dispatches with
 * SubstepContext.countDispatches. beginPass hands out a shared pass (sharedPass.ts): one real
 * compute pass holds the dispatches of consecutive stages and substeps until a stage needs the
 * encoder for a clear or a copy. Timestamps: the first substep opens one real pass per phase,
 * timed; the later substeps' real passes are timed as a whole and the frame's per-phase times
 * are the first substep's shares of the frame's total (timing.ts).
 */
import type { GpuContext } from '../gpu/device';
import type { GpuStage, PhaseName, SubstepContext } from '../contract/stage';
import type { GpuState } from '../contract/state';
import { SharedPass } from './sharedPass';
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
  private readonly shared = new SharedPass();
  /**
   * True (default): stages share compute passes (sharedPass.ts): a real pass ends only where a
   * stage needs the encoder (clearBuffer, copies) or, with timestamps, where the first substep's
   * phase changes. False: one real pass per beginPass, each timed (the layout before issue 24;
   * tests compare the two).
   */
  mergePasses = true;
  /** setPipeline / setBindGroup calls of the last merged frame dropped as already set. */
  skippedCalls = 0;

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
  encodeFrame(encoder: GPUCommandEncoder, substeps: number, slotOffset: (substep: number) => number, slot = 0, rounds = 1, detectRounds = rounds): Omit<FrameRecord, 'gpuPhaseMs'> {
    if (!Number.isInteger(substeps) || substeps < 1) throw new RangeError(`TimeStep: substeps must be a positive integer, got ${substeps}`);
    if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`TimeStep: rounds must be a positive integer, got ${rounds}`);
    if (!Number.isInteger(detectRounds) || detectRounds < 1 || detectRounds > rounds) throw new RangeError(`TimeStep: detectRounds must be an integer in [1, rounds = ${rounds}], got ${detectRounds}`);
    const active = this.list.filter((s) => s.active?.() ?? true);
    // The perRound stages (material, collisions) run `rounds` times a substep, as one block.
    // Without perRound stages the block is empty at the end of the list.
    let roundStart = active.findIndex((s) => s.perRound);
    if (roundStart < 0) roundStart = active.length;
    let roundEnd = roundStart;
    while (roundEnd < active.length && active[roundEnd].perRound) roundEnd++;
    if (active.slice(roundEnd).some((s) => s.perRound)) {
      throw new Error(`TimeStep: the per-round stages must be consecutive, got ${active.map((s) => s.phase + (s.perRound ? '*' : '')).join(', ')}`);
    }
    // The last stage may record the next substep's first stage in its dispatches (joinsNext).
    const first = active[0];
    const last = active[active.length - 1];
    const join = active.length > 1 && roundStart > 0 && roundEnd < active.length && (last.joinsNext?.(first) ?? false);
    const timer = this.timer;
    const passes: PhaseName[] = [];
    const byPhase: Partial<Record<PhaseName, number>> = {};
    let dispatches = 0;
    timer.beginFrame(slot);
    const merge = this.mergePasses;
    const shared = this.shared;
    // The phase of the stage recording now (dispatches are counted against it).
    let phase: PhaseName | null = null;
    // Phase of the open real pass when it is timed per phase (substep 0), else null.
    let timedPhase: PhaseName | null = null;
    // Timestamps per phase on the first substep only (one real pass per phase there); the later
    // substeps' passes are merged and timed as a whole (PhaseTimer.read scales substep 0's shares).
    const stamps = timer.available;
    const open = (enc: GPUCommandEncoder, label: string): GPUComputePassEncoder => {
      const ph = phase!;
      const sampled = !merge || step.substep === 0;
      passes.push(ph);
      timedPhase = sampled && stamps ? ph : null;
      const writes = timer.writes(sampled ? ph : null);
      return enc.beginComputePass(writes ? { label, timestampWrites: writes } : { label });
    };
    const openShared = (enc: GPUCommandEncoder): GPUComputePassEncoder => open(enc, step.substep === 0 ? phase! : 'substeps');
    const frameEncoder = merge ? shared.encoder : encoder;
    if (merge) shared.begin(encoder, openShared);
    for (const stage of active) stage.beginFrame?.(frameEncoder);
    const step = {
      substep: 0,
      substeps,
      round: 0,
      rounds,
      detectRounds,
      slotOffset: 0,
      joinNext: false as boolean,
      nextSlotOffset: 0,
      beginPass(enc: GPUCommandEncoder, ph: PhaseName, label?: string): GPUComputePassEncoder {
        phase = ph;
        if (!merge) return open(enc, label ?? ph);
        // A new phase on the timed substep gets its own real pass (its own timestamps).
        if (stamps && step.substep === 0 && shared.isOpen && timedPhase !== ph) shared.close();
        return shared.pass;
      },
      countDispatches(n: number): void {
        if (phase === null) throw new Error('TimeStep: countDispatches before any beginPass');
        byPhase[phase] = (byPhase[phase] ?? 0) + n;
        dispatches += n;
      },
    } satisfies SubstepContext;
    for (let s = 0; s < substeps; s++) {
      step.substep = s;
      step.slotOffset = slotOffset(s);
      // The timed substep's last pass is not merged into the untimed ones.
      if (merge && s === 1 && stamps) shared.close();
      step.round = 0;
      // The first stage was recorded by the previous substep's last (joinsNext).
      for (let k = join && s > 0 ? 1 : 0; k < roundStart; k++) active[k].encode(frameEncoder, this.state, step);
      for (let r = 0; r < rounds; r++) {
        step.round = r;
        for (let k = roundStart; k < roundEnd; k++) active[k].encode(frameEncoder, this.state, step);
      }
      for (let k = roundEnd; k < active.length - 1; k++) active[k].encode(frameEncoder, this.state, step);
      if (roundEnd < active.length) {
        step.joinNext = join && s + 1 < substeps;
        step.nextSlotOffset = step.joinNext ? slotOffset(s + 1) : 0;
        last.encode(frameEncoder, this.state, step);
        step.joinNext = false;
      }
    }
    this.skippedCalls = merge ? shared.skipped : 0;
    if (merge) shared.end();
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
