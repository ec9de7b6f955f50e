/**
 * The CPU reference solver (src/sim/cpuSolver.ts, float64) behind the page's engine
 * interface. Used while no GPU solver is available: its positions live on the CPU, so
 * showing a frame means copying them into the mesh view (MeshView.updatePositions), once per
 * frame. It runs on the main thread, so keep meshes small (a few thousand tets).
 */
import { CpuSolver } from '../sim/cpuSolver';
import type { Material } from '../sim/material';
import { setObjectMaterial } from '../sim/model';
import { checkParams, type SolverParams } from '../sim/params';
import type { SimSetup } from '../sim/setup';
import type { MeshView } from './meshView';
import type { FrameReport, SimulationEngine } from './simulationEngine';

export class CpuEngine implements SimulationEngine {
  readonly kind = 'cpu';
  readonly description = 'CPU reference solver (float64, main thread)';
  private readonly solver: CpuSolver;
  private readonly shown: Float32Array;
  private taken = 0;

  constructor(
    setup: SimSetup,
    private readonly view: MeshView,
  ) {
    if (view.vertexCount !== setup.model.vertexCount) {
      throw new Error(`CpuEngine: the view has ${view.vertexCount} vertices, the model ${setup.model.vertexCount}`);
    }
    this.solver = new CpuSolver(setup);
    this.shown = new Float32Array(3 * setup.model.vertexCount);
    this.show();
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
    setObjectMaterial(this.solver.model, 0, material);
    this.solver.refreshMasses();
  }

  stepFrame(): Promise<FrameReport> {
    const t0 = performance.now();
    this.solver.stepFrame();
    const stepMs = performance.now() - t0;
    this.show();
    return Promise.resolve({ totalMs: stepMs, phases: { step: stepMs }, source: 'cpu-clock' });
  }

  reset(): void {
    this.solver.reset();
    this.taken = 0;
    this.show();
  }

  takeMessages(): string[] {
    const fresh = this.solver.messages.slice(this.taken);
    this.taken = this.solver.messages.length;
    return fresh;
  }

  lowestPoint(): number {
    const x = this.solver.x;
    let min = Infinity;
    for (let i = 1; i < x.length; i += 3) if (x[i]! < min) min = x[i]!;
    return min;
  }

  dispose(): void {
    // Nothing on the GPU; the view belongs to the mesh loader.
  }

  private show(): void {
    const x = this.solver.x;
    for (let i = 0; i < x.length; i++) this.shown[i] = x[i]!;
    this.view.updatePositions(this.shown);
  }
}
