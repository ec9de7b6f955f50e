/** Small helpers for creating GPU buffers from typed arrays and for sizing dispatches. */

/** Storage buffer initialised from `data` (size rounded up to 4 bytes; at least 16 bytes so empty arrays still bind). */
export function storageBuffer(
  device: GPUDevice,
  label: string,
  data: ArrayBufferView | number,
  extraUsage: number = 0,
): GPUBuffer {
  const byteLength = typeof data === 'number' ? data : data.byteLength;
  const size = Math.max(16, Math.ceil(byteLength / 4) * 4);
  const buffer = device.createBuffer({
    label,
    size,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | extraUsage,
  });
  if (typeof data !== 'number' && data.byteLength > 0) {
    if (data.byteLength % 4 === 0) device.queue.writeBuffer(buffer, 0, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    else {
      // writeBuffer needs a multiple of 4 bytes.
      const padded = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
      padded.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      device.queue.writeBuffer(buffer, 0, padded);
    }
  }
  return buffer;
}

/** Uniform buffer of `size` bytes (rounded up to 16), writable from the queue. */
export function uniformBuffer(device: GPUDevice, label: string, size: number): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(16, Math.ceil(size / 16) * 16), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
}

/** Invocations per workgroup used by every 1D kernel of the simulator (SwiftShader allows 256). */
export const WORKGROUP_SIZE = 64;

/**
 * Workgroup grid for `count` invocations. Large counts spill into y because one dimension is
 * limited to 65,535 workgroups; kernels rebuild the linear id as gid.x + gid.y * rowStride with
 * rowStride = grid[0] * WORKGROUP_SIZE passed in their uniforms. (Not the num_workgroups builtin:
 * with Dawn (webgpu 0.6.2) on SwiftShader a kernel reading it crashed the process at random.)
 */
export function dispatchGrid(count: number, maxPerDimension = 65535): [number, number] {
  const groups = Math.max(1, Math.ceil(count / WORKGROUP_SIZE));
  if (groups <= maxPerDimension) return [groups, 1];
  const y = Math.ceil(groups / maxPerDimension);
  return [Math.ceil(groups / y), y];
}

/** Invocations per row of a dispatchGrid(count) grid: the rowStride kernels need. */
export function gridRowStride(count: number): number {
  return dispatchGrid(count)[0] * WORKGROUP_SIZE;
}

/** xyz (3 per vertex) and a w per vertex -> vec4 per vertex, f32: the one GPU position layout. */
export function packVec4(src: ArrayLike<number>, n: number, w: (i: number) => number = () => 0): Float32Array<ArrayBuffer> {
  const out = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    out[4 * i] = src[3 * i];
    out[4 * i + 1] = src[3 * i + 1];
    out[4 * i + 2] = src[3 * i + 2];
    out[4 * i + 3] = w(i);
  }
  return out;
}

/** vec4 per vertex -> xyz per vertex. */
export function dropW(v: Float32Array): Float32Array<ArrayBuffer> {
  const n = v.length / 4;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[3 * i] = v[4 * i];
    out[3 * i + 1] = v[4 * i + 1];
    out[3 * i + 2] = v[4 * i + 2];
  }
  return out;
}

/** Copies the first `bytes` of `buffer` to the CPU through a staging buffer: a sync point, count it. */
export async function readBufferToCpu(device: GPUDevice, buffer: GPUBuffer, bytes: number = buffer.size, label = 'readback'): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 4) * 4), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder({ label });
  if (bytes > 0) encoder.copyBufferToBuffer(buffer, 0, staging, 0, Math.ceil(bytes / 4) * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const copy = staging.getMappedRange().slice(0, bytes);
  staging.unmap();
  staging.destroy();
  return copy;
}

/**
 * The most bytes of one buffer bound whole as a storage binding: WebGPU refuses a buffer over
 * `maxBufferSize` and a binding over `maxStorageBufferBindingSize` (128 MiB in a browser unless the
 * adapter offers more). Buffers that grow with a frame's counts stay within it, and what does not
 * fit is dropped and counted, so that a large frame never has WebGPU refuse the whole frame.
 */
export function storageBufferLimit(limits: Pick<GPUSupportedLimits, 'maxBufferSize' | 'maxStorageBufferBindingSize'>): number {
  return Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize);
}

/** The smallest power of two at least n (1 when n <= 1): the sizes buffers grow to. */
export function powerOfTwoAtLeast(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}

/** The largest power of two at most n (0 when n < 1). */
export function powerOfTwoAtMost(n: number): number {
  return n >= 1 ? 2 ** Math.floor(Math.log2(n)) : 0;
}
