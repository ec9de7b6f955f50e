/**
 * VertexNormalsKernel: area-weighted vertex normals of a scene's boundary surface on the GPU,
 * from the current positions (the solver's array<vec4f> buffer, shaders/lib/positions.wgsl),
 * with no readback (shaders/vertexNormals.wgsl).
 *
 *   const kernel = new VertexNormalsKernel(device, surface);   // topology uploaded once
 *   kernel.encode(encoder, positions);                         // one compute pass per frame
 *   encoder.copyBufferToBuffer(kernel.normals, 12 * v0, target, 0, 12 * count);
 *
 * `normals` holds 3 floats per scene vertex (a packed vec3 vertex attribute, copied per object
 * into three's normal buffers by SceneView); interior vertices stay 0. The bind group is
 * built once per positions buffer.
 */
import code from '../../../shaders/vertexNormals.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import type { SceneSurface } from './sceneSurface';

export class VertexNormalsKernel {
  /** 3 f32 per scene vertex (COPY_SRC): the unit normals after encode(). */
  readonly normals: GPUBuffer;
  private readonly table;
  private readonly pipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  private readonly topology: { triangles: GPUBuffer; boundaryVertices: GPUBuffer; vertexTriangleOffsets: GPUBuffer; vertexTriangles: GPUBuffer };
  private readonly boundaryVertexCount: number;
  private group?: { positions: GPUBuffer; bindGroup: GPUBindGroup };

  constructor(
    device: GPUDevice,
    private readonly surface: SceneSurface,
  ) {
    this.table = new BindingTable(device, 'vertexNormals', {
      params: 'uniform',
      positions: 'read-only-storage',
      triangles: 'read-only-storage',
      boundaryVertices: 'read-only-storage',
      vertexTriangleOffsets: 'read-only-storage',
      vertexTriangles: 'read-only-storage',
      normals: 'storage',
    });
    const label = 'vertexNormals';
    this.pipeline = device.createComputePipeline({
      label,
      layout: device.createPipelineLayout({ label, bindGroupLayouts: [this.table.layout] }),
      compute: { module: device.createShaderModule({ label, code: withIncludes(code, label) }), entryPoint: 'vertexNormals' },
    });
    this.boundaryVertexCount = surface.boundaryVertices.length;
    this.topology = {
      triangles: storageBuffer(device, 'vertexNormals.triangles', surface.triangles),
      boundaryVertices: storageBuffer(device, 'vertexNormals.boundaryVertices', surface.boundaryVertices),
      vertexTriangleOffsets: storageBuffer(device, 'vertexNormals.vertexTriangleOffsets', surface.vertexTriangleOffsets),
      vertexTriangles: storageBuffer(device, 'vertexNormals.vertexTriangles', surface.vertexTriangles),
    };
    this.normals = storageBuffer(device, 'vertexNormals.normals', 12 * surface.vertexCount);
    this.uniforms = uniformBuffer(device, 'vertexNormals.params', 16);
    device.queue.writeBuffer(this.uniforms, 0, new Uint32Array([this.boundaryVertexCount, gridRowStride(this.boundaryVertexCount), 0, 0]));
  }

  private bindGroup(positions: GPUBuffer): GPUBindGroup {
    if (this.group?.positions === positions) return this.group.bindGroup;
    if (positions.size < 16 * this.surface.vertexCount) {
      throw new Error(`VertexNormalsKernel: positions buffer "${positions.label}" has ${positions.size} bytes, ${this.surface.vertexCount} vertices need ${16 * this.surface.vertexCount} (vec4 each)`);
    }
    if ((positions.usage & GPUBufferUsage.STORAGE) === 0) {
      throw new Error(`VertexNormalsKernel: positions buffer "${positions.label}" lacks GPUBufferUsage.STORAGE`);
    }
    const bindGroup = this.table.group({ params: this.uniforms, positions, normals: this.normals, ...this.topology });
    this.group = { positions, bindGroup };
    return bindGroup;
  }

  /** Records the normals pass over `positions` (vec4 per scene vertex) into `encoder`. */
  encode(encoder: GPUCommandEncoder, positions: GPUBuffer): void {
    const bindGroup = this.bindGroup(positions);
    if (this.boundaryVertexCount === 0) return;
    const pass = encoder.beginComputePass({ label: 'vertexNormals' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y] = dispatchGrid(this.boundaryVertexCount);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  destroy(): void {
    this.normals.destroy();
    this.uniforms.destroy();
    for (const b of Object.values(this.topology)) b.destroy();
  }
}
