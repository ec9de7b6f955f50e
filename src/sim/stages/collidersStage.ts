/**
 * The colliders' projection (planes and boxes with Coulomb friction, colliders.ts), recorded
 * into the material pass after each iteration's material constraints: it is part of the
 * material phase, not a stage of its own in the time step's list. Kernel: collide in
 * shaders/xpbdIntegrate.wgsl (friction budget in velocities.w, set to 0 by predict).
 */
import { dispatchGrid } from '../../gpu/buffers';
import type { XpbdKernels } from '../gpuKernels';
import type { SubstepContext } from '../../contract/stage';
import type { XpbdFrame } from './xpbdFrame';

export class CollidersStage {
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

  /** False without colliders. */
  active(): boolean {
    return this.frame.colliderCount > 0;
  }

  /** Records one projection of every vertex out of every collider into `pass`. */
  encodeInPass(pass: GPUComputePassEncoder, step: SubstepContext): void {
    pass.setPipeline(this.kernels.collide);
    pass.setBindGroup(0, this.frame.integrateGroup);
    this.slot[0] = step.slotOffset;
    pass.setBindGroup(1, this.frame.slotGroup, this.slot, 0, 1);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    step.countDispatches(1);
  }
}
