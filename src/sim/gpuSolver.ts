/**
 * The XPBD solver on WebGPU: the model's data uploaded once, the state (GpuState) and the
 * time step (TimeStep) over the stages predict -> material (iterations x (material
 * constraints, colliders)) -> finalize (+ damping). Each frame is one command buffer. Same
 * algorithm and order as cpuSolver.ts, which the tests compare against. Other stages (the
 * collision stages: detect, spb, contacts) go into `timeStep` between material and finalize:
 *
 *   solver.timeStep.insertBefore('finalize', stage);
 *
 * Buffers other layers may read: positionBuffer (= state.positions, vec4 per vertex: xyz +
 * inverse mass), tetBuffer (vec4<u32> per tet, mesh order) and, with showIntersections,
 * intersectionDepthBuffer (vec4 per vertex: the boundary point the shortest path reaches, and the
 * penetration depth in w; collision/gpu/intersectionDisplay.ts).
 *
 * Frames in flight: `stepFrame()` records, submits and waits for one frame. `submitFrame()`
 * records and submits a frame and hands back a promise of its results without waiting for them,
 * so that the next frame can be recorded while the GPU runs this one; it waits first only when
 * MAX_FRAMES_IN_FLIGHT frames are outstanding. Results are processed in submission order. The
 * frame's readback buffer, the timestamp read buffers and the collisions' snapshot staging are
 * rings with one slot per frame in flight, so no submitted command buffer writes a buffer that is
 * mapped or pending a map. Per-frame CPU state (time, frame index, handle scripts, the grab's
 * motion) advances when a frame is submitted; queue.writeBuffer is ordered with submissions, so
 * the constants written for frame N + 1 do not disturb frame N. What lags by a frame on the host
 * (capacity growth, CCD counters, overflow answers): gpuCollisions.ts.
 */
import { GpuRejectedError, isSoftwareAdapter, type GpuContext } from '../gpu/device';
import { dispatchGrid, readBufferToCpu, storageBuffer } from '../gpu/buffers';
import { XpbdKernels } from './gpuKernels';
import { setPartitionBalance, setSliverQuality, setVertexMassFloor, type Model } from './model';
import { checkParams, effectiveCollisionMode, effectiveCollisionRounds, effectiveDetectionRounds, effectiveImpactSubsteps, type SolverParams } from '../contract/params';
import { checkSetup, type SimSetup } from './setup';
import { CollidersStage } from './stages/collidersStage';
import { FinalizeStage } from './stages/finalizeStage';
import { MaterialStage } from './stages/materialStage';
import { PredictStage } from './stages/predictStage';
import { XpbdFrame } from './stages/xpbdFrame';
import { GpuState } from '../contract/state';
import { VertexGrab } from './vertexGrab';
import type { Collider } from './colliders';
import { colliderClosingSpeed, collidersReached } from './colliderClosingSpeed';
import type { StateSnapshot } from '../collision/ccd/ccdSchedule';
import { colliderContactOffset } from '../collision/contactOffset';
import type { HandleScript } from './handles';
import { TimeStep, type FrameRecord } from './timeStep';
import { GpuCollisions, type CollisionFrameRecord, type GpuCollisionOptions } from './gpuCollisions';
import type { CollisionFrameCounters } from '../collision/counters';
import { IntersectionDisplay, type IntersectionReadout } from '../collision/gpu/intersectionDisplay';
import { readBvhLevel, readCcdContacts, type BvhLevelReadout, type CcdContactReadout } from '../collision/gpu/overlayReaders';
import { GpuAirCollisions, type AirFrameRecord } from '../collision/air/gpuAirCollisions';
import { airContainerFor } from './airContainer';
import { emptyCollisionCounters } from '../collision/counters';
import { impactSubstepCount } from '../collision/ccd/impactSubsteps';

export { RIGID_DAMPING_CHUNK } from './stages/finalizeStage';

/**
 * gpuPhaseMs (null without timestamp queries), dispatches in total and per phase, the passes'
 * phases in order; the per-object NaN flags and the collision counters of the frame, both from
 * the frame's one small readback.
 */
export interface GpuFrameResult extends FrameRecord {
  /** Per object: 0 running, 1 stopped (NaN/Inf seen). */
  objectStatus: Uint32Array;
  /** Null when the solver was built without collisions. */
  collisions: CollisionFrameCounters | null;
  /** Bytes of the frame's readback (status and counters; fallback readbacks are in collisions.readbackBytes). */
  readbackBytes: number;
  /** Frame index (since the last reset) and simulated time at its end (s). */
  frame: number;
  time: number;
  /** The solver's resets before this frame was recorded (GpuSolver.resets): a frame of an older count ran on a state since reset. */
  resets: number;
  /**
   * JavaScript time (ms, performance.now) from the frame's first CPU work (constants, scripts)
   * through queue.submit, less the time spent awaiting CCD's candidates or a blocking snapshot.
   */
  encodeMs: number;
  /** Where encodeMs went (ms; EncodeSplit). */
  encodeSplitMs: EncodeSplit;
  /**
   * Times the caller had to wait for the GPU before this frame could be submitted: for the
   * previous frame's results (stepFrame; submitFrame with MAX_FRAMES_IN_FLIGHT outstanding) and
   * for blocking state readbacks before it (a missing CCD job's snapshot). 0 when pipelined and
   * the ring had room.
   */
  blockingReadbacks: number;
  /** Substeps the frame took: SolverParams.substeps, or more on impact (impactSubsteps). */
  substeps: number;
  /** The closing speed (world units / s) that chose the frame's substeps (impactSubsteps); absent when not measured. */
  closingSpeed?: number;
}

/**
 * The parts of a frame's encodeMs, in the order they run (ms, performance.now): the collisions'
 * and the air mesh's host work before recording (CCD's candidates uploaded, BVH refits planned;
 * less any wait for a job), the frame's closing speed (colliders scanned, impact substeps),
 * constants and scripts written, TimeStep.encodeFrame, the readback copies with the collisions'
 * and air's end of recording (and the intersection display), and finish + submit.
 */
export interface EncodeSplit {
  collisions: number;
  closing: number;
  constants: number;
  record: number;
  readbacks: number;
  submit: number;
}

/** A frame submitted by GpuSolver.submitFrame: its index and the promise of its results. */
export interface SubmittedFrame {
  frame: number;
  /** Resolves once the frame completed and its results were read and processed (in submission order). */
  done: Promise<GpuFrameResult>;
}

/** Frames that may be submitted and not yet read back (the rings' size). */
export const MAX_FRAMES_IN_FLIGHT = 2;

export interface GpuSolverOptions {
  /** Collision stages (detect, spb, contacts) between material and finalize; false leaves them out (default: built, switched by params.collisions). */
  collisions?: GpuCollisionOptions | false;
}

export class GpuSolver {
  readonly model: Model;
  /** SolverParams.partitionBalance the uploaded partition was built with (a later change needs a new solver). */
  private readonly partitionBalance: SolverParams['partitionBalance'];
  params: SolverParams;
  time = 0;
  frame = 0;
  readonly state: GpuState;
  readonly timeStep: TimeStep;
  /** Dragging a vertex with the mouse (the page): grab, moveTo, release between frames. */
  readonly grab: VertexGrab;
  /** The handles' scripts the frames sample (the scene's, then the grab's). */
  private readonly handleScripts: HandleScript[];
  /** The scene's colliders, sampled at every frame (the same array as the setup's). */
  private readonly colliderList: Collider[];
  /** Colliders replaced by setCollider since the last frame was submitted: moving in the next one. */
  private readonly handMovedColliders = new Set<number>();
  readonly tetBuffer: GPUBuffer;
  private readonly device: GPUDevice;
  private readonly kernels: XpbdKernels;
  private readonly xpbd: XpbdFrame;
  private readonly material: MaterialStage;
  /** The collision stages and their per-frame host work, or null (GpuSolverOptions.collisions false). */
  readonly collisions: GpuCollisions | null;
  /** Air mode (collision/air/): the air stage after the material iterations (each of them under collideEvery 'auto'), or null when the setup has no air container. */
  readonly air: GpuAirCollisions | null;
  /** Per frame slot: the staging buffer of the frame's readback (NaN flags, then the collision counters). */
  private readonly frameReadback: GPUBuffer[];
  /** Frames submitted and not yet processed, oldest first. */
  private readonly outstanding: SubmittedFrame[] = [];
  /** Frames submitted since construction (picks the ring slot; never reset). */
  private submitted = 0;
  /** The last recorded frame's substeps (impact substeps fall at most by half a frame); undefined after a reset. */
  private lastFrameSubsteps: number | undefined = undefined;
  /** The last submission's chain (submitFrame calls run one after the other). */
  private submitChain: Promise<unknown> = Promise.resolve();
  /** The last frame's processing (frames are processed in submission order). */
  private processChain: Promise<unknown> = Promise.resolve();
  /** Waits for the GPU already counted against the next frame submitted (stepFrame's wait for its own frame). */
  private pendingBlocking = 0;
  /** reset() count: frames recorded before the last reset report no collision counters. */
  private epoch = 0;

  /** How many times reset() ran: a frame's result carries the count it was recorded under. */
  get resets(): number {
    return this.epoch;
  }
  private readonly statusBytes: number;
  /**
   * Record the intersection display after each frame (collision/gpu/intersectionDisplay.ts: the
   * renderer's blue tint). Default off: then it is not even built and costs nothing.
   */
  showIntersections = false;
  private display?: IntersectionDisplay;

  constructor(ctx: GpuContext, setup: SimSetup, options: GpuSolverOptions = {}) {
    checkSetup(setup);
    checkParams(setup.params);
    const device = ctx.device;
    this.device = device;
    this.model = setup.model;
    this.params = { ...setup.params };
    // The tet constants follow the sliver threshold of the params (model.ts) before they are uploaded.
    setSliverQuality(this.model, this.params.sliverQuality);
    // The inverse masses follow the light-vertex floor (vertexMassFloor.ts) before they are uploaded.
    setVertexMassFloor(this.model, this.params.vertexMassFloor);
    // The partitioned order's pass rule (SolverParams.partitionBalance): its cells are uploaded below.
    setPartitionBalance(this.model, this.params.partitionBalance);
    this.partitionBalance = this.params.partitionBalance;
    this.kernels = new XpbdKernels(device);
    const m = this.model;
    const params = () => this.params;
    this.state = new GpuState(device, m);
    this.tetBuffer = storageBuffer(device, 'xpbd.tets', m.tets, GPUBufferUsage.INDEX);
    // One handle more than the scene's: the mouse grab's (vertexGrab.ts), inert until a vertex is grabbed.
    const grabHandle = setup.handles.length;
    let grabScript: VertexGrab['script'] = () => ({ matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] });
    this.handleScripts = [...setup.handles, (t) => grabScript(t)];
    this.colliderList = setup.colliders;
    this.xpbd = new XpbdFrame(device, { ...setup, handles: this.handleScripts }, this.state, this.kernels);
    this.grab = new VertexGrab(device, { rest: this.xpbd.rest, invMass: this.xpbd.invMass, positions: this.state.positions }, m.handleOfVertex, m.invMass, grabHandle);
    grabScript = this.grab.script;
    const colliders = new CollidersStage(this.kernels, this.xpbd, m.vertexCount);
    this.material = new MaterialStage(device, m, this.state, this.tetBuffer, this.kernels, this.xpbd, colliders, params);
    const predict = new PredictStage(this.kernels, this.xpbd, m.vertexCount, this.material);
    this.timeStep = new TimeStep(ctx, this.state, [
      predict,
      this.material,
      new FinalizeStage(device, m, this.state, this.kernels, this.xpbd, params, { predict, warmStart: this.material, softwareAdapter: isSoftwareAdapter(ctx) }),
    ], MAX_FRAMES_IN_FLIGHT);
    // Air mode replaces detection and contacts (they see collisions off); the colliders stay.
    const contactParams = () => (effectiveCollisionMode(this.params) === 'air' ? { ...this.params, collisions: false } : this.params);
    // CCD's own-frame boxes of a body that may land on a collider grow along its speed (obstacleGrowth.ts).
    // The colliders are taken at the solver's time, up to the frames in flight after the snapshot's.
    const collidersReachedBy = (snapshot: StateSnapshot, horizon: number): Uint8Array | null => (this.colliderList.length === 0 ? null : collidersReached({
      colliders: this.colliderList, time: this.time, horizon, gravity: this.params.gravity, thickness: colliderContactOffset(this.model, this.params.contactOffset),
      positions: snapshot.positions, velocities: snapshot.velocities, stride: 4, vertexCount: m.vertexCount, inverseMass: m.invMass,
    }));
    const given = options.collisions === false ? null : options.collisions ?? {};
    this.collisions = given === null ? null
      : new GpuCollisions(device, m, contactParams, { softwareAdapter: isSoftwareAdapter(ctx), ...given, ccdSchedule: { collidersReached: collidersReachedBy, ...given.ccdSchedule } }, MAX_FRAMES_IN_FLIGHT, this.xpbd.objectStatus);
    for (const stage of this.collisions?.stages ?? []) this.timeStep.insertBefore('finalize', stage);
    // sliverFloorInSweeps: the sliver lift inside the material pass, after every sweep.
    if (this.collisions) this.material.afterSweep = this.collisions.inversionFloor.afterSweep;
    // Every scene can run air mode (the general mesher when it has no lattice container); nothing is built until it does.
    this.air = new GpuAirCollisions(device, m, (mesher) => airContainerFor(setup, mesher), params, this.collisions?.workerJobs.optimizeAir, MAX_FRAMES_IN_FLIGHT, this.collisions?.workerJobs.buildAir);
    this.timeStep.insertAfter('material', this.air);
    this.statusBytes = 4 * Math.ceil(m.objectNames.length / 4) * 4;
    this.frameReadback = Array.from({ length: MAX_FRAMES_IN_FLIGHT }, (_, k) => device.createBuffer({
      label: `solver.frameReadback${k}`,
      size: this.statusBytes + (this.collisions?.readbackBytes ?? 0) + (this.air?.readbackBytes ?? 0),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
  }

  get positionBuffer(): GPUBuffer {
    return this.state.positions;
  }

  get prevBuffer(): GPUBuffer {
    return this.state.prev;
  }

  get velocityBuffer(): GPUBuffer {
    return this.state.velocities;
  }

  /** Per object: 0 running, 1 stopped (NaN/Inf seen), u32. */
  get objectStatusBuffer(): GPUBuffer {
    return this.xpbd.objectStatus;
  }

  get colourCount(): { tets: number; edges: number } {
    return { tets: this.model.tetColouring.colourCount, edges: this.model.edgeColouring.colourCount };
  }

  /** Frames submitted whose results have not been processed yet (0..MAX_FRAMES_IN_FLIGHT). */
  get framesInFlight(): number {
    return this.outstanding.length;
  }

  /**
   * Frames a loop that submits ahead (the page, the runner's --frames-in-flight 2) should keep in
   * flight: 1 while CCD's 'auto' job latency has each frame wait for a job started from the frame
   * before it (SolverParams.ccdJobLatency, collision/ccd/jobLatency.ts), else MAX_FRAMES_IN_FLIGHT.
   */
  get framesInFlightWanted(): number {
    return this.collisions?.ccdSchedule.oneFrameInFlightWanted ? 1 : MAX_FRAMES_IN_FLIGHT;
  }

  /** Records and submits one frame; resolves when the GPU has finished it and its results were read. */
  async stepFrame(): Promise<GpuFrameResult> {
    const { done } = await this.submitFrame();
    const result = await done;
    // The caller waited for this frame before it can record the next: one blocking wait of the next frame.
    this.pendingBlocking += 1;
    return result;
  }

  /**
   * Records and submits one frame and resolves once it is submitted (not completed); `done`
   * resolves with its results. Waits first (counted in the frame's blockingReadbacks) only when
   * MAX_FRAMES_IN_FLIGHT frames are outstanding. Calls may overlap; they submit in call order.
   */
  submitFrame(): Promise<SubmittedFrame> {
    const next = this.submitChain.catch(() => undefined).then(() => this.submitNow());
    this.submitChain = next;
    return next;
  }

  /**
   * The closing speed that picks this frame's substeps (impactSubsteps): CCD's candidates' and
   * the colliders' (colliderClosingSpeed.ts), both on the state the candidates' figure was
   * measured on, which may be frames older than this frame's start (then over those frames too).
   * Null where CCD gave none (impact substeps off, collisions off, DCD or air mode).
   */
  private frameClosingSpeed(p: SolverParams): number | null {
    const closing = this.collisions?.frameClosing ?? null;
    if (!closing) return null;
    const { speed: candidates, state } = closing;
    if (!state || this.colliderList.length === 0) return candidates;
    const before = state.framesBefore * p.dt;
    const onColliders = colliderClosingSpeed({
      colliders: this.colliderList, time: this.time - before, horizon: before + p.dt, gravity: p.gravity, thickness: colliderContactOffset(this.model, p.contactOffset),
      positions: state.snapshot.positions, velocities: state.snapshot.velocities, stride: 4, vertexCount: this.model.vertexCount, inverseMass: this.model.invMass,
    });
    return Math.max(candidates, onColliders);
  }

  /** Waits until every submitted frame was processed (errors are left to the frames' own promises). */
  async drain(): Promise<void> {
    await this.submitChain.catch(() => undefined);
    while (this.outstanding.length > 0) await this.outstanding[this.outstanding.length - 1].done.catch(() => undefined);
  }

  private async submitNow(): Promise<SubmittedFrame> {
    let blocking = this.pendingBlocking;
    this.pendingBlocking = 0;
    while (this.outstanding.length >= MAX_FRAMES_IN_FLIGHT) {
      blocking += 1;
      await this.outstanding[0].done.catch(() => undefined);
    }
    const t0 = performance.now();
    const p0 = this.params;
    checkParams(p0);
    // A new sliver threshold changes the tet constants, a new light-vertex floor the inverse masses:
    // uploaded before this frame (both, when either changed).
    const newConstants = setSliverQuality(this.model, p0.sliverQuality);
    if (setVertexMassFloor(this.model, p0.vertexMassFloor) || newConstants) this.refreshMasses();
    if (p0.partitionBalance !== this.partitionBalance) {
      throw new RangeError(`partitionBalance '${p0.partitionBalance}' differs from the '${this.partitionBalance}' this GPU solver was built with: the partition's cells are uploaded when the solver is built, so build a new solver with it (the page rebuilds its engine on a change)`);
    }
    // CCD's candidates first: their closing speed may give this frame more substeps (impactSubsteps).
    const wait = this.collisions ? await this.collisions.prepareFrame(this.state) : { waitMs: 0, blockingReadbacks: 0 };
    await this.air?.prepareFrame();
    blocking += wait.blockingReadbacks;
    const t1 = performance.now();
    const closingSpeed = this.frameClosingSpeed(p0);
    const substeps = closingSpeed === null ? p0.substeps
      : impactSubstepCount({ closingSpeed, dt: p0.dt, substeps: p0.substeps, impactSubsteps: effectiveImpactSubsteps(p0), meanEdge: this.collisions!.meanEdge, previousSubsteps: this.lastFrameSubsteps });
    this.lastFrameSubsteps = substeps;
    const p = substeps === p0.substeps ? p0 : { ...p0, substeps };
    const t2 = performance.now();
    // The frame's own WebGPU errors (a kernel built now that does not compile on this device), and
    // only its own: nothing else runs on this thread between the push and the pop.
    this.device.pushErrorScope('validation');
    let recorded: ReturnType<GpuSolver['recordAndSubmit']>;
    let rejected: Promise<GPUError | null>;
    try {
      recorded = this.recordAndSubmit(p);
    } finally {
      rejected = this.device.popErrorScope();
      // Awaited in process(); never an unhandled rejection meanwhile (a lost device, or recording threw).
      rejected.catch(() => undefined);
    }
    const { slot, readback, record, objects, airOffset, collisionRecord, airRecord, t3, t4, t5 } = recorded;
    const t6 = performance.now();
    const encodeMs = t6 - t0 - wait.waitMs;
    const encodeSplitMs: EncodeSplit = { collisions: t1 - t0 - wait.waitMs, closing: t2 - t1, constants: t3 - t2, record: t4 - t3, readbacks: t5 - t4, submit: t6 - t5 };
    const mapped = readback.mapAsync(GPUMapMode.READ);
    // Awaited in process(), maybe after it settled (a destroyed solver): never an unhandled rejection meanwhile.
    mapped.catch(() => undefined);
    this.submitted += 1;
    this.time += p.dt;
    const frame = this.frame++;
    const info = { rejected, record, frame, time: this.time, slot, objects, encodeMs, encodeSplitMs, blockingReadbacks: blocking, collisionRecord, airRecord, airOffset, epoch: this.epoch, closingSpeed, substeps: p.substeps };
    const done = this.processChain.catch(() => undefined).then(() => this.process(mapped, info));
    this.processChain = done;
    const submittedFrame: SubmittedFrame = { frame, done };
    this.outstanding.push(submittedFrame);
    // Taken off the ring however it ends; its own promise carries any error to the caller.
    done.then(
      () => this.retire(submittedFrame),
      () => this.retire(submittedFrame),
    );
    return submittedFrame;
  }

  /** The frame's uploads, recording and submit (submitNow, inside its error scope), with the times between. */
  private recordAndSubmit(p: SolverParams) {
    this.xpbd.ensureCapacity(p.substeps);
    this.xpbd.writeConstants(p, this.material.firstSubstepWarmShare(p));
    this.collisions?.setFrameSubsteps(p);
    // Per-frame CPU state advances at submission: the scripts are sampled for this frame now.
    this.grab.beginFrame(this.time, p.dt);
    this.xpbd.writeScripts(this.time, p, this.handMovedColliders);
    this.handMovedColliders.clear();
    this.grab.endFrame();
    const slot = this.submitted % MAX_FRAMES_IN_FLIGHT;
    const readback = this.frameReadback[slot];
    const encoder = this.device.createCommandEncoder({ label: 'solver.frame' });
    const t3 = performance.now();
    const record = this.timeStep.encodeFrame(encoder, p.substeps, (s) => this.xpbd.substepOffset(s), slot, effectiveCollisionRounds(p, this.model.objectNames.length), effectiveDetectionRounds(p, this.model.objectNames.length));
    const t4 = performance.now();
    // The frame's one small readback: NaN flags and collision counters, copied in the same command buffer.
    const objects = this.model.objectNames.length;
    encoder.copyBufferToBuffer(this.xpbd.objectStatus, 0, readback, 0, 4 * objects);
    this.collisions?.encodeReadback(encoder, readback, this.statusBytes);
    const airOffset = this.statusBytes + (this.collisions?.readbackBytes ?? 0);
    this.air?.encodeReadback(encoder, readback, airOffset);
    const collisionRecord = this.collisions?.endRecording(encoder, this.state, slot, p.substeps) ?? null;
    const airRecord = this.air?.endRecording(encoder, this.state, slot) ?? null;
    // After the readback copies: the display changes nothing the frame reports.
    if (this.showIntersections) this.intersectionDisplay?.encode(encoder, this.state);
    const t5 = performance.now();
    this.device.queue.submit([encoder.finish()]);
    return { slot, readback, record, objects, airOffset, collisionRecord, airRecord, t3, t4, t5 };
  }

  private retire(f: SubmittedFrame): void {
    const i = this.outstanding.indexOf(f);
    if (i >= 0) this.outstanding.splice(i, 1);
  }

  /** After the frame completed: its readback words, timestamps and the collisions' host work. */
  private async process(
    mapped: Promise<void>,
    info: {
      rejected: Promise<GPUError | null>; record: Omit<FrameRecord, 'gpuPhaseMs'>; frame: number; time: number; slot: number; objects: number;
      encodeMs: number; encodeSplitMs: EncodeSplit; blockingReadbacks: number; collisionRecord: CollisionFrameRecord | null; epoch: number; closingSpeed: number | null; substeps: number;
      airRecord: AirFrameRecord | null; airOffset: number;
    },
  ): Promise<GpuFrameResult> {
    const readback = this.frameReadback[info.slot];
    await mapped;
    const words = new Uint32Array(readback.getMappedRange().slice(0));
    // Unmapped before any rejection below: a later frame copies into this slot again.
    readback.unmap();
    const rejected = await info.rejected;
    if (rejected) throw new GpuRejectedError(`WebGPU rejected frame ${info.frame} of the solver, so it did nothing: ${rejected.message.trim()}`);
    const gpuPhaseMs = await this.timeStep.readTimes(info.slot);
    let collisions: CollisionFrameCounters | null = null;
    if (this.collisions && info.collisionRecord && info.epoch === this.epoch) {
      collisions = await this.collisions.afterFrame(words.subarray(this.statusBytes / 4), this.state, info.collisionRecord);
      if (collisions) {
        collisions.readbacks += 1;
        collisions.readbackBytes += readback.size;
      }
    }
    if (this.air && info.airRecord && info.epoch === this.epoch) {
      const air = await this.air.afterFrame(words.subarray(info.airOffset / 4), info.airRecord);
      if (air && info.airRecord.ran) {
        collisions ??= { ...emptyCollisionCounters(), readbacks: 1, readbackBytes: readback.size };
        collisions.mode = 'air';
        collisions.air = air;
        collisions.warnings.push(...this.air.takeWarnings());
      }
    }
    return {
      ...info.record,
      gpuPhaseMs,
      // Bit 0: stopped; the held bits (src/contract/held.ts) stay on the GPU.
      objectStatus: words.slice(0, info.objects).map((s) => s & 1),
      collisions,
      readbackBytes: readback.size,
      frame: info.frame,
      time: info.time,
      resets: info.epoch,
      encodeMs: info.encodeMs,
      encodeSplitMs: info.encodeSplitMs,
      blockingReadbacks: info.blockingReadbacks,
      substeps: info.substeps,
      ...(info.closingSpeed !== null ? { closingSpeed: info.closingSpeed } : {}),
    };
  }

  /** The intersection display (built on first use), or null when the solver was built without collisions. */
  get intersectionDisplay(): IntersectionDisplay | null {
    const c = this.collisions;
    if (!c) return null;
    this.display ??= new IntersectionDisplay(this.device, c.topology, c.spb, c.detect.hash, () => this.params);
    return this.display;
  }

  /**
   * Runs the intersection display now, on the current positions, outside any frame (paused: after
   * switching showIntersections on, a reset, or a drag). No-op without collisions.
   */
  refreshIntersections(): void {
    const d = this.intersectionDisplay;
    if (!d) return;
    const encoder = this.device.createCommandEncoder({ label: 'solver.intersectionDisplay' });
    d.encode(encoder, this.state);
    this.device.queue.submit([encoder.finish()]);
  }

  /** vec4 per vertex: boundary point reached (xyz), penetration depth (w); see IntersectionDisplay. Null without collisions. */
  get intersectionDepthBuffer(): GPUBuffer | null {
    return this.intersectionDisplay?.depthBuffer ?? null;
  }

  /** The penetrating vertices of the last frame recorded with showIntersections (overlays; a readback). */
  readIntersections(): Promise<IntersectionReadout> {
    const d = this.intersectionDisplay;
    if (!d) throw new Error('GpuSolver.readIntersections: the solver was built without collisions (GpuSolverOptions.collisions false)');
    return d.readIntersections(this.state);
  }

  /** The last substep's CCD contacts at the frame's end positions (overlays; a readback). */
  readCcdContacts(): Promise<CcdContactReadout> {
    if (!this.collisions) throw new Error('GpuSolver.readCcdContacts: the solver was built without collisions (GpuSolverOptions.collisions false)');
    return readCcdContacts(this.device, this.collisions.ccd, this.state);
  }

  /** Boxes of the surface BVH's nodes at depth `level` (0 = root; overlays; a readback). */
  readBvhLevel(level: number): Promise<BvhLevelReadout> {
    if (!this.collisions) throw new Error('GpuSolver.readBvhLevel: the solver was built without collisions (GpuSolverOptions.collisions false)');
    return readBvhLevel(this.device, this.collisions.spb.mesh.bvhGpu, level);
  }

  /** Uploads inverse masses again (after setObjectMaterial); stopped objects keep 0. */
  refreshMasses(): void {
    this.xpbd.writeInverseMasses();
    this.grab.reapply();
    this.material.writeConstants(this.device.queue);
    this.xpbd.writeConstants(this.params);
    const encoder = this.device.createCommandEncoder({ label: 'xpbd.applyMass' });
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.kernels.applyMass);
    pass.setBindGroup(0, this.xpbd.integrateGroup);
    pass.setBindGroup(1, this.xpbd.slotGroup, [this.xpbd.substepOffset(0)]);
    const g = dispatchGrid(this.model.vertexCount);
    pass.dispatchWorkgroups(g[0], g[1]);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  /** Replaces handle `h`'s script from the next frame on (the page moves pins with the mouse). */
  setHandleScript(h: number, script: HandleScript): void {
    if (!(Number.isInteger(h) && h >= 0 && h < this.handleScripts.length - 1)) throw new RangeError(`setHandleScript: handle ${h} is not a handle of the scene (0..${this.handleScripts.length - 2})`);
    this.handleScripts[h] = script;
  }

  /**
   * Replaces collider `c` from the next frame on (the page moves colliders with the mouse). That
   * frame it moves (sampleScripts' handMoved): it pushes what it moved into out at once, as a
   * scripted plane does, where a static collider lets a body it holds at the start of a substep
   * out at the depenetration speed only.
   */
  setCollider(c: number, collider: Collider): void {
    if (!(Number.isInteger(c) && c >= 0 && c < this.colliderList.length)) throw new RangeError(`setCollider: collider ${c} is not a collider of the scene (0..${this.colliderList.length - 1})`);
    this.colliderList[c] = collider;
    this.handMovedColliders.add(c);
  }

  /**
   * Back to the rest state and initial velocities; clears stopped objects. Frames still in flight
   * finish on the old state (the reset's uploads are queued after them) and report no collision
   * counters; drain() first to have their results complete.
   */
  reset(): void {
    this.epoch++;
    this.pendingBlocking = 0;
    this.grab.release();
    this.state.reset();
    this.material.reset();
    this.collisions?.reset();
    this.air?.reset();
    this.xpbd.clearObjectStatus();
    this.time = 0;
    this.frame = 0;
    this.lastFrameSubsteps = undefined;
    // The tint of the rest state, not the last frame's.
    if (this.showIntersections) this.refreshIntersections();
  }

  private read(buffer: GPUBuffer, size: number): Promise<ArrayBuffer> {
    return readBufferToCpu(this.device, buffer, size, 'solver.readback');
  }

  /**
   * A start state from positions x (xyz per vertex): the positions and the substep-start positions
   * both x, with the model's inverse masses and object ids kept (GpuState.writePositions).
   * Velocities stay as they are.
   */
  writePositions(x: ArrayLike<number>): void {
    this.state.writePositions(x);
  }

  /** xyz per vertex (a sync point: tests, the runner's summary). */
  readPositions(): Promise<Float32Array> {
    return this.state.readPositions();
  }

  readVelocities(): Promise<Float32Array> {
    return this.state.readVelocities();
  }

  /** Per object: 0 running, 1 stopped (NaN/Inf seen). 4 bytes per object. */
  async readObjectStatus(): Promise<Uint32Array> {
    return new Uint32Array(await this.read(this.xpbd.objectStatus, 4 * this.model.objectNames.length)).map((s) => s & 1);
  }

  destroy(): void {
    this.timeStep.destroy();
    this.display?.destroy();
    this.air?.destroyStaging();
    this.collisions?.destroy();
    for (const b of this.frameReadback) b.destroy();
    this.xpbd.destroy();
    this.tetBuffer.destroy();
    this.state.destroy();
  }
}
