/**
 * The simulation the headless runner drives: one scene on one GPUDevice, stepped by GpuSolver's
 * TimeStep (the page's GpuEngine steps the same GpuSolver).
 *
 *   const sim = new Simulation(ctx, setup);
 *   const stats = await sim.stepFrame();      // records + submits one frame, resolves when done
 *   sim.positionBuffer                        // vec4<f32> per vertex (xyz, inverse mass): draw from it
 *   sim.setParams({ substeps: 10 }); sim.setMaterial(0, {...}); sim.reset();
 *
 * After each frame it reads back one u32 per object (the NaN/Inf guard's flags, in the frame's
 * one small readback) so that a stopped object is reported with a clear message.
 *
 * Two frames in flight (the runner's --frames-in-flight 2): submitFrame() records and submits
 * and hands back the frame's promise, so the next frame is recorded while the GPU runs this one:
 *
 *   const a = await sim.submitFrame(); const b = await sim.submitFrame();
 *   const statsA = await a.done;            // then submit the next, and so on
 */
import type { GpuContext } from '../gpu/device';
import { GpuSolver, type EncodeSplit, type GpuFrameResult, type GpuSolverOptions } from './gpuSolver';
import type { CollisionFrameCounters } from '../collision/counters';
import type { Material } from './material';
import { setObjectMaterial, updateMaterialData } from './model';
import { checkParams, effectiveCollisionRounds, effectiveDetectionRounds, type SolverParams } from '../contract/params';
import { nonFiniteMessage, type SimSetup } from './setup';
import type { PhaseName } from '../contract/stage';
import type { PhaseTimes } from './timing';

export interface FrameStats {
  frame: number;
  /** Simulated time at the end of the frame (s). */
  time: number;
  /**
   * CPU wall time of the frame (ms): from the start of its recording (or, with frames in flight,
   * the previous frame's completion if later) to its completion, readback included. With one
   * frame in flight this is recording to completion; with two, the frames' wallMs add up to the
   * run's wall time.
   */
  wallMs: number;
  /** JavaScript time to record and submit the frame (ms; GpuFrameResult.encodeMs). */
  encodeMs: number;
  /** Where encodeMs went (GpuFrameResult.encodeSplitMs); absent on the CPU engine. */
  encodeSplitMs?: EncodeSplit;
  /** Times the caller waited for the GPU before this frame could be submitted (GpuFrameResult.blockingReadbacks). */
  blockingReadbacks: number;
  /** GPU time per phase from timestamp queries (ms), the phases that ran; null when the adapter has none. */
  gpuPhasesMs: PhaseTimes | null;
  timing: 'timestamp-query' | 'cpu-wall';
  dispatches: number;
  dispatchesByPhase: Partial<Record<PhaseName, number>>;
  /** Compute passes the frame recorded (real ones: TimeStep shares a pass between stages). */
  passes: number;
  /** Substeps the frame took: SolverParams.substeps, or more on impact (impactSubsteps). */
  substeps: number;
  /** The closing speed (world units / s) that chose the frame's substeps (collision/ccd/impactSubsteps.ts); absent when not measured. */
  closingSpeed?: number;
  iterations: number;
  /** Collision rounds a substep (SolverParams.collideEvery, effectiveCollisionRounds). */
  collisionRounds: number;
  /** Of those, the rounds that detect (effectiveDetectionRounds; the others solve the contacts again). */
  detectionRounds: number;
  /** Constraint projections this frame: elements x iterations x substeps. */
  constraintIterations: number;
  /** Messages of objects stopped during this frame. */
  stopped: string[];
  /** The frame's collision counters (DCD hits, queries, Q / Tr / Tet, contacts, capacity, readbacks), or null without collision stages. */
  collisions?: CollisionFrameCounters | null;
}

export class Simulation {
  readonly setup: SimSetup;
  readonly solver: GpuSolver;
  /** Messages of every stopped object since the last reset. */
  readonly stoppedMessages: string[] = [];
  /** Called once per object that stops (NaN/Inf). */
  onObjectStopped?: (message: string) => void;
  private readonly ctx: GpuContext;
  private known: Uint32Array;
  /** When the last processed frame completed (performance.now), for wallMs with frames in flight. */
  private lastDone = -Infinity;

  constructor(ctx: GpuContext, setup: SimSetup, options: GpuSolverOptions = {}) {
    this.ctx = ctx;
    this.setup = setup;
    this.solver = new GpuSolver(ctx, setup, options);
    this.known = new Uint32Array(setup.model.objectNames.length);
  }

  /** The positions (xyz per vertex), read back from the GPU. */
  readPositions(): Promise<Float32Array> {
    return this.solver.readPositions();
  }

  /** The velocities (xyz per vertex), read back from the GPU. */
  readVelocities(): Promise<Float32Array> {
    return this.solver.readVelocities();
  }

  get positionBuffer(): GPUBuffer {
    return this.solver.positionBuffer;
  }

  get tetBuffer(): GPUBuffer {
    return this.solver.tetBuffer;
  }

  get params(): Readonly<SolverParams> {
    return this.solver.params;
  }

  get timestampQueries(): boolean {
    return this.ctx.features.has('timestamp-query');
  }

  /** Changes solver parameters (validated; the old ones stay if invalid). */
  setParams(p: Partial<SolverParams>): void {
    const next = { ...this.solver.params, ...p };
    checkParams(next);
    this.solver.params = next;
  }

  /** Changes one object's material (Young's modulus, Poisson ratio, density). */
  setMaterial(object: number, material: Material): void {
    setObjectMaterial(this.setup.model, object, material);
    this.solver.refreshMasses();
  }

  /** Re-derives masses and constants after the model's materials were edited in place. */
  refreshMaterials(): void {
    updateMaterialData(this.setup.model);
    this.solver.refreshMasses();
  }

  reset(): void {
    this.lastDone = -Infinity;
    this.solver.reset();
    this.known.fill(0);
    this.stoppedMessages.length = 0;
  }

  /** Records, submits and waits for one frame. */
  async stepFrame(): Promise<FrameStats> {
    const t0 = performance.now();
    const p = this.solver.params;
    const r = await this.solver.stepFrame();
    return this.statsOf(r, t0, p);
  }

  /**
   * Records and submits one frame without waiting for it (GpuSolver.submitFrame: waits first only
   * when two frames are outstanding); `done` resolves with its stats, in submission order.
   */
  async submitFrame(): Promise<{ frame: number; done: Promise<FrameStats> }> {
    const t0 = performance.now();
    // The parameters this frame is recorded with (setParams replaces the object; a later frame's change is not this one's).
    const p = this.solver.params;
    const f = await this.solver.submitFrame();
    const done = f.done.then((r) => this.statsOf(r, t0, p));
    // Its caller handles errors; never an unhandled rejection before it awaits.
    done.catch(() => undefined);
    return { frame: f.frame, done };
  }

  /** Frames a loop that submits ahead should keep in flight (GpuSolver.framesInFlightWanted). */
  get framesInFlightWanted(): number {
    return this.solver.framesInFlightWanted;
  }

  /** Frames submitted and not yet processed. */
  get framesInFlight(): number {
    return this.solver.framesInFlight;
  }

  /** Waits for every submitted frame (GpuSolver.drain). */
  drain(): Promise<void> {
    return this.solver.drain();
  }

  private statsOf(r: GpuFrameResult, t0: number, p: Readonly<SolverParams>): FrameStats {
    const now = performance.now();
    const wallMs = now - Math.max(t0, this.lastDone);
    this.lastDone = now;
    // The NaN flags come with the frame's one small readback (GpuSolver.stepFrame).
    const status = r.objectStatus;
    const stopped: string[] = [];
    for (let o = 0; o < status.length; o++) {
      if (status[o] !== 0 && this.known[o] === 0) {
        this.known[o] = 1;
        const msg = nonFiniteMessage(this.setup.model, o, r.frame);
        stopped.push(msg);
        this.stoppedMessages.push(msg);
        this.onObjectStopped?.(msg);
      }
    }
    const m = this.setup.model;
    const elements = p.constraint === 'neohookean' ? m.tetCount : m.edgeCount;
    return {
      frame: r.frame,
      time: r.time,
      wallMs,
      encodeMs: r.encodeMs,
      encodeSplitMs: r.encodeSplitMs,
      blockingReadbacks: r.blockingReadbacks,
      gpuPhasesMs: r.gpuPhaseMs,
      timing: r.gpuPhaseMs ? 'timestamp-query' : 'cpu-wall',
      dispatches: r.dispatches,
      dispatchesByPhase: r.dispatchesByPhase,
      passes: r.passes.length,
      collisions: r.collisions,
      substeps: r.substeps,
      ...(r.closingSpeed !== undefined ? { closingSpeed: r.closingSpeed } : {}),
      iterations: p.iterations,
      collisionRounds: effectiveCollisionRounds(p, this.setup.model.objectNames.length),
      detectionRounds: effectiveDetectionRounds(p, this.setup.model.objectNames.length),
      constraintIterations: elements * p.iterations * r.substeps,
      stopped,
    };
  }

  destroy(): void {
    this.solver.destroy();
  }
}
