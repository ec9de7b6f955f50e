/**
 * The 'contacts' stage (docs/collisions.md "Contact response"; eq. 6 of paper 000): after
 * the shortest-path stage, every substep, on the GPU with no readback,
 *   1. buildContacts   per query (indirect): status counters, the contact record, its normal by
 *                      feature; overflowed queries to the overflow list,
 *      with SolverParams.farSideContacts 'drop' (recovery mode by default) each contact also
 *      marks its triangle corners with its depth, and the far-side contacts are then disabled
 *      (farSideContacts.ts: 2 dispatches),
 *   2. contactIterations x (countContacts and solveContacts per contact (indirect),
 *                      applyContacts per vertex, which zeroes the counts for the next pass).
 * A source sharing the counts (CCD's vertex-triangle contacts) is solved in the same count and
 * solve dispatches as the DCD contacts (workgroup y picks the list; contactsArgs.wgsl sizes x for
 * the longer one on the GPU): 3 dispatches a pass for both, where each list had its own count and
 * solve (5). The per-vertex uses live in the accumulators' spare words (3: the main group, 7: a
 * group of its own), so no buffer of its own is bound for them.
 *
 * SolverParams.contactDispatch 'workgroup' ('auto' while the last frame had at most
 * CONTACT_SWEEP_AUTO_LIMIT contacts a substep): step 2 is one dispatch of one workgroup
 * (sweepContacts) that runs every pass of the main group and of the group with counts of its own
 * (CCD's edge-edge contacts, its third list), with storage barriers between count, solve and
 * apply: 2 contact dispatches a substep instead of 20 (build, args, 3 x 6) in hybrid mode. The
 * kernels' layout binds 10 storage buffers (the third list's two only for the sweep), as CCD's
 * narrow phase already does (the device asks for the adapter's limit).
 * With more than one group of its own the passes run as grid dispatches. In the rounds where
 * `betweenPasses` acts (SolverParams.sliverLift 'with-contacts': the sliver lift before each pass
 * after the first, one dispatch each) the sweep runs one pass a dispatch (`onePassUniforms`).
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
import argsCode from '../../../shaders/contactsArgs.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { solverStatusWords } from '../../contract/colliderTouch';
import { meanTriangleEdge, uniformRamp } from '../contactOffset';
import { dispatchGrid, gridRowStride, uniformBuffer } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import { contactSweep, effectiveFarSideContacts, type SolverParams } from '../../contract/params';
import { resolvesOnly, type GpuStage, type SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { CollisionTopologyGpu } from './collisionTopology';
import { CONTACT_BUILD_FAR_SIDE, FarSideContacts } from './farSideContacts';
import { QL, QL_HEADER_WORDS, QUERY_WORDS, RESULT_WORDS, type QueryList } from './queryList';

/** What ContactStage runs before each contact pass after the first (the sliver lift with the contacts: InversionFloorStage.betweenPasses). */
export interface BetweenContactPasses {
  /** Whether it runs in this round. */
  active(step: SubstepContext): boolean;
  /** Encodes it into the contacts' compute pass; returns its dispatches. The pass's pipeline and bind group are left changed. */
  encode(pass: GPUComputePassEncoder, state: GpuState): number;
}

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

export type ContactSettings = Pick<SolverParams, 'collisions' | 'friction' | 'contactIterations'> & Partial<Pick<SolverParams, 'recovery' | 'contactDispatch' | 'farSideContacts' | 'sliverLift'>>;

/** Words per contact (shaders/lib/contact.wgsl struct Contact). */
export const CONTACT_WORDS = 24;
const PARAM_WORDS = 24;

/**
 * Metres per unit of the contacts' fixed-point correction sums (contacts.wgsl addFixed), as a
 * share of the mesh's mean boundary edge at rest: 2^-22, about 2.4e-7 of an edge a unit (finer
 * than f32's 6e-8 relative rounding only below a quarter of an edge, where contacts act), sums up
 * to 2^31 units = 512 edges.
 */
export const ACCUMULATOR_UNIT_RATIO = 2 ** -22;
/** ContactParams.buildFlags: a non-Pin query (an escaped point, DetectStage) keeps its contact only when it pushes the point back against its motion. */
const CONTACT_BUILD_ESCAPED_BACKWARD = 1;
/**
 * Accumulator words per vertex (contacts.wgsl ACC_WORDS), the words holding its use S_v (the main
 * group's, a group of its own's) and those holding friction's use F_v beside them (contacts.wgsl
 * frictionWord).
 */
export const ACCUMULATOR_WORDS = 10;
export const MAIN_COUNT_WORD = 3;
export const OWN_COUNT_WORD = 7;
export const MAIN_FRICTION_COUNT_WORD = 8;
export const OWN_FRICTION_COUNT_WORD = 9;

export class ContactStage implements GpuStage {
  readonly phase = 'contacts' as const;
  /** Runs after every material iteration when SolverParams.collideEvery says so (SubstepContext.round). */
  readonly perRound = true;
  private readonly buildTable;
  private readonly solveTable;
  private readonly argsTable;
  declare private readonly buildPipeline: GPUComputePipeline;
  declare private readonly argsPipeline: GPUComputePipeline;
  declare private readonly solvePipeline: GPUComputePipeline;
  declare private readonly countPipeline: GPUComputePipeline;
  declare private readonly applyPipeline: GPUComputePipeline;
  declare private readonly sweepPipeline: GPUComputePipeline;
  declare private readonly pushDirectionPipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  /** `uniforms` with one sweep pass (sweepPasses 1), for the sweep with `betweenPasses` between its passes. */
  private readonly onePassUniforms: GPUBuffer;
  /**
   * Per vertex ACCUMULATOR_WORDS u32 words, zero between passes: the pass's correction of x
   * (0-2) and of the start position (4-6) in fixed point, the vertex's use S_v in the pass's
   * violated contacts (fixed point, contact.wgsl) in word MAIN_COUNT_WORD (DCD and the shared
   * source) or OWN_COUNT_WORD (a group with counts of its own, and the injected contacts), and
   * friction's use F_v (contacts violated or that pushed) in MAIN_ / OWN_FRICTION_COUNT_WORD.
   */
  readonly accumulators: GPUBuffer;
  /** countContacts / solveContacts args when a source shares their dispatches ([x, 2, 1], contactsArgs.wgsl). */
  private readonly sharedArgs: GPUBuffer;
  /** Bound as the second list where there is none (y = 1 is never dispatched then). */
  private readonly emptyList: GPUBuffer;
  private readonly emptyContacts: GPUBuffer;
  /** A second empty record array for contacts3 (two writable bindings of one buffer in one dispatch are refused). */
  private readonly emptyContacts3: GPUBuffer;
  contacts!: GPUBuffer;
  private contactCapacity = 0;
  private iterations = 0;
  /** The contact offset delta (world units) the DCD contacts keep (set by the owner before each frame). */
  offset = 0;
  /** What a DCD self-contact keeps (contactOffset.ts selfContactOffset; set by the owner before each frame; <= offset). */
  selfOffset = 0;
  /** The offset layer's opening per build (contactOffset.ts offsetRampStep; set by the owner per frame; Infinity: none). */
  offsetRamp = Infinity;
  /** The most pre-existing depth a build removes (contactOffset.ts offsetRampStep of effectiveDepenetrationSpeed; set by the owner per frame; Infinity: no limit). */
  depenetration = Infinity;
  /** Metres per unit of the fixed-point correction sums (ACCUMULATOR_UNIT_RATIO of the mean boundary edge). */
  private readonly accumulatorUnit: number;
  private groups?: {
    key: string; positions: GPUBuffer; prev: GPUBuffer; build: GPUBindGroup; solve: GPUBindGroup; args?: GPUBindGroup;
    /** The sweep's groups by [the shared list bound as list2 (else empty)][the own-count source as list3 (else empty)]. */
    sweep: GPUBindGroup[][];
    /** The same over `onePassUniforms`: a sweep of one pass (with `betweenPasses` acting between the sweeps). */
    sweepOnePass: GPUBindGroup[][];
  };
  /**
   * Run before each pass after the first where it is active (gpuCollisions.ts sets it: the sliver
   * lift with the contacts, InversionFloorStage.betweenPasses; CPU twin CpuContacts.betweenPasses).
   */
  betweenPasses?: BetweenContactPasses;
  /**
   * Whether the sliver lift reads the push directions this frame (gpuCollisions.ts sets it:
   * InversionFloorStage.clipsToPushes, sliverLift 'clipped-to-contacts' with slivers to lift): then,
   * in a model of two or more objects, the substep's last round ends with sumPushDirections.
   */
  pushDirectionsWanted?: () => boolean;
  /** Whether this frame's passes run in one workgroup (SolverParams.contactDispatch), set in beginFrame. */
  private sweeping = false;
  /** Whether this frame's builds drop far-side contacts (SolverParams.farSideContacts), set in beginFrame. */
  private dropFarSide = false;
  /** Its per-vertex words (bound by the build, whichever the setting) and kernels (compiled at first use). */
  private readonly farSide: FarSideContacts;
  private escapePin?: GPUBuffer;
  private escapesTested: () => boolean = () => false;

  /**
   * Hybrid with escaped points tested at the end (SolverParams.escapedToDcd): detection's Pin
   * flags, and whether this frame's detection tests escaped points (asked at beginFrame, after
   * detection's). A query of a point that is not Pin is then an escaped one, and its contact is kept
   * only when it pushes the point back against its motion relative to the triangle
   * (CONTACT_BUILD_ESCAPED_BACKWARD, contactsBuild.wgsl).
   */
  checkEscapedWith(pin: GPUBuffer, escapesTested: () => boolean): void {
    this.escapePin = pin;
    this.escapesTested = escapesTested;
    this.groups = undefined;
  }

  /** This frame's grid passes read detection's indirect args (valid after beginFrame). */
  readsQueryArgs(): boolean {
    return !(this.sweeping && this.sources.length <= 1);
  }
  /**
   * Contacts a substep (DCD's and CCD's) of the last frame read back, which 'auto' decides by
   * (set by the owner after each frame's readback; undefined until then).
   */
  recentContactsPerSubstep: number | undefined;
  /** Injected contacts (CPU answers of overflowed queries): pending until the next beginFrame. */
  private pending?: { queries: Uint32Array<ArrayBuffer>; results: Uint32Array<ArrayBuffer>; count: number };
  private injected?: Injected;
  private injectedCount = 0;
  private readonly objectStatus: GPUBuffer;
  private readonly ownStatus?: GPUBuffer;
  /**
   * Where the contacts mark the vertices they pushed this substep: the status buffer and its first
   * vertex's touch word, whose CONTACT_PUSHED bit solveContact sets (shaders/lib/colliderTouch.wgsl;
   * the sliver lift 'holding-contacts' reads it).
   */
  get pushedMarks(): { status: GPUBuffer; touchBase: number } {
    return { status: this.objectStatus, touchBase: this.objectCount };
  }
  /** Objects of the mesh: the first vertex's collider-touch word in the status buffer (ContactParams.touchBase). */
  private readonly objectCount: number;
  /** The source solved in the DCD contacts' dispatches (sharing their counts), if any. */
  private shared?: ContactSource;
  /** Sources with counts of their own, solved as a group after the main one in every pass. */
  private readonly sources: { source: ContactSource; uniforms: GPUBuffer; groups?: { key: string; positions: GPUBuffer; prev: GPUBuffer; group: GPUBindGroup } }[] = [];

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
    // Its object words, then per vertex its collider-touch word and push-direction words
    // (src/contract/colliderTouch.ts solverStatusWords; all 0 in a buffer of its own: no collider).
    this.objectCount = topology.mesh.vertexObject.reduce((a, o) => Math.max(a, o), 0) + 1;
    this.ownStatus = objectStatus ? undefined : device.createBuffer({ label: 'contacts.objectStatus', size: Math.max(16, 4 * solverStatusWords(this.objectCount, topology.vertexCount)), usage: GPUBufferUsage.STORAGE });
    this.objectStatus = objectStatus ?? this.ownStatus!;
    const meanEdge = meanTriangleEdge(topology.mesh.positions, topology.mesh.boundaryTriangles);
    this.accumulatorUnit = ACCUMULATOR_UNIT_RATIO * (meanEdge > 0 && Number.isFinite(meanEdge) ? meanEdge : 1);
    this.buildTable = new BindingTable(device, 'contacts.build', {
      params: 'uniform', positions: 'read-only-storage', topo: 'read-only-storage', list: 'storage', results: 'read-only-storage',
      contacts: 'storage', overflow: 'storage', pin: 'read-only-storage', prev: 'read-only-storage', farSide: 'storage',
    });
    this.solveTable = new BindingTable(device, 'contacts.solve', {
      params: 'uniform', positions: 'storage', prev: 'storage', list: 'read-only-storage', contacts: 'storage',
      acc: 'storage', status: 'storage', list2: 'read-only-storage', contacts2: 'storage',
      list3: 'read-only-storage', contacts3: 'storage',
    });
    this.argsTable = new BindingTable(device, 'contacts.args', { params: 'uniform', list: 'read-only-storage', list2: 'read-only-storage', args: 'storage' });
    // Compiled on first use (gpu/lazyPipelines.ts).
    definePipelines(this, {
      buildPipeline: () => wgslPipeline(device, 'contacts.build', buildCode, 'buildContacts', [this.buildTable.layout]),
      argsPipeline: () => wgslPipeline(device, 'contacts.args', argsCode, 'contactArgs', [this.argsTable.layout]),
      solvePipeline: () => wgslPipeline(device, 'contacts.solve', solveCode, 'solveContacts', [this.solveTable.layout]),
      countPipeline: () => wgslPipeline(device, 'contacts.count', solveCode, 'countContacts', [this.solveTable.layout]),
      applyPipeline: () => wgslPipeline(device, 'contacts.apply', solveCode, 'applyContacts', [this.solveTable.layout]),
      sweepPipeline: () => wgslPipeline(device, 'contacts.sweep', solveCode, 'sweepContacts', [this.solveTable.layout]),
      pushDirectionPipeline: () => wgslPipeline(device, 'contacts.pushDirections', solveCode, 'sumPushDirections', [this.solveTable.layout]),
    });
    this.uniforms = uniformBuffer(device, 'contacts.params', 4 * PARAM_WORDS);
    this.onePassUniforms = uniformBuffer(device, 'contacts.params.onePass', 4 * PARAM_WORDS);
    this.farSide = new FarSideContacts(device, topology.vertexCount);
    const n = topology.vertexCount;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.accumulators = device.createBuffer({ label: 'contacts.accumulators', size: Math.max(32, 4 * ACCUMULATOR_WORDS * n), usage });
    this.sharedArgs = device.createBuffer({ label: 'contacts.sharedArgs', size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT });
    this.emptyList = device.createBuffer({ label: 'contacts.emptyList', size: 4 * (QL_HEADER_WORDS + QUERY_WORDS), usage: GPUBufferUsage.STORAGE });
    this.emptyContacts = device.createBuffer({ label: 'contacts.emptyContacts', size: 4 * CONTACT_WORDS, usage: GPUBufferUsage.STORAGE });
    this.emptyContacts3 = device.createBuffer({ label: 'contacts.emptyContacts3', size: 4 * CONTACT_WORDS, usage: GPUBufferUsage.STORAGE });
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
   * Registers contacts built by another stage before this one in the substep (CCD's). Shared
   * (at most one source): they share this stage's per-vertex counts and are solved in the same
   * Jacobi pass, and the same dispatches, as the DCD contacts. With `ownCounts` they are solved
   * as a group of their own after that pass, with their own counts and apply, in every iteration.
   */
  addSource(source: ContactSource, options: { ownCounts?: boolean } = {}): void {
    if (options.ownCounts) {
      this.sources.push({ source, uniforms: uniformBuffer(this.device, 'contacts.source.params', 4 * PARAM_WORDS) });
      return;
    }
    if (this.shared) throw new Error('ContactStage.addSource: one source shares the DCD contacts\' dispatches; a second needs ownCounts');
    this.shared = source;
    this.groups = undefined;
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
      this.injected = new Injected(this.device, Math.max(64, 2 ** Math.ceil(Math.log2(p.count))));
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
    this.sweeping = contactSweep(s.contactDispatch ?? 'auto', this.recentContactsPerSubstep);
    this.dropFarSide = effectiveFarSideContacts({ farSideContacts: s.farSideContacts ?? 'auto', recovery: s.recovery ?? false }) === 'drop';
    const o = this.topology.offsets;
    const words = new Uint32Array(PARAM_WORDS);
    new Float32Array(words.buffer)[0] = s.friction;
    words.set([
      this.queryList.capacity, this.topology.vertexCount, gridRowStride(this.topology.vertexCount),
      o.tets, o.boundaryEdges, o.triangles, o.triangleAcross, o.vtOffsets, o.vtList, MAIN_COUNT_WORD,
    ], 1);
    new Float32Array(words.buffer)[11] = this.offset;
    new Float32Array(words.buffer)[16] = this.accumulatorUnit;
    new Float32Array(words.buffer)[17] = uniformRamp(this.offsetRamp);
    new Float32Array(words.buffer)[19] = uniformRamp(this.depenetration);
    new Float32Array(words.buffer)[20] = Math.min(this.selfOffset, this.offset);
    words[12] = this.shared?.capacity ?? 0;
    words[13] = s.contactIterations;
    words[14] = this.sweepOwn()?.capacity ?? 0;
    words[15] = (this.escapePin && this.escapesTested() ? CONTACT_BUILD_ESCAPED_BACKWARD : 0) | (this.dropFarSide ? CONTACT_BUILD_FAR_SIDE : 0);
    words[18] = this.objectCount;
    words[21] = s.sliverLift === 'holding-contacts' ? 1 : 0;
    this.device.queue.writeBuffer(this.uniforms, 0, words);
    words[13] = 1;
    this.device.queue.writeBuffer(this.onePassUniforms, 0, words);
    words[15] = 0;
    words[14] = 0;
    // Groups of their own: one list each (y = 0 only), their own count word.
    words[10] = OWN_COUNT_WORD;
    words[12] = 0;
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
    const shared = this.shared;
    const key = `${list.generation}/${shared?.generation ?? -1}/${this.sweepOwn()?.generation ?? -1}`;
    if (this.groups && this.groups.key === key && this.groups.positions === state.positions && this.groups.prev === state.prev) return this.groups;
    if (this.contactCapacity !== list.capacity) {
      this.contacts?.destroy();
      this.contacts = this.device.createBuffer({
        label: 'contacts.records',
        size: 4 * CONTACT_WORDS * list.capacity,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      this.contactCapacity = list.capacity;
    }
    const list2 = shared?.contacts ? shared.header : this.emptyList;
    this.groups = {
      key,
      positions: state.positions,
      prev: state.prev,
      build: this.buildTable.group({
        params: this.uniforms, positions: state.positions, topo: this.topology.buffer, list: list.list, results: list.results,
        contacts: this.contacts, overflow: list.overflow, pin: this.escapePin ?? this.emptyList, prev: state.prev, farSide: this.farSide.words,
      }),
      solve: this.solveTable.group({
        params: this.uniforms, positions: state.positions, prev: state.prev, list: list.list, contacts: this.contacts,
        acc: this.accumulators, status: this.objectStatus, list2, contacts2: shared?.contacts ?? this.emptyContacts,
        list3: this.emptyList, contacts3: this.emptyContacts3,
      }),
      args: shared?.contacts ? this.argsTable.group({ params: this.uniforms, list: list.list, list2, args: this.sharedArgs }) : undefined,
      sweep: [],
      sweepOnePass: [],
    };
    const own = this.sweepOwn();
    for (const [params, into] of [[this.uniforms, this.groups.sweep], [this.onePassUniforms, this.groups.sweepOnePass]] as const) {
      for (const second of [true, false]) {
        const row: GPUBindGroup[] = [];
        for (const third of [true, false]) {
          row.push(this.solveTable.group({
            params, positions: state.positions, prev: state.prev, list: list.list, contacts: this.contacts,
            acc: this.accumulators, status: this.objectStatus,
            list2: second ? list2 : this.emptyList, contacts2: second ? (shared?.contacts ?? this.emptyContacts) : this.emptyContacts,
            list3: third && own ? own.header : this.emptyList, contacts3: third && own ? own.contacts : this.emptyContacts3,
          }));
        }
        into.push(row);
      }
    }
    return this.groups;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.iterations < 1) throw new Error('ContactStage.encode: beginFrame was not called');
    const groups = this.bindGroups(state);
    const sharing = this.shared !== undefined && this.shared.active() && this.shared.workgroups() > 0 && groups.args !== undefined;
    const ownGroups = this.sources.filter((s) => s.source.active() && s.source.workgroups() > 0).map((s) => ({ group: this.sourceGroup(s, state), workgroups: s.source.workgroups() }));
    const pass = step.beginPass(encoder, 'contacts', 'contacts');
    // A round that only solves the contacts again (SolverParams.collideEvery 'contacts') keeps the
    // records the detecting round built, their multipliers included: its passes continue theirs.
    const build = !resolvesOnly(step);
    if (build) {
      pass.setPipeline(this.buildPipeline);
      pass.setBindGroup(0, groups.build);
      // Directly over the list's capacity (at most 65,535 workgroups: QueryList's limit), not
      // indirectly from detection's args (issue 24: a driver validates an indirect dispatch's args).
      pass.dispatchWorkgroups(Math.ceil(this.queryList.capacity / 64));
    }
    let dispatches = build ? 1 : 0;
    if (build && this.dropFarSide) {
      dispatches += this.farSide.encode(pass, { params: this.uniforms, positions: state.positions, list: this.queryList.list, contacts: this.contacts, prev: state.prev }, this.queryList.capacity);
    }
    // The sliver lift between the passes (sliverLift 'with-contacts', last round) needs the passes
    // as dispatches of their own: one sweep a pass, or the grid.
    const between = this.betweenPasses?.active(step) ? this.betweenPasses : undefined;
    if (this.sweeping && this.sources.length <= 1) dispatches += this.encodeSweep(pass, groups, sharing, ownGroups.length > 0, between, state);
    else dispatches += this.encodeGrid(pass, groups, sharing, ownGroups, between, state);
    if (step.round === step.rounds - 1 && this.objectCount > 1 && this.pushDirectionsWanted?.()) dispatches += this.encodePushDirections(pass, groups, sharing, ownGroups);
    if (step.substep === 0 && step.round === 0 && this.injectedCount > 0) {
      // The CPU's answers, after the substep's own contacts: same kernels over their own list.
      pass.end();
      const inj = this.injected!;
      const g = inj.groups(this, state);
      const p2 = step.beginPass(encoder, 'contacts', 'contacts.injected');
      const groups = Math.ceil(this.injectedCount / 64);
      const [ax, ay] = dispatchGrid(this.topology.vertexCount);
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

  /**
   * Every pass in one dispatch of one workgroup (sweepContacts): the main group (DCD's contacts and
   * the shared source), then the own-count source, in each pass. With `between`, one sweep of one
   * pass each, `between` before each after the first. Returns the dispatches (1, or the passes plus
   * between's).
   */
  private encodeSweep(
    pass: GPUComputePassEncoder, groups: NonNullable<typeof this.groups>, sharing: boolean, own: boolean, between: BetweenContactPasses | undefined, state: GpuState,
  ): number {
    if (!between) {
      pass.setPipeline(this.sweepPipeline);
      pass.setBindGroup(0, groups.sweep[sharing ? 0 : 1][own ? 0 : 1]);
      pass.dispatchWorkgroups(1);
      return 1;
    }
    const group = groups.sweepOnePass[sharing ? 0 : 1][own ? 0 : 1];
    let dispatches = 0;
    for (let k = 0; k < this.iterations; k++) {
      if (k > 0) dispatches += between.encode(pass, state);
      pass.setPipeline(this.sweepPipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(1);
      dispatches++;
    }
    return dispatches;
  }

  /**
   * The sliver lift 'clipped-to-contacts': after the last round's passes, each list's enabled
   * contacts between two bodies summed into their vertices' push-direction words
   * (sumPushDirections, one workgroup a bind group: the sweep's group, which binds the shared list
   * and a lone own-count source, then each further source's). Returns the dispatches.
   */
  private encodePushDirections(
    pass: GPUComputePassEncoder, groups: NonNullable<typeof this.groups>, sharing: boolean, ownGroups: { group: GPUBindGroup }[],
  ): number {
    const third = this.sources.length <= 1 && ownGroups.length > 0;
    pass.setPipeline(this.pushDirectionPipeline);
    pass.setBindGroup(0, groups.sweep[sharing ? 0 : 1][third ? 0 : 1]);
    pass.dispatchWorkgroups(1);
    if (third) return 1;
    for (const g of ownGroups) {
      pass.setBindGroup(0, g.group);
      pass.dispatchWorkgroups(1);
    }
    return 1 + ownGroups.length;
  }

  /** The source with counts of its own that the sweep solves as its third list (one at most; with more the passes run as grid dispatches). */
  private sweepOwn(): ContactSource | undefined {
    return this.sources.length === 1 ? this.sources[0].source : undefined;
  }

  /** The passes as count / solve / apply dispatches over the lists and the vertices. Returns the dispatches. */
  private encodeGrid(
    pass: GPUComputePassEncoder, groups: NonNullable<typeof this.groups>, sharing: boolean, ownGroups: { group: GPUBindGroup; workgroups: number }[],
    between: BetweenContactPasses | undefined, state: GpuState,
  ): number {
    // With a shared source: one count and one solve dispatch cover both lists ([x, 2, 1]).
    let args = this.queryList.args;
    if (sharing) {
      pass.setPipeline(this.argsPipeline);
      pass.setBindGroup(0, groups.args!);
      pass.dispatchWorkgroups(1);
      args = this.sharedArgs;
    }
    const [ax, ay] = dispatchGrid(this.topology.vertexCount);
    // Each pass: counts of the contacts violated now, then the Jacobi solve, then apply (which
    // zeroes the counts): DCD and the shared source together, then each own-count group.
    // No call repeats the pipeline or group already set (JavaScript encode time, issue 11).
    let betweenDispatches = 0;
    for (let k = 0; k < this.iterations; k++) {
      if (k > 0 && between) betweenDispatches += between.encode(pass, state);
      pass.setPipeline(this.countPipeline);
      pass.setBindGroup(0, groups.solve);
      pass.dispatchWorkgroupsIndirect(args, 0);
      pass.setPipeline(this.solvePipeline);
      pass.dispatchWorkgroupsIndirect(args, 0);
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
    return (sharing ? 1 : 0) + (3 + 3 * ownGroups.length) * this.iterations + betweenDispatches;
  }

  private sourceGroup(s: (typeof this.sources)[number], state: GpuState): GPUBindGroup {
    const key = `${s.source.generation}/${this.queryList.generation}`;
    if (s.groups && s.groups.key === key && s.groups.positions === state.positions && s.groups.prev === state.prev) return s.groups.group;
    const group = this.solveTable.group({
      params: s.uniforms, positions: state.positions, prev: state.prev, list: s.source.header, contacts: s.source.contacts,
      acc: this.accumulators, status: this.objectStatus, list2: this.emptyList, contacts2: this.emptyContacts,
      list3: this.emptyList, contacts3: this.emptyContacts3,
    });
    s.groups = { key, positions: state.positions, prev: state.prev, group };
    return group;
  }

  /** Bind groups of the injected set (its own list, results, contacts and uniforms; counts in OWN_COUNT_WORD). */
  injectedGroups(inj: Injected, state: GpuState): { build: GPUBindGroup; solve: GPUBindGroup } {
    return {
      build: this.buildTable.group({
        params: inj.uniforms, positions: state.positions, topo: this.topology.buffer, list: inj.list, results: inj.results,
        contacts: inj.contacts, overflow: this.queryList.overflow, pin: this.escapePin ?? this.emptyList, prev: state.prev, farSide: this.farSide.words,
      }),
      solve: this.solveTable.group({
        params: inj.uniforms, positions: state.positions, prev: state.prev, list: inj.list, contacts: inj.contacts,
        acc: this.accumulators, status: this.objectStatus, list2: this.emptyList, contacts2: this.emptyContacts,
        list3: this.emptyList, contacts3: this.emptyContacts3,
      }),
    };
  }

  destroy(): void {
    this.ownStatus?.destroy();
    this.uniforms.destroy();
    this.onePassUniforms.destroy();
    for (const s of this.sources) s.uniforms.destroy();
    this.accumulators.destroy();
    this.sharedArgs.destroy();
    this.emptyList.destroy();
    this.emptyContacts.destroy();
    this.emptyContacts3.destroy();
    this.contacts?.destroy();
    this.injected?.destroy();
    this.farSide.destroy();
  }
}

/** Buffers of the injected contacts (a query list of their own). */
class Injected {
  readonly list: GPUBuffer;
  readonly results: GPUBuffer;
  readonly contacts: GPUBuffer;
  readonly uniforms: GPUBuffer;
  private cached?: { positions: GPUBuffer; prev: GPUBuffer; overflow: GPUBuffer; groups: { build: GPUBindGroup; solve: GPUBindGroup } };

  constructor(
    device: GPUDevice,
    readonly capacity: number,
  ) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.list = device.createBuffer({ label: 'contacts.injected.list', size: 4 * (QL_HEADER_WORDS + QUERY_WORDS * capacity), usage });
    this.results = device.createBuffer({ label: 'contacts.injected.results', size: 4 * RESULT_WORDS * capacity, usage });
    this.contacts = device.createBuffer({ label: 'contacts.injected.records', size: 4 * CONTACT_WORDS * capacity, usage });
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
    this.uniforms.destroy();
  }
}
