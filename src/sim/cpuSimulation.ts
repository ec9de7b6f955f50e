/**
 * The float64 CPU reference (CpuSolver) behind the interface the headless runner drives
 * (Simulation's: stepFrame, setParams, readPositions / readVelocities), so that a run can be
 * reproduced at reference precision on a machine without a GPU (`npm run sim -- --engine cpu`).
 * Every collision stage runs on it (src/collision/cpu: the hybrid of CCD and DCD, the shortest
 * path, contacts), so its frames report the same collision counters as the GPU's.
 */
import { CpuSolver } from './cpuSolver';
import { checkParams, effectiveCollisionRounds, effectiveDetectionRounds, type SolverParams } from '../contract/params';
import type { SimSetup } from './setup';
import type { FrameStats } from './simulation';

export class CpuSimulation {
  readonly solver: CpuSolver;
  /** Messages of every stopped object since the start. */
  readonly stoppedMessages: string[] = [];
  readonly description = 'CPU reference solver (float64 JavaScript, one thread)';

  constructor(readonly setup: SimSetup) {
    this.solver = new CpuSolver(setup);
  }

  get params(): Readonly<SolverParams> {
    return this.solver.params;
  }

  /** Changes solver parameters (validated; the old ones stay if invalid). */
  setParams(p: Partial<SolverParams>): void {
    const next = { ...this.solver.params, ...p };
    checkParams(next);
    this.solver.params = next;
  }

  /** Steps one frame (synchronously; a promise for the runner's loop). */
  async stepFrame(): Promise<FrameStats> {
    const s = this.solver;
    const p = s.params;
    const before = s.messages.length;
    const t0 = performance.now();
    s.stepFrame();
    const wallMs = performance.now() - t0;
    const stopped = s.messages.slice(before);
    this.stoppedMessages.push(...stopped);
    const m = this.setup.model;
    const elements = p.constraint === 'neohookean' ? m.tetCount : m.edgeCount;
    return {
      frame: s.frame - 1,
      time: s.time,
      wallMs,
      encodeMs: 0,
      blockingReadbacks: 0,
      gpuPhasesMs: { ...s.phaseMs },
      timing: 'cpu-wall',
      dispatches: 0,
      dispatchesByPhase: {},
      passes: 0,
      substeps: s.frameSubstepCount,
      ...(s.closingSpeed !== null ? { closingSpeed: s.closingSpeed } : {}),
      iterations: p.iterations,
      collisionRounds: effectiveCollisionRounds(p, this.setup.model.objectNames.length),
      detectionRounds: effectiveDetectionRounds(p, this.setup.model.objectNames.length),
      constraintIterations: elements * p.iterations * s.frameSubstepCount,
      stopped,
      collisions: s.collisionCounters,
    };
  }

  /** Frames are never in flight on the CPU: the runner refuses --frames-in-flight 2 with it. */
  submitFrame(): Promise<{ frame: number; done: Promise<FrameStats> }> {
    return Promise.reject(new Error('the CPU engine steps one frame at a time (no frames in flight)'));
  }

  async readPositions(): Promise<Float64Array> {
    return this.solver.x;
  }

  async readVelocities(): Promise<Float64Array> {
    return this.solver.v;
  }

  destroy(): void {}
}
