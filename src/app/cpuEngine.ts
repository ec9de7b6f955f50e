/**
 * The CPU reference solver (src/sim/cpuSolver.ts, float64) behind the page's engine
 * interface, running in its own worker (cpuSolverWorker.ts). Used while no GPU solver is
 * available: its positions live on the CPU, so showing a frame means copying them into the
 * mesh view (MeshView.updatePositions), once per frame.
 */
import * as Comlink from 'comlink';
import type { Material } from '../sim/material';
import { checkParams, type SolverParams } from '../sim/params';
import type { CpuFrameResult, CpuSceneRequest, CpuSolverWorkerApi } from './cpuSolverWorkerApi';
import type { MeshView } from './meshView';
import { checkMaterial, type FrameReport, type LowestPoint, type SimulationEngine } from './simulationEngine';

export class CpuEngine implements SimulationEngine {
  readonly kind = 'cpu';
  readonly description = 'CPU reference solver (float64, in a worker; collisions by DCD + shortest path: CCD and the hybrid run in the WebGPU solver)';
  private paramsValue: SolverParams;
  private frameValue = 0;
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
    private readonly view: MeshView,
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

  /** Starts the worker and builds the scene there (model, colouring, solver). */
  static async create(request: CpuSceneRequest, view: MeshView): Promise<CpuEngine> {
    if (view.vertexCount * 3 !== request.positions.length) {
      throw new Error(`CpuEngine: the view has ${view.vertexCount} vertices, the mesh ${request.positions.length / 3}`);
    }
    checkParams(request.params);
    checkMaterial(request.material);
    const worker = new Worker(new URL('./cpuSolverWorker.ts', import.meta.url), { type: 'module', name: 'cpu-solver' });
    const engine = new CpuEngine(worker, Comlink.wrap<CpuSolverWorkerApi>(worker), view, request.params);
    try {
      const transfer = [request.positions.buffer, request.tets.buffer] as ArrayBuffer[];
      engine.show(await engine.call(engine.remote.init(Comlink.transfer(request, transfer))));
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

  setParams(params: SolverParams): void {
    checkParams(params);
    this.paramsValue = { ...params, gravity: [...params.gravity] };
  }

  setMaterial(material: Material): void {
    checkMaterial(material);
    // Calls reach the worker in order, so the next step already uses the new material.
    void this.call(this.remote.setMaterial(material)).catch(() => {});
  }

  async stepFrame(): Promise<FrameReport> {
    const start = performance.now();
    const result = await this.call(this.remote.step(this.paramsValue));
    const t0 = performance.now();
    this.show(result);
    const end = performance.now();
    const showMs = end - t0;
    return { totalMs: result.solveMs + showMs, phases: { solve: result.solveMs, show: showMs }, source: 'cpu-clock', wallMs: end - start };
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
    this.minY = result.minY;
    this.pending.push(...result.messages);
    this.view.updatePositions(result.positions);
  }
}
