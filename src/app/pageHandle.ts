/**
 * `window.softBodyPage`: the page's parts for the browser console, the end-to-end tests and
 * the simulation wiring. Drawing from a GPU buffer goes through showGpuPositions().
 */
import type { GpuContext } from '../gpu/device';
import { GpuPositionLink, type GpuPositionSource } from './gpuPositionLink';
import type { MeshLoader } from './meshLoader';
import type { PageDrawing } from './sceneDrawingFactory';
import type { Viewer } from './renderer';
import type { SimulationController } from './simulationController';

export interface SoftBodyPage {
  readonly gpu: GpuContext | undefined;
  readonly viewer: Viewer;
  readonly loader: MeshLoader;
  /** Run/pause/step/reset and parameters of the object's simulation. */
  readonly simulation: SimulationController;
  /** The drawing of the simulated scene (one mesh per object), once one is built. */
  readonly drawing: PageDrawing | undefined;
  /** Draws the mesh on screen from `source` every frame, until another mesh is shown. */
  showGpuPositions(source: GpuPositionSource): GpuPositionLink;
}

declare global {
  interface Window {
    softBodyPage?: SoftBodyPage;
  }
}

export function createPageHandle(
  gpu: GpuContext | undefined,
  viewer: Viewer,
  loader: MeshLoader,
  simulation: SimulationController,
  drawing: () => PageDrawing | undefined = () => undefined,
): SoftBodyPage {
  return {
    gpu,
    viewer,
    loader,
    simulation,
    get drawing() {
      return drawing();
    },
    showGpuPositions(source) {
      const view = loader.currentView;
      if (!gpu) throw new Error('showGpuPositions: no WebGPU device (the page is drawing with the WebGL fallback)');
      if (!view) throw new Error('showGpuPositions: no mesh on screen yet');
      const link = new GpuPositionLink(viewer.renderer, gpu.device, view, source);
      viewer.onBeforeRender = () => link.sync();
      viewer.requestRender();
      return link;
    },
  };
}
