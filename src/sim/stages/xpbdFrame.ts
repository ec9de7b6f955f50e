/**
 * What the XPBD stages (predict, material, colliders, finalize) bind beside the state: the
 * frame constants (uniform, written once per frame), the slot buffer (one 256-byte slot per
 * tet or edge colour, per pass and leftover colour of their partitioned orders, and per
 * substep, bound with a dynamic offset: per-substep
 * parameters never need a writeBuffer inside the frame), the colliders' and handles' samples
 * per substep, and the per-vertex model data of xpbdIntegrate.wgsl (rest + handle id, inverse
 * masses, the per-object NaN/Inf status). The integrate bind group is built here, once, and
 * again only when the substep capacity grows (the script buffers are reallocated).
 */
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import { COLLIDER_STRIDE } from '../colliders';
import { colliderRampProjections } from '../colliderMultiplier';
import { WARM_START_SHARE } from '../constraintsCpu';
import { SLOT_STRIDE, type XpbdKernels } from '../gpuKernels';
import { HANDLE_STRIDE } from '../handles';
import type { Colouring } from '../../mesh/colouring';
import type { Model } from '../model';
import type { PartitionedColouring } from '../../mesh/partitionedColouring';
import { effectiveColliderResponse, effectiveDepenetrationSpeed, type SolverParams } from '../../contract/params';
import { sampleScripts } from '../scripts';
import { colliderContactOffset, offsetRampStep, uniformRamp } from '../../collision/contactOffset';
import type { SimSetup } from '../setup';
import { packVec4, type GpuState } from '../../contract/state';
import { solverStatusWords } from '../../contract/colliderTouch';

/** Size of Frame in xpbdCommon.wgsl: 24 words (positionCarry the last), a multiple of its 16-byte alignment. */
const FRAME_BYTES = 112;

export class XpbdFrame {
  readonly frame: GPUBuffer;
  readonly rest: GPUBuffer;
  readonly invMass: GPUBuffer;
  readonly objectStatus: GPUBuffer;
  /** Per vertex the colliders' kept contact, 2 vec4 (SolverParams.colliderResponse 'multiplier'; lib/colliderProjection.wgsl). */
  readonly colliderContacts: GPUBuffer;
  /** First slot of each constraint kind's static slots (KindSlots); substeps from substepSlotBase. */
  private readonly tetSlots: KindSlots;
  /** The tets' slots again with d = 1: each tet's searched step length reused (an accelerated run's later sweeps, SolverParams.andersonLineSearchSweeps). */
  private readonly tetReuseSlots: KindSlots;
  private readonly edgeSlots: KindSlots;
  readonly substepSlotBase: number;
  private slots!: GPUBuffer;
  private colliders!: GPUBuffer;
  private handles!: GPUBuffer;
  private _slotGroup!: GPUBindGroup;
  private _integrateGroup!: GPUBindGroup;
  /** Bind groups of other stages that bind the colliders' or handles' samples (bindScripts). */
  private readonly scriptBinders: ((buffers: ScriptBuffers) => void)[] = [];
  private capacity = 0;
  private readonly model: Model;

  constructor(
    private readonly device: GPUDevice,
    private readonly setup: SimSetup,
    private readonly state: GpuState,
    private readonly kernels: XpbdKernels,
  ) {
    const m = setup.model;
    this.model = m;
    const handleBits = new Float32Array(new Int32Array(m.handleOfVertex).buffer);
    this.frame = uniformBuffer(device, 'xpbd.frame', FRAME_BYTES);
    this.rest = storageBuffer(device, 'xpbd.rest', packVec4(m.restPositions, m.vertexCount, (i) => handleBits[i]));
    this.invMass = storageBuffer(device, 'xpbd.invMass', new Float32Array(m.invMass));
    // Per object its status word (src/contract/held.ts), then per vertex its collider-touch word
    // (src/contract/colliderTouch.ts, shaders/lib/colliderTouch.wgsl; Frame.touchBase) and its
    // push-direction words (shaders/lib/pushDirection.wgsl): solverStatusWords.
    this.objectStatus = storageBuffer(device, 'xpbd.objectStatus', new Uint32Array(solverStatusWords(m.objectNames.length, m.vertexCount)));
    // Per vertex the colliders' kept contact (SolverParams.colliderResponse 'multiplier';
    // shaders/lib/colliderProjection.wgsl): friction's correction and the contact's code, then the
    // start's shift. Read only while the vertex's push (velocities.w) is > 0, so never cleared.
    this.colliderContacts = storageBuffer(device, 'xpbd.colliderContacts', 32 * Math.max(1, m.vertexCount));
    this.tetSlots = kindSlots(0, m.tetColouring, m.tetPartition);
    this.tetReuseSlots = kindSlots(this.tetSlots.end, m.tetColouring, m.tetPartition);
    this.edgeSlots = kindSlots(this.tetReuseSlots.end, m.edgeColouring, m.edgePartition);
    this.substepSlotBase = this.edgeSlots.end;
    this.ensureCapacity(setup.params.substeps);
  }

  /** Bind group 1 of the solver kernels (dynamic offset = a slot). */
  get slotGroup(): GPUBindGroup {
    return this._slotGroup;
  }

  /** Bind group 0 of xpbdIntegrate.wgsl (predict, collide, finalize, applyMass). */
  get integrateGroup(): GPUBindGroup {
    return this._integrateGroup;
  }

  /**
   * Calls `build` with the colliders' and handles' sample buffers now, and again whenever the
   * substep capacity grows and they are reallocated: for bind groups of other stages that bind
   * them (MaterialStage's predictWarm and cells-with-colliders groups).
   */
  bindScripts(build: (buffers: ScriptBuffers) => void): void {
    this.scriptBinders.push(build);
    build({ colliders: this.colliders, handles: this.handles });
  }

  get colliderCount(): number {
    return this.setup.colliders.length;
  }

  /** Dynamic offset of substep `s`'s slot. */
  substepOffset(s: number): number {
    return (this.substepSlotBase + s) * SLOT_STRIDE;
  }

  /**
   * Dynamic offset of colour `c` of the tets (neohookean) or the edges (springs). `reuse`: the
   * tets' slot whose sweep reuses each tet's searched step length (slot.d = 1; lib/neoHookeanSweep.wgsl).
   */
  colourOffset(constraint: SolverParams['constraint'], c: number, reuse = false): number {
    return (this.slotsOf(constraint, reuse).colours + c) * SLOT_STRIDE;
  }

  /** Dynamic offset of pass `g` of the partitioned order (cells of the pass: a, count: b, workgroups per grid row: c); `reuse` as colourOffset. */
  passOffset(constraint: SolverParams['constraint'], g: number, reuse = false): number {
    return (this.slotsOf(constraint, reuse).passes + g) * SLOT_STRIDE;
  }

  /** Dynamic offset of leftover colour `c` of the partitioned order (a colour range, as colourOffset); `reuse` as colourOffset. */
  leftoverOffset(constraint: SolverParams['constraint'], c: number, reuse = false): number {
    return (this.slotsOf(constraint, reuse).leftovers + c) * SLOT_STRIDE;
  }

  private slotsOf(constraint: SolverParams['constraint'], reuse: boolean): KindSlots {
    if (constraint !== 'neohookean') return this.edgeSlots;
    return reuse ? this.tetReuseSlots : this.tetSlots;
  }

  /** (Re)creates the per-substep buffers, and the groups that bind them, when the substep count grows. */
  ensureCapacity(substeps: number): void {
    if (substeps <= this.capacity) return;
    const device = this.device;
    const m = this.model;
    const cap = Math.max(substeps, 1);
    this.colliders?.destroy();
    this.handles?.destroy();
    this.slots?.destroy();
    this.colliders = storageBuffer(device, 'xpbd.colliders', 4 * cap * Math.max(1, this.setup.colliders.length) * COLLIDER_STRIDE);
    this.handles = storageBuffer(device, 'xpbd.handles', 4 * cap * Math.max(1, this.setup.handles.length) * HANDLE_STRIDE);
    const slotCount = this.substepSlotBase + cap;
    this.slots = device.createBuffer({ label: 'xpbd.slots', size: slotCount * SLOT_STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const words = new Uint32Array((slotCount * SLOT_STRIDE) / 4);
    const put = (slot: number, a: number, b: number, c: number, d = 0) => words.set([a, b, c, d], (slot * SLOT_STRIDE) / 4);
    const writeKind = (slots: KindSlots, colouring: Colouring, partition: PartitionedColouring, d = 0) => {
      const colourSlots = (offsets: Uint32Array, base: number) => {
        for (let c = 0; c + 1 < offsets.length; c++) {
          const count = offsets[c + 1] - offsets[c];
          put(base + c, offsets[c], count, gridRowStride(count), d);
        }
      };
      colourSlots(colouring.offsets, slots.colours);
      partition.passes.forEach((pass, g) => put(slots.passes + g, pass.cellBase, pass.cellCount, dispatchGrid(pass.cellCount * WORKGROUP_SIZE)[0], d));
      colourSlots(partition.leftoverOffsets, slots.leftovers);
    };
    writeKind(this.tetSlots, m.tetColouring, m.tetPartition);
    writeKind(this.tetReuseSlots, m.tetColouring, m.tetPartition, 1);
    writeKind(this.edgeSlots, m.edgeColouring, m.edgePartition);
    for (let s = 0; s < cap; s++) put(this.substepSlotBase + s, s, 0, 0);
    device.queue.writeBuffer(this.slots, 0, words);
    this._slotGroup = device.createBindGroup({ label: 'xpbd.slot', layout: this.kernels.slotLayout, entries: [{ binding: 0, resource: { buffer: this.slots, size: 16 } }] });
    this._integrateGroup = this.kernels.integrate.group({
      frame: this.frame,
      positions: this.state.positions,
      prev: this.state.prev,
      velocities: this.state.velocities,
      rest: this.rest,
      objectStatus: this.objectStatus,
      colliders: this.colliders,
      handles: this.handles,
      invMass: this.invMass,
      colliderContacts: this.colliderContacts,
    });
    for (const build of this.scriptBinders) build({ colliders: this.colliders, handles: this.handles });
    this.capacity = cap;
  }

  /**
   * The frame constants (Frame in xpbdCommon.wgsl) for `p`; `warmFirst` is the share of the
   * previous substep's Neo-Hookean multipliers the frame's first substep starts from
   * (MaterialStage.firstSubstepWarmShare; 0 starts it cold).
   */
  writeConstants(p: SolverParams, warmFirst = 0): void {
    const m = this.model;
    const h = p.dt / p.substeps;
    const buf = new ArrayBuffer(FRAME_BYTES);
    const f = new Float32Array(buf);
    const u = new Uint32Array(buf);
    f.set(p.gravity, 0);
    f[3] = h;
    f[4] = Math.max(0, 1 - p.damping * h);
    f[5] = p.friction;
    f[6] = 1 / (h * h);
    f[7] = p.jacobiRelaxation;
    f[8] = p.springCompliance / (h * h);
    u[9] = m.vertexCount;
    u[10] = m.tetCount;
    u[11] = m.edgeCount;
    u[12] = this.setup.colliders.length;
    u[13] = this.setup.handles.length;
    u[14] = gridRowStride(m.vertexCount);
    u[15] = gridRowStride(p.constraint === 'neohookean' ? m.tetCount : m.edgeCount);
    u[16] = p.lineSearch ? 1 : 0;
    f[17] = warmFirst;
    f[18] = WARM_START_SHARE;
    // The colliders are projected once per material iteration (CpuSolver.collide's twin).
    f[19] = uniformRamp(offsetRampStep(p.contactOffsetSpeed, h, colliderRampProjections(p)));
    u[20] = m.objectNames.length;
    u[21] = effectiveColliderResponse(p) === 'multiplier' ? 1 : 0;
    f[22] = uniformRamp(offsetRampStep(effectiveDepenetrationSpeed(p), h, colliderRampProjections(p)));
    u[23] = p.positionCarry ? 1 : 0;
    u[24] = predictClearsPushDirections(p, m.objectNames.length) ? 1 : 0;
    this.device.queue.writeBuffer(this.frame, 0, buf);
  }

  /** Colliders' and handles' poses at every substep of the frame starting at `time` (`handMoved`: sampleScripts). */
  writeScripts(time: number, p: SolverParams, handMoved?: ReadonlySet<number>): void {
    const scripts = sampleScripts(this.setup.colliders, this.setup.handles, time, p.dt / p.substeps, p.substeps, colliderContactOffset(this.model, p.contactOffset), handMoved);
    if (scripts.colliders.length) this.device.queue.writeBuffer(this.colliders, 0, new Float32Array(scripts.colliders));
    if (scripts.handles.length) this.device.queue.writeBuffer(this.handles, 0, new Float32Array(scripts.handles));
  }

  /** Uploads the model's inverse masses again (after a material change). */
  writeInverseMasses(): void {
    this.device.queue.writeBuffer(this.invMass, 0, new Float32Array(this.model.invMass));
  }

  /** Clears the per-object stopped flags. */
  clearObjectStatus(): void {
    this.device.queue.writeBuffer(this.objectStatus, 0, new Uint32Array(solverStatusWords(this.model.objectNames.length, this.model.vertexCount)));
  }

  destroy(): void {
    this.frame.destroy();
    this.rest.destroy();
    this.invMass.destroy();
    this.objectStatus.destroy();
    this.colliderContacts.destroy();
    this.colliders.destroy();
    this.handles.destroy();
    this.slots.destroy();
  }
}

/** The per-substep samples of the colliders' and handles' poses (XpbdFrame.bindScripts). */
export interface ScriptBuffers {
  colliders: GPUBuffer;
  handles: GPUBuffer;
}

/** Static slot indices of one constraint kind: its colours, its partition's passes, its partition's leftover colours. */
interface KindSlots {
  colours: number;
  passes: number;
  leftovers: number;
  end: number;
}

function kindSlots(base: number, colouring: Colouring, partition: PartitionedColouring): KindSlots {
  const passes = base + colouring.colourCount;
  const leftovers = passes + partition.passes.length;
  return { colours: base, passes, leftovers, end: leftovers + partition.leftoverColourCount };
}

/**
 * Whether predict clears each vertex's three push-direction words (Frame.pushDirections;
 * shaders/lib/pushDirection.wgsl): with sliverLift 'clipped-to-contacts' in a model of two or more
 * objects, the only contacts whose push directions the lift reads (ContactStage.encodePushDirections).
 */
export function predictClearsPushDirections(p: Pick<SolverParams, 'sliverLift'>, objectCount: number): boolean {
  return p.sliverLift === 'clipped-to-contacts' && objectCount > 1;
}
