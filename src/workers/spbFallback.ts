/**
 * The main-thread side of the worker fallback: SpbQueryGpu's `answerOverflowed` answered by the
 * CPU dynamic version in workers of the comlink pool, so that a batch with overflowed queries
 * does not block the page's thread (DESIGN.md, step 4).
 *
 *   const pool = new WorkerPool<SpbWorkerApi>(createSpbWorker);
 *   const fallback = new SpbWorkerFallback(pool);
 *   const gpu = new SpbQueryGpu(device, data, { answerOverflowed: fallback.answerOverflowed });
 *
 * What crosses threads: each worker gets a copy of a mesh's SpbMeshData once (topology, BVH,
 * positions; structured clone), the positions again only when their version changed since that
 * worker last saw them (a fresh f64 copy, transferred), and per task the queries (transferred);
 * answers come back transferred. A batch is split into at most pool.size contiguous chunks of at
 * least `minChunk` queries, run concurrently: the pool hands them to different workers.
 */
import * as Comlink from 'comlink';
import type { SpbMeshData } from '../spb/meshData';
import { allocateOverflowAnswers, type AnswerOverflowed, type SpbOverflowAnswers, type SpbOverflowBatch } from '../spb/gpu/overflowFallback';
import type { SpbWorkerAnswers, SpbWorkerApi } from './spbWorkerApi';
import type { WorkerPool } from './workerPool';

export interface SpbWorkerFallbackOptions {
  /**
   * Fewest queries per task (default 32): a dynamic query costs microseconds, a message round
   * trip tens of them, so tiny chunks would spend more on messages than on answers.
   */
  minChunk?: number;
}

/** What one worker holds, as far as this side knows: positions version per mesh id. */
interface WorkerView {
  meshes: Map<number, number>;
}

/** Figures of the work done (for the stats panel and the benchmark). */
export interface SpbWorkerFallbackStats {
  batches: number;
  tasks: number;
  queries: number;
  /** Mesh copies sent (one per mesh per worker, plus resends after a failure). */
  meshUploads: number;
  /** Position copies sent to workers that held an older version. */
  positionUploads: number;
}

export class SpbWorkerFallback {
  readonly minChunk: number;
  readonly stats: SpbWorkerFallbackStats = { batches: 0, tasks: 0, queries: 0, meshUploads: 0, positionUploads: 0 };
  /** The worker identity that answered each chunk of the last batch, in order. */
  lastWorkers: string[] = [];
  private readonly meshIds = new WeakMap<SpbMeshData, number>();
  private nextMeshId = 1;
  /** Keyed by the pool's remote for a worker: a replaced worker gets a new remote, so a fresh view. */
  private readonly views = new WeakMap<object, WorkerView>();
  /** Released mesh ids not yet dropped by every worker that holds them. */
  private readonly released = new Set<number>();

  constructor(
    private readonly pool: WorkerPool<SpbWorkerApi>,
    options: SpbWorkerFallbackOptions = {},
  ) {
    const minChunk = options.minChunk ?? 32;
    if (!(Number.isInteger(minChunk) && minChunk >= 1)) throw new RangeError(`SpbWorkerFallback: minChunk must be a positive integer, got ${minChunk}`);
    this.minChunk = minChunk;
  }

  /** The function to give SpbQueryGpu (bound: pass it around freely). */
  readonly answerOverflowed: AnswerOverflowed = (batch) => this.answer(batch);

  /** Workers drop their copy of this mesh at their next task (the caller destroyed its SpbQueryGpu). */
  release(data: SpbMeshData): void {
    const id = this.meshIds.get(data);
    if (id === undefined) return;
    this.meshIds.delete(data);
    this.released.add(id);
  }

  private meshId(data: SpbMeshData): number {
    let id = this.meshIds.get(data);
    if (id === undefined) {
      id = this.nextMeshId++;
      this.meshIds.set(data, id);
    }
    return id;
  }

  async answer(batch: SpbOverflowBatch): Promise<SpbOverflowAnswers> {
    const n = batch.tets.length;
    if (batch.points.length !== 3 * n || batch.exclude.length !== n || batch.ids.length !== n || (batch.exclude2 && batch.exclude2.length !== n) || (batch.euclidean && batch.euclidean.length !== n)) {
      throw new RangeError(`SpbWorkerFallback: ${n} tets but ${batch.points.length} point coordinates, ${batch.exclude.length} exclude entries, ${batch.ids.length} ids`);
    }
    const out = allocateOverflowAnswers(n);
    this.stats.batches++;
    this.lastWorkers = [];
    if (n === 0) return out;
    const meshId = this.meshId(batch.data);
    const chunks = Math.max(1, Math.min(this.pool.size, Math.floor(n / this.minChunk)));
    const tasks: Promise<void>[] = [];
    const workers: string[] = new Array<string>(chunks);
    for (let c = 0; c < chunks; c++) {
      const begin = Math.floor((c * n) / chunks);
      const end = Math.floor(((c + 1) * n) / chunks);
      tasks.push(
        this.runChunk(batch, meshId, begin, end).then((a) => {
          workers[c] = a.worker;
          out.status.set(a.status, begin);
          out.point.set(a.point, 3 * begin);
          out.distance.set(a.distance, begin);
          out.triangle.set(a.triangle, begin);
          out.feature.set(a.feature, begin);
        }),
      );
    }
    await Promise.all(tasks);
    this.lastWorkers = workers;
    this.stats.queries += n;
    return out;
  }

  /** One pool task: brings the chosen worker's copy up to date, then answers [begin, end). */
  private runChunk(batch: SpbOverflowBatch, meshId: number, begin: number, end: number): Promise<SpbWorkerAnswers> {
    // Fresh arrays per task: their buffers are transferred (moved) to the worker.
    const ids = batch.ids.slice(begin, end);
    const points = batch.points.slice(3 * begin, 3 * end);
    const tets = batch.tets.slice(begin, end);
    const exclude = batch.exclude.slice(begin, end);
    const exclude2 = batch.exclude2 ? batch.exclude2.slice(begin, end) : new Int32Array(end - begin).fill(-1);
    const euclidean = batch.euclidean ? batch.euclidean.slice(begin, end) : new Uint8Array(end - begin);
    const version = batch.positionsVersion;
    this.stats.tasks++;
    return this.pool.run(async (api) => {
      let view = this.views.get(api);
      if (!view) {
        view = { meshes: new Map() };
        this.views.set(api, view);
      }
      // Messages to one worker are handled in the order sent, so nothing is awaited before the
      // answer is asked for; the view is updated now so that a concurrent task does not resend.
      const pending: Promise<unknown>[] = [];
      for (const id of this.released) {
        if (view.meshes.delete(id)) pending.push(api.dropMesh(id));
      }
      const held = view.meshes.get(meshId);
      if (held === undefined) {
        view.meshes.set(meshId, version);
        this.stats.meshUploads++;
        pending.push(api.setMesh(meshId, batch.data, version));
      } else if (held !== version) {
        view.meshes.set(meshId, version);
        this.stats.positionUploads++;
        const positions = batch.data.positions.slice();
        pending.push(api.setPositions(meshId, version, Comlink.transfer(positions, [positions.buffer])));
      }
      const queries = { ids, points, tets, exclude, exclude2, euclidean };
      const answer = api.answer(meshId, version, batch.config, Comlink.transfer(queries, [ids.buffer, points.buffer, tets.buffer, exclude.buffer, exclude2.buffer, euclidean.buffer]));
      try {
        // One Promise.all over all of them, so that a failed setup never leaves the answer's
        // rejection unhandled.
        const [, answers] = await Promise.all([Promise.all(pending), answer]);
        return answers;
      } catch (error) {
        // The worker's copy is unknown now: resend everything to it next time.
        view.meshes.delete(meshId);
        throw error;
      }
    });
  }
}
