/**
 * The 'contacts' stage (docs/collisions.md "Contact response"; eq. 6 of paper 000): after
 * the shortest-path stage, every substep, on the GPU with no readback,
 *   1. buildContacts   per query (indirect): status counters, the contact record, its normal by
 *                      feature; overflowed queries to the overflow list,
 *   2. contactIterations x (countContacts and solveContacts per contact (indirect),
 *                      applyContacts per vertex, which zeroes the counts for the next pass).
 * Uniforms (friction, capacities, topology offsets) are written once per frame in beginFrame.
 * The contact array has the query list's capacity; its bind groups follow the list's generation.
 *
 * Other contact sources (CCD's contacts, collision/gpu/ccdStage.ts) register with `addSource`:
 * their records, built by their own stage earlier in the substep, are solved in the same Jacobi
 * passes as the DCD contacts and share the per-vertex counts (mass splitting over both), or, with
 * counts of their own, are solved as a group after them in each pass.
 *
 * Overflowed queries (the GPU's static stacks ran out) come back in the overflow list; the host
 * answers them on the CPU and hands query + answer to `inject`: the next frame's first substep
 * builds and solves them as contacts of their own (same kernels, a list of their own, direct
 * dispatch) after the regular ones (spec "Per-frame readback").
 */
import buildCode from '../../../shaders/contactsBuild.wgsl?raw';
import solveCode from '../../../shaders/contacts.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, uniformBuffer } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import type { SolverParams } from '../../contract/params';
import type { GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { CollisionTopologyGpu } from './collisionTopology';
import { QL, QL_HEADER_WORDS, QUERY_WORDS, RESULT_WORDS, type QueryList } from './queryList';

/** Contacts built by another stage (CCD), solved with the DCD ones. */
export interface ContactSource {
  /** Query-list-shaped header: the substep's contact count at word QL.count (min'd with capacity). */
  readonly header: GPUBuffer;
  readonly contacts: GPUBuffer;
  readonly capacity: number;
  /** Bumped when header/contacts are reallocated (bind groups follow). */
  readonly generation: number;
  active(): boolean;
  /** Workgroups of 64 that cover this substep's contacts (a direct dispatch; threads past the count return). */
  workgroups(): number;
}

export type ContactSettings = Pick<SolverParams, 'collisions' | 'friction' | 'contactIterations'> & Partial<Pick<SolverParams, 'recovery'>>;

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
  private readonly countPipeline: GPUComputePipeline;
  private readonly applyPipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  /** Per vertex: contacts touching it this substep (u32). */
  readonly counts: GPUBuffer;
  /** Per vertex: the pass's accumulated correction, f32 bits in 4 u32 words (zero between passes). */
  readonly accumulators: GPUBuffer;
  contacts!: GPUBuffer;
  private contactCapacity = 0;
  private iterations = 0;
  /** The contact offset delta (world units) the DCD contacts keep (set by the owner before each frame). */
  offset = 0;
  private groups?: { key: number; positions: GPUBuffer; prev: GPUBuffer; build: GPUBindGroup; solve: GPUBindGroup };
  /** Injected contacts (CPU answers of overflowed queries): pending until the next beginFrame. */
  private pending?: { queries: Uint32Array<ArrayBuffer>; results: Uint32Array<ArrayBuffer>; count: number };
  private injected?: Injected;
  private injectedCount = 0;
  private readonly objectStatus: GPUBuffer;
  private readonly ownStatus?: GPUBuffer;
  private readonly sources: { source: ContactSource; counts?: GPUBuffer; uniforms: GPUBuffer; groups?: { key: string; positions: GPUBuffer; prev: GPUBuffer; group: GPUBindGroup } }[] = [];

  constructor(
    private readonly device: GPUDevice,
    private readonly topology: CollisionTopologyGpu,
    readonly queryList: QueryList,
    private readonly settings: () => Readonly<ContactSettings>,
    /**
     * Per-object status words (bit 0 stopped; held bits of src/contract/held.ts, which sticking contacts
     * set): the solver's (GpuSolver), or a buffer of its own for stages run alone.
     */
    objectStatus?: GPUBuffer,
  ) {
    this.ownStatus = objectStatus ? undefined : device.createBuffer({ label: 'contacts.objectStatus', size: Math.max(16, 4 * (topology.mesh.vertexObject.reduce((a, o) => Math.max(a, o), 0) + 1)), usage: GPUBufferUsage.STORAGE });
    this.objectStatus = objectStatus ?? this.ownStatus!;
    this.buildTable = new BindingTable(device, 'contacts.build', {
      params: 'uniform', positions: 'read-only-storage', topo: 'read-only-storage', list: 'storage', results: 'read-only-storage',
      contacts: 'storage', overflow: 'storage',
    });
    this.solveTable = new BindingTable(device, 'contacts.solve', {
      params: 'uniform', positions: 'storage', prev: 'storage', list: 'read-only-storage', contacts: 'storage',
      counts: 'storage', acc: 'storage', status: 'storage',
    });
    this.buildPipeline = pipeline(device, 'contacts.build', buildCode, 'buildContacts', this.buildTable.layout);
    this.solvePipeline = pipeline(device, 'contacts.solve', solveCode, 'solveContacts', this.solveTable.layout);
    this.countPipeline = pipeline(device, 'contacts.count', solveCode, 'countContacts', this.solveTable.layout);
    this.applyPipeline = pipeline(device, 'contacts.apply', solveCode, 'applyContacts', this.solveTable.layout);
    this.uniforms = uniformBuffer(device, 'contacts.params', 4 * PARAM_WORDS);
    const n = topology.vertexCount;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.counts = device.createBuffer({ label: 'contacts.counts', size: Math.max(16, 4 * n), usage });
    // Per vertex 8 words: the pass's correction of x (xyz, unused) and of the start position (split impulse).
    this.accumulators = device.createBuffer({ label: 'contacts.accumulators', size: Math.max(32, 32 * n), usage });
  }

  active(): boolean {
    return this.settings().collisions;
  }

  /**
   * Queries answered on the CPU (QUERY_WORDS words each, the query list's layout) and their
   * answers (RESULT_WORDS words each, SpbResult): built and solved as contacts in the first
   * substep of the next frame. Replaces what was injected before and not yet applied.
   */
  inject(queries: Uint32Array, results: Uint32Array): void {
    const count = queries.length / QUERY_WORDS;
    if (!Number.isInteger(count) || results.length !== count * RESULT_WORDS) {
      throw new RangeError(`ContactStage.inject: ${queries.length} query words and ${results.length} result words are not ${QUERY_WORDS} and ${RESULT_WORDS} per query`);
    }
    this.pending = { queries: new Uint32Array(queries), results: new Uint32Array(results), count };
  }

  /**
   * Registers contacts built by another stage before this one in the substep (CCD's). Without
   * `counts` they share this stage's per-vertex counts and are solved in the same Jacobi pass as
   * the DCD contacts; with their own counts (a zeroed buffer, one u32 per vertex) they are solved
   * as a group of their own after that pass, with its own apply, in every iteration.
   */
  addSource(source: ContactSource, options: { counts?: GPUBuffer } = {}): void {
    this.sources.push({ source, counts: options.counts, uniforms: uniformBuffer(this.device, 'contacts.source.params', 4 * PARAM_WORDS) });
  }

  /** Contacts injected for the current frame's first substep. */
  get injectedContacts(): number {
    return this.injectedCount;
  }

  private prepareInjected(): void {
    const p = this.pending;
    this.pending = undefined;
    this.injectedCount = p?.count ?? 0;
    if (!p || p.count === 0) return;
    if (!this.injected || this.injected.capacity < p.count) {
      this.injected?.destroy();
      this.injected = new Injected(this.device, Math.max(64, 2 ** Math.ceil(Math.log2(p.count))), this.topology.vertexCount);
    }
    const inj = this.injected;
    const header = new Uint32Array(QL_HEADER_WORDS);
    header[QL.count] = p.count;
    header[QL.capacity] = inj.capacity;
    const q = this.device.queue;
    q.writeBuffer(inj.list, 0, header);
    q.writeBuffer(inj.list, 4 * QL_HEADER_WORDS, p.queries);
    q.writeBuffer(inj.results, 0, p.results);
  }

  beginFrame(_encoder: GPUCommandEncoder): void {
    this.prepareInjected();
    const s = this.settings();
    if (!Number.isInteger(s.contactIterations) || s.contactIterations < 1) throw new RangeError(`ContactStage: contactIterations must be an integer >= 1, got ${s.contactIterations}`);
    if (!(s.friction >= 0)) throw new RangeError(`ContactStage: friction must be >= 0, got ${s.friction}`);
    this.iterations = s.contactIterations;
    const o = this.topology.offsets;
    const words = new Uint32Array(PARAM_WORDS);
    new Float32Array(words.buffer)[0] = s.friction;
    words.set([
      this.queryList.capacity, this.topology.vertexCount, gridRowStride(this.topology.vertexCount),
      o.tets, o.boundaryEdges, o.triangles, o.triangleAcross, o.vtOffsets, o.vtList, 0,
    ], 1);
    new Float32Array(words.buffer)[11] = this.offset;
    this.device.queue.writeBuffer(this.uniforms, 0, words);
    for (const src of this.sources) {
      words[1] = src.source.capacity;
      this.device.queue.writeBuffer(src.uniforms, 0, words);
    }
    words[1] = this.queryList.capacity;
    if (this.injectedCount > 0) {
      words[1] = this.injected!.capacity;
      this.device.queue.writeBuffer(this.injected!.uniforms, 0, words);
    }
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
        contacts: this.contacts, overflow: list.overflow,
      }),
      solve: this.solveTable.group({
        params: this.uniforms, positions: state.positions, prev: state.prev, list: list.list, contacts: this.contacts,
        counts: this.counts, acc: this.accumulators, status: this.objectStatus,
      }),
    };
    return this.groups;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.iterations < 1) throw new Error('ContactStage.encode: beginFrame was not called');
    const groups = this.bindGroups(state);
    const sources = this.sources.filter((s) => s.source.active() && s.source.workgroups() > 0);
    const sourceGroups = sources.filter((s) => !s.counts).map((s) => ({ group: this.sourceGroup(s, state), workgroups: s.source.workgroups() }));
    const ownGroups = sources.filter((s) => s.counts).map((s) => ({ group: this.sourceGroup(s, state), workgroups: s.source.workgroups() }));
    const pass = step.beginPass(encoder, 'contacts', 'contacts');
    pass.setPipeline(this.buildPipeline);
    pass.setBindGroup(0, groups.build);
    pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
    const [ax, ay] = dispatchGrid(this.topology.vertexCount);
    // Each pass: counts of the contacts violated now, then the Jacobi solve, then apply (which
    // zeroes the counts): DCD and the shared-count sources together, then each own-count group.
    // No call repeats the pipeline or group already set (JavaScript encode time, issue 11).
    for (let k = 0; k < this.iterations; k++) {
      for (const pipeline of [this.countPipeline, this.solvePipeline]) {
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, groups.solve);
        pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
        for (const g of sourceGroups) {
          pass.setBindGroup(0, g.group);
          pass.dispatchWorkgroups(g.workgroups);
        }
      }
      pass.setPipeline(this.applyPipeline);
      pass.dispatchWorkgroups(ax, ay);
      for (const g of ownGroups) {
        pass.setBindGroup(0, g.group);
        pass.setPipeline(this.countPipeline);
        pass.dispatchWorkgroups(g.workgroups);
        pass.setPipeline(this.solvePipeline);
        pass.dispatchWorkgroups(g.workgroups);
        pass.setPipeline(this.applyPipeline);
        pass.dispatchWorkgroups(ax, ay);
      }
    }
    let dispatches = 1 + (3 + 2 * sourceGroups.length + 3 * ownGroups.length) * this.iterations;
    if (step.substep === 0 && this.injectedCount > 0) {
      // The CPU's answers, after the substep's own contacts: same kernels over their own list.
      pass.end();
      const inj = this.injected!;
      const g = inj.groups(this, state);
      const p2 = step.beginPass(encoder, 'contacts', 'contacts.injected');
      const groups = Math.ceil(this.injectedCount / 64);
      p2.setPipeline(this.buildPipeline);
      p2.setBindGroup(0, g.build);
      p2.dispatchWorkgroups(groups);
      p2.setBindGroup(0, g.solve);
      for (let k = 0; k < this.iterations; k++) {
        p2.setPipeline(this.countPipeline);
        p2.dispatchWorkgroups(groups);
        p2.setPipeline(this.solvePipeline);
        p2.dispatchWorkgroups(groups);
        p2.setPipeline(this.applyPipeline);
        p2.dispatchWorkgroups(ax, ay);
      }
      p2.end();
      dispatches += 1 + 3 * this.iterations;
    } else {
      pass.end();
    }
    step.countDispatches?.(dispatches);
  }

  private sourceGroup(s: (typeof this.sources)[number], state: GpuState): GPUBindGroup {
    const key = `${s.source.generation}/${this.queryList.generation}`;
    if (s.groups && s.groups.key === key && s.groups.positions === state.positions && s.groups.prev === state.prev) return s.groups.group;
    const group = this.solveTable.group({
      params: s.uniforms, positions: state.positions, prev: state.prev, list: s.source.header, contacts: s.source.contacts,
      counts: s.counts ?? this.counts, acc: this.accumulators, status: this.objectStatus,
    });
    s.groups = { key, positions: state.positions, prev: state.prev, group };
    return group;
  }

  /** Bind groups of the injected set (its own list, results, contacts, counts and uniforms). */
  injectedGroups(inj: Injected, state: GpuState): { build: GPUBindGroup; solve: GPUBindGroup } {
    return {
      build: this.buildTable.group({
        params: inj.uniforms, positions: state.positions, topo: this.topology.buffer, list: inj.list, results: inj.results,
        contacts: inj.contacts, overflow: this.queryList.overflow,
      }),
      solve: this.solveTable.group({
        params: inj.uniforms, positions: state.positions, prev: state.prev, list: inj.list, contacts: inj.contacts,
        counts: inj.counts, acc: this.accumulators, status: this.objectStatus,
      }),
    };
  }

  destroy(): void {
    this.ownStatus?.destroy();
    this.uniforms.destroy();
    for (const s of this.sources) s.uniforms.destroy();
    this.counts.destroy();
    this.accumulators.destroy();
    this.contacts?.destroy();
    this.injected?.destroy();
  }
}

/** Buffers of the injected contacts (a query list of their own). */
class Injected {
  readonly list: GPUBuffer;
  readonly results: GPUBuffer;
  readonly contacts: GPUBuffer;
  readonly counts: GPUBuffer;
  readonly uniforms: GPUBuffer;
  private cached?: { positions: GPUBuffer; prev: GPUBuffer; overflow: GPUBuffer; groups: { build: GPUBindGroup; solve: GPUBindGroup } };

  constructor(
    device: GPUDevice,
    readonly capacity: number,
    vertexCount: number,
  ) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.list = device.createBuffer({ label: 'contacts.injected.list', size: 4 * (QL_HEADER_WORDS + QUERY_WORDS * capacity), usage });
    this.results = device.createBuffer({ label: 'contacts.injected.results', size: 4 * RESULT_WORDS * capacity, usage });
    this.contacts = device.createBuffer({ label: 'contacts.injected.records', size: 4 * CONTACT_WORDS * capacity, usage });
    this.counts = device.createBuffer({ label: 'contacts.injected.counts', size: Math.max(16, 4 * vertexCount), usage });
    this.uniforms = uniformBuffer(device, 'contacts.injected.params', 4 * PARAM_WORDS);
  }

  groups(stage: ContactStage, state: GpuState): { build: GPUBindGroup; solve: GPUBindGroup } {
    const overflow = stage.queryList.overflow;
    if (this.cached && this.cached.positions === state.positions && this.cached.prev === state.prev && this.cached.overflow === overflow) return this.cached.groups;
    this.cached = { positions: state.positions, prev: state.prev, overflow, groups: stage.injectedGroups(this, state) };
    return this.cached.groups;
  }

  destroy(): void {
    this.list.destroy();
    this.results.destroy();
    this.contacts.destroy();
    this.counts.destroy();
    this.uniforms.destroy();
  }
}
