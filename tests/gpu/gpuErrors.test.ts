import { describe, expect, it } from 'vitest';
import { GpuRejectedError } from '../../src/gpu/errorLog';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';
import { makeSetup } from '../unit/sim/support/setups';

/**
 * A WebGPU error the device raises outside an error scope (a kernel that does not compile on it,
 * a limit exceeded) drops the work of every command buffer it invalidates without an exception
 * (src/gpu/errorLog.ts). The solver fails the frame that follows it with the device's message
 * instead of reporting frames that did nothing; the frames after it run.
 */
describe('errors the device raises', () => {
  it('fail the next frame with the device\'s message, and the frames after it run', async () => {
    const ctx = await testGpu();
    const setup = makeSetup([{ ...loadSharedTetArrays('Cube.t') }], { substeps: 2, iterations: 1 });
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    try {
      await solver.stepFrame();
      // An error the way a kernel that does not compile on this device raises it.
      ctx.device.createShaderModule({ label: 'notCompiling', code: '@compute @workgroup_size(1) fn main() { let x = undeclaredName; }' });
      const failed = solver.stepFrame();
      await expect(failed).rejects.toThrow(/WebGPU rejected the solver's work by frame 1.*undeclaredName/s);
      await expect(failed).rejects.toBeInstanceOf(GpuRejectedError);
      const y0 = (await solver.readPositions())[1];
      await solver.stepFrame();
      // Frame 2 ran: the cube fell under gravity.
      expect((await solver.readPositions())[1]).toBeLessThan(y0);
    } finally {
      solver.destroy();
    }
  });
});
