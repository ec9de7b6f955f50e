/**
 * Binds and runs the WGSL shortest-path kernel (shaders/spbQuery.wgsl, after the per-tet
 * prepass shaders/spbPrepass.wgsl): one invocation per query, workgroups of 64, the static
 * capacities of SPB_STATIC_CAPACITIES compiled in. Queries that overflow a fixed stack come back
 * flagged and are answered here by the CPU dynamic version (shortestPathToBoundary with growing
 * stacks); later that fallback moves to a worker of the pool.
 */
import prepassCode from '../../../shaders/spbPrepass.wgsl?raw';
import queryCode from '../../../shaders/spbQuery.wgsl?raw';
import { SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import { dispatchGrid, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { updateSpbMeshData, type SpbMeshData } from '../meshData';
import { QUERY_FOUND, QUERY_OVERFLOW, shortestPathToBoundary, type SpbQueryConfig } from '../query';
import {
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SPB_STATIC_CAPACITIES,
  type SpbCapacities,
  type SpbTolerances,
} from '../settings';
import { STAT_NAMES, SpbWorkspace } from '../workspace';
import { COUNTER_WORDS, QUERY_WORDS, RESULT_WORDS, packQueries, packTets, packTopology } from './packSpbBuffers';

export interface SpbGpuOptions {
  /** Infeasible-region culling (default true). */
  culling?: boolean;
  tolerances?: Partial<SpbTolerances>;
  /** Fixed capacities compiled into the kernel (default SPB_STATIC_CAPACITIES). */
  capacities?: Readonly<SpbCapacities>;
  /**
   * Positions already on the GPU (xyz f32 per vertex, packed; e.g. the simulation's buffer).
   * Then every encode() refits the BVH on the GPU from them before the query, and nothing is
   * uploaded; setPositions() only updates the CPU copy the fallback reads.
   */
  positions?: GPUBuffer;
}

/** Per-query answers, structure of arrays. */
export interface SpbGpuResults {
  count: number;
  /** Closest boundary point s, xyz per query (0 when none). */
  point: Float32Array;
  /** |s - p|, or -1 when no valid path exists. */
  distance: Float32Array;
  /** Boundary triangle of s, or -1. */
  triangle: Int32Array;
  /** Feature code of s on its triangle (geometry/closestPointOnTriangle.ts). */
  feature: Uint8Array;
  /** QUERY_* code of src/spb/query.ts, after the CPU fallback (never QUERY_OVERFLOW). */
  status: Uint8Array;
  /** GPU statistics per query (of the GPU attempt, also for overflowed ones). */
  bvhCandidates: Uint32Array;
  traversals: Uint32Array;
  tetsVisited: Uint32Array;
  culled: Uint32Array;
  branchings: Uint32Array;
  /** Queries the GPU flagged as overflowed and the CPU dynamic version answered. */
  overflowed: Uint32Array;
  /** GPU counters summed over the batch (names of STAT_NAMES), and the number of inverted tets. */
  totals: Record<(typeof STAT_NAMES)[number], number>;
  invertedTets: number;
}

/** Compile-time constants the shader expects in front of its text. */
function prelude(c: Readonly<SpbCapacities>): string {
  for (const [k, v] of Object.entries(c)) {
    if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`SpbQueryGpu: capacity ${k} must be a positive integer on the GPU, got ${v}`);
  }
  if (c.faceStack !== c.tetStack) throw new RangeError('SpbQueryGpu: faceStack and tetStack capacities must be equal (the stacks move together)');
  return `const BVH_STACK = ${c.bvhStack}u;\nconst FACE_STACK = ${c.faceStack}u;\nconst RING = ${c.visitedRing}u;\nconst MAX_STEPS = ${c.maxSteps}u;\n`;
}

export class SpbQueryGpu {
  readonly capacities: Readonly<SpbCapacities>;
  readonly config: SpbQueryConfig;
  private readonly prepass: GPUComputePipeline;
  private readonly query: GPUComputePipeline;
  /** The positions the kernels read: the caller's GPU buffer, or one owned here. */
  readonly positions: GPUBuffer;
  private readonly external: boolean;
  readonly bvhGpu: SurfaceBvhGpu;
  private readonly tets: GPUBuffer;
  private readonly topo: GPUBuffer;
  private readonly measures: GPUBuffer;
  private readonly counters: GPUBuffer;
  private readonly prepassParams: GPUBuffer;
  private readonly queryParams: GPUBuffer;
  private readonly sections: ReturnType<typeof packTopology>['sections'];
  private fallbackWorkspace: SpbWorkspace | null = null;

  constructor(
    private readonly device: GPUDevice,
    readonly data: SpbMeshData,
    options: SpbGpuOptions = {},
  ) {
    this.capacities = options.capacities ?? SPB_STATIC_CAPACITIES;
    this.config = { culling: options.culling ?? true, tolerances: { ...SPB_DEFAULT_TOLERANCES, ...options.tolerances } };
    const module = device.createShaderModule({ label: 'spbQuery.wgsl', code: prelude(this.capacities) + queryCode });
    this.query = device.createComputePipeline({ label: 'spbQuery', layout: 'auto', compute: { module, entryPoint: 'main' } });
    this.prepass = device.createComputePipeline({
      label: 'spbPrepass',
      layout: 'auto',
      compute: { module: device.createShaderModule({ label: 'spbPrepass.wgsl', code: prepassCode }), entryPoint: 'main' },
    });
    const topo = packTopology(data);
    this.sections = topo.sections;
    this.external = options.positions !== undefined;
    this.positions = options.positions ?? storageBuffer(device, 'spb.positions', new Float32Array(data.positions));
    this.tets = storageBuffer(device, 'spb.tets', packTets(data));
    this.topo = storageBuffer(device, 'spb.topology', topo.words);
    this.bvhGpu = new SurfaceBvhGpu(device, data.bvh);
    this.measures = storageBuffer(device, 'spb.tetMeasures', Math.max(1, data.tetCount) * 8);
    this.counters = storageBuffer(device, 'spb.counters', (COUNTER_WORDS + data.tetCount) * 4);
    this.prepassParams = uniformBuffer(device, 'spbPrepass.params', 16);
    device.queue.writeBuffer(this.prepassParams, 0, new Uint32Array([data.tetCount, topo.sections.offTetComponent, 0, 0]));
    this.queryParams = uniformBuffer(device, 'spbQuery.params', 80);
  }

  /**
   * New positions on the CPU: updates the CPU data (BVH refit, measures: what the fallback
   * reads) and, unless the positions live in the caller's GPU buffer, uploads positions and boxes.
   */
  setPositions(positions: ArrayLike<number>): void {
    updateSpbMeshData(this.data, positions);
    if (this.external) return;
    this.device.queue.writeBuffer(this.positions, 0, new Float32Array(this.data.positions));
    this.bvhGpu.upload();
  }

  private writeParams(queryCount: number): void {
    const buf = new ArrayBuffer(80);
    const u = new Uint32Array(buf);
    const f = new Float32Array(buf);
    const s = this.sections;
    const tol = this.config.tolerances;
    u.set([
      queryCount,
      this.data.bvh.nodeCount,
      this.config.culling ? 1 : 0,
      s.offOrder,
      s.offTetComponent,
      s.offVertexNeighborOffsets,
      s.offVertexNeighbors,
      s.offVertexTriangleOffsets,
      s.offVertexTriangles,
    ]);
    f.set([tol.exitFace, tol.culling, tol.beyond, tol.zeroLength, tol.inversionTravel, tol.barycentric], 12);
    this.device.queue.writeBuffer(this.queryParams, 0, buf);
  }

  /**
   * Records the prepass and the query into `encoder`: `queries` holds QUERY_WORDS words per query
   * (packQueries), `results` receives RESULT_WORDS words per query. Clears the counters first.
   */
  encode(encoder: GPUCommandEncoder, queries: GPUBuffer, results: GPUBuffer, queryCount: number): void {
    this.writeParams(queryCount);
    if (this.external) this.bvhGpu.encodeRefit(encoder, this.positions);
    encoder.clearBuffer(this.counters);
    const pre = encoder.beginComputePass({ label: 'spbPrepass' });
    pre.setPipeline(this.prepass);
    pre.setBindGroup(
      0,
      this.device.createBindGroup({
        layout: this.prepass.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.prepassParams } },
          { binding: 1, resource: { buffer: this.positions } },
          { binding: 2, resource: { buffer: this.tets } },
          { binding: 3, resource: { buffer: this.topo } },
          { binding: 4, resource: { buffer: this.measures } },
          { binding: 5, resource: { buffer: this.counters } },
        ],
      }),
    );
    const [tx, ty] = dispatchGrid(this.data.tetCount);
    pre.dispatchWorkgroups(tx, ty);
    pre.end();
    if (queryCount === 0) return;
    const pass = encoder.beginComputePass({ label: 'spbQuery' });
    pass.setPipeline(this.query);
    pass.setBindGroup(
      0,
      this.device.createBindGroup({
        layout: this.query.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.queryParams } },
          { binding: 1, resource: { buffer: this.positions } },
          { binding: 2, resource: { buffer: this.tets } },
          { binding: 3, resource: { buffer: this.topo } },
          { binding: 4, resource: { buffer: this.bvhGpu.nodes } },
          { binding: 5, resource: { buffer: this.measures } },
          { binding: 6, resource: { buffer: queries } },
          { binding: 7, resource: { buffer: results } },
          { binding: 8, resource: { buffer: this.counters } },
        ],
      }),
    );
    const [qx, qy] = dispatchGrid(queryCount);
    pass.dispatchWorkgroups(qx, qy);
    pass.end();
  }

  private validate(points: ArrayLike<number>, tets: ArrayLike<number>, exclude?: ArrayLike<number>): void {
    const d = this.data;
    for (let q = 0; q < tets.length; q++) {
      const t = tets[q];
      if (!(Number.isInteger(t) && t >= 0 && t < d.tetCount)) throw new RangeError(`SpbQueryGpu: query ${q}: tet ${t} out of range [0, ${d.tetCount})`);
      const x = points[3 * q], y = points[3 * q + 1], z = points[3 * q + 2];
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new RangeError(`SpbQueryGpu: query ${q}: point (${x}, ${y}, ${z}) is not finite`);
      if (exclude) {
        const e = exclude[q];
        if (!(Number.isInteger(e) && e >= -1 && e < d.vertexCount)) throw new RangeError(`SpbQueryGpu: query ${q}: excludeVertex ${e} out of range [-1, ${d.vertexCount})`);
      }
    }
  }

  /**
   * Runs a batch: uploads the queries, dispatches, reads back (one sync point) and answers the
   * overflowed queries with the CPU dynamic version. `fallback: false` leaves them flagged
   * (status QUERY_OVERFLOW), for tests comparing with the static twin.
   */
  async run(
    points: ArrayLike<number>,
    tets: ArrayLike<number>,
    exclude?: ArrayLike<number>,
    options: { fallback?: boolean } = {},
  ): Promise<SpbGpuResults> {
    this.validate(points, tets, exclude);
    const device = this.device;
    const n = tets.length;
    const queryBuf = storageBuffer(device, 'spb.queries', new Uint8Array(packQueries(points, tets, exclude)));
    const resultBytes = Math.max(1, n) * RESULT_WORDS * 4;
    const resultBuf = storageBuffer(device, 'spb.results', resultBytes);
    const stageResults = device.createBuffer({ size: resultBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const stageCounters = device.createBuffer({ size: COUNTER_WORDS * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder({ label: 'spb batch' });
    this.encode(encoder, queryBuf, resultBuf, n);
    encoder.copyBufferToBuffer(resultBuf, 0, stageResults, 0, resultBytes);
    encoder.copyBufferToBuffer(this.counters, 0, stageCounters, 0, COUNTER_WORDS * 4);
    device.queue.submit([encoder.finish()]);
    await Promise.all([stageResults.mapAsync(GPUMapMode.READ), stageCounters.mapAsync(GPUMapMode.READ)]);
    const raw = stageResults.getMappedRange().slice(0);
    const counters = new Uint32Array(stageCounters.getMappedRange().slice(0));
    stageResults.unmap();
    stageCounters.unmap();
    for (const b of [queryBuf, resultBuf, stageResults, stageCounters]) b.destroy();

    const out = unpackResults(raw, n, counters);
    if (options.fallback ?? true) this.answerOnCpu(points, tets, exclude, out);
    return out;
  }

  /** The CPU dynamic version answers every query the GPU flagged as overflowed. */
  private answerOnCpu(points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number> | undefined, out: SpbGpuResults): void {
    if (out.overflowed.length === 0) return;
    this.fallbackWorkspace ??= new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, this.data.tetCount);
    const ws = this.fallbackWorkspace;
    for (const q of out.overflowed) {
      const status = shortestPathToBoundary(this.data, ws, this.config, points[3 * q], points[3 * q + 1], points[3 * q + 2], tets[q], exclude ? exclude[q] : -1);
      if (status === QUERY_OVERFLOW) throw new Error(`SpbQueryGpu: the dynamic CPU version overflowed on query ${q} (cannot happen with unbounded capacities)`);
      out.status[q] = status;
      const found = status === QUERY_FOUND;
      out.point[3 * q] = found ? ws.resultX : 0;
      out.point[3 * q + 1] = found ? ws.resultY : 0;
      out.point[3 * q + 2] = found ? ws.resultZ : 0;
      out.distance[q] = found ? Math.sqrt(ws.resultDistance2) : -1;
      out.triangle[q] = found ? ws.resultTriangle : -1;
      out.feature[q] = found ? ws.resultFeature : 0;
    }
  }

  destroy(): void {
    for (const b of [this.tets, this.topo, this.measures, this.counters, this.prepassParams, this.queryParams]) b.destroy();
    if (!this.external) this.positions.destroy();
    this.bvhGpu.destroy();
  }
}

/** Result words -> structure of arrays. */
export function unpackResults(raw: ArrayBuffer, n: number, counters: Uint32Array): SpbGpuResults {
  const f = new Float32Array(raw);
  const u = new Uint32Array(raw);
  const i = new Int32Array(raw);
  const out: SpbGpuResults = {
    count: n,
    point: new Float32Array(3 * n),
    distance: new Float32Array(n),
    triangle: new Int32Array(n),
    feature: new Uint8Array(n),
    status: new Uint8Array(n),
    bvhCandidates: new Uint32Array(n),
    traversals: new Uint32Array(n),
    tetsVisited: new Uint32Array(n),
    culled: new Uint32Array(n),
    branchings: new Uint32Array(n),
    overflowed: new Uint32Array(0),
    totals: {} as SpbGpuResults['totals'],
    invertedTets: counters[0],
  };
  const overflowed: number[] = [];
  for (let q = 0; q < n; q++) {
    const o = RESULT_WORDS * q;
    out.point[3 * q] = f[o];
    out.point[3 * q + 1] = f[o + 1];
    out.point[3 * q + 2] = f[o + 2];
    out.distance[q] = f[o + 3];
    out.triangle[q] = i[o + 4];
    out.feature[q] = u[o + 5];
    out.status[q] = u[o + 6];
    out.bvhCandidates[q] = u[o + 7];
    out.traversals[q] = u[o + 8];
    out.tetsVisited[q] = u[o + 9];
    out.culled[q] = u[o + 10];
    out.branchings[q] = u[o + 11];
    if (u[o + 6] === QUERY_OVERFLOW) overflowed.push(q);
  }
  out.overflowed = Uint32Array.from(overflowed);
  STAT_NAMES.forEach((name, k) => (out.totals[name] = counters[1 + k]));
  return out;
}

export { QUERY_WORDS, RESULT_WORDS };
