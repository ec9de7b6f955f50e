/**
 * Overflowed shortest-path queries answered in workers of the comlink pool (Node worker_threads
 * running the real, bundled worker entry). The truth is the CPU dynamic version called directly
 * here, query by query, on this thread (shortestPathToBoundary with a dynamic workspace), and the
 * overflowed queries are the ones the static twin with tiny capacities really flags.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  QUERY_FOUND,
  QUERY_NONE,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  updateSpbMeshData,
  type SpbCapacities,
  type SpbMeshData,
} from '../../../src/spb';
import { inProcessFallback, type SpbOverflowAnswers, type SpbOverflowBatch } from '../../../src/spb/gpu/overflowFallback';
import { nodePoolWorker } from '../../../src/workers/nodePoolWorker';
import { SpbWorkerFallback } from '../../../src/workers/spbFallback';
import type { SpbWorkerApi } from '../../../src/workers/spbWorkerApi';
import { createSpbWorkerHandler } from '../../../src/workers/spbWorkerHandler';
import { WorkerPool, type PoolWorker } from '../../../src/workers/workerPool';
import { randomInteriorPoint, rng } from '../../support/random';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { brokenWorkerFile, spbPoolWorkerFactory } from './support/spbNodeWorker';

// Small enough that both the BVH stack and the traversal stacks/steps bind on this mesh.
const TINY: SpbCapacities = { bvhStack: 8, faceStack: 1, tetStack: 1, visitedRing: 2, maxSteps: 4 };
/** Overflowed queries collected per batch (random points are drawn until there are this many). */
const WANTED = 240;
const MAX_POINTS = 20_000;
const CONFIG = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };

let createWorker: () => PoolWorker;
let pool: WorkerPool<SpbWorkerApi> | undefined;
const mesh = loadSharedTetMesh('octopus_2KFaces.t');

beforeAll(async () => {
  createWorker = await spbPoolWorkerFactory();
});
afterEach(() => {
  pool?.terminate();
  pool = undefined;
});

/** A twist about the vertical axis: moves every vertex, keeps the tets positive. */
function twisted(angle: number): Float64Array {
  const x = mesh.positions;
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i += 3) {
    const a = angle * x[i + 1];
    out[i] = x[i] * Math.cos(a) - x[i + 2] * Math.sin(a);
    out[i + 1] = x[i + 1];
    out[i + 2] = x[i] * Math.sin(a) + x[i + 2] * Math.cos(a);
  }
  return out;
}

/**
 * Random interior points, kept when the static twin with TINY capacities flags them as
 * overflowed, until `wanted` are kept (or `maxPoints` were drawn).
 */
function overflowedBatch(data: SpbMeshData, wanted: number, maxPoints: number, seed: number, version: number): SpbOverflowBatch & { drawn: number } {
  const r = rng(seed);
  const ws = new SpbWorkspace(TINY, data.tetCount);
  const ids: number[] = [];
  const points: number[] = [];
  const tets: number[] = [];
  let q = 0;
  for (; q < maxPoints && ids.length < wanted; q++) {
    const t = Math.floor(r() * data.tetCount);
    const p = randomInteriorPoint(data.positions, data.tets, t, r);
    if (shortestPathToBoundary(data, ws, CONFIG, p[0], p[1], p[2], t, -1) !== QUERY_OVERFLOW) continue;
    ids.push(q);
    points.push(...p);
    tets.push(t);
  }
  return {
    drawn: q,
    data,
    positionsVersion: version,
    config: CONFIG,
    ids: Uint32Array.from(ids),
    points: Float64Array.from(points),
    tets: Uint32Array.from(tets),
    exclude: new Int32Array(ids.length).fill(-1),
  };
}

/** Mismatches against the dynamic version run here, query by query (exact equality). */
function mismatches(batch: SpbOverflowBatch, a: SpbOverflowAnswers): string[] {
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, batch.data.tetCount);
  const wrong: string[] = [];
  for (let i = 0; i < batch.ids.length; i++) {
    const p = batch.points;
    const st = shortestPathToBoundary(
      batch.data, ws, batch.config, p[3 * i], p[3 * i + 1], p[3 * i + 2], batch.tets[i], batch.exclude[i],
      batch.exclude2 ? batch.exclude2[i] : -1, batch.euclidean ? batch.euclidean[i] !== 0 : false,
    );
    const found = st === QUERY_FOUND;
    const expected = [st, found ? ws.resultTriangle : -1, found ? Math.sqrt(ws.resultDistance2) : -1, found ? ws.resultX : 0, found ? ws.resultY : 0, found ? ws.resultZ : 0, found ? ws.resultFeature : 0];
    const got = [a.status[i], a.triangle[i], a.distance[i], a.point[3 * i], a.point[3 * i + 1], a.point[3 * i + 2], a.feature[i]];
    if (got.some((v, k) => v !== expected[k])) wrong.push(`query ${batch.ids[i]}: expected ${expected.join(' ')}, got ${got.join(' ')}`);
  }
  return wrong;
}

describe('SpbWorkerFallback: overflowed queries answered in pool workers', () => {
  const data = createSpbMeshData(mesh);
  const batch = overflowedBatch(data, WANTED, MAX_POINTS, 11, 1);

  it('the tiny capacities really overflow many queries (and not all)', () => {
    expect(batch.ids.length).toBe(WANTED);
    expect(batch.drawn).toBeGreaterThan(WANTED);
  });

  it("answers equal the dynamic version's on this thread, query by query; moved positions are resent once per worker", async () => {
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 2);
    const fallback = new SpbWorkerFallback(pool, { minChunk: 16 });
    const a = await fallback.answerOverflowed(batch);
    expect(mismatches(batch, a)).toEqual([]);
    expect(Array.from(a.status).filter((s) => s === QUERY_FOUND).length).toBeGreaterThan(0.9 * batch.ids.length);
    // The default fallback (this thread) gives the same answers.
    const local = await inProcessFallback()(batch);
    expect(Array.from(local.distance)).toEqual(Array.from(a.distance));
    expect(fallback.stats.meshUploads).toBe(2);

    // Deform: new positions, version 2. Each worker that holds the mesh gets them once.
    updateSpbMeshData(data, twisted(0.9));
    const batch2 = { ...batch, positionsVersion: 2 };
    const b = await fallback.answerOverflowed(batch2);
    expect(mismatches(batch2, b)).toEqual([]);
    expect(fallback.stats.positionUploads).toBe(2);
    expect(fallback.stats.meshUploads).toBe(2);
    // The positions were really used: the same points get different answers on the moved mesh.
    const changed = Array.from(b.distance).filter((d, i) => d !== a.distance[i]).length;
    expect(changed).toBeGreaterThan(batch.ids.length / 2);
    updateSpbMeshData(data, mesh.positions); // back to the rest shape for the next cases
  });

  it('the pool spreads one batch over its workers; the mesh goes to each worker once', async () => {
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 3);
    const fallback = new SpbWorkerFallback(pool, { minChunk: 8 });
    await fallback.answerOverflowed({ ...batch, positionsVersion: 3 });
    expect(fallback.lastWorkers.length).toBe(3);
    expect(new Set(fallback.lastWorkers).size).toBe(3); // identities reported by the workers themselves
    expect(pool.completed).toEqual([1, 1, 1]);
    const again = await fallback.answerOverflowed({ ...batch, positionsVersion: 3 });
    expect(mismatches(batch, again)).toEqual([]);
    expect(fallback.stats).toMatchObject({ batches: 2, tasks: 6, meshUploads: 3, positionUploads: 0, queries: 2 * batch.ids.length });
    // A batch smaller than two chunks stays in one task.
    const small = { ...batch, ids: batch.ids.slice(0, 10), points: batch.points.slice(0, 30), tets: batch.tets.slice(0, 10), exclude: batch.exclude.slice(0, 10), positionsVersion: 3 };
    const s = await fallback.answerOverflowed(small);
    expect(fallback.lastWorkers.length).toBe(1);
    expect(mismatches(small, s)).toEqual([]);
  });

  it('Euclidean-mode queries keep their flag in the worker (answers equal the in-thread Euclidean query, not the exact one)', async () => {
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 1);
    const fallback = new SpbWorkerFallback(pool);
    const euclidean = { ...batch, euclidean: new Uint8Array(batch.ids.length).fill(1), positionsVersion: 8 };
    const a = await fallback.answerOverflowed(euclidean);
    expect(mismatches(euclidean, a)).toEqual([]);
    // The flag made a difference somewhere, so a worker that dropped it would fail above.
    expect(mismatches({ ...euclidean, euclidean: undefined }, a).length).toBeGreaterThan(0);
  });

  it('a bad query rejects naming it; the fallback keeps working after', async () => {
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 1);
    const fallback = new SpbWorkerFallback(pool);
    const tets = batch.tets.slice();
    tets[5] = data.tetCount + 3;
    await expect(fallback.answerOverflowed({ ...batch, tets, positionsVersion: 4 })).rejects.toThrow(
      `spbWorker: mesh 1, query ${batch.ids[5]}: tet ${data.tetCount + 3} out of range [0, ${data.tetCount})`,
    );
    const a = await fallback.answerOverflowed({ ...batch, positionsVersion: 4 });
    expect(mismatches(batch, a)).toEqual([]);
    expect(fallback.stats.meshUploads).toBe(2); // the failed task's copy is not trusted: resent
  });

  it('a worker that fails to start rejects the batch with its reason', async () => {
    const file = brokenWorkerFile('spb worker bundle is corrupt');
    onTestFinished(() => rmSync(dirname(file), { recursive: true, force: true }));
    pool = new WorkerPool<SpbWorkerApi>(() => nodePoolWorker(file), 1);
    const fallback = new SpbWorkerFallback(pool);
    await expect(fallback.answerOverflowed({ ...batch, positionsVersion: 5 })).rejects.toThrow(/worker failed: .*spb worker bundle is corrupt/);
    expect(pool.failed).toBe(1);
  });

  it('a query whose squared distances overflow (the mesh at 1e160) is answered "no path", never left running', async () => {
    // Every |s - p|^2 is ~1e319, Infinity in f64: a search that kept widening past Infinity would
    // never answer, and the frame awaiting this batch (GpuCollisions.afterFrame) would hang.
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 1);
    const fallback = new SpbWorkerFallback(pool);
    const huge = createSpbMeshData(mesh);
    updateSpbMeshData(huge, Float64Array.from(mesh.positions, (x) => 1e160 * x));
    const n = 4;
    const points = Float64Array.from(batch.points.subarray(0, 3 * n), (x) => 1e160 * x);
    const query = { ...batch, data: huge, positionsVersion: 9, ids: batch.ids.slice(0, n), points, tets: batch.tets.slice(0, n), exclude: batch.exclude.slice(0, n) };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within 30 s: the query is still running')), 30_000);
    });
    try {
      const a = await Promise.race([fallback.answerOverflowed(query), deadline]);
      expect(Array.from(a.status)).toEqual(new Array(n).fill(QUERY_NONE));
    } finally {
      clearTimeout(timer);
    }
  });

  it('release() makes the workers drop their copy at their next task', async () => {
    pool = new WorkerPool<SpbWorkerApi>(createWorker, 1);
    const fallback = new SpbWorkerFallback(pool);
    const other = createSpbMeshData(mesh);
    await fallback.answerOverflowed({ ...batch, positionsVersion: 6 });
    fallback.release(data);
    await fallback.answerOverflowed({ ...batch, data: other, positionsVersion: 7 });
    expect(await pool.run((api) => api.meshes())).toEqual([2]);
  });

  afterAll(() => console.log(`spbWorker: ${batch.ids.length} of ${batch.drawn} queries overflowed with ${JSON.stringify(TINY)}`));
});

describe('spbWorkerHandler (in process): clear errors', () => {
  const data = createSpbMeshData(mesh);
  const queries = { ids: Uint32Array.of(7), points: Float64Array.of(0, 0, 0), tets: Uint32Array.of(0), exclude: Int32Array.of(-1), exclude2: Int32Array.of(-1), euclidean: Uint8Array.of(0) };

  it('refuses a mesh it was never sent, stale positions, and a message that is not mesh data', () => {
    const h = createSpbWorkerHandler();
    expect(() => h.answer(4, 1, CONFIG, queries)).toThrow('spbWorker: mesh 4 was never sent to this worker (or was dropped)');
    h.setMesh(4, data, 1);
    expect(() => h.answer(4, 2, CONFIG, queries)).toThrow('spbWorker: mesh 4 holds positions version 1, the queries were posed on version 2');
    expect(() => h.setMesh(5, { ...data, positions: new Float64Array(3) }, 1)).toThrow(/setMesh\(5\): not an SpbMeshData/);
    expect(() => h.answer(4, 1, CONFIG, { ...queries, points: Float64Array.of(0, NaN, 0) })).toThrow('spbWorker: mesh 4, query 7: point (0, NaN, 0) is not finite');
    expect(() => h.answer(4, 1, CONFIG, { ...queries, exclude: Int32Array.of(3), exclude2: Int32Array.of(3) })).toThrow('spbWorker: mesh 4, query 7: excludeVertex2 3 must be -1 or a vertex other than excludeVertex 3');
    expect(() => h.setPositions(4, 3, new Float64Array(5))).toThrow(/expected \d+ coordinates/);
    h.dropMesh(4);
    expect(h.meshes()).toEqual([]);
  });
});
