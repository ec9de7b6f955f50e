/**
 * Chooses the solver behind the page's simulation. The one place that knows which engines
 * exist: swapping the CPU reference for the GPU solver is a change here only.
 */
import type { GpuContext } from '../gpu/device';
import type { TetMesh } from '../mesh/types';
import type { Material } from '../sim/material';
import type { SolverParams } from '../sim/params';
import { CpuEngine } from './cpuEngine';
import type { DropPlacement } from './meshDropScene';
import type { MeshView } from './meshView';
import type { SimulationEngine } from './simulationEngine';

export interface EngineRequest {
  name: string;
  mesh: TetMesh;
  view: MeshView;
  material: Material;
  params: SolverParams;
  placement: DropPlacement;
  /** The page's device (shared with three.js), or undefined on the WebGL fallback. */
  gpu: GpuContext | undefined;
}

export function createEngine(request: EngineRequest): Promise<SimulationEngine> {
  // The GPU solver (src/sim, in progress) is not available yet: the CPU reference runs the
  // page's simulation in a worker and the page copies its positions into the view per frame.
  const { name, mesh, view, material, params, placement } = request;
  return CpuEngine.create(
    { name, positions: new Float32Array(mesh.positions), tets: new Uint32Array(mesh.tets), material, params, placement },
    view,
  );
}
