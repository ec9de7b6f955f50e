/**
 * Binds and runs the WGSL shortest-path kernel (shaders/spbQuery.wgsl, after the per-tet
 * prepass shaders/spbPrepass.wgsl): one invocation per query, workgroups of 64, the static
 * capacities of SPB_STATIC_CAPACITIES compiled in. Queries that overflow a fixed stack come back
 * flagged and are answered by the CPU dynamic version (shortestPathToBoundary with growing
 * stacks) through a pluggable `answerOverflowed` function: on this thread by default
 * (overflowFallback.ts), in a worker of the pool with src/workers/spbFallback.ts.
 */
import prepassCode from '../../../shaders/spbPrepass.wgsl?raw';
import queryCode from '../../../shaders/spbQuery.wgsl?raw';
import { SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import { dispatchGrid, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { updateSpbMeshData, type SpbMeshData } from '../meshData';
import { QUERY_OVERFLOW, type SpbQueryConfig } from '../query';
import { SPB_DEFAULT_TOLERANCES, SPB_STATIC_CAPACITIES, type SpbCapacities, type SpbTolerances } from '../settings';
import { STAT_NAMES } from '../workspace';
import { inProcessFallback, type AnswerOverflowed, type SpbOverflowAnswers } from './overflowFallback';
import { COMPONENT_FLAG_WORD, COUNTER_WORDS, QUERY_WORDS, RESULT_WORDS, packQueries, packTets, packTopology } from './packSpbBuffers';

export interface SpbGpuOptions {
  /** Infeasible-region culling (default true). */
  culling?: boolean;
  tolerances?: Partial<SpbTolerances>;
  /** Fixed capacities compiled into the kernel (default SPB_STATIC_CAPACITIES). */
  capacities?: Readonly<SpbCapacities>;
  /**
   * Positions already on the GPU (xyz f32 per vertex, packed; e.g. the simulation's buffer).
   * Then every encode() refits the BVH on the GPU from them before the query, and nothing is
   * uploaded; setPositions() only updates the CPU copy the fallback reads. Without it, a batch
   * with overflowed queries reads the positions back once (see run()): the buffer needs
   * COPY_SRC usage (gpu/buffers.ts storageBuffer has it).
   */
  positions?: GPUBuffer;
  /**
   * Answers the queries the GPU flagged as overflowed (default: the CPU dynamic version on this
   * thread, overflowFallback.ts; src/workers/spbFallback.ts answers in workers of the pool).
   */
  answerOverflowed?: AnswerOverflowed;
}

/**
 * Version of each mesh's CPU positions: a new number each time SpbQueryGpu changes them, so that
 * a fallback holding a copy elsewhere (a worker) knows when to resend. Global so that versions
 * never repeat, even across instances sharing one SpbMeshData.
 */
const positionsVersions = new WeakMap<SpbMeshData, number>();
let lastPositionsVersion = 0;
function bumpPositionsVersion(data: SpbMeshData): void {
  positionsVersions.set(data, ++lastPositionsVersion);
}
function positionsVersion(data: SpbMeshData): number {
  let v = positionsVersions.get(data);
  if (v === undefined) {
    v = ++lastPositionsVersion;
    positionsVersions.set(data, v);
  }
  return v;
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
  /** True when this batch read the GPU-resident positions back for the fallback (a sync point). */
  positionsReadBack: boolean;
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
  private readonly answerOverflowed: AnswerOverflowed;
  /**
   * GPU-resident positions only: whether the CPU copy (data.positions) matches the GPU buffer.
   * True after setPositions(); false after each run(), since the simulation moves the GPU
   * positions between batches without telling us.
   */
  private cpuPositionsCurrent = false;
  /** Readbacks of the GPU-resident positions done for the fallback (one per batch at most). */
  positionReadbacks = 0;

  constructor(
    private readonly device: GPUDevice,
    readonly data: SpbMeshData,
    options: SpbGpuOptions = {},
  ) {
    this.capacities = options.capacities ?? SPB_STATIC_CAPACITIES;
    this.config = { culling: options.culling ?? true, tolerances: { ...SPB_DEFAULT_TOLERANCES, ...options.tolerances } };
    this.answerOverflowed = options.answerOverflowed ?? inProcessFallback();
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
    this.counters = storageBuffer(device, 'spb.counters', (COMPONENT_FLAG_WORD + data.tetCount) * 4);
    this.prepassParams = uniformBuffer(device, 'spbPrepass.params', 16);
    device.queue.writeBuffer(this.prepassParams, 0, new Uint32Array([data.tetCount, topo.sections.offTetComponent, 0, 0]));
    this.queryParams = uniformBuffer(device, 'spbQuery.params', 80);
  }

  /**
   * New positions on the CPU: updates the CPU data (BVH refit, measures: what the fallback
   * reads) and, unless the positions live in the caller's GPU buffer, uploads positions and boxes.
   * Change positions through here (not updateSpbMeshData on `data`): it also bumps the version a
   * worker fallback uses to know its copy is stale.
   */
  setPositions(positions: ArrayLike<number>): void {
    updateSpbMeshData(this.data, positions);
    bumpPositionsVersion(this.data);
    this.cpuPositionsCurrent = true;
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
   * overflowed queries with the CPU dynamic version (answerOverflowed). `fallback: false` leaves
   * them flagged (status QUERY_OVERFLOW), for tests comparing with the static twin.
   *
   * With GPU-resident positions the fallback needs a CPU copy of them: unless setPositions() was
   * called since the last run(), a batch with at least one overflowed query reads the positions
   * buffer back (a second sync point, 12 bytes per vertex, counted in positionReadbacks and
   * flagged in positionsReadBack); a batch without overflow reads nothing more.
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
    const fallback = options.fallback ?? true;
    if (fallback && out.overflowed.length > 0) {
      if (this.external && !this.cpuPositionsCurrent) {
        await this.readBackPositions();
        out.positionsReadBack = true;
      }
      await this.answerFlagged(points, tets, exclude, out);
    }
    // The simulation may move GPU-resident positions before the next batch.
    if (this.external) this.cpuPositionsCurrent = false;
    return out;
  }

  /** One readback of the GPU-resident positions into the CPU copy the fallback reads. */
  private async readBackPositions(): Promise<void> {
    const bytes = 12 * this.data.vertexCount;
    const stage = this.device.createBuffer({ label: 'spb.positionsReadback', size: Math.max(4, bytes), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder({ label: 'spb positions readback' });
    if (bytes > 0) encoder.copyBufferToBuffer(this.positions, 0, stage, 0, bytes);
    this.device.queue.submit([encoder.finish()]);
    await stage.mapAsync(GPUMapMode.READ);
    const positions = new Float32Array(stage.getMappedRange().slice(0, bytes));
    stage.unmap();
    stage.destroy();
    this.positionReadbacks++;
    updateSpbMeshData(this.data, positions);
    bumpPositionsVersion(this.data);
    this.cpuPositionsCurrent = true;
  }

  /** Hands the flagged queries to answerOverflowed and writes its answers into `out`. */
  private async answerFlagged(points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number> | undefined, out: SpbGpuResults): Promise<void> {
    const ids = out.overflowed;
    const m = ids.length;
    const batchPoints = new Float64Array(3 * m);
    const batchTets = new Uint32Array(m);
    const batchExclude = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      const q = ids[i];
      batchPoints[3 * i] = points[3 * q];
      batchPoints[3 * i + 1] = points[3 * q + 1];
      batchPoints[3 * i + 2] = points[3 * q + 2];
      batchTets[i] = tets[q];
      batchExclude[i] = exclude ? exclude[q] : -1;
    }
    const answers: SpbOverflowAnswers = await this.answerOverflowed({
      data: this.data,
      positionsVersion: positionsVersion(this.data),
      config: this.config,
      ids: Uint32Array.from(ids),
      points: batchPoints,
      tets: batchTets,
      exclude: batchExclude,
    });
    if (answers.status.length !== m) throw new Error(`SpbQueryGpu: the fallback answered ${answers.status.length} of ${m} overflowed queries`);
    for (let i = 0; i < m; i++) {
      const q = ids[i];
      const status = answers.status[i];
      if (status === QUERY_OVERFLOW) throw new Error(`SpbQueryGpu: the fallback left query ${q} overflowed`);
      out.status[q] = status;
      out.point[3 * q] = answers.point[3 * i];
      out.point[3 * q + 1] = answers.point[3 * i + 1];
      out.point[3 * q + 2] = answers.point[3 * i + 2];
      out.distance[q] = answers.distance[i];
      out.triangle[q] = answers.triangle[i];
      out.feature[q] = answers.feature[i];
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
    positionsReadBack: false,
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
