/**
 * Far-side contacts on the GPU (SolverParams.farSideContacts 'drop'; shaders/contactsFarSide.wgsl,
 * CPU twin src/collision/cpu/farSideContacts.ts): encoded by the contacts stage right after its
 * build dispatch, before the passes, in the same compute pass: clear the per-vertex words, the
 * shallowest corner contact's depth, its normal, then the drop (4 dispatches a build). Owns the
 * per-vertex words (FAR_SIDE_WORDS u32 each).
 */
import farSideCode from '../../../shaders/contactsFarSide.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';

/** Words per vertex (contactsFarSide.wgsl FAR_SIDE_WORDS): ~key of the shallowest corner contact, its normal. */
export const FAR_SIDE_WORDS = 4;

/** What the kernels read and write: the contacts stage's uniforms, positions, query list and records. */
export interface FarSideBuffers {
  params: GPUBuffer;
  positions: GPUBuffer;
  list: GPUBuffer;
  contacts: GPUBuffer;
}

export class FarSideContacts {
  private readonly table;
  private readonly words: GPUBuffer;
  declare private readonly clearPipeline: GPUComputePipeline;
  declare private readonly depthsPipeline: GPUComputePipeline;
  declare private readonly normalsPipeline: GPUComputePipeline;
  declare private readonly dropPipeline: GPUComputePipeline;
  private cached?: { buffers: FarSideBuffers; group: GPUBindGroup };

  constructor(
    device: GPUDevice,
    private readonly vertexCount: number,
  ) {
    this.table = new BindingTable(device, 'contacts.farSide', {
      params: 'uniform', positions: 'read-only-storage', list: 'storage', contacts: 'storage', farSide: 'storage',
    });
    definePipelines(this, {
      clearPipeline: () => wgslPipeline(device, 'contacts.farSide.clear', farSideCode, 'clearFarSide', [this.table.layout]),
      depthsPipeline: () => wgslPipeline(device, 'contacts.farSide.depths', farSideCode, 'farSideDepths', [this.table.layout]),
      normalsPipeline: () => wgslPipeline(device, 'contacts.farSide.normals', farSideCode, 'farSideNormals', [this.table.layout]),
      dropPipeline: () => wgslPipeline(device, 'contacts.farSide.drop', farSideCode, 'dropFarSide', [this.table.layout]),
    });
    this.words = device.createBuffer({ label: 'contacts.farSide.words', size: Math.max(16, 4 * FAR_SIDE_WORDS * vertexCount), usage: GPUBufferUsage.STORAGE });
  }

  private group(b: FarSideBuffers): GPUBindGroup {
    const c = this.cached;
    if (c && c.buffers.params === b.params && c.buffers.positions === b.positions && c.buffers.list === b.list && c.buffers.contacts === b.contacts) return c.group;
    const group = this.table.group({ ...b, farSide: this.words });
    this.cached = { buffers: { ...b }, group };
    return group;
  }

  /**
   * The four dispatches over a build of `capacity` records (threads past the list's count return),
   * into `pass` after the build's dispatch. Returns the dispatches (4).
   */
  encode(pass: GPUComputePassEncoder, buffers: FarSideBuffers, capacity: number): number {
    const group = this.group(buffers);
    const [vx, vy] = dispatchGrid(this.vertexCount);
    const records = Math.ceil(capacity / 64);
    pass.setBindGroup(0, group);
    pass.setPipeline(this.clearPipeline);
    pass.dispatchWorkgroups(vx, vy);
    pass.setPipeline(this.depthsPipeline);
    pass.dispatchWorkgroups(records);
    pass.setPipeline(this.normalsPipeline);
    pass.dispatchWorkgroups(records);
    pass.setPipeline(this.dropPipeline);
    pass.dispatchWorkgroups(records);
    return 4;
  }

  destroy(): void {
    this.words.destroy();
  }
}
