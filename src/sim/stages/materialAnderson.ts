/**
 * Anderson acceleration of the material iterations on the GPU (SolverParams.andersonDepth),
 * recorded into the material pass by MaterialStage: `begin` before a round's first sweep, then
 * after each sweep (and the colliders) `afterSweep`. Kernels: shaders/xpbdAnderson.wgsl; the
 * method and the CPU reference: src/sim/andersonAcceleration.ts (CpuSolver runs it at the same
 * points). Buffers are allocated on first use for the depth asked, and again when it grows;
 * each sweep index's constants sit in a 256-byte uniform slot, written when the iteration count
 * or the depth changes, with its bind group built once.
 */
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import { andersonSchedule, MIX_FROM_SWEEP, MIXED_TET_FLOATS } from '../andersonAcceleration';
import { COLLIDER_MULTIPLIER_STRIDE } from '../colliderMultiplier';
import type { XpbdKernels } from '../gpuKernels';
import type { SubstepContext } from '../../contract/stage';
import type { XpbdFrame } from './xpbdFrame';

/** Bytes between sweep slots (minUniformBufferOffsetAlignment). */
const SWEEP_SLOT_BYTES = 256;
/** Floats of partial sums per workgroup (xpbdAnderson.wgsl PARTIAL_STRIDE). */
const PARTIAL_STRIDE = 16;

export class MaterialAnderson {
  private readonly device: GPUDevice;
  /** Floats per state vector: 3 per vertex, 9 per tet. */
  private readonly length: number;
  private readonly grid: [number, number];
  private readonly partialCount: number;
  private readonly rowStride: number;
  /** The depth the history buffers hold. */
  private capacityDepth = 0;
  private sweepSlots: GPUBuffer | null = null;
  /** One bind group per sweep index's slot of sweepSlots. */
  private sweepGroups: GPUBindGroup[] = [];
  /** The depth and sweep count the slots were last written for. */
  private written = '';
  private group: GPUBindGroup | null = null;
  private readonly owned: GPUBuffer[] = [];

  constructor(
    device: GPUDevice,
    private readonly kernels: XpbdKernels,
    private readonly frame: XpbdFrame,
    private readonly positions: GPUBuffer,
    private readonly stress: GPUBuffer,
    private readonly velocities: GPUBuffer,
    vertexCount: number,
    tetCount: number,
  ) {
    this.device = device;
    // With colliders, room for their kept multipliers (4 floats a vertex, mixed when
    // SolverParams.colliderResponse is 'multiplier'; the kernels skip them otherwise).
    const keptVertices = frame.colliderCount > 0 ? vertexCount : 0;
    this.length = 3 * vertexCount + MIXED_TET_FLOATS * tetCount + COLLIDER_MULTIPLIER_STRIDE * keptVertices;
    this.grid = dispatchGrid(vertexCount + tetCount + keptVertices);
    this.partialCount = Math.ceil(vertexCount / WORKGROUP_SIZE);
    this.rowStride = gridRowStride(vertexCount + tetCount + keptVertices);
  }

  /**
   * Ready for `depth` and rounds of up to `maxSweeps` sweeps: (re)allocates the history for a
   * larger depth and rewrites the sweep slots when either changed. Call before recording a frame.
   * Only rounds that mix are recorded (MaterialStage skips rounds shorter than MIN_MIXING_SWEEPS),
   * so every round mixes from MIX_FROM_SWEEP and one slot per sweep index serves them all.
   */
  prepare(depth: number, maxSweeps: number): void {
    if (depth > this.capacityDepth) this.allocate(depth);
    if (`${depth}/${maxSweeps}` !== this.written) this.writeSlots(depth, maxSweeps);
  }

  /** z = the state, before a round's first sweep (1 dispatch). */
  begin(pass: GPUComputePassEncoder, step: SubstepContext): void {
    pass.setPipeline(this.kernels.andersonBegin);
    pass.setBindGroup(0, this.group!);
    pass.setBindGroup(1, this.sweepGroups[0]);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    step.countDispatches(1);
  }

  /** After sweep `sweep` (0-based) of the round and the colliders: the differences, and from MIX_FROM_SWEEP on the mix (1 or 2 dispatches). */
  afterSweep(pass: GPUComputePassEncoder, step: SubstepContext, sweep: number): void {
    pass.setPipeline(this.kernels.andersonResidual);
    pass.setBindGroup(0, this.group!);
    pass.setBindGroup(1, this.sweepGroups[sweep]);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    if (sweep < MIX_FROM_SWEEP) {
      step.countDispatches(1);
      return;
    }
    pass.setPipeline(this.kernels.andersonMix);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    step.countDispatches(2);
  }

  private allocate(depth: number): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
    const bytes = 4 * this.length;
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (2 * depth * bytes > limit) {
      throw new RangeError(`andersonDepth ${depth}: its ${2 * depth} difference columns of ${this.length} floats need ${2 * depth * bytes} bytes in one binding, over this device's maxStorageBufferBindingSize ${limit}; use a smaller depth`);
    }
    const history = storageBuffer(this.device, 'xpbd.anderson.history', 3 * bytes);
    const columns = storageBuffer(this.device, 'xpbd.anderson.columns', 2 * depth * bytes);
    const partials = storageBuffer(this.device, 'xpbd.anderson.partials', 4 * PARTIAL_STRIDE * Math.max(1, this.partialCount));
    this.owned.push(history, columns, partials);
    this.capacityDepth = depth;
    this.group = this.kernels.andersonTable.group({ frame: this.frame.frame, positions: this.positions, stress: this.stress, history, columns, partials, velocities: this.velocities, colliderContacts: this.frame.colliderContacts }, 'xpbd.anderson');
  }

  private writeSlots(depth: number, maxSweeps: number): void {
    const capacity = Math.max(1, maxSweeps);
    if (!this.sweepSlots || capacity > this.sweepGroups.length) {
      this.sweepSlots?.destroy();
      this.sweepSlots = uniformBuffer(this.device, 'xpbd.anderson.sweeps', SWEEP_SLOT_BYTES * capacity);
      this.sweepGroups = [];
      for (let k = 0; k < capacity; k++) {
        this.sweepGroups.push(this.kernels.andersonSweepTable.group({ sweep: { buffer: this.sweepSlots, offset: SWEEP_SLOT_BYTES * k, size: 32 } }, `xpbd.anderson.sweep${k}`));
      }
    }
    const stride = SWEEP_SLOT_BYTES / 4;
    const words = new Uint32Array(stride * this.sweepGroups.length);
    for (let k = 0; k < this.sweepGroups.length; k++) {
      const o = stride * k;
      const { slot, columns } = andersonSchedule(depth, k);
      words[o] = slot;
      words[o + 1] = columns;
      words[o + 2] = k >= MIX_FROM_SWEEP ? 1 : 0; // mix
      words[o + 3] = k === 0 ? 1 : 0; // first
      words[o + 4] = depth;
      words[o + 5] = this.rowStride;
      words[o + 6] = this.partialCount;
      words[o + 7] = this.length;
    }
    this.device.queue.writeBuffer(this.sweepSlots, 0, words);
    this.written = `${depth}/${maxSweeps}`;
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.sweepSlots?.destroy();
  }
}
