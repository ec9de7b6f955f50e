/**
 * Chooses the solver behind the page's simulation. The one place that knows which engines
 * exist: swapping the CPU reference for the GPU solver is a change here only.
 */
import type { GpuContext } from '../gpu/device';
import type { SimSetup } from '../sim/setup';
import { CpuEngine } from './cpuEngine';
import type { MeshView } from './meshView';
import type { SimulationEngine } from './simulationEngine';

export interface EngineContext {
  /** The page's device (shared with three.js), or undefined on the WebGL fallback. */
  gpu: GpuContext | undefined;
  view: MeshView;
}

export function createEngine(setup: SimSetup, context: EngineContext): SimulationEngine {
  // The GPU solver (src/sim, in progress) is not available yet: the CPU reference runs the
  // page's simulation and copies its positions into the view once per frame.
  return new CpuEngine(setup, context.view);
}
