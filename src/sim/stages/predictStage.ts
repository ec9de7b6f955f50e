/**
 * Predict (DESIGN.md "One time step", XPBD Alg. 1 lines 3-4): per vertex, keep the substep's
 * start in state.prev, move handles to their scripted pose and free vertices by v += h g,
 * x += h v. Frozen (stopped) objects stay where they were last finite. Kernel: predict in
 * shaders/xpbdIntegrate.wgsl; CPU reference: cpuSolver.ts.
 */
import { dispatchGrid } from '../../gpu/buffers';
import type { XpbdKernels } from '../gpuKernels';
import type { GpuStage, PhaseName, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { XpbdFrame } from './xpbdFrame';

export class PredictStage implements GpuStage {
  readonly phase: PhaseName = 'predict';
  private readonly grid: [number, number];
  /** The substep's dynamic offset, reused (recording allocates nothing per substep). */
  private readonly slot = new Uint32Array(1);

  constructor(
    private readonly kernels: XpbdKernels,
    private readonly frame: XpbdFrame,
    vertexCount: number,
  ) {
    this.grid = dispatchGrid(vertexCount);
  }

  encode(encoder: GPUCommandEncoder, _state: GpuState, step: SubstepContext): void {
    // The integrate group binds the state's buffers (XpbdFrame).
    const pass = step.beginPass(encoder, 'predict');
    pass.setPipeline(this.kernels.predict);
    pass.setBindGroup(0, this.frame.integrateGroup);
    this.slot[0] = step.slotOffset;
    pass.setBindGroup(1, this.frame.slotGroup, this.slot, 0, 1);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    step.countDispatches(1);
    pass.end();
  }
}
