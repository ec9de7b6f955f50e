import { acquireGpu, type GpuContext } from '../../src/gpu/device';

let shared: Promise<GpuContext> | undefined;

/**
 * One device per test process (Dawn is a native singleton). Fails, never skips, when no
 * adapter exists, with the message naming what to install.
 */
export function testGpu(): Promise<GpuContext> {
  shared ??= acquireGpu({
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
