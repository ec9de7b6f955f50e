/**
 * The 'contacts' stage (notes/collisions-spec.md "Contact response"; eq. 6 of paper 000): after
 * the shortest-path stage, every substep, on the GPU with no readback,
 *   1. clears the per-vertex contact counts,
 *   2. buildContacts   per query (indirect): status counters, the contact record, its normal by
 *                      feature, per-vertex counts; overflowed queries to the overflow list,
 *   3. contactIterations x (solveContacts per contact (indirect), applyContacts per vertex).
 * Uniforms (friction, capacities, topology offsets) are written once per frame in beginFrame.
 * The contact array has the query list's capacity; its bind groups follow the list's generation.
 */
import buildCode from '../../../shaders/contactsBuild.wgsl?raw';
import solveCode from '../../../shaders/contacts.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, uniformBuffer } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import type { SolverParams } from '../../sim/params';
import type { GpuStage, SubstepContext } from '../../sim/stage';
import type { GpuState } from '../../sim/state';
import type { CollisionTopologyGpu } from './collisionTopology';
import type { QueryList } from './queryList';

export type ContactSettings = Pick<SolverParams, 'collisions' | 'friction' | 'contactIterations'>;

/** Words per contact (shaders/lib/contact.wgsl struct Contact). */
export const CONTACT_WORDS = 24;
const PARAM_WORDS = 12;

function pipeline(device: GPUDevice, label: string, code: string, entryPoint: string, layout: GPUBindGroupLayout): GPUComputePipeline {
  return device.createComputePipeline({
    label,
    layout: device.createPipelineLayout({ label, bindGroupLayouts: [layout] }),
    compute: { module: device.createShaderModule({ label, code: withIncludes(code, label) }), entryPoint },
  });
}

export class ContactStage implements GpuStage {
  readonly phase = 'contacts' as const;
  private readonly buildTable;
  private readonly solveTable;
  private readonly buildPipeline: GPUComputePipeline;
  private readonly solvePipeline: GPUComputePipeline;
  private readonly applyPipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  /** Per vertex: contacts touching it this substep (u32). */
  readonly counts: GPUBuffer;
  /** Per vertex: the pass's accumulated correction, f32 bits in 4 u32 words (zero between passes). */
  readonly accumulators: GPUBuffer;
  contacts!: GPUBuffer;
  private contactCapacity = 0;
  private iterations = 0;
  private groups?: { key: number; positions: GPUBuffer; prev: GPUBuffer; build: GPUBindGroup; solve: GPUBindGroup };

  constructor(
    private readonly device: GPUDevice,
    private readonly topology: CollisionTopologyGpu,
    readonly queryList: QueryList,
    private readonly settings: () => Readonly<ContactSettings>,
  ) {
    this.buildTable = new BindingTable(device, 'contacts.build', {
      params: 'uniform', positions: 'read-only-storage', topo: 'read-only-storage', list: 'storage', results: 'read-only-storage',
      contacts: 'storage', counts: 'storage', overflow: 'storage',
    });
    this.solveTable = new BindingTable(device, 'contacts.solve', {
      params: 'uniform', positions: 'storage', prev: 'read-only-storage', list: 'read-only-storage', contacts: 'storage',
      counts: 'read-only-storage', acc: 'storage',
    });
    this.buildPipeline = pipeline(device, 'contacts.build', buildCode, 'buildContacts', this.buildTable.layout);
    this.solvePipeline = pipeline(device, 'contacts.solve', solveCode, 'solveContacts', this.solveTable.layout);
    this.applyPipeline = pipeline(device, 'contacts.apply', solveCode, 'applyContacts', this.solveTable.layout);
    this.uniforms = uniformBuffer(device, 'contacts.params', 4 * PARAM_WORDS);
    const n = topology.vertexCount;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.counts = device.createBuffer({ label: 'contacts.counts', size: Math.max(16, 4 * n), usage });
    this.accumulators = device.createBuffer({ label: 'contacts.accumulators', size: Math.max(16, 16 * n), usage });
  }

  active(): boolean {
    return this.settings().collisions;
  }

  beginFrame(_encoder: GPUCommandEncoder): void {
    const s = this.settings();
    if (!Number.isInteger(s.contactIterations) || s.contactIterations < 1) throw new RangeError(`ContactStage: contactIterations must be an integer >= 1, got ${s.contactIterations}`);
    if (!(s.friction >= 0)) throw new RangeError(`ContactStage: friction must be >= 0, got ${s.friction}`);
    this.iterations = s.contactIterations;
    const o = this.topology.offsets;
    const words = new Uint32Array(PARAM_WORDS);
    new Float32Array(words.buffer)[0] = s.friction;
    words.set([
      this.queryList.capacity, this.topology.vertexCount, gridRowStride(this.topology.vertexCount),
      o.tets, o.boundaryEdges, o.triangles, o.triangleAcross, o.vtOffsets, o.vtList,
    ], 1);
    this.device.queue.writeBuffer(this.uniforms, 0, words);
  }

  private bindGroups(state: GpuState) {
    const list = this.queryList;
    if (this.groups && this.groups.key === list.generation && this.groups.positions === state.positions && this.groups.prev === state.prev) return this.groups;
    if (this.contactCapacity !== list.capacity) {
      this.contacts?.destroy();
      this.contacts = this.device.createBuffer({
        label: 'contacts.records',
        size: 4 * CONTACT_WORDS * list.capacity,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      this.contactCapacity = list.capacity;
    }
    this.groups = {
      key: list.generation,
      positions: state.positions,
      prev: state.prev,
      build: this.buildTable.group({
        params: this.uniforms, positions: state.positions, topo: this.topology.buffer, list: list.list, results: list.results,
        contacts: this.contacts, counts: this.counts, overflow: list.overflow,
      }),
      solve: this.solveTable.group({
        params: this.uniforms, positions: state.positions, prev: state.prev, list: list.list, contacts: this.contacts,
        counts: this.counts, acc: this.accumulators,
      }),
    };
    return this.groups;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.iterations < 1) throw new Error('ContactStage.encode: beginFrame was not called');
    const groups = this.bindGroups(state);
    encoder.clearBuffer(this.counts);
    const pass = step.beginPass(encoder, 'contacts', 'contacts');
    pass.setPipeline(this.buildPipeline);
    pass.setBindGroup(0, groups.build);
    pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
    const [ax, ay] = dispatchGrid(this.topology.vertexCount);
    pass.setBindGroup(0, groups.solve);
    for (let k = 0; k < this.iterations; k++) {
      pass.setPipeline(this.solvePipeline);
      pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
      pass.setPipeline(this.applyPipeline);
      pass.dispatchWorkgroups(ax, ay);
    }
    pass.end();
    step.countDispatches?.(1 + 2 * this.iterations);
  }

  destroy(): void {
    this.uniforms.destroy();
    this.counts.destroy();
    this.accumulators.destroy();
    this.contacts?.destroy();
  }
}
