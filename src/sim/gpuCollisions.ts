/**
 * The collision part of the GPU time step (paper 000 section 4, supplement Alg. 5): four stages
 * that GpuSolver puts between material and finalize, over the one GpuState,
 *
 *   detect    spatial hash of tet boxes (hybrid: swept over the substep), vertex / edge points
 *             (hybrid: marked Pin at the substep's start, then tested at its end if Pin;
 *             recovery: every vertex, tet centroids)
 *             -> Query list on the GPU, indirect args               (collision/gpu/detectStage.ts)
 *   spb       BVH refit + shortest path to boundary for every query, dispatched indirectly
 *                                                                  (spb/gpu/spbStage.ts)
 *   ccd       conservative CCD of the frame's candidate pairs (Pout only in hybrid), each hit
 *             a contact                                            (collision/gpu/ccdStage.ts)
 *   contacts  eq. 6 contacts, DCD's and CCD's, with Coulomb friction, Jacobi passes
 *                                                                  (collision/gpu/contactStage.ts)
 *
 * The mode (SolverParams.collisionMode: hybrid, dcd, ccd; recovery runs dcd) picks which run.
 * CCD's broad phase runs once per frame in the worker pool (collision/ccd/ccdSchedule.ts) on the
 * positions and velocities that come back with the frame's readback (an extra staging copy in
 * the same command buffer, mapped with it: no extra sync point).
 *
 * and what the host does once per frame with the frame's small readback (GpuSolver copies the
 * query list's header and the shortest path's statistics next to the NaN flags):
 * the frame's CollisionFrameCounters; capacities grown for the next frame when hits were dropped;
 * queries whose shortest path overflowed the GPU's static stacks answered by the CPU dynamic
 * version (in a worker when the caller passes one) and applied as contacts in the next frame's
 * first substep. That last one is the only extra readback (positions and the overflow list),
 * and only in frames where some query overflowed; both are counted.
 *
 * Frames in flight (GpuSolver.submitFrame keeps up to two): the host work of frame N runs after
 * frame N + 1 may already have been recorded and submitted, so what it decides lags by one
 * frame more than with one frame in flight:
 *   - CCD: frame N's snapshot starts the job for frame N + 2 (latency 1) as before; frame N + 1
 *     was recorded with the job from frame N - 1's snapshot, so nothing changes while the ring
 *     keeps at most two frames (frame N is processed before frame N + 2 is prepared). The
 *     snapshot staging is a ring (one buffer per frame slot), so frame N + 1's copy never
 *     targets a buffer mapped or pending a map for frame N. A frame's CCD counters come from
 *     what it was recorded with (CcdStage.recorded), not from the stage's current candidates.
 *   - Capacities grown from frame N's drops take effect at frame N + 2 (N + 1 was recorded
 *     with the old ones and may drop too, growing them again).
 *   - Overflowed queries: answered from the newest submitted frame's overflow list and end
 *     positions (one copy of list header, overflow list and positions, read together, so the
 *     three belong to the same frame), injected into the next frame recorded.
 *   - BVH rebuilds start from frame N's snapshot and are installed before a later frame is
 *     recorded, as before (they were already asynchronous).
 * Frames recorded before a reset() are not processed here at all (their snapshot, counters and
 * overflows describe a state that no longer exists).
 */
import { readBufferToCpu } from '../gpu/buffers';
import { CollisionTopologyGpu } from '../collision/gpu/collisionTopology';
import { ContactStage } from '../collision/gpu/contactStage';
import { InversionFloorStage } from '../collision/gpu/inversionFloorStage';
import { DetectStage, detectionRefitsOn } from '../collision/gpu/detectStage';
import { countersFromHeader } from '../collision/gpu/frameCounters';
import { OVERFLOW_ENTRY_WORDS, QL, QL_HEADER_BYTES, QUERY_ID_MASK, QUERY_KIND_CENTROID, QUERY_KIND_EDGE, QUERY_KIND_SHIFT, QUERY_WORDS, QueryList, RESULT_WORDS, QUERY_EUCLIDEAN } from '../collision/gpu/queryList';
import { buildSceneMesh } from '../collision/sceneMesh';
import { locateTet } from '../collision/locateTet';
import { meanBoundaryEdge, modelContactOffset, offsetRampStep, selfContactOffset } from '../collision/contactOffset';
import { emptyCollisionCounters, type CollisionFrameCounters } from '../collision/counters';
import type { TetMesh } from '../mesh/types';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../spb/meshData';
import { QUERY_FOUND } from '../spb/query';
import { inProcessFallback, type AnswerOverflowed } from '../spb/gpu/overflowFallback';
import { SpbStage } from '../spb/gpu/spbStage';
import { PenetrationTargets } from '../penetration/penetrationTargets';
import { penetrationKernels } from '../penetration/gpu/penetrationGpu';
import { ccdTopologyOf, type CcdTopology } from '../collision/ccd/broadPhase';
import { CcdSchedule, type CcdScheduleOptions, type StateSnapshot } from '../collision/ccd/ccdSchedule';
import { LONGEST_JOB_FRAMES } from '../collision/ccd/jobLatency';
import { CCD_BASE_MARGIN_RATIO, laterRoundReach } from '../collision/ccd/laterRounds';
import { inThreadJobs, type CollisionWorkerJobs } from '../collision/workerJobs';
import { DeviationMonitor, type DeviationObservation } from '../collision/selfCulling/deviationMonitor';
import type { SurfaceBvh } from '../bvh/surfaceBvh';
import { CCD_COUNTER_FIRST, CCD_COUNTER_WORDS, CCD_TAIL_WORDS, CcdStage, ESCAPE_LIST_FIRST_WORD, ESCAPE_LIST_WORDS, type CcdRecorded } from '../collision/gpu/ccdStage';
import type { Model } from './model';
import { effectiveCollisionMode, effectiveDepenetrationSpeed, effectiveDetectionRounds, effectiveImpactSubsteps, type SolverParams } from '../contract/params';
import type { GpuStage } from '../contract/stage';
import type { GpuState } from '../contract/state';

export interface GpuCollisionOptions {
  /** Answers overflowed shortest-path queries (default: the CPU dynamic version on this thread; workers/spbFallback.ts in a pool). */
  answerOverflowed?: AnswerOverflowed;
  /** CCD's broad phase and BVH rebuilds for the scene's topology (default: on this thread; app and runner pass the worker pool's, workers/collisionJobsPool.ts). */
  workerJobs?: (topology: CcdTopology) => CollisionWorkerJobs;
  /** When the broad phase runs relative to the frames it serves (ccdSchedule.ts). */
  ccdSchedule?: CcdScheduleOptions;
  /** The broad phase's base margin as a fraction of the mean boundary edge (default 0.25; never below twice the contact offset, which is CCD's separation). */
  ccdMarginRatio?: number;
  /** First capacity of the query and contact arrays (default: an eighth of the boundary vertices and edges, at least 1,024; it grows after a frame that dropped hits). */
  initialCapacity?: number;
  /** Hybrid: Pin marked by a hash and a detect dispatch of their own, as before issue 24 (DetectStage's separatePinPass; for the tests that compare the plans). */
  separatePinPass?: boolean;
  /** The shortest path's per-tet prepass as its own dispatch in the spb stage, as before issue 24 (not in the hash build; for the tests that compare the plans). */
  separatePrepass?: boolean;
  /** The BVH refit's dispatches in the spb stage, as before issue 24 (not inside the hash build's and detection's; for the tests that compare the plans, and the default on devices with fewer than 10 storage buffers per kernel). */
  separateRefit?: boolean;
  /** The adapter emulates a GPU on the CPU: CCD's detecting round sweeps the candidates' substep boxes first (CcdStage.substepBoxes). */
  softwareAdapter?: boolean;
}

/** Words of the shortest path's statistics copied per frame (src/spb/workspace.ts STAT_NAMES fit in it). */
const SPB_STATS_WORDS = 16;
/** What the host needs of a frame once it completed (GpuCollisions.endRecording). */
export interface CollisionFrameRecord {
  /** Frame index since the last reset. */
  frame: number;
  /** Its readback slot (the snapshot staging buffer it copied into). */
  slot: number;
  /** It copied its end positions and velocities into the slot's snapshot staging. */
  snapshot: boolean;
  /** That snapshot also feeds a BVH rebuild. */
  rebuild: boolean;
  /** What CCD ran with in this frame. */
  ccd: CcdRecorded;
  /** reset() count when it was recorded: frames of an earlier state are not processed. */
  epoch: number;
  /** Substeps it took (more than SolverParams.substeps on impact: impactSubsteps). */
  substeps: number;
}

/** What prepareFrame waited for before the frame could be recorded. */
export interface PrepareWait {
  /** Time awaiting CCD's candidates (worker job or blocking snapshot), ms: not encoding time. */
  waitMs: number;
  /** Blocking readbacks of the GPU state done before this frame (a missing CCD job's snapshot). */
  blockingReadbacks: number;
}

/** Versions of the CPU copy of positions the fallback reads: never repeated (a worker compares them). */
let lastPositionsVersion = 0;

export class GpuCollisions {
  readonly mesh: TetMesh;
  readonly spbData: SpbMeshData;
  readonly topology: CollisionTopologyGpu;
  readonly queryList: QueryList;
  readonly detect: DetectStage;
  readonly spb: SpbStage;
  readonly contacts: ContactStage;
  /** Recovery mode: the tets the contacts turned inside out lifted back (SolverParams.inversionFloor), after the contacts in every round. */
  readonly inversionFloor: InversionFloorStage;
  readonly ccd: CcdStage;
  readonly ccdSchedule: CcdSchedule;
  /** Readbacks done for the fallback since the start (positions and overflow lists), and their bytes. */
  fallbackReadbacks = 0;
  fallbackReadbackBytes = 0;
  private readonly answerOverflowed: AnswerOverflowed;
  private listGeneration: number;
  /** Per frame slot: staging for the frame-end positions and velocities (vec4 each) that CCD's broad phase reads. */
  private readonly snapshotStaging: GPUBuffer[];
  /** Blocking snapshot readbacks done before the frame (counted with the frame). */
  private preFrameReadbacks = 0;
  private preFrameReadbackBytes = 0;
  /** Index (since the last reset) of the frame being prepared and recorded; advanced by endRecording. */
  private recordIndex = 0;
  private epoch = 0;
  /** The off-thread jobs (CCD's broad phase, BVH rebuilds, the air mesh's optimisation). */
  readonly workerJobs: CollisionWorkerJobs;
  /** A BVH rebuild in a worker: running, or done and waiting to be installed before the next frame. */
  private bvhJob?: { started: number; done?: { bvh?: SurfaceBvh; error?: string; ms: number } };
  private pendingWarnings: string[] = [];
  /** The broad phase's base margin as a fraction of the mean boundary edge. */
  private readonly marginRatio: number;
  /**
   * The closing speed of the CCD job the frame being recorded uses (impactSubsteps.ts) and the
   * state it was measured on with its age in frames (ScheduledInput.closingState: the colliders'
   * measure runs on the same state), when impact-adaptive substeps are on and CCD ran; null
   * otherwise. Set by prepareFrame.
   */
  frameClosing: { speed: number; state: { snapshot: StateSnapshot; framesBefore: number } | null } | null = null;
  /** The scene's mean boundary edge at rest (world units): impact substeps' travel unit. */
  get meanEdge(): number {
    return meanBoundaryEdge(this.model);
  }
  private installed = { count: 0, ms: 0 };

  constructor(
    private readonly device: GPUDevice,
    readonly model: Model,
    private readonly params: () => Readonly<SolverParams>,
    options: GpuCollisionOptions = {},
    /** Frames that may be in flight at once (one snapshot staging buffer each). */
    slots = 1,
    /** The per-object status words (bit 0 stopped; held bits, src/contract/held.ts), which sticking contacts mark; a private buffer when absent. */
    objectStatus?: GPUBuffer,
  ) {
    this.mesh = buildSceneMesh(model);
    this.spbData = createSpbMeshData(this.mesh);
    this.topology = new CollisionTopologyGpu(device, this.mesh, this.spbData.tetComponent);
    const boundaryPoints = this.mesh.boundaryVertices.length + this.mesh.boundaryEdges.length / 2;
    this.queryList = new QueryList(device, options.initialCapacity ?? Math.max(1024, Math.ceil(boundaryPoints / 8)));
    this.listGeneration = this.queryList.generation;
    this.detect = new DetectStage(device, this.topology, this.queryList, params, { separatePinPass: options.separatePinPass });
    const list = this.queryList;
    this.spb = new SpbStage(device, this.spbData, list.list, list.args, list.results, {
      active: () => this.params().collisions && effectiveCollisionMode(this.params()) !== 'ccd',
      // The rest-pose methods of paper 000 Figs. 22-23 (src/penetration), built on first use.
      penetration: { method: () => this.params().penetration, kernels: penetrationKernels(new PenetrationTargets(this.mesh, model.restPositions)) },
    });
    // The shortest path's per-tet measures in the hash build (same tets, same positions): the
    // spb stage records no prepass (issue 24: one dispatch a substep fewer).
    if (!options.separatePrepass) {
      this.detect.measureTets(this.spb.mesh);
      this.spb.prepassInDetect = true;
    }
    // The BVH refit's 2 dispatches inside the hash build's and detection's, where the device
    // has the bindings (issue 24: 2 dispatches a substep fewer; detection runs in every substep
    // the spb stage runs, after the same material iterations).
    if (!options.separateRefit && detectionRefitsOn(device)) {
      this.detect.refitBvh(this.spb.mesh.bvhGpu);
      this.spb.refitInDetect = true;
    }
    this.contacts = new ContactStage(device, this.topology, this.queryList, params, objectStatus);
    this.inversionFloor = new InversionFloorStage(device, model, this.queryList, params, this.contacts.pushedMarks);
    this.contacts.betweenPasses = this.inversionFloor.betweenPasses;
    this.contacts.pushDirectionsWanted = () => this.inversionFloor.clipsToPushes();
    // Detection's indirect args only where a kernel of the frame reads them: the exact query and
    // the contact build dispatch directly over the list's capacity (issue 24).
    this.detect.argsReadWhen(() => this.contacts.readsQueryArgs() || (this.params().penetration ?? 'exact') !== 'exact');
    this.ccd = new CcdStage(device, this.topology, this.detect.pin, params, Math.max(1024, Math.ceil(boundaryPoints / 8)), options.softwareAdapter ?? false);
    this.detect.watchEscapes(this.ccd);
    this.contacts.checkEscapedWith(this.detect.pin, () => this.detect.escapesTestedThisFrame);
    this.contacts.addSource(this.ccd.vertexFace);
    this.contacts.addSource(this.ccd.edgeEdge, { ownCounts: true });
    this.marginRatio = options.ccdMarginRatio ?? CCD_BASE_MARGIN_RATIO;
    const topology = ccdTopologyOf(this.mesh);
    this.workerJobs = (options.workerJobs ?? inThreadJobs)(topology);
    // Self-collision culling's deviation bound: at least 1 % of the mean boundary edge, learnt as far
    // ahead as the longest job reaches (whatever latency ccdJobLatency runs).
    const deviation = new DeviationMonitor(topology, { floor: 0.01 * meanBoundaryEdge(model), horizonFrames: LONGEST_JOB_FRAMES });
    this.ccdSchedule = new CcdSchedule(this.workerJobs.broadPhase, this.marginRatio * meanBoundaryEdge(model), { ...options.ccdSchedule, deviation }, topology);
    this.applyContactOffset(params());
    this.snapshotStaging = Array.from({ length: slots }, (_, k) => device.createBuffer({
      label: `collisions.snapshotStaging${k}`,
      size: Math.max(16, 32 * model.vertexCount),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
    this.answerOverflowed = options.answerOverflowed ?? inProcessFallback();
  }

  /**
   * Before a frame is recorded, in recovery mode (every vertex, boundary edge and tet centroid a
   * query point, used on tangled states): a capacity of at least a quarter of those points, so
   * that switching recovery on does not drop most of a frame's hits before the capacity catches
   * up (a noodle switched into recovery dropped 19,060 of 39,540 hits in its first frame with
   * 1,024). Only grows; outside recovery mode the capacity follows the dropped hits.
   */
  async prepareFrame(state: GpuState): Promise<PrepareWait> {
    const p = this.params();
    this.applySpbOptions(p);
    this.applyContactOffset(p);
    if (p.collisions && p.penetration !== 'exact') this.spb.penetration!.prepare(p.penetration);
    this.installRebuiltBvh();
    const wait: PrepareWait = { waitMs: 0, blockingReadbacks: 0 };
    this.frameClosing = null;
    if (this.ccd.wanted()) {
      const t0 = performance.now();
      const impact = effectiveImpactSubsteps(p) > p.substeps;
      const input = await this.ccdSchedule.inputFor(this.recordIndex, p, () => {
        wait.blockingReadbacks++;
        return this.readSnapshot(state);
      }, { closingSpeed: impact });
      wait.waitMs = performance.now() - t0;
      this.ccd.setCandidates(input);
      this.frameClosing = impact && input.closingSpeed !== undefined ? { speed: input.closingSpeed, state: input.closingState ?? null } : null;
    }
    if (!p.collisions || !p.recovery) return wait;
    const m = this.mesh;
    const points = m.vertexCount + m.boundaryEdges.length / 2 + m.tetCount;
    if (this.queryList.grow(Math.min(this.queryList.maxGrowth, Math.ceil(points / 4)))) {
      this.listGeneration = this.queryList.generation;
      this.spb.setBuffers(this.queryList.list, this.queryList.args, this.queryList.results);
    }
    return wait;
  }

  /**
   * The contact offset delta (SolverParams.contactOffset) for every contact: DCD's target, CCD's
   * separation (pairs within it become contacts), and the broad phase's margin at least 2 delta.
   */
  private applyContactOffset(p: Readonly<SolverParams>): void {
    const delta = modelContactOffset(this.model, p.contactOffset);
    this.contacts.offset = delta;
    this.ccd.separation = delta;
    // Pairs of one object keep less: 'auto' its own ratio, an explicit delta at most the feature cap (contactOffset.ts).
    this.contacts.selfOffset = this.ccd.selfSeparation = selfContactOffset(this.model, p.contactOffset);
    this.ccdSchedule.baseMargin = Math.max(2 * delta, this.marginRatio * meanBoundaryEdge(this.model));
    this.ccd.laterReach = laterRoundReach(delta, meanBoundaryEdge(this.model), this.marginRatio);
  }

  /**
   * The offset ramp and the depenetration limit for the frame's substeps
   * (SolverParams.contactOffsetSpeed, depenetrationSpeed; `p` holds the substeps the frame takes,
   * impact substeps included): contacts are built once per collision round.
   */
  setFrameSubsteps(p: Readonly<SolverParams>): void {
    const h = p.dt / p.substeps, builds = effectiveDetectionRounds(p, this.model.objectNames.length);
    const step = offsetRampStep(p.contactOffsetSpeed, h, builds);
    this.contacts.offsetRamp = step;
    this.ccd.offsetRamp = step;
    const depenetration = offsetRampStep(effectiveDepenetrationSpeed(p), h, builds);
    this.contacts.depenetration = depenetration;
    this.ccd.depenetration = depenetration;
  }

  /** Culling and eps_i / eps_r from the parameters (a uniform write, only when they changed). */
  private applySpbOptions(p: Readonly<SolverParams>): void {
    const c = this.spb.queryConfig;
    if (c.culling === p.culling && c.tolerances.exitFace === p.epsI && c.tolerances.culling === p.epsR) return;
    this.spb.setOptions({ culling: p.culling, tolerances: { exitFace: p.epsI, culling: p.epsR } });
  }

  /** A finished rebuild goes in before the frame is recorded (never waited for: a late one waits for the next frame). */
  private installRebuiltBvh(): void {
    const done = this.bvhJob?.done;
    if (!done) return;
    this.bvhJob = undefined;
    if (done.error !== undefined) {
      this.pendingWarnings.push(`surface BVH rebuild failed in its worker (the refitted tree stays): ${done.error}`);
      return;
    }
    try {
      this.spb.replaceBvh(done.bvh!);
      this.installed.count++;
      this.installed.ms += done.ms;
    } catch (e) {
      this.pendingWarnings.push(`surface BVH rebuild refused (the refitted tree stays): ${(e as Error).message}`);
    }
  }

  /** Whether the frame now being recorded ends with a BVH rebuild started from its end positions. */
  private rebuildDue(): boolean {
    const every = this.params().bvhRebuildFrames;
    return this.params().collisions && every > 0 && (this.recordIndex + 1) % every === 0 && !this.bvhJob;
  }

  private startBvhRebuild(positions: Float32Array): void {
    const job: NonNullable<typeof this.bvhJob> = { started: performance.now() };
    this.bvhJob = job;
    this.workerJobs.rebuildBvh(positions).then(
      (bvh) => (job.done = { bvh, ms: performance.now() - job.started }),
      (error: unknown) => (job.done = { error: error instanceof Error ? error.message : String(error), ms: performance.now() - job.started }),
    );
  }

  /** The stages in stepping order (they go between material and finalize; the sliver lift before the collision stages acts with sliverLift 'with-contacts' only). */
  get stages(): GpuStage[] {
    return [this.inversionFloor.beforeCollisions, this.detect, this.spb, this.ccd, this.contacts, this.inversionFloor];
  }

  /** Bytes this part adds to the frame's readback (header, the shortest path's statistics, CCD's counters and escape list). */
  get readbackBytes(): number {
    return QL_HEADER_BYTES + 4 * SPB_STATS_WORDS + 4 * CCD_COUNTER_WORDS + 4 * (ESCAPE_LIST_WORDS + CCD_TAIL_WORDS);
  }

  /** Records the copies of the frame's counters into `staging` at `offset` (end of the frame's command buffer). */
  encodeReadback(encoder: GPUCommandEncoder, staging: GPUBuffer, offset: number): void {
    encoder.copyBufferToBuffer(this.queryList.list, 0, staging, offset, QL_HEADER_BYTES);
    const stats = this.spb.statsLayout;
    const bytes = 4 * Math.min(SPB_STATS_WORDS, stats.names.length);
    encoder.copyBufferToBuffer(this.spb.statsBuffer, stats.byteOffset, staging, offset + QL_HEADER_BYTES, bytes);
    const ccdAt = offset + QL_HEADER_BYTES + 4 * SPB_STATS_WORDS;
    encoder.copyBufferToBuffer(this.ccd.header, 4 * CCD_COUNTER_FIRST, staging, ccdAt, 4 * CCD_COUNTER_WORDS);
    // The escape list and the later rounds' count only in a frame that ran CCD (afterFrame reads the
    // list only when that frame counted escapes).
    if (this.ccd.recorded().running) encoder.copyBufferToBuffer(this.ccd.header, 4 * ESCAPE_LIST_FIRST_WORD, staging, ccdAt + 4 * CCD_COUNTER_WORDS, 4 * (ESCAPE_LIST_WORDS + CCD_TAIL_WORDS));
  }

  /**
   * Ends the recording of a frame (after its stages were encoded): with CCD on or a BVH rebuild
   * due, the frame's end positions and velocities into slot `slot`'s snapshot staging (same
   * command buffer). Returns what afterFrame needs of this frame; the next frame is prepared
   * with the next index.
   */
  endRecording(encoder: GPUCommandEncoder, state: GpuState, slot = 0, substeps = this.params().substeps): CollisionFrameRecord {
    if (!(Number.isInteger(slot) && slot >= 0 && slot < this.snapshotStaging.length)) throw new RangeError(`GpuCollisions.endRecording: slot ${slot} is not in 0..${this.snapshotStaging.length - 1}`);
    const rebuild = this.rebuildDue();
    const snapshot = this.ccd.wanted() || rebuild;
    if (snapshot) {
      const bytes = 16 * this.model.vertexCount;
      encoder.copyBufferToBuffer(state.positions, 0, this.snapshotStaging[slot], 0, bytes);
      encoder.copyBufferToBuffer(state.velocities, 0, this.snapshotStaging[slot], bytes, bytes);
    }
    return { frame: this.recordIndex++, slot, snapshot, rebuild, ccd: this.ccd.recorded(), epoch: this.epoch, substeps };
  }

  private async mapSnapshot(slot: number): Promise<StateSnapshot> {
    const bytes = 16 * this.model.vertexCount;
    const staging = this.snapshotStaging[slot];
    await staging.mapAsync(GPUMapMode.READ);
    const all = new Float32Array(staging.getMappedRange().slice(0, 2 * bytes));
    staging.unmap();
    return { positions: all.subarray(0, bytes / 4), velocities: all.subarray(bytes / 4) };
  }

  /** A blocking snapshot of the current state (first frame, after a reset or a settings change). */
  private async readSnapshot(state: GpuState): Promise<StateSnapshot> {
    const bytes = 16 * this.model.vertexCount;
    const [positions, velocities] = await Promise.all([this.read(state.positions, bytes), this.read(state.velocities, bytes)]);
    this.preFrameReadbacks += 2;
    this.preFrameReadbackBytes += 2 * bytes;
    return { positions: new Float32Array(positions), velocities: new Float32Array(velocities) };
  }

  /**
   * After frame `rec` (endRecording's record) completed: its counters from the readback words
   * (`words` starts at this part's offset), the capacities grown when hits were dropped, and
   * overflowed queries answered for the next frame recorded. `state` is read back only when some
   * query overflowed. Frames must be passed in the order they were recorded. Returns null for a
   * frame recorded before the last reset() (nothing of it is used).
   */
  async afterFrame(words: Uint32Array, state: GpuState, rec: CollisionFrameRecord): Promise<CollisionFrameCounters | null> {
    if (rec.epoch !== this.epoch) return null;
    const frame = rec.frame;
    const p = this.params();
    let snapshotBytes = 0;
    let deviation: DeviationObservation | null = null;
    if (rec.snapshot) {
      const snapshot = await this.mapSnapshot(rec.slot);
      snapshotBytes = 32 * this.model.vertexCount;
      if (rec.epoch !== this.epoch) return null;
      if (this.ccd.wanted()) {
        this.ccdSchedule.schedule(frame, snapshot, p);
        deviation = this.ccdSchedule.lastDeviation;
      }
      // With two frames in flight, the next frame may have asked for a rebuild as well before this one started it.
      if (rec.rebuild && !this.bvhJob) this.startBvhRebuild(snapshot.positions);
    }
    if (!p.collisions) return emptyCollisionCounters();
    const header = words.subarray(0, QL_HEADER_BYTES / 4);
    const counters = countersFromHeader(header, this.queryList.capacity);
    const mode = effectiveCollisionMode(p);
    counters.mode = mode;
    counters.penetration = p.penetration;
    const ccdWords = words.subarray(QL_HEADER_BYTES / 4 + SPB_STATS_WORDS);
    counters.ccd = this.ccd.afterFrame(ccdWords, rec.ccd);
    if (counters.ccd.candidatesLeftOut > 0) this.pendingWarnings.push(this.ccd.leftOutWarning(counters.ccd));
    if (deviation) counters.ccd.selfDeviationEscapes = deviation.escapes;
    this.ccdSchedule.noteEscapes(counters.ccd.escaped, counters.ccd.escapedSelf, this.ccd.ownEscapeFlags(ccdWords), rec.ccd.input, {
      world: counters.ccd.escapeDistance, own: counters.ccd.escapeDistanceSelf,
    }, counters.ccd.escaped + counters.ccd.escapedSelf > 0 ? this.ccd.escapedVertices(ccdWords) : undefined);
    // What 'auto' contact dispatch decides the next frames by (SolverParams.contactDispatch).
    this.contacts.recentContactsPerSubstep = (counters.contacts + counters.ccd.hitsVertexFace + counters.ccd.hitsEdgeEdge) / Math.max(1, rec.substeps);
    if (mode === 'hybrid') {
      counters.pin = header[QL.pin];
      counters.pinInFold = header[QL.pinInFold];
      counters.pinReleased = header[QL.pinReleased];
      counters.ccd.escapedTested = header[QL.escapedTested];
      counters.ccd.escapedInside = header[QL.escapedInside];
      counters.ccd.escapedRejected = header[QL.escapedRejected];
      counters.pout = rec.substeps * (this.topology.boundaryVertexCount + this.topology.boundaryEdgeCount) - counters.pin;
    }
    const stats = words.subarray(QL_HEADER_BYTES / 4);
    const names = this.spb.statsLayout.names;
    const stat = (name: (typeof names)[number]) => stats[names.indexOf(name)];
    counters.bvhCandidates = stat('bvhCandidates');
    counters.traversals = stat('traversals');
    counters.tetsVisited = stat('tetsVisited');
    const before = { readbacks: this.fallbackReadbacks, bytes: this.fallbackReadbackBytes };
    const overflowed = Math.min(header[QL.overflowCount], this.queryList.capacity);
    // Answer before growing: growth reallocates (and clears) the overflow list.
    if (overflowed > 0) await this.answerOverflowedQueries(overflowed, state);
    const grew = this.detect.afterFrame(header);
    // Drops that growth no longer answers: the buffer holds the most the device allows.
    if (counters.dropped > 0 && !grew.queryList) this.pendingWarnings.push(`${counters.dropped} detection hits dropped: the shortest-path query list holds the most this device allows (${this.queryList.capacity} queries); a smaller time step or fewer objects detect fewer at once`);
    if (counters.hashDropped > 0 && !grew.hashPool) this.pendingWarnings.push(`${counters.hashDropped} spatial-hash entries dropped (hits in their cells can be missed): the pool holds the most this device allows (${this.detect.hash.poolCapacity} entries)`);
    if (this.queryList.generation !== this.listGeneration) {
      this.listGeneration = this.queryList.generation;
      this.spb.setBuffers(this.queryList.list, this.queryList.args, this.queryList.results);
    }
    counters.readbacks = this.fallbackReadbacks - before.readbacks + (snapshotBytes > 0 ? 1 : 0) + this.preFrameReadbacks;
    counters.readbackBytes = this.fallbackReadbackBytes - before.bytes + snapshotBytes + this.preFrameReadbackBytes;
    this.preFrameReadbacks = 0;
    this.preFrameReadbackBytes = 0;
    counters.bvhRebuilds = this.installed.count;
    counters.bvhRebuildMs = this.installed.ms;
    this.installed = { count: 0, ms: 0 };
    counters.warnings = this.pendingWarnings;
    this.pendingWarnings = [];
    return counters;
  }

  /**
   * The overflow list's queries answered by the CPU dynamic version at the frame's end positions,
   * injected as contacts of the next frame's first substep. Each point is listed once (the list
   * has an entry per overflowing substep: the last one is kept), re-derived from its source at
   * those positions (the vertex, the edge at its parameter, the tet's centroid) and located again
   * by walking from the tet it was detected in (locateTet.ts): that tet may no longer contain it.
   * A point no longer inside a tet it may collide with (outside, or in an incident tet) is dropped.
   */
  private async answerOverflowedQueries(atMost: number, state: GpuState): Promise<void> {
    const { header, raw: listed, positions } = await this.readOverflow(atMost, state);
    // The list's own count: with two frames in flight these are the newest submitted frame's
    // overflows (maybe not the frame whose counters asked for the read), at its end positions.
    const listedCount = Math.min(header[QL.overflowCount], atMost, header[QL.capacity]);
    if (listedCount === 0) return;
    updateSpbMeshData(this.spbData, positions);
    const raw = this.lastEntryPerPoint(listed, listedCount);
    let n = raw.length / OVERFLOW_ENTRY_WORDS;
    const positionsVersion = ++lastPositionsVersion;
    const f32 = new Float32Array(raw.buffer, raw.byteOffset, raw.length);
    const i32 = new Int32Array(raw.buffer, raw.byteOffset, raw.length);
    const points = new Float64Array(3 * n);
    const tets = new Uint32Array(n);
    const exclude = new Int32Array(n);
    const exclude2 = new Int32Array(n);
    const euclidean = new Uint8Array(n);
    const ids = new Uint32Array(n);
    const queryWords = new Uint32Array(QUERY_WORDS * n);
    const qf = new Float32Array(queryWords.buffer);
    const x = positions;
    const edges = this.mesh.boundaryEdges;
    const tetIds = this.mesh.tets;
    let kept = 0;
    for (let e = 0; e < n; e++) {
      const o = OVERFLOW_ENTRY_WORDS * e;
      const i = kept;
      const source = raw[o + 6];
      const kind = (source >>> QUERY_KIND_SHIFT) & 3;
      const id = source & QUERY_ID_MASK;
      const param = f32[o + 7];
      let px = 0, py = 0, pz = 0;
      if (kind === QUERY_KIND_EDGE) {
        const a = edges[2 * id], b = edges[2 * id + 1];
        px = x[3 * a] + param * (x[3 * b] - x[3 * a]);
        py = x[3 * a + 1] + param * (x[3 * b + 1] - x[3 * a + 1]);
        pz = x[3 * a + 2] + param * (x[3 * b + 2] - x[3 * a + 2]);
      } else if (kind === QUERY_KIND_CENTROID) {
        for (let k = 0; k < 4; k++) {
          const v = tetIds[4 * id + k];
          px += x[3 * v] / 4;
          py += x[3 * v + 1] / 4;
          pz += x[3 * v + 2] / 4;
        }
      } else {
        px = x[3 * id];
        py = x[3 * id + 1];
        pz = x[3 * id + 2];
      }
      const tet = locateTet(this.spbData.positions, this.spbData.tets, this.spbData.tetNeighbors, raw[o + 3], px, py, pz);
      if (tet < 0 || !this.mayCollide(tet, kind, id, i32[o + 4], i32[o + 5])) continue;
      kept++;
      points.set([px, py, pz], 3 * i);
      tets[i] = tet;
      exclude[i] = i32[o + 4];
      exclude2[i] = i32[o + 5];
      euclidean[i] = (source & QUERY_EUCLIDEAN) !== 0 ? 1 : 0;
      ids[i] = i;
      queryWords.set(raw.subarray(o, o + QUERY_WORDS), QUERY_WORDS * i);
      qf[QUERY_WORDS * i] = px;
      qf[QUERY_WORDS * i + 1] = py;
      qf[QUERY_WORDS * i + 2] = pz;
      queryWords[QUERY_WORDS * i + 3] = tet;
    }
    n = kept;
    if (n === 0) return;
    const method = this.params().penetration;
    // The rest-pose methods' walks never overflow (the tree's depth bounds their stack); a query
    // that did is answered by their float64 twin, here.
    const answers = method !== 'exact'
      ? this.spb.penetration!.answerBatch(method, this.spbData, points.subarray(0, 3 * n), tets.subarray(0, n), exclude.subarray(0, n), exclude2.subarray(0, n))
      : await this.answerOverflowed({
      data: this.spbData,
      positionsVersion,
      config: this.spb.queryConfig,
      ids: ids.subarray(0, n),
      points: points.subarray(0, 3 * n),
      tets: tets.subarray(0, n),
      exclude: exclude.subarray(0, n),
      exclude2: exclude2.subarray(0, n),
      euclidean: euclidean.subarray(0, n),
    });
    const results = new Uint32Array(RESULT_WORDS * n);
    const rf = new Float32Array(results.buffer);
    const ri = new Int32Array(results.buffer);
    for (let i = 0; i < n; i++) {
      const o = RESULT_WORDS * i;
      const found = answers.status[i] === QUERY_FOUND;
      rf[o] = answers.point[3 * i];
      rf[o + 1] = answers.point[3 * i + 1];
      rf[o + 2] = answers.point[3 * i + 2];
      rf[o + 3] = found ? answers.distance[i] : -1;
      ri[o + 4] = found ? answers.triangle[i] : -1;
      results[o + 5] = answers.feature[i];
      results[o + 6] = answers.status[i];
    }
    this.contacts.inject(queryWords.subarray(0, QUERY_WORDS * n), results);
  }

  /** The overflow entries (OVERFLOW_ENTRY_WORDS each), one per query point: its latest substep's. */
  private lastEntryPerPoint(listed: Uint32Array, count: number): Uint32Array {
    const latest = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const o = OVERFLOW_ENTRY_WORDS * i;
      const prior = latest.get(listed[o + 6]);
      if (prior === undefined || listed[OVERFLOW_ENTRY_WORDS * prior + 8] <= listed[o + 8]) latest.set(listed[o + 6], i);
    }
    const out = new Uint32Array(OVERFLOW_ENTRY_WORDS * latest.size);
    let k = 0;
    for (const i of latest.values()) {
      const o = OVERFLOW_ENTRY_WORDS * i;
      out.set(listed.subarray(o, o + OVERFLOW_ENTRY_WORDS), OVERFLOW_ENTRY_WORDS * k++);
    }
    return out;
  }

  /** Detection's rules for a located tet (docs/collisions.md): not inverted (locateTet checked), not incident to the point. */
  private mayCollide(tet: number, kind: number, id: number, exclude: number, exclude2: number): boolean {
    const t = this.mesh.tets;
    const has = (v: number): boolean => v >= 0 && (t[4 * tet] === v || t[4 * tet + 1] === v || t[4 * tet + 2] === v || t[4 * tet + 3] === v);
    if (kind === QUERY_KIND_CENTROID) return tet !== id && ![0, 1, 2, 3].some((k) => has(t[4 * id + k]));
    return !has(exclude) && !has(exclude2);
  }

  /**
   * The list header, the first `atMost` overflow entries and the positions, copied in one command
   * buffer (so all three are of the same frame: the newest one submitted) and mapped together.
   */
  private async readOverflow(atMost: number, state: GpuState): Promise<{ header: Uint32Array; raw: Uint32Array; positions: Float32Array }> {
    const overflowBytes = 4 * OVERFLOW_ENTRY_WORDS * atMost;
    const positionBytes = 16 * this.model.vertexCount;
    const staging = this.device.createBuffer({ label: 'collisions.fallbackReadback', size: QL_HEADER_BYTES + overflowBytes + positionBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder({ label: 'collisions.fallbackReadback' });
    encoder.copyBufferToBuffer(this.queryList.list, 0, staging, 0, QL_HEADER_BYTES);
    encoder.copyBufferToBuffer(this.queryList.overflow, 0, staging, QL_HEADER_BYTES, overflowBytes);
    encoder.copyBufferToBuffer(state.positions, 0, staging, QL_HEADER_BYTES + overflowBytes, positionBytes);
    this.device.queue.submit([encoder.finish()]);
    try {
      await staging.mapAsync(GPUMapMode.READ);
      const all = staging.getMappedRange().slice(0);
      staging.unmap();
      this.fallbackReadbacks += 1;
      this.fallbackReadbackBytes += staging.size;
      const vec4 = new Float32Array(all, QL_HEADER_BYTES + overflowBytes, positionBytes / 4);
      const positions = new Float32Array(3 * this.model.vertexCount);
      for (let v = 0; v < this.model.vertexCount; v++) {
        positions[3 * v] = vec4[4 * v];
        positions[3 * v + 1] = vec4[4 * v + 1];
        positions[3 * v + 2] = vec4[4 * v + 2];
      }
      return { header: new Uint32Array(all, 0, QL_HEADER_BYTES / 4), raw: new Uint32Array(all, QL_HEADER_BYTES, overflowBytes / 4), positions };
    } finally {
      staging.destroy();
    }
  }

  private read(buffer: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    return readBufferToCpu(this.device, buffer, bytes, 'collisions.fallbackReadback');
  }

  /** The state was reset: CCD's jobs and candidates were for the old one. */
  reset(): void {
    this.ccdSchedule.reset();
    this.ccd.reset();
    this.recordIndex = 0;
    this.epoch++;
  }

  /** Buffers not owned by a stage (the time step destroys the stages in its list). */
  destroy(): void {
    for (const b of this.snapshotStaging) b.destroy();
    this.queryList.destroy();
    this.topology.destroy();
  }
}
