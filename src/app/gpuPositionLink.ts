/**
 * Draws positions that live in a GPUBuffer (the simulation's) without a CPU round trip:
 * before each frame, one copyBufferToBuffer on the shared device moves them into the vertex
 * buffer three.js draws from. Works only with the WebGPU backend on the simulation's device.
 */
import type { WebGPURenderer } from 'three/webgpu';
import type { MeshView } from './meshView';

export interface GpuPositionSource {
  /** Needs GPUBufferUsage.COPY_SRC. Vertex v at byteOffset + 4 * stride * v, xyz first. */
  buffer: GPUBuffer;
  /** Floats per vertex: 3 (packed xyz) or 4 (array<vec4f>). */
  stride: 3 | 4;
  byteOffset?: number;
}

/** three's per-object backend data; the vertex buffer appears there after the first draw. */
interface BackendData {
  get(object: object): { buffer?: GPUBuffer };
}

export class GpuPositionLink {
  private readonly byteLength: number;
  private readonly byteOffset: number;
  /** Frames whose positions came from the GPU buffer (0 until three created its buffer). */
  copies = 0;

  constructor(
    private readonly renderer: WebGPURenderer,
    private readonly device: GPUDevice,
    private readonly view: MeshView,
    private readonly source: GpuPositionSource,
  ) {
    if (!(renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend) {
      throw new Error('GpuPositionLink needs the WebGPU backend (the WebGL fallback cannot read a GPUBuffer)');
    }
    if ((source.buffer.usage & GPUBufferUsage.COPY_SRC) === 0) {
      throw new Error(`GpuPositionLink: buffer "${source.buffer.label}" lacks GPUBufferUsage.COPY_SRC`);
    }
    this.byteOffset = source.byteOffset ?? 0;
    if (this.byteOffset % 4 !== 0) throw new Error(`GpuPositionLink: byteOffset ${this.byteOffset} is not a multiple of 4`);
    this.byteLength = view.vertexCount * source.stride * 4;
    if (this.byteOffset + this.byteLength > source.buffer.size) {
      throw new Error(
        `GpuPositionLink: buffer "${source.buffer.label}" has ${source.buffer.size} bytes, ` +
          `${view.vertexCount} vertices x ${source.stride} floats from byte ${this.byteOffset} need ${this.byteOffset + this.byteLength}`,
      );
    }
    view.setPositionStride(source.stride);
    view.useGpuPositions();
  }

  /** Enqueues the copy for the coming frame; call just before renderer.render(). */
  sync(): void {
    const backend = this.renderer.backend as unknown as BackendData;
    const target = backend.get(this.view.positionAttribute).buffer;
    if (!target) return; // three uploads the CPU copy on the first draw; copy from the next frame on
    const encoder = this.device.createCommandEncoder({ label: 'positions to vertex buffer' });
    encoder.copyBufferToBuffer(this.source.buffer, this.byteOffset, target, 0, this.byteLength);
    this.device.queue.submit([encoder.finish()]);
    this.copies += 1;
  }
}
