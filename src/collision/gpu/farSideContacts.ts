/**
 * Far-side contacts on the GPU (SolverParams.farSideContacts 'drop'; shaders/contactsFarSide.wgsl,
 * CPU twin src/collision/cpu/farSideContacts.ts). Owns the per-vertex words
 * (shaders/lib/farSideMark.wgsl, FAR_SIDE_WORDS u32 each), which the contacts stage's build also
 * binds: with ContactParams.buildFlags CONTACT_BUILD_FAR_SIDE the build marks each enabled
 * contact's triangle corners with its depth (atomicMax). Encoded by the contacts stage right after
 * that build, before the passes, in the same compute pass: the winners (the index of the shallowest
 * corner contact at each vertex), then the drop, which also zeroes the marks for the next build
 * (2 dispatches a build; a clear and a depth pass of their own made 4 before 2026-11-29).
 */
import farSideCode from '../../../shaders/contactsFarSide.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';

/** Words per vertex (lib/farSideMark.wgsl FAR_SIDE_WORDS): the shallowest corner contact's mark, a contact holding it and its mark. */
export const FAR_SIDE_WORDS = 3;
/** ContactParams.buildFlags bit (contactsBuild.wgsl CONTACT_BUILD_FAR_SIDE): the build marks the corners. */
export const CONTACT_BUILD_FAR_SIDE = 2;

/** What the kernels read and write: the contacts stage's uniforms, positions, query list and records. */
export interface FarSideBuffers {
  params: GPUBuffer;
  positions: GPUBuffer;
  list: GPUBuffer;
  contacts: GPUBuffer;
  /** The substep's start positions, the object ids in w. */
  prev: GPUBuffer;
}

export class FarSideContacts {
  private readonly table;
  /** The per-vertex words, zero between builds in their mark word (bound by the build too). */
  readonly words: GPUBuffer;
  declare private readonly winnersPipeline: GPUComputePipeline;
  declare private readonly dropPipeline: GPUComputePipeline;
  private cached?: { buffers: FarSideBuffers; group: GPUBindGroup };

  constructor(device: GPUDevice, vertexCount: number) {
    this.table = new BindingTable(device, 'contacts.farSide', {
      params: 'uniform', positions: 'read-only-storage', list: 'storage', contacts: 'storage', farSide: 'storage', prev: 'read-only-storage',
    });
    // Compiled on first use (gpu/lazyPipelines.ts): a run that never drops never builds them.
    definePipelines(this, {
      winnersPipeline: () => wgslPipeline(device, 'contacts.farSide.winners', farSideCode, 'farSideWinners', [this.table.layout]),
      dropPipeline: () => wgslPipeline(device, 'contacts.farSide.drop', farSideCode, 'dropFarSide', [this.table.layout]),
    });
    this.words = device.createBuffer({ label: 'contacts.farSide.words', size: Math.max(16, 4 * FAR_SIDE_WORDS * vertexCount), usage: GPUBufferUsage.STORAGE });
  }

  private group(b: FarSideBuffers): GPUBindGroup {
    const c = this.cached;
    if (c && c.buffers.params === b.params && c.buffers.positions === b.positions && c.buffers.list === b.list && c.buffers.contacts === b.contacts && c.buffers.prev === b.prev) return c.group;
    const group = this.table.group({ ...b, farSide: this.words });
    this.cached = { buffers: { ...b }, group };
    return group;
  }

  /**
   * The two dispatches over a build of `capacity` records (threads past the list's count return,
   * those of the drop after zeroing their share of the marks), into `pass` after a build that
   * marked the corners (CONTACT_BUILD_FAR_SIDE). Returns the dispatches (2).
   */
  encode(pass: GPUComputePassEncoder, buffers: FarSideBuffers, capacity: number): number {
    const records = Math.max(1, Math.ceil(capacity / 64));
    pass.setBindGroup(0, this.group(buffers));
    pass.setPipeline(this.winnersPipeline);
    pass.dispatchWorkgroups(records);
    pass.setPipeline(this.dropPipeline);
    pass.dispatchWorkgroups(records);
    return 2;
  }

  destroy(): void {
    this.words.destroy();
  }
}
