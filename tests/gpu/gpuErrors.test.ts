import { describe, expect, it } from 'vitest';
import type { GpuStage, PhaseName, SubstepContext } from '../../src/contract/stage';
import { GpuRejectedError } from '../../src/gpu/device';
import { GpuSolver, MAX_FRAMES_IN_FLIGHT } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';
import { makeSetup } from '../unit/sim/support/setups';

/**
 * A kernel that does not compile on the device raises no exception in WebGPU: the command buffer
 * that records it is invalid and the frame's work is dropped (GpuRejectedError). The solver
 * records each frame inside an error scope, so it fails that frame with the device's message
 * instead of reporting a frame that did nothing, and only for its own work: an error raised by
 * other code on the same device (the page's renderer shares it) is not blamed on the solver.
 */

/** A stage whose kernel, built the first time a frame records it (as the solver's are), does not compile. */
class NotCompilingStage implements GpuStage {
  readonly phase: PhaseName = 'contacts';
  private pipeline?: GPUComputePipeline;
  constructor(private readonly device: GPUDevice) {}
  encode(encoder: GPUCommandEncoder, _state: unknown, step: SubstepContext): void {
    this.pipeline ??= this.device.createComputePipeline({
      layout: 'auto',
      compute: { module: this.device.createShaderModule({ label: 'test.notCompiling', code: '@compute @workgroup_size(1) fn main() { let x = undeclaredName; }' }), entryPoint: 'main' },
    });
    const pass = step.beginPass(encoder, this.phase, 'test.notCompiling');
    pass.setPipeline(this.pipeline);
    pass.dispatchWorkgroups(1);
    step.countDispatches(1);
    pass.end();
  }
}

describe('errors the device raises', () => {
  it('a kernel of the frame that does not compile fails that frame with the device\'s message; an error of other code does not', async () => {
    const ctx = await testGpu();
    const setup = makeSetup([{ ...loadSharedTetArrays('Cube.t') }], { substeps: 2, iterations: 1 });
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    const stage = new NotCompilingStage(ctx.device);
    try {
      await solver.stepFrame();
      solver.timeStep.insertBefore('finalize', stage);
      const failed = solver.stepFrame();
      await expect(failed).rejects.toThrow(/WebGPU rejected frame 1 of the solver.*undeclaredName/s);
      await expect(failed).rejects.toBeInstanceOf(GpuRejectedError);
      solver.timeStep.remove(stage);
      // Other code's error on the same device, between frames: not the solver's.
      ctx.device.createShaderModule({ label: 'test.elsewhere', code: 'fn f() { let y = alsoUndeclared; }' });
      // The frames after it run, the failed frame's readback slot included: the cube falls.
      for (let f = 0; f <= MAX_FRAMES_IN_FLIGHT; f++) {
        const y0 = (await solver.readPositions())[1];
        await solver.stepFrame();
        expect((await solver.readPositions())[1], `frame ${2 + f}`).toBeLessThan(y0);
      }
    } finally {
      solver.destroy();
    }
  });
});
