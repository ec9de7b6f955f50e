/**
 * The WebGPU XPBD solver (src/sim/gpuSolver.ts) behind the page's engine interface, on the
 * page's own device: three.js draws straight from the solver's position buffer (GPU-side
 * copies per frame into each object's vertex buffer, src/app/render), so no position ever
 * crosses to the CPU for drawing. The lowest point and the NaN/Inf flags come from GpuStateReadback: one
 * asynchronous readback per frame at most, never waited on by the next frame.
 *
 * Frames in flight: submitFrame() records and submits a frame and returns at once with the
 * promise of its report, so the controller keeps up to two frames queued on the GPU. The drawing
 * copies positions in a later submission, so it shows the newest submitted frame once the GPU
 * reaches it; `frame` and `time` are those of the last completed frame (what the reports and
 * the recorder describe).
 */
import type { GpuContext } from '../gpu/device';
import { GpuSolver, type GpuFrameResult } from '../sim/gpuSolver';
import { pageSpbFallback } from './spbFallbackPool';
import { ccdTransport, pageCollisionJobs } from './ccdPool';
import { setObjectMaterial, type Model } from '../sim/model';
import type { Material } from '../sim/material';
import { checkParams, effectiveCollisionRounds, effectiveDetectionRounds, type SolverParams } from '../contract/params';
import { nonFiniteMessage, type SimSetup } from '../sim/setup';
import { GpuStateReadback, type StateSnapshot } from './gpuStateReadback';
import type { SceneDrawing } from './scene/sceneDrawing';
import { checkMaterial, type FrameReport, type LowestPoint, type OverlayData, type SimulationEngine } from './simulationEngine';

export class GpuEngine implements SimulationEngine {
  readonly kind = 'gpu';
  readonly description: string;
  private readonly readback: GpuStateReadback;
  private lowest: LowestPoint = { y: NaN, frame: -1 };
  private reported: Uint8Array;
  private pending: string[] = [];
  /** The solver reset count (GpuSolver.resets) `lowest` was read under: older readbacks describe a state before a reset. */
  private lowestEpoch = 0;
  private disposed = false;
  /** Frames completed since the last reset, and the simulated time at the end of the last one. */
  private completedFrames = 0;
  private completedTime = 0;
  /** When the last frame's report came in (performance.now), for wallMs with frames in flight. */
  private lastDone = -Infinity;
  /** True while the readback loop runs. */
  private pumping = false;
  onLowestPoint: (() => void) | undefined;

  private readonly device: GPUDevice;

  private constructor(
    ctx: GpuContext,
    private readonly solver: GpuSolver,
  ) {
    this.device = ctx.device;
    const m = solver.model;
    this.description = `WebGPU XPBD solver (${ctx.description}); collision workers get positions by ${ccdTransport()}`;
    this.readback = new GpuStateReadback(ctx.device, solver.positionBuffer, solver.objectStatusBuffer, m.vertexCount, m.objectNames.length);
    this.reported = new Uint8Array(m.objectNames.length);
  }

  /**
   * Uploads the scene and links the drawing to the solver's buffers. Validation errors raised
   * while building (e.g. a limit the adapter lacks) are turned into an exception here.
   */
  static async create(ctx: GpuContext, setup: SimSetup, drawing: SceneDrawing): Promise<GpuEngine> {
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
    engine.drawing = drawing;
    // Show the starting pose from the CPU copy until the first GPU copy lands.
    drawing.updateFromCpu(new Float32Array(setup.model.restPositions));
    // The depth buffer (and the intersection display behind it) is built when the tint is first switched on.
    drawing.linkGpu({ device, positions: solver!.positionBuffer });
    drawing.setTime(0);
    await engine.refreshLowest();
    return engine;
  }

  private drawing: SceneDrawing | undefined;

  get model(): Model {
    return this.solver.model;
  }

  /**
   * The frame-end intersection pass that fills the depth buffer of the blue tint (off: no cost).
   * Switched on the first time, it builds the display and links its buffer to the drawing; on
   * while paused, it runs once so the tint shows the state on screen.
   */
  set showIntersections(on: boolean) {
    if (on === this.solver.showIntersections) return;
    this.solver.showIntersections = on;
    if (!on || this.disposed) return;
    const depth = this.solver.intersectionDepthBuffer;
    if (!depth) return;
    if (!this.depthLinked) {
      this.depthLinked = true;
      this.drawing?.linkGpu({ device: this.device, positions: this.solver.positionBuffer, depth });
    }
    this.solver.refreshIntersections();
    this.drawing?.setTime(this.solver.time);
  }

  private depthLinked = false;

  /**
   * The overlays' data after the last frame (readbacks, each only when asked for): penetrating
   * points and their shortest paths (from the intersection display, so showIntersections must
   * be on), the last substep's CCD contacts, and the surface BVH's boxes at `bvhLevel` (-1: none).
   */
  async readOverlays(want: { points: boolean; paths: boolean; ccd: boolean; bvhLevel: number }): Promise<OverlayData> {
    const out: OverlayData = {};
    if (want.points || want.paths) {
      const r = await this.solver.readIntersections();
      out.points = r.points;
      const ab = new Float32Array(2 * r.points.length);
      for (let i = 0; i < r.points.length / 3; i++) {
        ab.set(r.points.subarray(3 * i, 3 * i + 3), 6 * i);
        ab.set(r.targets.subarray(3 * i, 3 * i + 3), 6 * i + 3);
      }
      out.paths = ab;
    }
    if (want.ccd) {
      const c = await this.solver.readCcdContacts();
      const ab = new Float32Array(2 * c.points.length);
      for (let i = 0; i < c.points.length / 3; i++) {
        ab.set(c.points.subarray(3 * i, 3 * i + 3), 6 * i);
        ab.set(c.targets.subarray(3 * i, 3 * i + 3), 6 * i + 3);
      }
      out.ccd = ab;
    }
    if (want.bvhLevel >= 0) {
      const b = await this.solver.readBvhLevel(want.bvhLevel);
      const boxes = new Float32Array(2 * b.lo.length);
      for (let i = 0; i < b.lo.length / 3; i++) {
        boxes.set(b.lo.subarray(3 * i, 3 * i + 3), 6 * i);
        boxes.set(b.hi.subarray(3 * i, 3 * i + 3), 6 * i + 3);
      }
      out.boxes = boxes;
      out.bvhLevels = b.levelCount;
    }
    return out;
  }

  /** The solver, for overlays that read its buffers (and the console). */
  get gpuSolver(): GpuSolver {
    return this.solver;
  }

  get params(): SolverParams {
    return { ...this.solver.params, gravity: [...this.solver.params.gravity] };
  }

  get frame(): number {
    return this.completedFrames;
  }

  get time(): number {
    return this.completedTime;
  }

  get submittedFrames(): number {
    return this.solver.frame;
  }

  setParams(params: SolverParams): void {
    checkParams(params);
    this.solver.params = { ...params, gravity: [...params.gravity] };
  }

  setMaterial(object: number, material: Material): void {
    checkMaterial(material);
    setObjectMaterial(this.solver.model, object, material);
    this.solver.refreshMasses();
  }

  async stepFrame(): Promise<FrameReport> {
    const t0 = performance.now();
    const p = this.solver.params;
    const result = await this.solver.stepFrame();
    this.afterSubmit();
    return this.reportOf(result, t0, p);
  }

  get framesInFlightWanted(): number {
    return this.solver.framesInFlightWanted;
  }

  async submitFrame(): Promise<{ done: Promise<FrameReport> }> {
    const t0 = performance.now();
    // The parameters this frame is recorded with (setParams replaces the object).
    const p = this.solver.params;
    const submitted = await this.solver.submitFrame();
    this.afterSubmit();
    const done = submitted.done.then((r) => this.reportOf(r, t0, p));
    done.catch(() => undefined); // the caller handles it; never unhandled before it attaches
    return { done };
  }

  /** The drawing's clock shows the newest submitted state (its copy runs after the frame); the lowest point follows it off the critical path. */
  private afterSubmit(): void {
    this.requestReadback();
    this.drawing?.setTime(this.solver.time);
  }

  private reportOf(result: GpuFrameResult, t0: number, p: Readonly<SolverParams>): FrameReport {
    const now = performance.now();
    const wallMs = now - Math.max(t0, this.lastDone);
    this.lastDone = now;
    // Counted when recorded after the solver's last reset: a frame asked for while reset() waited
    // for the frames in flight runs on the reset state and is frame 0 of it.
    if (result.resets === this.solver.resets) {
      this.completedFrames = result.frame + 1;
      this.completedTime = result.time;
    }
    const counters = {
      dispatches: result.dispatches,
      constraintIterations: result.substeps * p.iterations,
      readbacks: result.collisions?.readbacks ?? 1,
      encodeMs: result.encodeMs,
      blockingReadbacks: result.blockingReadbacks,
      // On impact a frame takes more than p.substeps (impactSubsteps): the page's Table 1 and recordings show it.
      substeps: result.substeps,
      ...(result.closingSpeed !== undefined ? { closingSpeed: result.closingSpeed } : {}),
      collisionRounds: effectiveCollisionRounds(p, this.solver.model.objectNames.length),
      detectionRounds: effectiveDetectionRounds(p, this.solver.model.objectNames.length),
    };
    const common = { wallMs, counters, ...(result.collisions ? { collisions: result.collisions } : {}) };
    if (result.gpuPhaseMs) {
      const phases = { ...result.gpuPhaseMs } as Record<string, number>;
      const totalMs = Object.values(phases).reduce((a, b) => a + b, 0);
      return { totalMs, phases, source: 'gpu-timestamps', ...common };
    }
    return { totalMs: wallMs, phases: { step: wallMs }, source: 'cpu-clock', ...common };
  }

  async reset(): Promise<void> {
    // Frames in flight finish on the old state first (their reports land before the reset).
    await this.solver.drain();
    this.solver.reset();
    this.completedFrames = 0;
    this.completedTime = 0;
    this.lastDone = -Infinity;
    this.drawing?.setTime(0);
    this.reported.fill(0);
    this.pending = [];
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
    // Frames in flight still map their readback buffers: destroy once they landed.
    const destroy = (): void => {
      this.readback.destroy();
      this.solver.destroy();
    };
    if (this.solver.framesInFlight === 0) destroy();
    else void this.solver.drain().then(destroy, destroy);
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
        while (!this.disposed && (this.lowest.frame !== this.solver.frame || this.lowestEpoch !== this.solver.resets)) {
          const epoch = this.solver.resets;
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
    const epoch = this.solver.resets;
    const frame = this.solver.frame;
    this.requestReadback();
    while (!this.disposed && !(this.lowestEpoch === epoch && this.lowest.frame === frame)) {
      if (!this.pumping) this.requestReadback();
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  private take(s: StateSnapshot | undefined, epoch: number): void {
    if (!s || this.disposed || epoch !== this.solver.resets) return;
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
