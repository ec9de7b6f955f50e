/**
 * The WebGPU XPBD solver (src/sim/gpuSolver.ts) behind the page's engine interface, on the
 * page's own device: three.js draws straight from the solver's position buffer (one
 * GPU-side copy per frame through GpuPositionLink), so no position ever crosses to the CPU
 * for drawing. The lowest point and the NaN/Inf flags come from GpuStateReadback: one
 * asynchronous readback per frame at most, never waited on by the next frame.
 */
import type { GpuContext } from '../gpu/device';
import { GpuSolver } from '../sim/gpuSolver';
import { pageSpbFallback } from './spbFallbackPool';
import { ccdTransport, pageCollisionJobs } from './ccdPool';
import { setObjectMaterial } from '../sim/model';
import type { Material } from '../sim/material';
import { checkParams, type SolverParams } from '../sim/params';
import { nonFiniteMessage, type SimSetup } from '../sim/setup';
import type { GpuPositionLink, GpuPositionSource } from './gpuPositionLink';
import { GpuStateReadback, type StateSnapshot } from './gpuStateReadback';
import type { MeshView } from './meshView';
import { checkMaterial, type FrameReport, type LowestPoint, type SimulationEngine } from './simulationEngine';

export class GpuEngine implements SimulationEngine {
  readonly kind = 'gpu';
  readonly description: string;
  private readonly readback: GpuStateReadback;
  private lowest: LowestPoint = { y: NaN, frame: -1 };
  private reported: Uint8Array;
  private pending: string[] = [];
  /** Readback results older than this frame belong to a state before a reset. */
  private epoch = 0;
  /** The epoch `lowest` was read in. */
  private lowestEpoch = 0;
  private disposed = false;
  /** True while the readback loop runs. */
  private pumping = false;
  onLowestPoint: (() => void) | undefined;

  private constructor(
    ctx: GpuContext,
    private readonly solver: GpuSolver,
  ) {
    const m = solver.model;
    this.description = `WebGPU XPBD solver (${ctx.description}); collision workers get positions by ${ccdTransport()}`;
    this.readback = new GpuStateReadback(ctx.device, solver.positionBuffer, solver.objectStatusBuffer, m.vertexCount, m.objectNames.length);
    this.reported = new Uint8Array(m.objectNames.length);
  }

  /**
   * Uploads the scene and links the view to the solver's positions. Validation errors raised
   * while building (e.g. a limit the adapter lacks) are turned into an exception here.
   */
  static async create(
    ctx: GpuContext,
    setup: SimSetup,
    view: MeshView,
    showGpuPositions: (source: GpuPositionSource) => GpuPositionLink,
  ): Promise<GpuEngine> {
    const device = ctx.device;
    device.pushErrorScope('validation');
    device.pushErrorScope('out-of-memory');
    let solver: GpuSolver | undefined;
    let thrown: unknown;
    try {
      // Overflowed shortest-path queries are answered in the page's workers, not on its thread.
      solver = new GpuSolver(ctx, setup, { collisions: { answerOverflowed: pageSpbFallback().answerOverflowed, workerJobs: pageCollisionJobs() } });
    } catch (error) {
      thrown = error;
    }
    const oom = await device.popErrorScope();
    const invalid = await device.popErrorScope();
    const gpuError = invalid ?? oom;
    if (thrown !== undefined || gpuError) {
      solver?.destroy();
      throw thrown ?? new Error(`the GPU solver could not be built: ${gpuError!.message}`);
    }
    const engine = new GpuEngine(ctx, solver!);
    // Show the starting pose from the CPU copy until the first GPU copy lands.
    const m = setup.model;
    const start = new Float32Array(m.restPositions);
    view.updatePositions(start);
    showGpuPositions({ buffer: solver!.positionBuffer, stride: 4 });
    await engine.refreshLowest();
    return engine;
  }

  get params(): SolverParams {
    return { ...this.solver.params, gravity: [...this.solver.params.gravity] };
  }

  get frame(): number {
    return this.solver.frame;
  }

  setParams(params: SolverParams): void {
    checkParams(params);
    this.solver.params = { ...params, gravity: [...params.gravity] };
  }

  setMaterial(material: Material): void {
    checkMaterial(material);
    setObjectMaterial(this.solver.model, 0, material);
    this.solver.refreshMasses();
  }

  async stepFrame(): Promise<FrameReport> {
    const t0 = performance.now();
    const result = await this.solver.stepFrame();
    const wallMs = performance.now() - t0;
    this.requestReadback();
    if (result.gpuPhaseMs) {
      const phases = { ...result.gpuPhaseMs };
      const totalMs = Object.values(phases).reduce((a, b) => a + b, 0);
      return { totalMs, phases, source: 'gpu-timestamps', wallMs };
    }
    return { totalMs: wallMs, phases: { step: wallMs }, source: 'cpu-clock', wallMs };
  }

  async reset(): Promise<void> {
    this.solver.reset();
    this.reported.fill(0);
    this.pending = [];
    this.epoch += 1;
    await this.refreshLowest();
  }

  takeMessages(): string[] {
    const fresh = this.pending;
    this.pending = [];
    return fresh;
  }

  lowestPoint(): LowestPoint {
    return { ...this.lowest };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.readback.destroy();
    this.solver.destroy();
  }

  /**
   * Keeps one readback loop alive while the state on the CPU is older than the solver's:
   * each pass reads the newest frame, so the last frame is always read, never more than one
   * readback is in flight, and stepping never waits for one.
   */
  private requestReadback(): void {
    if (this.pumping || this.disposed) return;
    this.pumping = true;
    void (async () => {
      try {
        while (!this.disposed && (this.lowest.frame !== this.solver.frame || this.lowestEpoch !== this.epoch)) {
          const epoch = this.epoch;
          const snapshot = await this.readback.start(this.solver.frame);
          if (!snapshot) break;
          this.take(snapshot, epoch);
        }
      } catch (error) {
        console.error(error);
      } finally {
        this.pumping = false;
      }
    })();
  }

  /** Reads the current state back and waits until it is known (start and reset only). */
  private async refreshLowest(): Promise<void> {
    const epoch = this.epoch;
    const frame = this.solver.frame;
    this.requestReadback();
    while (!this.disposed && !(this.lowestEpoch === epoch && this.lowest.frame === frame)) {
      if (!this.pumping) this.requestReadback();
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  private take(s: StateSnapshot | undefined, epoch: number): void {
    if (!s || this.disposed || epoch !== this.epoch) return;
    for (let o = 0; o < s.objectStatus.length; o++) {
      if (s.objectStatus[o] !== 0 && this.reported[o] === 0) {
        this.reported[o] = 1;
        this.pending.push(nonFiniteMessage(this.solver.model, o, s.frame));
      }
    }
    if (s.frame >= this.lowest.frame || this.lowestEpoch !== epoch) {
      this.lowest = { y: s.minY, frame: s.frame };
      this.lowestEpoch = epoch;
      this.onLowestPoint?.();
    }
  }
}
