/**
 * The 'air' stage of the GPU time step (paper 004 eq. 2; shaders/airConstraint.wgsl, float64 twin
 * airConstraintCpu.ts): after each material iteration (SolverParams.collideEvery 'auto' in air
 * mode; paper 004 section 3.2 runs the air constraints last within each iteration) or once after
 * all of them ('substep'), `airIterations` passes over the air tets in the Gauss-Seidel order
 * `airSolve` names, then, in the substep's last round, one dispatch counting the tets still inverted.
 * 'partitioned' (default): up to 4,096 air tets the greedy colouring swept by one workgroup, its
 * colours between storage barriers (lib/cellSweep.wgsl): one dispatch a pass, the coloured order
 * tet for tet; larger air meshes the material solve's partitioned order
 * (mesh/partitionedColouring.ts), one dispatch per cell pass, each workgroup sweeping its cell's
 * local colours, the few leftover colours one dispatch each (airConstraintCpu.ts orderAirTets); 'coloured': one
 * dispatch per colour of the greedy colouring (40-60 on air meshes: ~4,800 dispatches a frame
 * at 20 substeps). 'jacobi' has no GPU kernel (the CPU reference's only; measured far slower):
 * it runs 'partitioned' here. Bindings by name (one table, bind groups built once per
 * topology); the dispatch ranges are uniform slots bound with a dynamic offset (two per
 * dispatch: the first pass's counts what it finds inverted). A new topology from the mesh
 * optimisation comes in through setTopology between frames (buffers regrown to the next power of
 * two when it has more tets, colours or cells).
 */
import code from '../../../shaders/airConstraint.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import { cellRanges } from '../../mesh/partitionedColouring';
import type { AirSolve } from '../../contract/params';
import type { GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import { INVERTED_QUALITY, type AirOrder } from './airConstraintCpu';
import type { AirMesh } from './airMesh';

const SLOT_STRIDE = 256;
/** Bytes of the stage's counters (inverted in the first pass, inverted after the last; summed over the frame). */
export const AIR_COUNTER_BYTES = 8;

export interface AirStageSettings {
  airIterations: number;
  airSolve: AirSolve;
  friction: number;
}

/** One dispatch of a pass: the pipeline and its slot (the first pass's slot is slot + 1). */
interface AirDispatch {
  sweep: boolean;
  slot: number;
  grid: [number, number];
}

export class AirStage implements GpuStage {
  readonly phase = 'air' as const;
  readonly counters: GPUBuffer;
  private readonly table;
  private readonly slotLayout: GPUBindGroupLayout;
  private readonly solvePipeline: GPUComputePipeline;
  private readonly sweepPipeline: GPUComputePipeline;
  private readonly countPipeline: GPUComputePipeline;
  private readonly uniforms: GPUBuffer;
  private readonly points: GPUBuffer;
  /** Topology buffers (air tets, the two orders, the partition's cell ranges), regrown as needed. */
  private readonly buffers = new Map<string, GPUBuffer>();
  private slots!: GPUBuffer;
  private slotGroup!: GPUBindGroup;
  private slotCapacity = 0;
  private tetCount = 0;
  private orders!: AirOrder;
  /** Per order, one pass's dispatches. */
  private plan!: Record<'coloured' | 'partitioned', AirDispatch[]>;
  private groups?: { positions: GPUBuffer; prev: GPUBuffer; coloured: GPUBindGroup; partitioned: GPUBindGroup };
  private readonly startPoints: Float32Array<ArrayBuffer>;

  constructor(
    private readonly device: GPUDevice,
    private readonly mesh: AirMesh,
    orders: AirOrder,
    private readonly settings: () => Readonly<AirStageSettings>,
    private readonly isActive: () => boolean,
  ) {
    this.table = new BindingTable(device, 'air.constraint', {
      params: 'uniform', positions: 'storage', prev: 'read-only-storage', airTets: 'read-only-storage',
      points: 'storage', colourOrder: 'read-only-storage', counters: 'storage', cellRanges: 'read-only-storage',
    });
    this.slotLayout = device.createBindGroupLayout({
      label: 'air.slot',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 16 } }],
    });
    const module = device.createShaderModule({ label: 'air.constraint', code: withIncludes(code, 'airConstraint') });
    const layout = device.createPipelineLayout({ label: 'air.constraint', bindGroupLayouts: [this.table.layout, this.slotLayout] });
    this.solvePipeline = device.createComputePipeline({ label: 'air.solveColour', layout, compute: { module, entryPoint: 'solveColour' } });
    this.sweepPipeline = device.createComputePipeline({ label: 'air.sweepCells', layout, compute: { module, entryPoint: 'sweepCells' } });
    this.countPipeline = device.createComputePipeline({ label: 'air.countInverted', layout, compute: { module, entryPoint: 'countInverted' } });
    this.uniforms = uniformBuffer(device, 'air.params', 32);
    this.counters = storageBuffer(device, 'air.counters', 16);
    const n = mesh.points.length / 3;
    this.startPoints = new Float32Array(4 * Math.max(1, n));
    for (let k = 0; k < n; k++) this.startPoints.set([mesh.points[3 * k], mesh.points[3 * k + 1], mesh.points[3 * k + 2], mesh.pointInvMass[k]], 4 * k);
    this.points = storageBuffer(device, 'air.points', this.startPoints);
    this.setTopology(mesh.tets, orders);
  }

  /** The air's points (vec4: xyz + inverse mass), for the optimisation's snapshot. */
  get pointBuffer(): GPUBuffer {
    return this.points;
  }

  get airTetCount(): number {
    return this.tetCount;
  }

  get colourCount(): number {
    return this.orders.colouring.colourCount;
  }

  /** The orders now installed. */
  get airOrders(): AirOrder {
    return this.orders;
  }

  active(): boolean {
    return this.isActive();
  }

  /** Installs air tets (4 ids each) with their orders; takes effect from the next frame recorded. */
  setTopology(tets: Uint32Array, orders: AirOrder): void {
    const count = tets.length / 4;
    if (orders.colouring.order.length !== count || orders.partition.order.length !== count) {
      throw new RangeError(`AirStage.setTopology: orders of ${orders.colouring.order.length} and ${orders.partition.order.length} tets for ${count} tets`);
    }
    const ranges = cellRanges(orders.partition);
    const data: Record<string, Uint32Array> = { tets, colourOrder: orders.colouring.order, partitionOrder: orders.partition.order, cellRanges: ranges };
    for (const [name, array] of Object.entries(data)) {
      const held = this.buffers.get(name);
      if (!held || held.size < array.byteLength) {
        held?.destroy();
        this.buffers.set(name, storageBuffer(this.device, `air.${name}`, Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(1, array.byteLength))))));
        this.groups = undefined;
      }
      if (array.byteLength > 0) this.device.queue.writeBuffer(this.buffers.get(name)!, 0, array.buffer, array.byteOffset, array.byteLength);
    }
    // Slots: [first, count, row stride, count inverted] per dispatch, twice (later passes, then the first).
    const slots: number[][] = [];
    const dispatch = (sweep: boolean, first: number, n: number): AirDispatch => {
      const grid = dispatchGrid(sweep ? n * WORKGROUP_SIZE : n);
      const stride = sweep ? grid[0] : gridRowStride(n);
      slots.push([first, n, stride, 0], [first, n, stride, 1]);
      return { sweep, slot: slots.length - 2, grid };
    };
    const c = orders.colouring;
    const coloured = Array.from({ length: c.colourCount }, (_, k) => dispatch(false, c.offsets[k], c.offsets[k + 1] - c.offsets[k]));
    const p = orders.partition;
    const partitioned = p.passes.filter((g) => g.cellCount > 0).map((g) => dispatch(true, g.cellBase, g.cellCount));
    for (let k = 0; k < p.leftoverColourCount; k++) partitioned.push(dispatch(false, p.leftoverOffsets[k], p.leftoverOffsets[k + 1] - p.leftoverOffsets[k]));
    const slotsNeeded = Math.max(1, slots.length);
    if (slotsNeeded > this.slotCapacity) {
      this.slots?.destroy();
      this.slotCapacity = Math.max(64, 1 << Math.ceil(Math.log2(slotsNeeded)));
      this.slots = this.device.createBuffer({ label: 'air.slots', size: this.slotCapacity * SLOT_STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      this.slotGroup = this.device.createBindGroup({ label: 'air.slot', layout: this.slotLayout, entries: [{ binding: 0, resource: { buffer: this.slots, size: 16 } }] });
    }
    const words = new Uint32Array((slotsNeeded * SLOT_STRIDE) / 4);
    slots.forEach((w, k) => words.set(w, (k * SLOT_STRIDE) / 4));
    this.device.queue.writeBuffer(this.slots, 0, words);
    this.plan = { coloured, partitioned };
    this.tetCount = count;
    this.orders = orders;
  }

  /** GPU dispatches of one constraint pass in `solve`'s order ('jacobi' runs 'partitioned' here). */
  passDispatches(solve: AirSolve): number {
    return this.plan[solve === 'coloured' ? 'coloured' : 'partitioned'].length;
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

  private bindGroup(state: GpuState, solve: 'coloured' | 'partitioned'): GPUBindGroup {
    let g = this.groups;
    if (!g || g.positions !== state.positions || g.prev !== state.prev) {
      const b = (name: string) => this.buffers.get(name)!;
      const group = (colourOrder: GPUBuffer) => this.table.group({
        params: this.uniforms, positions: state.positions, prev: state.prev, airTets: b('tets'),
        points: this.points, colourOrder, counters: this.counters, cellRanges: b('cellRanges'),
      });
      g = this.groups = { positions: state.positions, prev: state.prev, coloured: group(b('colourOrder')), partitioned: group(b('partitionOrder')) };
    }
    return g[solve];
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.tetCount === 0) return;
    const settings = this.settings();
    const solve = settings.airSolve === 'coloured' ? 'coloured' : 'partitioned';
    const pass = step.beginPass(encoder, 'air');
    pass.setBindGroup(0, this.bindGroup(state, solve));
    const plan = this.plan[solve];
    let bound: boolean | undefined;
    // The counters are per substep in every schedule (SolverParams.collideEvery runs this stage
    // after each material iteration, paper 004 section 3.2): the first pass of the substep's first
    // round counts what it finds inverted, and the count after the passes runs in its last round.
    const first = step.round === 0, last = step.round === step.rounds - 1;
    for (let it = 0; it < settings.airIterations; it++) {
      for (const d of plan) {
        if (bound !== d.sweep) pass.setPipeline(d.sweep ? this.sweepPipeline : this.solvePipeline);
        bound = d.sweep;
        pass.setBindGroup(1, this.slotGroup, [(it === 0 && first ? d.slot + 1 : d.slot) * SLOT_STRIDE]);
        pass.dispatchWorkgroups(d.grid[0], d.grid[1]);
      }
    }
    if (last) {
      pass.setPipeline(this.countPipeline);
      pass.setBindGroup(1, this.slotGroup, [0]);
      const grid = dispatchGrid(this.tetCount);
      pass.dispatchWorkgroups(grid[0], grid[1]);
    }
    step.countDispatches(settings.airIterations * plan.length + (last ? 1 : 0));
    pass.end();
  }

  destroy(): void {
    this.uniforms.destroy();
    this.counters.destroy();
    this.points.destroy();
    for (const b of this.buffers.values()) b.destroy();
    this.slots?.destroy();
  }
}
