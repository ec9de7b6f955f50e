/**
 * The XPBD solver on WebGPU. Uploads a Model (gpuModel buffers below), then records each
 * frame as substeps x (predict pass, solve pass = iterations x (material constraints +
 * colliders), finalize pass) into one command buffer. Same algorithm and order as
 * cpuSolver.ts, which the tests compare against.
 *
 * Buffers other layers may read: positionBuffer (vec4 per vertex: xyz + inverse mass) and
 * tetBuffer (vec4<u32> per tet, mesh order).
 */
import type { GpuContext } from '../gpu/device';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../gpu/buffers';
import { COLLIDER_STRIDE } from './colliders';
import { bindGroup, SLOT_STRIDE, XpbdKernels } from './gpuKernels';
import { HANDLE_STRIDE } from './handles';
import type { Model } from './model';
import { checkParams, type SolverParams } from './params';
import { RestShapeKernel } from './restShape';
import { rigidDampingTables } from './rigidDamping';
import { sampleScripts } from './scripts';
import { checkSetup, type SimSetup } from './setup';
import { PhaseTimer, type PhaseName } from './timing';

/** Passes per substep, in order; the timer sums them per phase. */
const PASSES: PhaseName[] = ['predict', 'solve', 'finalize'];

/** Vertices per workgroup of the damping passes (CHUNK in shaders/xpbdRigidDamping.wgsl). */
export const RIGID_DAMPING_CHUNK = 1024;

export interface GpuFrameResult {
  /** GPU time per phase (ms) when the adapter has timestamp queries, else null. */
  gpuPhaseMs: Record<PhaseName, number> | null;
  dispatches: number;
}

function toF32Vec4(src: ArrayLike<number>, n: number, w: (i: number) => number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    out[4 * i] = src[3 * i];
    out[4 * i + 1] = src[3 * i + 1];
    out[4 * i + 2] = src[3 * i + 2];
    out[4 * i + 3] = w(i);
  }
  return out;
}

export class GpuSolver {
  readonly model: Model;
  params: SolverParams;
  time = 0;
  frame = 0;
  readonly positionBuffer: GPUBuffer;
  readonly prevBuffer: GPUBuffer;
  readonly velocityBuffer: GPUBuffer;
  readonly tetBuffer: GPUBuffer;
  readonly objectStatusBuffer: GPUBuffer;
  private readonly device: GPUDevice;
  private readonly setup: SimSetup;
  private readonly kernels: XpbdKernels;
  private readonly restBuffer: GPUBuffer;
  private readonly invMassBuffer: GPUBuffer;
  private readonly dmInvBuffer: GPUBuffer;
  private readonly constantsBuffer: GPUBuffer;
  private readonly tetLambda: GPUBuffer;
  private readonly edgeLambda: GPUBuffer;
  private readonly frameBuffer: GPUBuffer;
  private slotBuffer!: GPUBuffer;
  private slotGroup!: GPUBindGroup;
  private colliderBuffer!: GPUBuffer;
  private handleBuffer!: GPUBuffer;
  private integrateGroup!: GPUBindGroup;
  private readonly neoHookeanGroup: GPUBindGroup;
  private readonly springGroup: GPUBindGroup;
  private readonly gatherTetGroup: GPUBindGroup;
  private readonly gatherEdgeGroup: GPUBindGroup;
  /** Damping of deformation only (xpbdRigidDamping.wgsl): one workgroup per chunk of an object. */
  private readonly dampingGroup: GPUBindGroup;
  private readonly dampingChunks: number;
  private scriptCapacity = 0;
  /** Slot indices: tet colours, then edge colours, then substeps. */
  private readonly edgeSlotBase: number;
  private readonly substepSlotBase: number;
  private slotCapacity = 0;
  private readonly timer: PhaseTimer;
  private readonly owned: GPUBuffer[] = [];

  constructor(ctx: GpuContext, setup: SimSetup) {
    checkSetup(setup);
    checkParams(setup.params);
    const device = ctx.device;
    this.device = device;
    this.setup = setup;
    this.model = setup.model;
    this.params = { ...setup.params };
    this.kernels = new XpbdKernels(device);
    const m = this.model;
    const own = (b: GPUBuffer) => (this.owned.push(b), b);
    const objectBits = new Float32Array(new Uint32Array(m.vertexObject).buffer);
    const handleBits = new Float32Array(new Int32Array(m.handleOfVertex).buffer);
    this.positionBuffer = own(storageBuffer(device, 'xpbd.positions', toF32Vec4(m.restPositions, m.vertexCount, (i) => m.invMass[i]), GPUBufferUsage.VERTEX));
    this.prevBuffer = own(storageBuffer(device, 'xpbd.prev', toF32Vec4(m.restPositions, m.vertexCount, (i) => objectBits[i])));
    this.velocityBuffer = own(storageBuffer(device, 'xpbd.velocities', toF32Vec4(m.initialVelocities, m.vertexCount, () => 0)));
    this.restBuffer = own(storageBuffer(device, 'xpbd.rest', toF32Vec4(m.restPositions, m.vertexCount, (i) => handleBits[i])));
    this.invMassBuffer = own(storageBuffer(device, 'xpbd.invMass', new Float32Array(m.invMass)));
    this.objectStatusBuffer = own(storageBuffer(device, 'xpbd.objectStatus', new Uint32Array(m.objectNames.length)));
    this.tetBuffer = own(storageBuffer(device, 'xpbd.tets', m.tets, GPUBufferUsage.INDEX));
    // Dm^-1 from the rest-shape kernel (f32, from the same f32 rest positions the GPU starts from).
    const packed = new Float32Array(m.restPositions);
    const rest = new RestShapeKernel(device).run(packed, m.tets);
    this.dmInvBuffer = own(rest.dmInv);
    rest.volume.destroy();
    this.constantsBuffer = own(storageBuffer(device, 'xpbd.tetConstants', new Float32Array(m.tetConstants)));
    // Per tet the 3x3 multiplier S of the Neo-Hookean step, 3 vec4 columns (constraintsCpu.ts).
    this.tetLambda = own(storageBuffer(device, 'xpbd.tetLambda', 48 * m.tetCount));
    this.edgeLambda = own(storageBuffer(device, 'xpbd.edgeLambda', 4 * m.edgeCount));
    this.frameBuffer = own(uniformBuffer(device, 'xpbd.frame', 64));
    const tetOrder = own(storageBuffer(device, 'xpbd.tetOrder', m.tetColouring.order));
    const tetCorrections = own(storageBuffer(device, 'xpbd.tetCorrections', 64 * m.tetCount));
    const edges = own(storageBuffer(device, 'xpbd.edges', m.edges));
    const restLengthScale = new Float32Array(2 * m.edgeCount);
    for (let e = 0; e < m.edgeCount; e++) {
      restLengthScale[2 * e] = m.edgeRestLength[e];
      restLengthScale[2 * e + 1] = m.edgeJacobiScale[e];
    }
    const restLength = own(storageBuffer(device, 'xpbd.restLength', restLengthScale));
    const edgeOrder = own(storageBuffer(device, 'xpbd.edgeOrder', m.edgeColouring.order));
    const edgeCorrections = own(storageBuffer(device, 'xpbd.edgeCorrections', 32 * m.edgeCount));
    const k = this.kernels;
    this.neoHookeanGroup = bindGroup(device, 'xpbd.neoHookean', k.neoHookeanLayout, [
      this.frameBuffer, this.positionBuffer, this.tetBuffer, this.dmInvBuffer, this.constantsBuffer, this.tetLambda, tetOrder, tetCorrections,
    ]);
    this.springGroup = bindGroup(device, 'xpbd.spring', k.springLayout, [
      this.frameBuffer, this.positionBuffer, edges, restLength, this.edgeLambda, edgeOrder, edgeCorrections,
    ]);
    this.gatherTetGroup = bindGroup(device, 'xpbd.gatherTets', k.gatherLayout, [
      this.frameBuffer, this.positionBuffer,
      own(storageBuffer(device, 'xpbd.vertexTetOffsets', m.vertexTetOffsets)),
      own(storageBuffer(device, 'xpbd.vertexTetCorners', m.vertexTetCorners)),
      tetCorrections,
    ]);
    this.gatherEdgeGroup = bindGroup(device, 'xpbd.gatherEdges', k.gatherLayout, [
      this.frameBuffer, this.positionBuffer,
      own(storageBuffer(device, 'xpbd.vertexEdgeOffsets', m.vertexEdgeOffsets)),
      own(storageBuffer(device, 'xpbd.vertexEdgeCorners', m.vertexEdgeCorners)),
      edgeCorrections,
    ]);
    this.edgeSlotBase = m.tetColouring.colourCount;
    this.substepSlotBase = this.edgeSlotBase + m.edgeColouring.colourCount;
    const damping = rigidDampingTables(m, RIGID_DAMPING_CHUNK);
    if (damping.chunkCount > 65535) throw new RangeError(`GpuSolver: ${m.vertexCount} vertices need ${damping.chunkCount} damping workgroups, more than 65,535`);
    this.dampingChunks = damping.chunkCount;
    this.dampingGroup = bindGroup(device, 'xpbd.rigidDamping', k.dampingLayout, [
      this.frameBuffer, this.positionBuffer, this.velocityBuffer, this.objectStatusBuffer,
      own(storageBuffer(device, 'xpbd.dampingChunks', damping.chunks)),
      own(storageBuffer(device, 'xpbd.dampingObjects', damping.objects)),
      own(storageBuffer(device, 'xpbd.dampingPartials', 64 * damping.chunkCount)),
      own(storageBuffer(device, 'xpbd.rigidMotion', 48 * m.objectNames.length)),
    ]);
    this.timer = new PhaseTimer(ctx, PASSES);
    this.ensureCapacity(this.params.substeps);
  }

  get colourCount(): { tets: number; edges: number } {
    return { tets: this.model.tetColouring.colourCount, edges: this.model.edgeColouring.colourCount };
  }

  /** (Re)creates the per-substep buffers when the substep count grows. */
  private ensureCapacity(substeps: number): void {
    if (substeps <= this.scriptCapacity) return;
    const device = this.device;
    const m = this.model;
    const cap = Math.max(substeps, 1);
    this.colliderBuffer?.destroy();
    this.handleBuffer?.destroy();
    this.slotBuffer?.destroy();
    this.colliderBuffer = storageBuffer(device, 'xpbd.colliders', 4 * cap * Math.max(1, this.setup.colliders.length) * COLLIDER_STRIDE);
    this.handleBuffer = storageBuffer(device, 'xpbd.handles', 4 * cap * Math.max(1, this.setup.handles.length) * HANDLE_STRIDE);
    this.slotCapacity = this.substepSlotBase + cap;
    this.slotBuffer = device.createBuffer({ label: 'xpbd.slots', size: this.slotCapacity * SLOT_STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const slots = new Uint32Array((this.slotCapacity * SLOT_STRIDE) / 4);
    const put = (slot: number, a: number, b: number, c: number) => slots.set([a, b, c, 0], (slot * SLOT_STRIDE) / 4);
    const colourSlots = (offsets: Uint32Array, base: number) => {
      for (let c = 0; c + 1 < offsets.length; c++) {
        const count = offsets[c + 1] - offsets[c];
        put(base + c, offsets[c], count, gridRowStride(count));
      }
    };
    colourSlots(m.tetColouring.offsets, 0);
    colourSlots(m.edgeColouring.offsets, this.edgeSlotBase);
    for (let s = 0; s < cap; s++) put(this.substepSlotBase + s, s, 0, 0);
    device.queue.writeBuffer(this.slotBuffer, 0, slots);
    this.slotGroup = device.createBindGroup({ label: 'xpbd.slot', layout: this.kernels.slotLayout, entries: [{ binding: 0, resource: { buffer: this.slotBuffer, size: 16 } }] });
    this.integrateGroup = bindGroup(device, 'xpbd.integrate', this.kernels.integrateLayout, [
      this.frameBuffer, this.positionBuffer, this.prevBuffer, this.velocityBuffer, this.restBuffer,
      this.objectStatusBuffer, this.colliderBuffer, this.handleBuffer, this.invMassBuffer,
    ]);
    this.scriptCapacity = cap;
  }

  private writeFrameConstants(): void {
    const p = this.params;
    const m = this.model;
    const h = p.dt / p.substeps;
    const buf = new ArrayBuffer(64);
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
    this.device.queue.writeBuffer(this.frameBuffer, 0, buf);
  }

  /** Records and submits one frame; resolves when the GPU has finished it. */
  async stepFrame(): Promise<GpuFrameResult> {
    const p = this.params;
    checkParams(p);
    this.ensureCapacity(p.substeps);
    this.writeFrameConstants();
    const h = p.dt / p.substeps;
    const scripts = sampleScripts(this.setup.colliders, this.setup.handles, this.time, h, p.substeps);
    if (scripts.colliders.length) this.device.queue.writeBuffer(this.colliderBuffer, 0, new Float32Array(scripts.colliders));
    if (scripts.handles.length) this.device.queue.writeBuffer(this.handleBuffer, 0, new Float32Array(scripts.handles));
    const m = this.model;
    const k = this.kernels;
    const encoder = this.device.createCommandEncoder({ label: 'xpbd.frame' });
    const vertexGrid = dispatchGrid(m.vertexCount);
    const nh = p.constraint === 'neohookean';
    const elementGrid = dispatchGrid(nh ? m.tetCount : m.edgeCount);
    const colouring = nh ? m.tetColouring : m.edgeColouring;
    const colourBase = nh ? 0 : this.edgeSlotBase;
    const solveGroup = nh ? this.neoHookeanGroup : this.springGroup;
    const lambda = nh ? this.tetLambda : this.edgeLambda;
    this.timer.beginFrame(p.substeps);
    let dispatches = 0;
    for (let s = 0; s < p.substeps; s++) {
      const substepOffset = (this.substepSlotBase + s) * SLOT_STRIDE;
      // Multipliers restart every substep.
      encoder.clearBuffer(lambda);
      let pass = encoder.beginComputePass({ label: 'predict', timestampWrites: this.timer.writes(s, 0) });
      pass.setPipeline(k.predict);
      pass.setBindGroup(0, this.integrateGroup);
      pass.setBindGroup(1, this.slotGroup, [substepOffset]);
      pass.dispatchWorkgroups(vertexGrid[0], vertexGrid[1]);
      dispatches++;
      pass.end();
      pass = encoder.beginComputePass({ label: 'solve', timestampWrites: this.timer.writes(s, 1) });
      for (let it = 0; it < p.iterations; it++) {
        if (p.solveOrder === 'gauss-seidel') {
          pass.setPipeline(nh ? k.neoHookeanColour : k.springColour);
          pass.setBindGroup(0, solveGroup);
          for (let c = 0; c < colouring.colourCount; c++) {
            const count = colouring.offsets[c + 1] - colouring.offsets[c];
            const grid = dispatchGrid(count);
            pass.setBindGroup(1, this.slotGroup, [(colourBase + c) * SLOT_STRIDE]);
            pass.dispatchWorkgroups(grid[0], grid[1]);
            dispatches++;
          }
        } else {
          pass.setPipeline(nh ? k.neoHookeanJacobi : k.springJacobi);
          pass.setBindGroup(0, solveGroup);
          pass.setBindGroup(1, this.slotGroup, [substepOffset]);
          pass.dispatchWorkgroups(elementGrid[0], elementGrid[1]);
          pass.setPipeline(k.gather);
          pass.setBindGroup(0, nh ? this.gatherTetGroup : this.gatherEdgeGroup);
          pass.dispatchWorkgroups(vertexGrid[0], vertexGrid[1]);
          dispatches += 2;
        }
        if (this.setup.colliders.length > 0) {
          pass.setPipeline(k.collide);
          pass.setBindGroup(0, this.integrateGroup);
          pass.setBindGroup(1, this.slotGroup, [substepOffset]);
          pass.dispatchWorkgroups(vertexGrid[0], vertexGrid[1]);
          dispatches++;
        }
      }
      pass.end();
      pass = encoder.beginComputePass({ label: 'finalize', timestampWrites: this.timer.writes(s, 2) });
      pass.setPipeline(k.finalize);
      pass.setBindGroup(0, this.integrateGroup);
      pass.setBindGroup(1, this.slotGroup, [substepOffset]);
      pass.dispatchWorkgroups(vertexGrid[0], vertexGrid[1]);
      dispatches++;
      if (p.damping > 0) {
        // Damp deformation, not rigid motion (Müller et al. 2007, section 3.5).
        pass.setBindGroup(0, this.dampingGroup);
        pass.setPipeline(k.dampReduce);
        pass.dispatchWorkgroups(this.dampingChunks);
        pass.setPipeline(k.dampSolve);
        pass.dispatchWorkgroups(Math.ceil(m.objectNames.length / 64));
        pass.setPipeline(k.dampApply);
        pass.dispatchWorkgroups(this.dampingChunks);
        dispatches += 3;
      }
      pass.end();
    }
    this.timer.resolve(encoder);
    this.device.queue.submit([encoder.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    const gpuPhaseMs = await this.timer.read();
    this.time += p.dt;
    this.frame += 1;
    return { gpuPhaseMs, dispatches };
  }

  /** Uploads inverse masses again (after setObjectMaterial); stopped objects keep 0. */
  refreshMasses(): void {
    this.device.queue.writeBuffer(this.invMassBuffer, 0, new Float32Array(this.model.invMass));
    this.device.queue.writeBuffer(this.constantsBuffer, 0, new Float32Array(this.model.tetConstants));
    this.writeFrameConstants();
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.kernels.applyMass);
    pass.setBindGroup(0, this.integrateGroup);
    pass.setBindGroup(1, this.slotGroup, [this.substepSlotBase * SLOT_STRIDE]);
    const g = dispatchGrid(this.model.vertexCount);
    pass.dispatchWorkgroups(g[0], g[1]);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  /** Back to the rest state and initial velocities; clears stopped objects. */
  reset(): void {
    const m = this.model;
    const q = this.device.queue;
    const objectBits = new Float32Array(new Uint32Array(m.vertexObject).buffer);
    q.writeBuffer(this.positionBuffer, 0, toF32Vec4(m.restPositions, m.vertexCount, (i) => m.invMass[i]));
    q.writeBuffer(this.prevBuffer, 0, toF32Vec4(m.restPositions, m.vertexCount, (i) => objectBits[i]));
    q.writeBuffer(this.velocityBuffer, 0, toF32Vec4(m.initialVelocities, m.vertexCount, () => 0));
    q.writeBuffer(this.objectStatusBuffer, 0, new Uint32Array(m.objectNames.length));
    this.time = 0;
    this.frame = 0;
  }

  private async read(buffer: GPUBuffer, size = buffer.size): Promise<ArrayBuffer> {
    const staging = this.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = staging.getMappedRange().slice(0);
    staging.unmap();
    staging.destroy();
    return copy;
  }

  /** xyz per vertex (a sync point: tests, the runner's summary). */
  async readPositions(): Promise<Float32Array> {
    return dropW(new Float32Array(await this.read(this.positionBuffer, 16 * this.model.vertexCount)));
  }

  async readVelocities(): Promise<Float32Array> {
    return dropW(new Float32Array(await this.read(this.velocityBuffer, 16 * this.model.vertexCount)));
  }

  /** Per object: 0 running, 1 stopped (NaN/Inf seen). 4 bytes per object. */
  async readObjectStatus(): Promise<Uint32Array> {
    return new Uint32Array(await this.read(this.objectStatusBuffer, 4 * this.model.objectNames.length));
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.colliderBuffer?.destroy();
    this.handleBuffer?.destroy();
    this.slotBuffer?.destroy();
    this.timer.destroy();
  }
}

function dropW(v: Float32Array): Float32Array {
  const n = v.length / 4;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[3 * i] = v[4 * i];
    out[3 * i + 1] = v[4 * i + 1];
    out[3 * i + 2] = v[4 * i + 2];
  }
  return out;
}

