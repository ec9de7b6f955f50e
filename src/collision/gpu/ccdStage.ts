/**
 * The 'ccd' stage (supplement Alg. 5 lines 13-16): every substep, after detection (which marks
 * the points already penetrating at the substep's start, Pin) and before the contacts stage, one
 * dispatch of shaders/ccdNarrow.wgsl over the frame's candidate pairs: conservative f32 CCD
 * (shaders/lib/ccd.wgsl) of the motion from the substep's start to after the material solve,
 * each hit a contact record that the contacts stage solves with the DCD contacts (it is a
 * ContactSource), plus the check that every boundary vertex stayed in its swept box.
 *
 * The candidates come from the broad phase that the worker pool runs once per frame on swept,
 * inflated boxes (collision/ccd/broadPhase.ts, ccdSchedule.ts); `setCandidates` hands them over
 * before the frame is recorded and beginFrame uploads them (8 bytes per pair, 24 per vertex for
 * the boxes): no readback and no CPU round trip inside the frame.
 *
 * Every test first compares the pair's boxes over the motion (lib/ccd.wgsl ccdMotionBoxesApart).
 * On a software adapter (SwiftShader, which the tests and GPU-less runs use) each round takes two
 * dispatches (`substepBoxes`): ccdSweep over the round's candidates (the Pin skips, the later
 * rounds' marks, the boxes' escape checks, and that box test), then ccdNarrow's solve over the
 * pairs the boxes leave, an indirect grid the sweep sizes. Such an
 * adapter runs every invocation through the whole inlined kernel, so a candidate that the box test
 * settles costs there what a solved one does (docs/benchmarks.md "Where SwiftShader spends the GPU
 * tests' CCD time"); on a GPU an invocation runs only what it reaches, and one dispatch stays.
 * The same tests, hits and contacts either way (lib/ccd.wgsl ccdMotionBoxesApart never drops a pair
 * the solve would hit).
 *
 * Header words (frame sums, read back with the frame's counters): see CCD_* in ccdNarrow.wgsl.
 */
import code from '../../../shaders/ccdNarrow.wgsl?raw';
import nearArgsCode from '../../../shaders/ccdNearArgs.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, powerOfTwoAtLeast, storageBufferLimit, uniformBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import { effectiveCollisionMode, type SolverParams } from '../../contract/params';
import { resolvesOnly, type GpuStage, type SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import { ownEscapeFlagged, type EscapedVertexList, type ScheduledInput } from '../ccd/ccdSchedule';
import { emptyCcdCounters, type CcdFrameCounters } from '../counters';
import { uniformRamp } from '../contactOffset';
import type { CollisionTopologyGpu } from './collisionTopology';
import { CONTACT_WORDS, type ContactSource } from './contactStage';
import { QL_HEADER_BYTES, QL_HEADER_WORDS, QUERY_WORDS } from './queryList';
import { candidateLayout, candidateRoomWithin, keptCandidates } from './candidateRoom';

export type CcdSettings = Pick<SolverParams, 'collisions' | 'recovery' | 'collisionMode'> & Partial<Pick<SolverParams, 'ccdEveryRound' | 'pinByKind' | 'ccdEdgeInterior' | 'ccdSkipInverted'>>;

const PARAM_WORDS = 28;
const FLAG_SKIP_PIN = 1;
/** The own-frame boxes and references follow the world boxes in the boxes buffer: check them too. */
const FLAG_CHECK_OWN = 2;
/** A later round (SolverParams.ccdEveryRound): append, skip pairs already in contact, no box checks (ccdNarrow.wgsl CCD_LATER_ROUND). */
const FLAG_LATER_ROUND = 4;
/** The detecting round of a substep whose later rounds run CCD: marks the candidates (in contact, far) and keeps the positions it tested. */
const FLAG_MARK_ROUNDS = 8;
/** SolverParams.pinByKind (ccdNarrow.wgsl CCD_PIN_BY_KIND): a Pin point skips only the pairs of its mark's kind. */
const FLAG_PIN_BY_KIND = 16;
/** SolverParams.ccdEdgeInterior (ccdNarrow.wgsl CCD_EDGE_INTERIOR): edge-edge CCD searches the edges' interiors. */
const FLAG_EDGE_INTERIOR = 32;
/** SolverParams.ccdSkipInverted (ccdNarrow.wgsl CCD_SKIP_INVERTED): same-object pairs at a tet inverted at the substep's start are left out. */
const FLAG_SKIP_INVERTED = 64;
/** A round's solve over ccdSweep's list (ccdNarrow.wgsl CCD_FROM_LIST; `substepBoxes`). */
const FLAG_FROM_LIST = 128;
/** Header words read back per frame: [CCD_HITS_VF, CCD_ESCAPE_LIST_COUNT] of ccdNarrow.wgsl. */
export const CCD_COUNTER_FIRST = 16;
export const CCD_COUNTER_WORDS = 16;
/**
 * The escape list (ccdNarrow.wgsl CCD_ESCAPE_LIST, CCD_ESCAPE_LIST_CAPACITY): entries of (vertex,
 * f32 bits of how far outside its box it lay) from this word of the vertex-triangle header, past
 * the query-list header and the room for one query that the contact solve binds. Read back with
 * the counters (8 bytes an entry), so that ccdSchedule.ts widens the escaped vertices' boxes only.
 */
export const ESCAPE_LIST_FIRST_WORD = QL_HEADER_WORDS + QUERY_WORDS;
export const ESCAPE_LIST_CAPACITY = 4096;
export const ESCAPE_LIST_WORDS = 2 * ESCAPE_LIST_CAPACITY;
/**
 * Words after the escape list, read back with it: the contacts the later rounds added, the
 * vertices they found beyond the reach and the near lists' lengths (ccdNarrow.wgsl
 * CCD_LATER_ROUND_HITS, CCD_LATER_ROUND_BEYOND, CCD_LATER_ROUND_LISTED) and the exit contacts
 * (CCD_EXIT_CONTACTS, SolverParams.pinRelease), and the pairs left out at inverted tets
 * (CCD_SKIPPED_INVERTED, SolverParams.ccdSkipInverted), and the tests whose boxes over the motion
 * were apart (CCD_MOTION_APART), and the hits across a thick layer that are not the surfaces' nearest pair (CCD_OFF_FEATURE).
 */
export const CCD_TAIL_WORDS = 7;
/** Words of the edge-edge list's header the detecting round clears: the count and the near list's length (ccdParams.wgsl CCD_NEAR_COUNT). */
const EE_HEADER_CLEARED_BYTES = 8;
/** ccdNarrow.wgsl CCD_SOLVE_COUNT: the byte of the edge-edge header where the sweep's list length lies. */
const SOLVE_COUNT_BYTE = 4 * 43;
const W = {
  hitsVertexFace: 0, hitsEdgeEdge: 1, dropped: 2, escaped: 3, skippedPin: 4, backFace: 5, maxCount: 6, tests: 7, edgeEdgeAtEnd: 8, escapedSelf: 9, escapedSelfObjects: 10,
  escapeDistance: 12, escapeDistanceSelf: 13, escapeListCount: 14, edgeEdgeApart: 15,
} as const;

/** The largest direct 1D dispatch we allow for the contact solve (65,535 groups of 64). */
const MAX_CAPACITY = 65535 * WORKGROUP_SIZE;

/** The frame's candidates and the boxes they were found with (6 floats per vertex: lo xyz, hi xyz), from ccdSchedule.ts. */
export type CcdFrameInput = ScheduledInput;

/** One of CCD's two contact lists as the contact stage sees it. */
class CcdContactList implements ContactSource {
  readonly header: GPUBuffer;
  contacts!: GPUBuffer;
  capacity = 0;
  generation = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
    private readonly stage: CcdStage,
    extraWords = 0,
  ) {
    // The contact solve binds this as a query list: the header and room for one Query (then, for
    // the vertex-triangle list, the escape list).
    this.header = device.createBuffer({ label: `${label}.header`, size: QL_HEADER_BYTES + 4 * QUERY_WORDS + 4 * extraWords, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  }

  allocate(capacity: number): void {
    this.contacts?.destroy();
    this.capacity = capacity;
    this.contacts = this.device.createBuffer({
      label: `${this.label}.contacts`,
      size: 4 * CONTACT_WORDS * capacity,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    this.generation++;
  }

  active(): boolean {
    return this.stage.active();
  }

  workgroups(): number {
    return this.stage.contactWorkgroups();
  }

  destroy(): void {
    this.header.destroy();
    this.contacts.destroy();
  }
}

export class CcdStage implements GpuStage {
  readonly phase = 'ccd' as const;
  /** Runs after every material iteration when SolverParams.collideEvery says so (SubstepContext.round). */
  readonly perRound = true;
  private readonly table;
  declare private readonly pipeline: GPUComputePipeline;
  /** Each round's first dispatch on a software adapter (ccdNarrow.wgsl ccdSweep; `substepBoxes`). */
  declare private readonly sweepPipeline: GPUComputePipeline;
  /** Disables the edge-edge contacts only their own round solves (ccdNarrow.wgsl retireDetectingRoundOnly). */
  declare private readonly retirePipeline: GPUComputePipeline;
  /** The later rounds' indirect grid over the near list (ccdNearArgs.wgsl). */
  declare private readonly nearArgsPipeline: GPUComputePipeline;
  private readonly nearArgsTable;
  /** [x, y, 1] of the later rounds' ccdNarrow dispatches, written once a substep by the detecting round. */
  private readonly nearArgs: GPUBuffer;
  /** [x, y, 1] of the solve over ccdSweep's list (`substepBoxes`), which the sweep raises as the list grows (ccdNarrow.wgsl solveGrid). */
  private readonly solveGrid: GPUBuffer;
  /**
   * The most pairs the near list holds (default: NEAR_LIST_SHARE of the candidates' room); with more
   * near pairs the later rounds scan every candidate. 0: always scan (tests compare the two).
   */
  nearListLimit?: number;
  /** The near list's room in the current candidates buffer (pairs), and where it starts (words). */
  private nearRoom = 0;
  private readonly uniforms: GPUBuffer;
  /** The later rounds' uniforms (FLAG_LATER_ROUND; SolverParams.ccdEveryRound). */
  private readonly laterUniforms: GPUBuffer;
  /** The solves over ccdSweep's list (FLAG_FROM_LIST): the detecting round's, the later rounds'. */
  private readonly listUniforms: GPUBuffer;
  private readonly laterListUniforms: GPUBuffer;
  /**
   * Each round as ccdSweep and then the solve over the pairs whose boxes over the substep's motion
   * are not apart (two dispatches), instead of one ccdNarrow dispatch over its candidates. Default:
   * on a software adapter only (the constructor's `softwareAdapter`). Read at each upload (the
   * sweep's list needs room in the candidates buffer, 4 bytes a pair, left out otherwise) and each
   * round (a round without that room takes one dispatch).
   */
  substepBoxes: boolean;
  /** The sweep's list's room in the current candidates buffer (pairs; 0 without `substepBoxes`). */
  private solveRoom = 0;
  /** Vertex-triangle contacts (their header also holds the frame counters from word 16); they share the DCD contacts' counts. */
  readonly vertexFace: CcdContactList;
  /** Edge-edge contacts, with counts of their own (solved as a group after the point-face contacts, ccdNarrow.wgsl). */
  readonly edgeEdge: CcdContactList;
  capacity = 0;
  private generation = 0;
  /** The most bytes of one buffer bound whole as storage on this device (gpu/buffers.ts storageBufferLimit). */
  private readonly storageLimit: number;
  /** The separation CCD keeps (world units): contacts are reported and held at this distance (set by the owner). */
  separation = 0;
  /** The separation of a pair of one object (contactOffset.ts selfContactOffset; set by the owner; <= separation). */
  selfSeparation = 0;
  /** How far a vertex may move in the later rounds before pairs skipped as far could be missed (collision/ccd/laterRounds.ts; set by the owner). */
  laterReach = 0;
  /** The offset layer's opening per build (contactOffset.ts offsetRampStep; set by the owner per frame; Infinity: none). */
  offsetRamp = Infinity;
  /** The most pre-existing depth a build removes (contactOffset.ts offsetRampStep of effectiveDepenetrationSpeed; set by the owner per frame; Infinity: no limit). */
  depenetration = Infinity;
  private candidates?: GPUBuffer;
  private candidateCapacity = 0;
  /**
   * The most candidate pairs the GPU gets a frame: what one `ccd.candidates` buffer holds within
   * this device's maxBufferSize and maxStorageBufferBindingSize (candidateRoom.ts). A frame's pairs
   * beyond it are left out of its CCD and counted (counters.ccd.candidatesLeftOut). Tests set it lower.
   */
  maxCandidatePairs: number;
  /** Pairs of the current input left out (over maxCandidatePairs). */
  private candidatesLeftOut = 0;
  /** The boxes of the current candidates (shaders/lib/ccdBoxes.wgsl), also read by detection (EscapeBoxes). */
  readonly boxes: GPUBuffer;
  private vfCount = 0;
  private eeCount = 0;
  private readonly objectCount: number;
  /** The current input has own-frame boxes (self-collision on when its job started). */
  private checkOwn = false;
  private pending?: CcdFrameInput;
  private current?: CcdFrameInput;
  private group?: {
    key: string; positions: GPUBuffer; prev: GPUBuffer; group: GPUBindGroup; later: GPUBindGroup; list: GPUBindGroup; sweep: GPUBindGroup;
    laterSweep: GPUBindGroup; laterList: GPUBindGroup; nearArgs: GPUBindGroup;
  };
  private running = false;
  /** SolverParams.ccdEveryRound as beginFrame read it: the frame's uniforms and later rounds follow it. */
  private laterThisFrame = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly topology: CollisionTopologyGpu,
    private readonly pin: GPUBuffer,
    private readonly settings: () => Readonly<CcdSettings>,
    initialCapacity = 1024,
    softwareAdapter = false,
  ) {
    this.substepBoxes = softwareAdapter;
    this.storageLimit = storageBufferLimit(device.limits);
    this.maxCandidatePairs = candidateRoomWithin(this.storageLimit, softwareAdapter);
    this.table = new BindingTable(device, 'ccd.narrow', {
      params: 'uniform', positions: 'read-only-storage', prev: 'read-only-storage', topo: 'read-only-storage', pin: 'read-only-storage',
      candidates: 'storage', boxes: 'storage', header: 'storage', contacts: 'storage',
      eeHeader: 'storage', eeContacts: 'storage',
    });
    // Compiled on first use (gpu/lazyPipelines.ts).
    definePipelines(this, {
      pipeline: () => wgslPipeline(device, 'ccd.narrow', code, 'ccdNarrow', [this.table.layout]),
      sweepPipeline: () => wgslPipeline(device, 'ccd.sweep', code, 'ccdSweep', [this.table.layout]),
      retirePipeline: () => wgslPipeline(device, 'ccd.retire', code, 'retireDetectingRoundOnly', [this.table.layout]),
      nearArgsPipeline: () => wgslPipeline(device, 'ccd.nearArgs', nearArgsCode, 'nearArgs', [this.nearArgsTable.layout]),
    });
    this.nearArgsTable = new BindingTable(device, 'ccd.nearArgs', { params: 'uniform', eeHeader: 'read-only-storage', args: 'storage' });
    this.nearArgs = device.createBuffer({ label: 'ccd.nearArgs', size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT });
    this.solveGrid = device.createBuffer({ label: 'ccd.solveGrid', size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST });
    this.uniforms = uniformBuffer(device, 'ccd.params', 4 * PARAM_WORDS);
    this.laterUniforms = uniformBuffer(device, 'ccd.laterParams', 4 * PARAM_WORDS);
    this.listUniforms = uniformBuffer(device, 'ccd.listParams', 4 * PARAM_WORDS);
    this.laterListUniforms = uniformBuffer(device, 'ccd.laterListParams', 4 * PARAM_WORDS);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.vertexFace = new CcdContactList(device, 'ccd.vertexFace', this, ESCAPE_LIST_WORDS + CCD_TAIL_WORDS);
    this.edgeEdge = new CcdContactList(device, 'ccd.edgeEdge', this);
    // World boxes (6 floats per vertex), own-frame boxes (6 per vertex), references (4 words per object).
    this.objectCount = topology.mesh.vertexObject.reduce((a, o) => Math.max(a, o + 1), 0);
    // ... then the positions the detecting round tested (4 floats per vertex; SolverParams.ccdEveryRound).
    this.boxes = device.createBuffer({ label: 'ccd.boxes', size: Math.max(32, 64 * topology.vertexCount + 16 * this.objectCount), usage });
    this.allocateContacts(initialCapacity);
  }

  private allocateContacts(capacity: number): void {
    // Within the dispatch's reach and one storage binding (CONTACT_WORDS words a contact); the
    // contacts past it are dropped and counted (counters.ccd.dropped), as before it grows.
    this.capacity = Math.min(MAX_CAPACITY, Math.floor(this.storageLimit / (4 * CONTACT_WORDS)), capacity);
    this.vertexFace.allocate(this.capacity);
    this.edgeEdge.allocate(this.capacity);
    this.generation++;
  }

  /** The frame counters' buffer (ccdNarrow.wgsl CCD_* words from CCD_COUNTER_FIRST). */
  get header(): GPUBuffer {
    return this.vertexFace.header;
  }

  /** True when this frame runs CCD (collisions on, mode hybrid or ccd, not recovery). */
  wanted(): boolean {
    const s = this.settings();
    return s.collisions && effectiveCollisionMode(s) !== 'dcd';
  }

  /** The candidates for the next frame to be recorded (from ccdSchedule.ts). */
  setCandidates(input: CcdFrameInput): void {
    const n = input.boxes.length;
    if (n !== 6 * this.topology.vertexCount) throw new RangeError(`CcdStage.setCandidates: ${n} box floats for ${this.topology.vertexCount} vertices (6 each expected)`);
    this.pending = input;
  }

  /** Called by the time step once per frame before beginFrame (and by the contact stage): CCD wanted and candidates given. */
  active(): boolean {
    this.running = this.wanted() && (this.pending !== undefined || this.current !== undefined);
    return this.running;
  }

  /**
   * Detection's EscapeBoxes: this frame's boxes hold (CCD runs with candidates), and with own-frame
   * boxes (self-collision on when the job started). Valid after active(), before beginFrame.
   */
  escapeChecks(): { world: boolean; own: boolean } {
    return { world: this.running, own: this.running && (this.pending ?? this.current)?.own !== undefined };
  }

  beginFrame(encoder: GPUCommandEncoder): void {
    if (!this.running) return;
    if (this.pending) this.upload(this.pending);
    const s = this.settings();
    const topo = this.topology;
    const points = this.vfCount + this.eeCount + topo.boundaryVertexCount;
    const words = new Uint32Array(PARAM_WORDS);
    const floats = new Float32Array(words.buffer);
    words.set([this.vfCount, this.eeCount, topo.boundaryVertexCount, gridRowStride(points),
      (effectiveCollisionMode(s) === 'hybrid' ? FLAG_SKIP_PIN | ((s.pinByKind ?? false) ? FLAG_PIN_BY_KIND : 0) : 0) | (this.checkOwn ? FLAG_CHECK_OWN : 0) | ((s.ccdEdgeInterior ?? false) ? FLAG_EDGE_INTERIOR : 0) | ((s.ccdSkipInverted ?? false) ? FLAG_SKIP_INVERTED : 0), this.capacity, topo.vertexCount]);
    floats[7] = this.separation;
    words.set([topo.offsets.triangles, topo.offsets.boundaryEdges, topo.offsets.boundaryVertices, topo.offsets.edgeTriangles, topo.offsets.triangleAcross, topo.offsets.vtOffsets, topo.offsets.vtList], 8);
    floats[15] = uniformRamp(this.offsetRamp);
    floats[16] = this.laterReach;
    floats[18] = uniformRamp(this.depenetration);
    words[17] = 12 * topo.vertexCount + 4 * this.objectCount;
    words[19] = topo.offsets.tets;
    words[20] = topo.offsets.triangleTet;
    floats[21] = Math.min(this.selfSeparation, this.separation);
    words[22] = Math.min(this.nearRoom, Math.max(0, Math.floor(this.nearListLimit ?? Infinity)));
    words[23] = 2 * this.candidateCapacity;
    words[24] = 2 * this.candidateCapacity + this.nearRoom;
    const detectFlags = words[4];
    const later = (this.laterThisFrame = this.settings().ccdEveryRound ?? false);
    if (later) words[4] |= FLAG_MARK_ROUNDS;
    this.device.queue.writeBuffer(this.uniforms, 0, words);
    // The solve over the sweep's list (the sweep made the candidates' marks; the solve marks its contacts).
    words[4] |= FLAG_FROM_LIST;
    this.device.queue.writeBuffer(this.listUniforms, 0, words);
    if (later) {
      words[4] = detectFlags | FLAG_LATER_ROUND;
      this.device.queue.writeBuffer(this.laterUniforms, 0, words);
      words[4] |= FLAG_FROM_LIST;
      this.device.queue.writeBuffer(this.laterListUniforms, 0, words);
    }
    encoder.clearBuffer(this.vertexFace.header);
    encoder.clearBuffer(this.edgeEdge.header, 0, EE_HEADER_CLEARED_BYTES);
  }

  private upload(input: CcdFrameInput): void {
    this.pending = undefined;
    this.current = input;
    const kept = keptCandidates(input.candidates.vertexFace.length / 2, input.candidates.edgeEdge.length / 2, this.maxCandidatePairs);
    const vf = input.candidates.vertexFace.subarray(0, 2 * kept.vertexFace);
    const ee = input.candidates.edgeEdge.subarray(0, 2 * kept.edgeEdge);
    this.vfCount = kept.vertexFace;
    this.eeCount = kept.edgeEdge;
    this.candidatesLeftOut = kept.leftOut;
    const words = this.vfCount + this.eeCount;
    if (!this.candidates || this.candidateCapacity < words || (this.substepBoxes && this.solveRoom < this.candidateCapacity)) {
      this.candidates?.destroy();
      this.candidateCapacity = Math.max(1, Math.min(this.maxCandidatePairs, Math.max(1024, powerOfTwoAtLeast(words))));
      const layout = candidateLayout(this.candidateCapacity, this.substepBoxes);
      this.nearRoom = layout.nearRoom;
      this.solveRoom = layout.solveRoom;
      this.candidates = this.device.createBuffer({
        label: 'ccd.candidates',
        size: layout.bytes,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.group = undefined;
    }
    const q = this.device.queue;
    if (vf.length > 0) q.writeBuffer(this.candidates, 0, unshared(vf));
    if (ee.length > 0) q.writeBuffer(this.candidates, 4 * vf.length, unshared(ee));
    q.writeBuffer(this.boxes, 0, input.boxes as Float32Array<ArrayBuffer>);
    this.checkOwn = input.own !== undefined;
    if (input.own) {
      const n = this.topology.vertexCount;
      if (input.own.boxes.length !== 6 * n || input.own.references.length !== 4 * this.objectCount) {
        throw new RangeError(`CcdStage: own-frame input has ${input.own.boxes.length} box floats and ${input.own.references.length} reference words (expected ${6 * n} and ${4 * this.objectCount})`);
      }
      q.writeBuffer(this.boxes, 24 * n, input.own.boxes as Float32Array<ArrayBuffer>);
      q.writeBuffer(this.boxes, 48 * n, unshared(input.own.references));
    }
  }

  /** The detecting round's bind group, or the later rounds', the sweep's or the solve's over the sweep's list. */
  private bindGroup(state: GpuState, round: 'detect' | 'later' | 'list' | 'sweep' | 'laterSweep' | 'laterList' = 'detect'): GPUBindGroup {
    const key = `${this.generation}/${this.candidateCapacity}`;
    if (!(this.group && this.group.key === key && this.group.positions === state.positions && this.group.prev === state.prev)) {
      const entries = {
        params: this.uniforms, positions: state.positions, prev: state.prev, topo: this.topology.buffer, pin: this.pin,
        candidates: this.candidates!, boxes: this.boxes, header: this.vertexFace.header, contacts: this.vertexFace.contacts,
        eeHeader: this.edgeEdge.header, eeContacts: this.edgeEdge.contacts,
      };
      this.group = {
        key, positions: state.positions, prev: state.prev, group: this.table.group(entries), later: this.table.group({ ...entries, params: this.laterUniforms }),
        list: this.table.group({ ...entries, params: this.listUniforms }),
        // ccdSweep writes no contact: its binding 10 holds the solve's grid (ccdNarrow.wgsl solveGrid).
        sweep: this.table.group({ ...entries, eeContacts: this.solveGrid }),
        laterSweep: this.table.group({ ...entries, params: this.laterUniforms, eeContacts: this.solveGrid }),
        laterList: this.table.group({ ...entries, params: this.laterListUniforms }),
        nearArgs: this.nearArgsTable.group({ params: this.uniforms, eeHeader: this.edgeEdge.header, args: this.nearArgs }),
      };
    }
    return round === 'detect' ? this.group.group : this.group[round];
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (!this.running) return;
    // A round that only solves the contacts again keeps the detecting round's CCD contacts, and
    // with SolverParams.ccdEveryRound adds those of pairs that came within the offset since.
    if (resolvesOnly(step)) {
      this.encodeLaterRound(encoder, state, step);
      return;
    }
    encoder.clearBuffer(this.vertexFace.header, 0, 4);
    encoder.clearBuffer(this.edgeEdge.header, 0, EE_HEADER_CLEARED_BYTES);
    const points = this.vfCount + this.eeCount + this.topology.boundaryVertexCount;
    if (points === 0) return;
    const sweep = this.sweeps();
    // The solve's grid and the list's length start at 0 (ccdSweep raises them; z it sets to 1).
    if (sweep) this.clearSolveList(encoder);
    const pass = step.beginPass(encoder, 'ccd', 'ccd.narrow');
    pass.setPipeline(sweep ? this.sweepPipeline : this.pipeline);
    pass.setBindGroup(0, this.bindGroup(state, sweep ? 'sweep' : 'detect'));
    const [x, y] = dispatchGrid(points);
    pass.dispatchWorkgroups(x, y);
    if (sweep) {
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup(state, 'list'));
      pass.dispatchWorkgroupsIndirect(this.solveGrid, 0);
    }
    if (this.laterThisFrame) {
      // The later rounds' grid over the near list this round just built (ccdNearArgs.wgsl).
      pass.setPipeline(this.nearArgsPipeline);
      pass.setBindGroup(0, this.group!.nearArgs);
      pass.dispatchWorkgroups(1);
    }
    pass.end();
    step.countDispatches(1 + (sweep ? 1 : 0) + (this.laterThisFrame ? 1 : 0));
  }

  /** This round runs as ccdSweep and the solve over its list: asked for, and the list has room for every candidate. */
  private sweeps(): boolean {
    return this.substepBoxes && this.solveRoom >= this.vfCount + this.eeCount;
  }

  /** The sweep's list empty and the solve's grid at 0 (ccdSweep raises it; z it sets to 1). */
  private clearSolveList(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.solveGrid);
    encoder.clearBuffer(this.edgeEdge.header, SOLVE_COUNT_BYTE, 4);
  }

  /**
   * A later round: first the edge-edge contacts that only their own round solves are disabled
   * (lib/contact.wgsl CONTACT_DETECTING_ROUND_ONLY; once a substep, in its first later round, unless
   * later rounds make contacts too). Then, with SolverParams.ccdEveryRound, the near list's pairs
   * (those the detecting round found within the later rounds' reach; every candidate when the list
   * overflowed) again, on the motion from the substep's start to now, appending to the substep's
   * contacts (no clear) and skipping the pairs already in contact; then each boundary vertex's move
   * since (beyond the reach: counted). One indirect dispatch sized by the detecting round
   * (ccdNearArgs.wgsl), or with `substepBoxes` a sweep over that grid and the solve over the pairs
   * it left. The boxes were checked by the detecting round.
   */
  private encodeLaterRound(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.vfCount + this.eeCount === 0) return;
    const retire = this.eeCount > 0 && (this.laterThisFrame || step.round === step.detectRounds);
    if (!retire && !this.laterThisFrame) return;
    const sweep = this.laterThisFrame && this.sweeps();
    if (sweep) this.clearSolveList(encoder);
    const pass = step.beginPass(encoder, 'ccd', 'ccd.laterRound');
    let dispatches = 0;
    if (retire) {
      pass.setPipeline(this.retirePipeline);
      pass.setBindGroup(0, this.bindGroup(state));
      pass.dispatchWorkgroups(Math.ceil(this.capacity / WORKGROUP_SIZE));
      dispatches++;
    }
    if (sweep) {
      pass.setPipeline(this.sweepPipeline);
      pass.setBindGroup(0, this.bindGroup(state, 'laterSweep'));
      pass.dispatchWorkgroupsIndirect(this.nearArgs, 0);
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup(state, 'laterList'));
      pass.dispatchWorkgroupsIndirect(this.solveGrid, 0);
      dispatches += 2;
    } else if (this.laterThisFrame) {
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup(state, 'later'));
      pass.dispatchWorkgroupsIndirect(this.nearArgs, 0);
      dispatches++;
    }
    pass.end();
    step.countDispatches(dispatches);
  }

  /**
   * What the frame just recorded ran with: with two frames in flight, a frame's counters are
   * read after the next frame has been recorded (and may have new candidates), so GpuCollisions
   * keeps this per frame and hands it to afterFrame.
   */
  recorded(): CcdRecorded {
    return { running: this.running, input: this.current, vfCount: this.vfCount, eeCount: this.eeCount, leftOut: this.candidatesLeftOut };
  }

  /** Workgroups of a contact list's solve: at most min(candidates, capacity) records. */
  contactWorkgroups(): number {
    if (!this.running || this.pending) return 0;
    return Math.ceil(Math.min(this.vfCount + this.eeCount, this.capacity) / WORKGROUP_SIZE);
  }

  /**
   * The frame's escape list (`words` as for afterFrame, the ESCAPE_LIST_WORDS list words following
   * the CCD_COUNTER_WORDS counters): each escaped vertex once, with its farthest excess (the larger
   * of its world and own-frame excess, over the frame's substeps).
   */
  escapedVertices(words: Uint32Array): EscapedVertexList {
    const listed = words[W.escapeListCount];
    const n = Math.min(listed, ESCAPE_LIST_CAPACITY);
    const list = words.subarray(CCD_COUNTER_WORDS, CCD_COUNTER_WORDS + 2 * n);
    const bits = new Float32Array(new Uint32Array(list).buffer);
    const farthest = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const v = list[2 * k], d = bits[2 * k + 1];
      if (!(d > 0) || v >= this.topology.vertexCount) continue;
      farthest.set(v, Math.max(farthest.get(v) ?? 0, d));
    }
    const vertices = Uint32Array.from(farthest.keys());
    return { vertices, distances: Float32Array.from(vertices, (v) => farthest.get(v)!), overflowed: listed > ESCAPE_LIST_CAPACITY };
  }

  /** What the runner and the page say of a frame whose pairs did not all fit (counters from afterFrame). */
  leftOutWarning(c: CcdFrameCounters): string {
    const tested = c.candidatesVertexFace + c.candidatesEdgeEdge;
    return `CCD: ${c.candidatesLeftOut} of ${c.candidatesLeftOut + tested} broad-phase pairs left out of this frame's CCD: one GPU buffer holds ${this.maxCandidatePairs} `
      + `(${this.storageLimit} bytes, this device's maxBufferSize / maxStorageBufferBindingSize). Their points get contacts only once inside, as in DCD. `
      + `The pairs grow with each vertex's |v| x the broad phase's horizon (${c.horizon.toPrecision(3)} s): a smaller time step (dt) or a CCD job latency of 0 (one frame's motion) shrinks it; the CPU engine has no such limit`;
  }

  /** Which objects' own-frame boxes escaped this frame (bit o % 64 of two words; ccdSchedule.ts ownEscapeFlagged), from the same words as afterFrame. */
  ownEscapeFlags(words: Uint32Array): Uint32Array {
    return words.slice(W.escapedSelfObjects, W.escapedSelfObjects + 2);
  }

  /**
   * After the frame's readback (`words`: the CCD_COUNTER_WORDS header words from CCD_COUNTER_FIRST):
   * the frame's counters; the contact capacity grows when contacts were dropped.
   */
  afterFrame(words: Uint32Array, recorded: CcdRecorded = this.recorded()): CcdFrameCounters {
    const c = emptyCcdCounters();
    if (!recorded.running || !recorded.input) return c;
    const cur = recorded.input;
    c.candidatesVertexFace = recorded.vfCount;
    c.candidatesEdgeEdge = recorded.eeCount;
    c.candidatesLeftOut = recorded.leftOut;
    c.tests = words[W.tests];
    c.skippedPin = words[W.skippedPin];
    c.hitsVertexFace = words[W.hitsVertexFace];
    c.hitsEdgeEdge = words[W.hitsEdgeEdge];
    c.backFace = words[W.backFace];
    c.edgeEdgeAtEnd = words[W.edgeEdgeAtEnd];
    c.edgeEdgeApart = words[W.edgeEdgeApart];
    c.laterRoundHits = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS] ?? 0;
    c.laterRoundBeyondReach = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 1] ?? 0;
    c.laterRoundListed = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 2] ?? 0;
    c.exitContacts = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 3] ?? 0;
    c.skippedInverted = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 4] ?? 0;
    c.motionBoxesApart = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 5] ?? 0;
    c.offFeature = words[CCD_COUNTER_WORDS + ESCAPE_LIST_WORDS + 6] ?? 0;
    c.dropped = words[W.dropped];
    c.escaped = words[W.escaped];
    c.escapedSelf = words[W.escapedSelf];
    // f32 bits (ccdNarrow.wgsl atomicMax of non-negative floats).
    const distances = new Float32Array(words.slice(W.escapeDistance, W.escapeDistanceSelf + 1).buffer);
    c.escapeDistance = distances[0];
    c.escapeDistanceSelf = distances[1];
    const flags = this.ownEscapeFlags(words);
    for (let o = 0; o < this.objectCount; o++) if (ownEscapeFlagged(flags, o)) c.escapedSelfObjects++;
    c.capacity = this.capacity;
    c.margin = cur.margin;
    c.selfMargin = cur.ownMargin;
    c.selfGrowth = largest(cur.ownGrowth);
    c.horizon = cur.horizon;
    c.jobMs = cur.jobMs;
    c.waitMs = cur.waitMs;
    c.selfListsReused = cur.keptPairs?.reused ?? 0;
    c.selfListsRebuilt = cur.keptPairs?.rebuilt ?? 0;
    c.selfWorldFrame = cur.selfFrames?.worldJoined ?? 0;
    c.interPairs = cur.interPairs ?? 0;
    c.interSlices = cur.interSlices ?? 0;
    const sc = cur.selfCulling;
    if (sc) {
      c.selfPairsBefore = sc.pairsBefore;
      c.selfPairsAfter = sc.pairsAfter;
      c.selfCulledFraction = sc.pairsBefore > 0 ? 1 - sc.pairsAfter / sc.pairsBefore : 0;
      c.selfConesMs = sc.conesMs;
      c.selfTraversalMs = sc.traversalMs;
      c.selfFilterMs = sc.filterMs;
    }
    // Grow for the next frame: the largest substep count seen, with room.
    if (words[W.maxCount] > this.capacity) this.allocateContacts(powerOfTwoAtLeast(words[W.maxCount] * 1.5));
    return c;
  }

  /** Forget the candidates (state reset): the next frame needs new ones. */
  reset(): void {
    this.pending = undefined;
    this.current = undefined;
    this.running = false;
  }

  destroy(): void {
    this.uniforms.destroy();
    this.laterUniforms.destroy();
    this.listUniforms.destroy();
    this.laterListUniforms.destroy();
    this.vertexFace.destroy();
    this.edgeEdge.destroy();
    this.candidates?.destroy();
    this.boxes.destroy();
    this.nearArgs.destroy();
    this.solveGrid.destroy();
  }
}

/** CcdStage.recorded(): the state a frame was recorded with. */
export interface CcdRecorded {
  running: boolean;
  input: CcdFrameInput | undefined;
  vfCount: number;
  eeCount: number;
  /** Pairs of the input left out of the frame (over CcdStage.maxCandidatePairs). */
  leftOut: number;
}

/** writeBuffer takes no SharedArrayBuffer views: those (the pool's shared path) are copied. */
function unshared(a: Uint32Array): Uint32Array<ArrayBuffer> {
  return a.buffer instanceof ArrayBuffer ? (a as Uint32Array<ArrayBuffer>) : new Uint32Array(a);
}

/** The largest entry of a non-negative array (0 when absent or empty). */
function largest(values: ArrayLike<number> | undefined): number {
  let most = 0;
  if (values) for (let i = 0; i < values.length; i++) if (values[i] > most) most = values[i];
  return most;
}
