/**
 * The data behind the renderer's blue tint and the penetration overlays (issue 10 "Rendering"):
 * after a frame, on its final positions, a detection of EVERY penetrating boundary vertex (self
 * and inter-object, even with params.selfCollision or params.collisions off: with self-collision
 * off the squishy ball still shows its tangled tentacles, paper 000 Fig. 16a), the shortest path
 * to boundary of each (paper 000 section 3.4, the same kernel as the contacts), and one GPU buffer
 *
 *   depthBuffer  vec4<f32> per scene vertex (model order): xyz = the boundary point the path
 *                reaches (the contact target), w = |x - target|; (x, 0) when the vertex is free,
 *                interior, or got no answer (shaders/intersectionDepth.wgsl). Rewritten whole by
 *                every encode. Usage STORAGE | COPY_SRC | COPY_DST: the renderer copies ranges of
 *                it into its vertex attributes on the GPU (copyBufferToBuffer), no readback.
 *
 * Nothing the frame reads or reports is touched: the display has its own query list, indirect
 * args, results and shortest-path counters (the frame's statistics stay the contacts'), and
 * detection runs in 'dcd' mode (no Pin marks). It shares with the time step only buffers that
 * every substep rebuilds before reading them: the spatial hash (cleared and built per substep),
 * the surface BVH's boxes (refitted per substep) and the prepass's per-tet measures. Hence
 * GpuSolver records it after the frame's readback copies. Its query list holds one query per
 * boundary vertex, so no hit is ever dropped; hash entries beyond the shared pool's capacity are
 * (the pool grows from the time step's counts, and from the display's when readIntersections
 * sees drops). Inter-object queries follow params.interObject (exact or Euclidean) like the
 * contacts'; self queries are always exact.
 */
import code from '../../../shaders/intersectionDepth.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, readBufferToCpu, uniformBuffer } from '../../gpu/buffers';
import { withIncludes } from '../../gpu/wgsl';
import type { SolverParams } from '../../contract/params';
import type { SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { SpbStage } from '../../spb/gpu/spbStage';
import { SpbKernels } from '../../spb/gpu/spbKernels';
import { SPB_STATIC_CAPACITIES, type SpbCapacities } from '../../spb/settings';
import type { CollisionTopologyGpu } from './collisionTopology';
import { DetectStage } from './detectStage';
import { QL, QL_HEADER_BYTES, QueryList } from './queryList';
import type { SpatialHash } from './spatialHash';

/** Bindings of shaders/intersectionDepth.wgsl, in its @binding order. */
export const INTERSECTION_DEPTH_BINDINGS = {
  params: 'uniform',
  positions: 'read-only-storage',
  list: 'read-only-storage',
  results: 'read-only-storage',
  depth: 'storage',
} as const;

/** What readIntersections returns: the penetrating boundary vertices (w > 0) of the last encoded pass. */
export interface IntersectionReadout {
  /** xyz per penetrating vertex (its position). */
  points: Float32Array;
  /** xyz per penetrating vertex: the boundary point its shortest path reaches. */
  targets: Float32Array;
  /** |point - target| per penetrating vertex. */
  depths: Float32Array;
  vertexIds: Uint32Array;
  /** Vertex queries detection made (those minus vertexIds.length got no answer: overflow, none, skipped). */
  detected: number;
  /** Spatial-hash entries the pass dropped (the shared pool was full: some hits may be missing); the pool has grown for the next pass. */
  hashDropped: number;
}

/**
 * The display's shortest-path stacks: deeper than the time step's (SPB_STATIC_CAPACITIES), since
 * it has no CPU fallback (an overflowed query would leave a penetrating vertex untinted) and runs
 * once per frame, not per substep. On the self-overlapping ring of tests/gpu/intersectionDepth.test.ts
 * the static capacities overflow on 5 of 32 queries, a visited ring of 64 on 2 (32-deep stacks)
 * or 1 (128-deep), these on none. Cost on SwiftShader, 260 queries among overlapped octopi
 * (bench/intersectionDisplay.ts): 3.8 s against the static kernel's 2.8 s in one run, 1.8 s
 * against 2.7 s in another (a CPU shared with other jobs: within noise).
 */
export const DISPLAY_CAPACITIES: Readonly<SpbCapacities> = Object.freeze({ ...SPB_STATIC_CAPACITIES, visitedRing: 128, faceStack: 64, tetStack: 64 });

/** Plain passes for the display's detection (no timestamps: it is no phase of the time step). */
const plainPasses: SubstepContext = {
  substep: 0,
  substeps: 1,
  round: 0,
  rounds: 1,
  slotOffset: 0,
  joinNext: false,
  nextSlotOffset: 0,
  beginPass: (encoder, _phase, label) => encoder.beginComputePass({ label: `intersectionDisplay.${label ?? 'detect'}` }),
  countDispatches: () => {},
};

export class IntersectionDisplay {
  readonly depthBuffer: GPUBuffer;
  readonly queryList: QueryList;
  readonly detect: DetectStage;
  /** The query and prepass counters of the display's own shortest-path run (same layout as SpbGpuMesh.counters). */
  private readonly spbCounters: GPUBuffer;
  private readonly uniforms: GPUBuffer;
  private readonly table: BindingTable<keyof typeof INTERSECTION_DEPTH_BINDINGS>;
  private readonly clearPipeline: GPUComputePipeline;
  private readonly writePipeline: GPUComputePipeline;
  private readonly vertexCount: number;
  /** The shortest path's kernels with the display's stack capacities (the time step's mesh buffers). */
  private readonly kernels: SpbKernels;
  private groups?: { positions: GPUBuffer; topo: GPUBuffer; nodes: GPUBuffer; prepass: GPUBindGroup; query: GPUBindGroup; depth: GPUBindGroup };
  /** Frames encoded so far (tests and the renderer can tell whether the buffer holds anything). */
  passes = 0;

  constructor(
    private readonly device: GPUDevice,
    topology: CollisionTopologyGpu,
    private readonly spb: SpbStage,
    hash: SpatialHash,
    settings: () => Readonly<Pick<SolverParams, 'interObject'>>,
    capacities: Readonly<SpbCapacities> = DISPLAY_CAPACITIES,
  ) {
    this.kernels = new SpbKernels(device, capacities);
    this.vertexCount = topology.vertexCount;
    this.queryList = new QueryList(device, topology.boundaryVertexCount);
    this.detect = new DetectStage(
      device,
      topology,
      this.queryList,
      () => ({ collisions: true, selfCollision: true, recovery: false, interObject: settings().interObject, collisionMode: 'dcd' }),
      { sharedHash: hash, vertexPointsOnly: true },
    );
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.depthBuffer = device.createBuffer({ label: 'intersectionDisplay.depth', size: Math.max(16, 16 * this.vertexCount), usage });
    this.spbCounters = device.createBuffer({ label: 'intersectionDisplay.spbCounters', size: spb.mesh.counters.size, usage });
    this.uniforms = uniformBuffer(device, 'intersectionDepth.params', 16);
    device.queue.writeBuffer(this.uniforms, 0, new Uint32Array([this.vertexCount, gridRowStride(this.vertexCount), 0, 0]));
    this.table = new BindingTable(device, 'intersectionDepth', INTERSECTION_DEPTH_BINDINGS);
    const module = device.createShaderModule({ label: 'intersectionDepth.wgsl', code: withIncludes(code, 'intersectionDepth.wgsl') });
    const layout = device.createPipelineLayout({ label: 'intersectionDepth', bindGroupLayouts: [this.table.layout] });
    this.clearPipeline = device.createComputePipeline({ label: 'intersectionDepth.clear', layout, compute: { module, entryPoint: 'clearDepths' } });
    this.writePipeline = device.createComputePipeline({ label: 'intersectionDepth.write', layout, compute: { module, entryPoint: 'writeDepths' } });
  }

  /** Bind groups over the current positions and the current tree (a BVH rebuild replaces its buffers). */
  private bindGroups(positions: GPUBuffer) {
    const mesh = this.spb.mesh;
    const g = this.groups;
    if (g && g.positions === positions && g.topo === mesh.topo && g.nodes === mesh.bvhGpu.nodes) return g;
    const list = this.queryList;
    this.groups = {
      positions,
      topo: mesh.topo,
      nodes: mesh.bvhGpu.nodes,
      prepass: this.kernels.prepassTable.group(
        { params: mesh.prepassParams, positions, tets: mesh.tets, topo: mesh.topo, measures: mesh.measures, counters: this.spbCounters },
        'intersectionDisplay.spbPrepass',
      ),
      query: this.kernels.queryTable.group(
        {
          params: mesh.queryParams, positions, tets: mesh.tets, topo: mesh.topo, nodes: mesh.bvhGpu.nodes,
          measures: mesh.measures, list: list.list, results: list.results, counters: this.spbCounters,
        },
        'intersectionDisplay.spbQuery',
      ),
      depth: this.table.group({ params: this.uniforms, positions, list: list.list, results: list.results, depth: this.depthBuffer }),
    };
    return this.groups;
  }

  /**
   * Records the display pass on state.positions into `encoder`: detection of every boundary
   * vertex, BVH refit + prepass + shortest path for each hit, then the depth buffer rewritten.
   */
  encode(encoder: GPUCommandEncoder, state: GpuState): void {
    const groups = this.bindGroups(state.positions);
    this.detect.beginFrame(encoder);
    this.detect.encode(encoder, state, plainPasses);
    encoder.clearBuffer(this.spbCounters);
    const mesh = this.spb.mesh;
    const pass = encoder.beginComputePass({ label: 'intersectionDisplay.spb' });
    mesh.bvhGpu.recordRefit(pass, state.positions);
    pass.setPipeline(this.kernels.prepass);
    pass.setBindGroup(0, groups.prepass);
    const [tx, ty] = dispatchGrid(mesh.data.tetCount);
    pass.dispatchWorkgroups(tx, ty);
    pass.setPipeline(this.kernels.query);
    pass.setBindGroup(0, groups.query);
    pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
    pass.setPipeline(this.clearPipeline);
    pass.setBindGroup(0, groups.depth);
    const [vx, vy] = dispatchGrid(this.vertexCount);
    pass.dispatchWorkgroups(vx, vy);
    pass.setPipeline(this.writePipeline);
    pass.dispatchWorkgroupsIndirect(this.queryList.args, 0);
    pass.end();
    this.passes++;
  }

  /**
   * The penetrating vertices of the last encoded pass (a non-blocking readback of the depth
   * buffer, the positions and the list's count, for the overlays; the tint needs none).
   */
  async readIntersections(state: GpuState): Promise<IntersectionReadout> {
    const bytes = 16 * this.vertexCount;
    const [depth, positions, header] = await Promise.all([
      readBufferToCpu(this.device, this.depthBuffer, bytes, 'intersectionDisplay.readDepth'),
      readBufferToCpu(this.device, state.positions, bytes, 'intersectionDisplay.readPositions'),
      readBufferToCpu(this.device, this.queryList.list, QL_HEADER_BYTES, 'intersectionDisplay.readHeader'),
    ]);
    const d = new Float32Array(depth);
    const x = new Float32Array(positions);
    const h = new Uint32Array(header);
    // The shared hash's pool grows from the time step's counts; with collisions off nothing else
    // grows it, so entries this pass dropped grow it here (between frames, as the time step does).
    const hashDropped = this.passes > 0 ? h[QL.hashDropped] : 0;
    if (hashDropped > 0) this.detect.hash.growFromHeader(h);
    const ids: number[] = [];
    for (let v = 0; v < this.vertexCount; v++) if (d[4 * v + 3] > 0) ids.push(v);
    const n = ids.length;
    const out: IntersectionReadout = {
      points: new Float32Array(3 * n),
      targets: new Float32Array(3 * n),
      depths: new Float32Array(n),
      vertexIds: Uint32Array.from(ids),
      detected: this.passes > 0 ? Math.min(h[QL.count], h[QL.capacity]) : 0,
      hashDropped,
    };
    for (let i = 0; i < n; i++) {
      const v = ids[i];
      for (let k = 0; k < 3; k++) {
        out.points[3 * i + k] = x[4 * v + k];
        out.targets[3 * i + k] = d[4 * v + k];
      }
      out.depths[i] = d[4 * v + 3];
    }
    return out;
  }

  destroy(): void {
    this.detect.destroy();
    this.queryList.destroy();
    this.depthBuffer.destroy();
    this.spbCounters.destroy();
    this.uniforms.destroy();
  }
}
