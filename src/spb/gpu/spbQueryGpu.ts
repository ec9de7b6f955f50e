/**
 * Binds and runs the WGSL shortest-path kernel (shaders/spbQuery.wgsl, after the per-tet
 * prepass shaders/spbPrepass.wgsl): one invocation per query, workgroups of 64, the static
 * capacities of SPB_STATIC_CAPACITIES compiled in. Queries that overflow a fixed stack come back
 * flagged and are answered by the CPU dynamic version (shortestPathToBoundary with growing
 * stacks) through a pluggable `answerOverflowed` function: on this thread by default
 * (overflowFallback.ts), in a worker of the pool with src/workers/spbFallback.ts.
 */
import type { SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import { dispatchGrid, gridRowStride, storageBuffer, packVec4 } from '../../gpu/buffers';
import { updateSpbMeshData, type SpbMeshData } from '../meshData';
import { QUERY_OVERFLOW, type SpbQueryConfig } from '../query';
import { SPB_DEFAULT_TOLERANCES, SPB_STATIC_CAPACITIES, type SpbCapacities, type SpbTolerances } from '../settings';
import { STAT_NAMES } from '../workspace';
import { inProcessFallback, type AnswerOverflowed, type SpbOverflowAnswers } from './overflowFallback';
import { COUNTER_WORDS, QUERY_WORDS, RESULT_WORDS, packQueries } from './packSpbBuffers';
import { SpbGpuMesh } from './spbGpuMesh';
import type { PenetrationMethod } from '../../contract/params';
import type { AlternativeQueries, AlternativeQueriesFactory } from './alternativeQueries';

export interface SpbGpuOptions {
  /** Infeasible-region culling (default true). */
  culling?: boolean;
  tolerances?: Partial<SpbTolerances>;
  /** Fixed capacities compiled into the kernel (default SPB_STATIC_CAPACITIES). */
  capacities?: Readonly<SpbCapacities>;
  /**
   * Positions already on the GPU (vec4 per vertex: xyz + inverse mass, the simulation's
   * state.positions, contract/state.ts).
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
  /** The other methods' kernels (src/penetration): needed for run()'s `method` other than 'exact'. */
  penetration?: AlternativeQueriesFactory;
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

/** Per-query options of run() beyond the excluded vertex. */
export interface SpbRunOptions {
  /** false: leave overflowed queries flagged (QUERY_OVERFLOW), for comparisons with the static twin. */
  fallback?: boolean;
  /** Edge points: the edge's second vertex per query (src/spb/exclusion.ts), or -1. */
  exclude2?: ArrayLike<number>;
  /** Nonzero per query: Euclidean mode (src/spb/euclideanQuery.ts). */
  euclidean?: ArrayLike<number | boolean>;
  /** The penetration method's kernel instead of the shortest path (src/penetration; the Euclidean flags are then not read). Default 'exact'. */
  method?: PenetrationMethod;
}

/** xyz per vertex -> vec4 per vertex (w, the inverse mass, unused by the query: 0). */
const toVec4 = (xyz: ArrayLike<number>): Float32Array<ArrayBuffer> => packVec4(xyz, xyz.length / 3);

export class SpbQueryGpu {
  readonly capacities: Readonly<SpbCapacities>;
  readonly config: SpbQueryConfig;
  /** Topology, BVH, measures, counters and the kernels (shared with SpbStage's code). */
  readonly mesh: SpbGpuMesh;
  /** The positions the kernels read (vec4 per vertex): the caller's GPU buffer, or one owned here. */
  readonly positions: GPUBuffer;
  private readonly external: boolean;
  private readonly answerOverflowed: AnswerOverflowed;
  /**
   * GPU-resident positions only: whether the CPU copy (data.positions) matches the GPU buffer.
   * True after setPositions(); false after each run(), since the simulation moves the GPU
   * positions between batches without telling us.
   */
  private cpuPositionsCurrent = false;
  /** Readbacks of the GPU-resident positions done for the fallback (one per batch at most). */
  positionReadbacks = 0;
  /** The rest-pose methods' kernels (null without options.penetration). */
  readonly penetration: AlternativeQueries | null;

  constructor(
    private readonly device: GPUDevice,
    readonly data: SpbMeshData,
    options: SpbGpuOptions = {},
  ) {
    this.capacities = options.capacities ?? SPB_STATIC_CAPACITIES;
    this.config = { culling: options.culling ?? true, tolerances: { ...SPB_DEFAULT_TOLERANCES, ...options.tolerances } };
    this.answerOverflowed = options.answerOverflowed ?? inProcessFallback();
    this.mesh = new SpbGpuMesh(device, data, this.capacities);
    this.external = options.positions !== undefined;
    if (options.positions && options.positions.size < 16 * data.vertexCount) {
      throw new RangeError(`SpbQueryGpu: the positions buffer holds ${options.positions.size} bytes, ${16 * data.vertexCount} needed (vec4 per vertex: xyz + inverse mass)`);
    }
    this.positions = options.positions ?? storageBuffer(device, 'spb.positions', toVec4(data.positions));
    this.penetration = options.penetration ? options.penetration(device, this.mesh) : null;
  }

  /** The surface BVH on the GPU (refitted from GPU-resident positions by encode()). */
  get bvhGpu(): SurfaceBvhGpu {
    return this.mesh.bvhGpu;
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
    this.device.queue.writeBuffer(this.positions, 0, toVec4(this.data.positions));
    this.mesh.bvhGpu.upload();
  }

  /**
   * Records the prepass and the query into `encoder`: `list` is a query list (packQueries: header
   * with count and capacity, then QUERY_WORDS words per query), `results` receives RESULT_WORDS
   * words per query; `queryCount` sizes the direct dispatch (the kernel answers min(count,
   * capacity) of the list header). Clears the counters first. `method`: the penetration method's
   * kernel instead of the shortest path (needs options.penetration).
   */
  encode(encoder: GPUCommandEncoder, list: GPUBuffer, results: GPUBuffer, queryCount: number, method: PenetrationMethod = 'exact'): void {
    this.mesh.writeQueryParams(this.config, gridRowStride(queryCount));
    encoder.clearBuffer(this.mesh.counters);
    const pass = encoder.beginComputePass({ label: 'spb' });
    this.mesh.recordRefitAndPrepass(pass, this.positions, this.external);
    if (method !== 'exact') {
      if (!this.penetration) throw new Error(`SpbQueryGpu: method '${method}' needs options.penetration (the rest pose)`);
      if (queryCount > 0) this.penetration.record(pass, method, this.positions, list, results, { count: queryCount });
    } else if (queryCount > 0) {
      pass.setPipeline(this.mesh.kernels.query);
      pass.setBindGroup(0, this.mesh.queryGroup(this.positions, list, results));
      const [qx, qy] = dispatchGrid(queryCount);
      pass.dispatchWorkgroups(qx, qy);
    }
    pass.end();
  }

  private validate(points: ArrayLike<number>, tets: ArrayLike<number>, exclude?: ArrayLike<number>, exclude2?: ArrayLike<number>): void {
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
      if (exclude2) {
        const e = exclude2[q];
        if (!(Number.isInteger(e) && e >= -1 && e < d.vertexCount)) throw new RangeError(`SpbQueryGpu: query ${q}: excludeVertex2 ${e} out of range [-1, ${d.vertexCount})`);
        if (e >= 0 && !(exclude && exclude[q] >= 0 && exclude[q] !== e)) throw new RangeError(`SpbQueryGpu: query ${q}: excludeVertex2 ${e} needs a different excludeVertex (an edge's two ends)`);
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
    options: SpbRunOptions = {},
  ): Promise<SpbGpuResults> {
    this.validate(points, tets, exclude, options.exclude2);
    const device = this.device;
    const n = tets.length;
    const queryBuf = storageBuffer(device, 'spb.queries', new Uint8Array(packQueries(points, tets, exclude, options)));
    const resultBytes = Math.max(1, n) * RESULT_WORDS * 4;
    const resultBuf = storageBuffer(device, 'spb.results', resultBytes);
    const stageResults = device.createBuffer({ size: resultBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const stageCounters = device.createBuffer({ size: COUNTER_WORDS * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder({ label: 'spb batch' });
    this.encode(encoder, queryBuf, resultBuf, n, options.method ?? 'exact');
    encoder.copyBufferToBuffer(resultBuf, 0, stageResults, 0, resultBytes);
    encoder.copyBufferToBuffer(this.mesh.counters, 0, stageCounters, 0, COUNTER_WORDS * 4);
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
      await this.answerFlagged(points, tets, exclude, options, out);
    }
    // The simulation may move GPU-resident positions before the next batch.
    if (this.external) this.cpuPositionsCurrent = false;
    return out;
  }

  /** One readback of the GPU-resident positions into the CPU copy the fallback reads. */
  private async readBackPositions(): Promise<void> {
    const bytes = 16 * this.data.vertexCount;
    const stage = this.device.createBuffer({ label: 'spb.positionsReadback', size: Math.max(4, bytes), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder({ label: 'spb positions readback' });
    if (bytes > 0) encoder.copyBufferToBuffer(this.positions, 0, stage, 0, bytes);
    this.device.queue.submit([encoder.finish()]);
    await stage.mapAsync(GPUMapMode.READ);
    const vec4 = new Float32Array(stage.getMappedRange().slice(0, bytes));
    const positions = new Float32Array(3 * this.data.vertexCount);
    for (let i = 0; i < this.data.vertexCount; i++) {
      positions[3 * i] = vec4[4 * i];
      positions[3 * i + 1] = vec4[4 * i + 1];
      positions[3 * i + 2] = vec4[4 * i + 2];
    }
    stage.unmap();
    stage.destroy();
    this.positionReadbacks++;
    updateSpbMeshData(this.data, positions);
    bumpPositionsVersion(this.data);
    this.cpuPositionsCurrent = true;
  }

  /** Hands the flagged queries to answerOverflowed and writes its answers into `out`. */
  private async answerFlagged(points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number> | undefined, options: SpbRunOptions, out: SpbGpuResults): Promise<void> {
    const ids = out.overflowed;
    const m = ids.length;
    const batchPoints = new Float64Array(3 * m);
    const batchTets = new Uint32Array(m);
    const batchExclude = new Int32Array(m);
    const batchExclude2 = new Int32Array(m);
    const batchEuclidean = new Uint8Array(m);
    for (let i = 0; i < m; i++) {
      const q = ids[i];
      batchPoints[3 * i] = points[3 * q];
      batchPoints[3 * i + 1] = points[3 * q + 1];
      batchPoints[3 * i + 2] = points[3 * q + 2];
      batchTets[i] = tets[q];
      batchExclude[i] = exclude ? exclude[q] : -1;
      batchExclude2[i] = options.exclude2 ? options.exclude2[q] : -1;
      batchEuclidean[i] = options.euclidean && options.euclidean[q] ? 1 : 0;
    }
    const method = options.method ?? 'exact';
    const answers: SpbOverflowAnswers = method !== 'exact' ? this.penetration!.answerBatch(method, this.data, batchPoints, batchTets, batchExclude, batchExclude2) : await this.answerOverflowed({
      data: this.data,
      positionsVersion: positionsVersion(this.data),
      config: this.config,
      ids: Uint32Array.from(ids),
      points: batchPoints,
      tets: batchTets,
      exclude: batchExclude,
      exclude2: batchExclude2,
      euclidean: batchEuclidean,
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
    this.penetration?.destroy();
    this.mesh.destroy();
    if (!this.external) this.positions.destroy();
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
