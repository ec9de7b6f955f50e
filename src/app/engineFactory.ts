/**
 * Chooses the solver behind the page's simulation. The one place that knows which engines
 * exist: the GPU solver on the page's device when three.js draws with WebGPU, otherwise (or
 * when the GPU solver cannot be built on this adapter) the CPU reference in a worker.
 */
import type { GpuContext } from '../gpu/device';
import type { TetMesh } from '../mesh/types';
import type { Material } from '../sim/material';
import type { SolverParams } from '../sim/params';
import { CpuEngine } from './cpuEngine';
import { GpuEngine } from './gpuEngine';
import { GpuPositionLink } from './gpuPositionLink';
import { meshDropScene, type DropPlacement } from '../scenes/meshDrop';
import type { MeshView } from './meshView';
import type { Viewer } from './renderer';
import type { SimulationEngine } from './simulationEngine';

export type EngineChoice = 'auto' | 'gpu' | 'cpu';

export interface EngineRequest {
  name: string;
  mesh: TetMesh;
  view: MeshView;
  material: Material;
  params: SolverParams;
  placement: DropPlacement;
  /** The page's device (shared with three.js), or undefined on the WebGL fallback. */
  gpu: GpuContext | undefined;
  viewer: Viewer;
  choice: EngineChoice;
}

function cpuEngine(r: EngineRequest): Promise<SimulationEngine> {
  return CpuEngine.create(
    {
      name: r.name,
      positions: new Float32Array(r.mesh.positions),
      tets: new Uint32Array(r.mesh.tets),
      material: r.material,
      params: r.params,
      placement: r.placement,
    },
    r.view,
  );
}

async function gpuEngine(r: EngineRequest, gpu: GpuContext): Promise<SimulationEngine> {
  const scene = meshDropScene(r.name, r.mesh, r.material, r.params, r.placement);
  return GpuEngine.create(gpu, scene.setup, r.view, (source) => {
    // Drawing reads the solver's buffer on the shared device: one GPU-side copy per frame.
    const link = new GpuPositionLink(r.viewer.renderer, gpu.device, r.view, source);
    r.viewer.onBeforeRender = () => link.sync();
    return link;
  });
}

export async function createEngine(request: EngineRequest): Promise<SimulationEngine> {
  const { gpu, viewer, choice } = request;
  const gpuDraws = gpu !== undefined && viewer.backend === 'webgpu';
  if (choice === 'cpu' || (choice === 'auto' && !gpuDraws)) return cpuEngine(request);
  if (!gpuDraws) throw new Error('the GPU solver needs WebGPU, and this page draws with the WebGL fallback');
  try {
    return await gpuEngine(request, gpu);
  } catch (error) {
    if (choice === 'gpu') throw error;
    console.warn('The GPU solver could not be built; the CPU reference solver runs instead.', error);
    return cpuEngine(request);
  }
}
