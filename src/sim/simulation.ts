/**
 * The simulation the headless runner drives: one scene on one GPUDevice, stepped by GpuSolver's
 * TimeStep (the page's GpuEngine steps the same GpuSolver).
 *
 *   const sim = new Simulation(ctx, setup);
 *   const stats = await sim.stepFrame();      // records + submits one frame, resolves when done
 *   sim.positionBuffer                        // vec4<f32> per vertex (xyz, inverse mass): draw from it
 *   sim.setParams({ substeps: 10 }); sim.setMaterial(0, {...}); sim.reset();
 *
 * After each frame it reads back one u32 per object (the NaN/Inf guard's flags: a small
 * sync point) so that a stopped object is reported with a clear message.
 */
import type { GpuContext } from '../gpu/device';
import { GpuSolver, type GpuSolverOptions } from './gpuSolver';
import type { CollisionFrameCounters } from '../collision/counters';
import type { Material } from './material';
import { setObjectMaterial, updateMaterialData } from './model';
import { checkParams, type SolverParams } from './params';
import { nonFiniteMessage, type SimSetup } from './setup';
import type { PhaseName } from './stage';
import type { PhaseTimes } from './timing';

export interface FrameStats {
  frame: number;
  /** Simulated time at the end of the frame (s). */
  time: number;
  /** CPU wall time from recording to GPU completion, readback included (ms). */
  wallMs: number;
  /** GPU time per phase from timestamp queries (ms), the phases that ran; null when the adapter has none. */
  gpuPhasesMs: PhaseTimes | null;
  timing: 'timestamp-query' | 'cpu-wall';
  dispatches: number;
  dispatchesByPhase: Partial<Record<PhaseName, number>>;
  substeps: number;
  iterations: number;
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

  constructor(ctx: GpuContext, setup: SimSetup, options: GpuSolverOptions = {}) {
    this.ctx = ctx;
    this.setup = setup;
    this.solver = new GpuSolver(ctx, setup, options);
    this.known = new Uint32Array(setup.model.objectNames.length);
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
    this.solver.reset();
    this.known.fill(0);
    this.stoppedMessages.length = 0;
  }

  async stepFrame(): Promise<FrameStats> {
    const t0 = performance.now();
    const frame = this.solver.frame;
    const r = await this.solver.stepFrame();
    // The NaN flags come with the frame's one small readback (GpuSolver.stepFrame).
    const status = r.objectStatus;
    const stopped: string[] = [];
    for (let o = 0; o < status.length; o++) {
      if (status[o] !== 0 && this.known[o] === 0) {
        this.known[o] = 1;
        const msg = nonFiniteMessage(this.setup.model, o, frame);
        stopped.push(msg);
        this.stoppedMessages.push(msg);
        this.onObjectStopped?.(msg);
      }
    }
    const p = this.solver.params;
    const m = this.setup.model;
    const elements = p.constraint === 'neohookean' ? m.tetCount : m.edgeCount;
    return {
      frame,
      time: this.solver.time,
      wallMs: performance.now() - t0,
      gpuPhasesMs: r.gpuPhaseMs,
      timing: r.gpuPhaseMs ? 'timestamp-query' : 'cpu-wall',
      dispatches: r.dispatches,
      dispatchesByPhase: r.dispatchesByPhase,
      collisions: r.collisions,
      substeps: p.substeps,
      iterations: p.iterations,
      constraintIterations: elements * p.iterations * p.substeps,
      stopped,
    };
  }

  destroy(): void {
    this.solver.destroy();
  }
}
