import { acquireGpu, SOLVER_STORAGE_BUFFERS, type GpuContext } from '../../src/gpu/device';

let shared: Promise<GpuContext> | undefined;

/**
 * One device per test process (Dawn is a native singleton). Fails, never skips, when no
 * adapter exists, with the message naming what to install.
 *
 * The device is the smallest the solver supports: SOLVER_STORAGE_BUFFERS (10) storage buffers per
 * kernel, Chrome on Metal's limit, where SwiftShader and most Vulkan drivers offer more. WebGPU
 * validation then rejects any kernel of any test that binds an 11th, and the plans that need the
 * most (the BVH refit inside detection) are the ones tested; with more on offer the solver picks the
 * same plans. One device also means each pipeline compiles once for the whole GPU project (a second
 * device of 10 for one test compiled the collision kernels again: about 20 s on SwiftShader).
 *
 * Without Dawn's robust buffer access (acquireGpu's `robustness`): the kernels check their own
 * indices, and an access out of bounds should fault or show, not be clamped away. On SwiftShader
 * contacts.test.ts and sliverImpact.test.ts took 51 s instead of 62 (skipping WebGPU's validation
 * as well gave 41 s, but the tests rely on validation: framesInFlight, spbBvhRebuild, timeStep).
 */
export function testGpu(): Promise<GpuContext> {
  shared ??= acquireGpu({
    maxStorageBuffersPerShaderStage: SOLVER_STORAGE_BUFFERS,
    robustness: false,
    onLost: (reason) => {
      throw new Error(`GPU device lost during tests: ${reason}`);
    },
  });
  return shared;
}

/** Copies a GPU buffer back to the CPU (tests only: a sync point). */
export async function readBuffer(ctx: GpuContext, buffer: GPUBuffer, byteLength = buffer.size): Promise<ArrayBuffer> {
  const staging = ctx.device.createBuffer({ size: byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = ctx.device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, byteLength);
  ctx.device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const copy = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return copy;
}
