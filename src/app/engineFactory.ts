/**
 * Chooses the solver behind the page's simulation. The one place that knows which engines
 * exist: the GPU solver on the page's device when three.js draws with WebGPU, otherwise (or
 * when the GPU solver cannot be built on this adapter) the CPU reference in a worker.
 */
import type { GpuContext } from '../gpu/device';
import { CpuEngine } from './cpuEngine';
import { GpuEngine } from './gpuEngine';
import type { EngineChoice } from './config/pageConfig';
import type { PageScene, PageSceneSource, SceneOverrides } from './scene/pageScene';
import type { SceneDrawing } from './scene/sceneDrawing';
import type { Viewer } from './renderer';
import type { SimulationEngine } from './simulationEngine';

export type { EngineChoice } from './config/pageConfig';

export interface EngineRequest {
  /** What was built, so the CPU worker can build the same. */
  source: PageSceneSource;
  overrides: SceneOverrides;
  /** The page's build of it (the GPU engine simulates this one; the CPU engine's drawing uses its model). */
  scene: PageScene;
  drawing: SceneDrawing;
  /** The page's device (shared with three.js), or undefined on the WebGL fallback. */
  gpu: GpuContext | undefined;
  viewer: Viewer;
  choice: EngineChoice;
}

function cpuEngine(r: EngineRequest): Promise<SimulationEngine> {
  return CpuEngine.create({ source: r.source, overrides: r.overrides }, r.scene.setup.model, r.scene.setup.params, r.drawing);
}

/** True when the GPU solver can run on this page (WebGPU device shared with the renderer). */
export function gpuSolverAvailable(gpu: GpuContext | undefined, viewer: Viewer): gpu is GpuContext {
  return gpu !== undefined && viewer.backend === 'webgpu';
}

export async function createEngine(request: EngineRequest): Promise<SimulationEngine> {
  const { gpu, viewer, choice } = request;
  const gpuDraws = gpuSolverAvailable(gpu, viewer);
  if (choice === 'cpu' || (choice === 'auto' && !gpuDraws)) return cpuEngine(request);
  if (!gpuDraws) throw new Error('the GPU solver needs WebGPU, and this page draws with the WebGL fallback');
  try {
    return await GpuEngine.create(gpu, request.scene.setup, request.drawing);
  } catch (error) {
    if (choice === 'gpu') throw error;
    console.warn('The GPU solver could not be built; the CPU reference solver runs instead.', error);
    return cpuEngine(request);
  }
}
