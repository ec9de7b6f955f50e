/**
 * GPU rest-shape kernel: per tet Dm^-1 (3 column vec4s, w = 0) and signed rest volume,
 * from packed xyz positions and 4 vertex ids per tet. CPU reference: restShapeCpu.ts.
 */
import code from '../../shaders/restShape.wgsl?raw';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../gpu/buffers';

export interface RestShapeBuffers {
  /** 3 x vec4<f32> per tet: columns of Dm^-1. */
  dmInv: GPUBuffer;
  /** f32 per tet: det(Dm)/6. */
  volume: GPUBuffer;
}

export class RestShapeKernel {
  private readonly pipeline: GPUComputePipeline;

  constructor(private readonly device: GPUDevice) {
    this.pipeline = device.createComputePipeline({
      label: 'restShape',
      layout: 'auto',
      compute: { module: device.createShaderModule({ label: 'restShape.wgsl', code }), entryPoint: 'main' },
    });
  }

  /**
   * Records the kernel into `encoder`. `positions` holds packed xyz f32 per vertex, `tets`
   * 4 u32 per tet; the outputs are created here and returned (the caller owns them).
   */
  encode(encoder: GPUCommandEncoder, positions: GPUBuffer, tets: GPUBuffer, tetCount: number): RestShapeBuffers {
    const device = this.device;
    const dmInv = storageBuffer(device, 'restShape.dmInv', tetCount * 48);
    const volume = storageBuffer(device, 'restShape.volume', tetCount * 4);
    const params = uniformBuffer(device, 'restShape.params', 16);
    device.queue.writeBuffer(params, 0, new Uint32Array([tetCount, gridRowStride(tetCount), 0, 0]));
    const bindGroup = device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params } },
        { binding: 1, resource: { buffer: positions } },
        { binding: 2, resource: { buffer: tets } },
        { binding: 3, resource: { buffer: dmInv } },
        { binding: 4, resource: { buffer: volume } },
      ],
    });
    const pass = encoder.beginComputePass({ label: 'restShape' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y] = dispatchGrid(tetCount);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    return { dmInv, volume };
  }

  /** Convenience: uploads CPU arrays, runs the kernel and submits. */
  run(positions: Float32Array, tets: Uint32Array): RestShapeBuffers {
    const device = this.device;
    const pos = storageBuffer(device, 'restShape.positions', positions);
    const tet = storageBuffer(device, 'restShape.tets', tets);
    const encoder = device.createCommandEncoder();
    const out = this.encode(encoder, pos, tet, tets.length / 4);
    device.queue.submit([encoder.finish()]);
    pos.destroy();
    tet.destroy();
    return out;
  }
}
