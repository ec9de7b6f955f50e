/**
 * The 'air' stage of the GPU time step (paper 004 eq. 2; shaders/airConstraint.wgsl, float64 twin
 * airConstraintCpu.ts): after the material iterations, `airIterations` passes over the air tets
 * in colour order (one dispatch per colour), then one dispatch counting the tets still inverted.
 * Bindings by name (one table, bind groups built once per topology); the colour ranges are
 * uniform slots bound with a dynamic offset (two per colour: the first pass's counts what it
 * finds inverted). A new topology from the mesh optimisation comes in through setTopology
 * between frames (buffers regrown to the next power of two when it has more tets or colours).
 */
import code from '../../../shaders/airConstraint.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import type { Colouring } from '../../mesh/colouring';
import type { GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import { INVERTED_QUALITY } from './airConstraintCpu';
import type { AirMesh } from './airMesh';

const SLOT_STRIDE = 256;
/** Bytes of the stage's counters (inverted in the first pass, inverted after the last; summed over the frame). */
export const AIR_COUNTER_BYTES = 8;

export interface AirStageSettings {
  airIterations: number;
  friction: number;
}

export class AirStage implements GpuStage {
  readonly phase = 'air' as const;
  readonly counters: GPUBuffer;
  private readonly table;
  private readonly slotLayout: GPUBindGroupLayout;
  private readonly solvePipeline: GPUComputePipeline;
  private readonly countPipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  private readonly points: GPUBuffer;
  private tets!: GPUBuffer;
  private order!: GPUBuffer;
  private slots!: GPUBuffer;
  private slotGroup!: GPUBindGroup;
  private tetCapacity = 0;
  private slotCapacity = 0;
  private tetCount = 0;
  private colouring!: Colouring;
  private group?: { positions: GPUBuffer; prev: GPUBuffer; tets: GPUBuffer; bind: GPUBindGroup };
  private readonly startPoints: Float32Array<ArrayBuffer>;

  constructor(
    private readonly device: GPUDevice,
    private readonly mesh: AirMesh,
    colouring: Colouring,
    private readonly settings: () => Readonly<AirStageSettings>,
    private readonly isActive: () => boolean,
  ) {
    this.table = new BindingTable(device, 'air.constraint', {
      params: 'uniform', positions: 'storage', prev: 'read-only-storage', airTets: 'read-only-storage',
      points: 'storage', colourOrder: 'read-only-storage', counters: 'storage',
    });
    this.slotLayout = device.createBindGroupLayout({
      label: 'air.slot',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 16 } }],
    });
    const module = device.createShaderModule({ label: 'air.constraint', code: withIncludes(code, 'airConstraint') });
    const layout = device.createPipelineLayout({ label: 'air.constraint', bindGroupLayouts: [this.table.layout, this.slotLayout] });
    this.solvePipeline = device.createComputePipeline({ label: 'air.solveColour', layout, compute: { module, entryPoint: 'solveColour' } });
    this.countPipeline = device.createComputePipeline({ label: 'air.countInverted', layout, compute: { module, entryPoint: 'countInverted' } });
    this.uniforms = uniformBuffer(device, 'air.params', 32);
    this.counters = storageBuffer(device, 'air.counters', 16);
    const n = mesh.points.length / 3;
    this.startPoints = new Float32Array(4 * Math.max(1, n));
    for (let k = 0; k < n; k++) this.startPoints.set([mesh.points[3 * k], mesh.points[3 * k + 1], mesh.points[3 * k + 2], mesh.pointInvMass[k]], 4 * k);
    this.points = storageBuffer(device, 'air.points', this.startPoints);
    this.setTopology(mesh.tets, colouring);
  }

  /** The air's points (vec4: xyz + inverse mass), for the optimisation's snapshot. */
  get pointBuffer(): GPUBuffer {
    return this.points;
  }

  get airTetCount(): number {
    return this.tetCount;
  }

  get colourCount(): number {
    return this.colouring.colourCount;
  }

  active(): boolean {
    return this.isActive();
  }

  /** Installs air tets (4 ids each) with their colouring; takes effect from the next frame recorded. */
  setTopology(tets: Uint32Array, colouring: Colouring): void {
    const count = tets.length / 4;
    if (colouring.order.length !== count) throw new RangeError(`AirStage.setTopology: colouring of ${colouring.order.length} tets for ${count} tets`);
    const q = this.device.queue;
    if (count > this.tetCapacity) {
      this.tets?.destroy();
      this.order?.destroy();
      this.tetCapacity = Math.max(64, 1 << Math.ceil(Math.log2(count)));
      this.tets = storageBuffer(this.device, 'air.tets', 16 * this.tetCapacity);
      this.order = storageBuffer(this.device, 'air.colourOrder', 4 * this.tetCapacity);
      this.group = undefined;
    }
    if (count > 0) {
      q.writeBuffer(this.tets, 0, tets.buffer, tets.byteOffset, tets.byteLength);
      q.writeBuffer(this.order, 0, colouring.order.buffer, colouring.order.byteOffset, colouring.order.byteLength);
    }
    const slotsNeeded = 2 * Math.max(1, colouring.colourCount);
    if (slotsNeeded > this.slotCapacity) {
      this.slots?.destroy();
      this.slotCapacity = Math.max(64, 1 << Math.ceil(Math.log2(slotsNeeded)));
      this.slots = this.device.createBuffer({ label: 'air.slots', size: this.slotCapacity * SLOT_STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      this.slotGroup = this.device.createBindGroup({ label: 'air.slot', layout: this.slotLayout, entries: [{ binding: 0, resource: { buffer: this.slots, size: 16 } }] });
    }
    const words = new Uint32Array((slotsNeeded * SLOT_STRIDE) / 4);
    const c = colouring.colourCount;
    for (let k = 0; k < c; k++) {
      const first = colouring.offsets[k], n = colouring.offsets[k + 1] - first;
      words.set([first, n, gridRowStride(n), 1], (k * SLOT_STRIDE) / 4);
      words.set([first, n, gridRowStride(n), 0], ((c + k) * SLOT_STRIDE) / 4);
    }
    q.writeBuffer(this.slots, 0, words);
    this.tetCount = count;
    this.colouring = colouring;
  }

  /** The air particles back to their start (the solver's reset). */
  resetPoints(): void {
    this.device.queue.writeBuffer(this.points, 0, this.startPoints);
  }

  beginFrame(encoder: GPUCommandEncoder): void {
    const buf = new ArrayBuffer(32);
    const u = new Uint32Array(buf), f = new Float32Array(buf);
    u[0] = this.mesh.modelVertexCount;
    u[1] = this.tetCount;
    u[2] = gridRowStride(this.tetCount);
    f[3] = this.settings().friction;
    f[4] = INVERTED_QUALITY;
    this.device.queue.writeBuffer(this.uniforms, 0, buf);
    encoder.clearBuffer(this.counters);
  }

  private bindGroup(state: GpuState): GPUBindGroup {
    const g = this.group;
    if (g && g.positions === state.positions && g.prev === state.prev && g.tets === this.tets) return g.bind;
    const bind = this.table.group({
      params: this.uniforms, positions: state.positions, prev: state.prev, airTets: this.tets,
      points: this.points, colourOrder: this.order, counters: this.counters,
    });
    this.group = { positions: state.positions, prev: state.prev, tets: this.tets, bind };
    return bind;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.tetCount === 0) return;
    const pass = step.beginPass(encoder, 'air');
    pass.setPipeline(this.solvePipeline);
    pass.setBindGroup(0, this.bindGroup(state));
    const c = this.colouring;
    const iterations = this.settings().airIterations;
    for (let it = 0; it < iterations; it++) {
      for (let k = 0; k < c.colourCount; k++) {
        const grid = dispatchGrid(c.offsets[k + 1] - c.offsets[k]);
        pass.setBindGroup(1, this.slotGroup, [(it === 0 ? k : c.colourCount + k) * SLOT_STRIDE]);
        pass.dispatchWorkgroups(grid[0], grid[1]);
      }
    }
    pass.setPipeline(this.countPipeline);
    pass.setBindGroup(1, this.slotGroup, [0]);
    const grid = dispatchGrid(this.tetCount);
    pass.dispatchWorkgroups(grid[0], grid[1]);
    step.countDispatches(iterations * c.colourCount + 1);
    pass.end();
  }

  destroy(): void {
    this.uniforms.destroy();
    this.counters.destroy();
    this.points.destroy();
    this.tets?.destroy();
    this.order?.destroy();
    this.slots?.destroy();
  }
}
