/**
 * The CPU reference solver (src/sim/cpuSolver.ts, float64) behind the page's engine
 * interface, running in its own worker (cpuSolverWorker.ts). Used while no GPU solver is
 * available: its positions live on the CPU, so showing a frame means copying them into the
 * scene's drawing (SceneDrawing.updateFromCpu), once per frame. The worker builds the same scene
 * as the page (buildPageScene); the page keeps its own copy of the model for drawing.
 */
import * as Comlink from 'comlink';
import type { Material } from '../sim/material';
import type { Model } from '../sim/model';
import { checkParams, effectiveCollisionRounds, effectiveDetectionRounds, type SolverParams } from '../contract/params';
import type { CpuFrameResult, CpuSceneRequest, CpuSolverWorkerApi } from './cpuSolverWorkerApi';
import type { SceneDrawing } from './scene/sceneDrawing';
import { checkMaterial, type FrameReport, type LowestPoint, type SimulationEngine } from './simulationEngine';

export class CpuEngine implements SimulationEngine {
  readonly kind = 'cpu';
  readonly description = 'CPU reference solver (float64, in a worker; collisions by DCD + shortest path: CCD and the hybrid run in the WebGPU solver)';
  private paramsValue: SolverParams;
  private frameValue = 0;
  private timeValue = 0;
  private minY = NaN;
  private pending: string[] = [];
  private disposed = false;
  /** Never called: every state arrives with the frame that made it. */
  onLowestPoint: (() => void) | undefined;
  /** Rejects every call in flight once the worker dies or is disposed (comlink would wait forever). */
  private readonly ended: Promise<never>;
  private end: (reason: Error) => void = () => {};

  private constructor(
    private readonly worker: Worker,
    private readonly remote: Comlink.Remote<CpuSolverWorkerApi>,
    private readonly drawing: SceneDrawing,
    readonly model: Model,
    params: SolverParams,
  ) {
    this.paramsValue = { ...params, gravity: [...params.gravity] };
    this.ended = new Promise<never>((_, reject) => (this.end = reject));
    this.ended.catch(() => {}); // observed by the calls that race it
    worker.addEventListener('error', (event) => {
      const detail = event instanceof ErrorEvent && event.message ? event.message : 'the worker script failed to load or crashed';
      this.end(new Error(`The CPU solver worker stopped: ${detail}`));
    });
  }

  /**
   * Starts the worker and builds the scene there (model, colouring, solver). `model` and
   * `params` are the page's copy of the same scene (buildPageScene of the same request).
   */
  static async create(request: CpuSceneRequest, model: Model, params: SolverParams, drawing: SceneDrawing): Promise<CpuEngine> {
    checkParams(params);
    for (const m of model.materials) checkMaterial(m);
    const worker = new Worker(new URL('./cpuSolverWorker.ts', import.meta.url), { type: 'module', name: 'cpu-solver' });
    const engine = new CpuEngine(worker, Comlink.wrap<CpuSolverWorkerApi>(worker), drawing, model, params);
    try {
      engine.show(await engine.call(engine.remote.init(request)));
    } catch (error) {
      engine.dispose();
      throw error;
    }
    return engine;
  }

  get params(): SolverParams {
    return { ...this.paramsValue, gravity: [...this.paramsValue.gravity] };
  }

  get frame(): number {
    return this.frameValue;
  }

  get time(): number {
    return this.timeValue;
  }

  setParams(params: SolverParams): void {
    checkParams(params);
    this.paramsValue = { ...params, gravity: [...params.gravity] };
  }

  setMaterial(object: number, material: Material): void {
    checkMaterial(material);
    this.model.materials[object] = { ...material };
    // Calls reach the worker in order, so the next step already uses the new material.
    void this.call(this.remote.setMaterial(object, material)).catch(() => {});
  }

  async stepFrame(): Promise<FrameReport> {
    const start = performance.now();
    const result = await this.call(this.remote.step(this.paramsValue));
    const t0 = performance.now();
    this.show(result);
    const end = performance.now();
    const showMs = end - t0;
    const p = this.paramsValue;
    return {
      totalMs: result.solveMs + showMs,
      phases: { solve: result.solveMs, show: showMs },
      source: 'cpu-clock',
      wallMs: end - start,
      counters: {
        dispatches: 0, constraintIterations: result.substeps * p.iterations, readbacks: 0,
        substeps: result.substeps, ...(result.closingSpeed !== undefined ? { closingSpeed: result.closingSpeed } : {}),
        collisionRounds: effectiveCollisionRounds(p, this.model.objectNames.length),
        detectionRounds: effectiveDetectionRounds(p, this.model.objectNames.length),
      },
      ...(result.collisions ? { collisions: result.collisions } : {}),
    };
  }

  async reset(): Promise<void> {
    this.pending = [];
    this.show(await this.call(this.remote.reset()));
  }

  takeMessages(): string[] {
    const fresh = this.pending;
    this.pending = [];
    return fresh;
  }

  lowestPoint(): LowestPoint {
    return { y: this.minY, frame: this.frameValue };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.end(new Error('CpuEngine: disposed (the object was replaced)'));
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
  }

  private call<T>(promise: Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('CpuEngine: used after dispose()'));
    return Promise.race([promise, this.ended]);
  }

  private show(result: CpuFrameResult): void {
    if (this.disposed) return;
    this.frameValue = result.frame;
    this.timeValue = result.time;
    this.minY = result.minY;
    this.pending.push(...result.messages);
    this.drawing.updateFromCpu(result.positions);
    this.drawing.setTime(result.time);
  }
}
