/**
 * CCD jobs in workers of the comlink pool (Node worker_threads running the real, bundled worker
 * entry). The truth is the same functions called directly on this thread (sweptCandidates,
 * vertexFaceCcd / edgeEdgeCcd), whose own correctness is checked against brute-force
 * and exact oracles in tests/unit/ccd; here: the worker path changes nothing, whichever transport.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { edgeEdgeCcd, vertexFaceCcd } from '../../../src/collision/ccd';
import { ccdTopologyOf, sweptCandidates, type CcdTopology, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { culledSweptCandidates } from '../../../src/collision/selfCulling/broadPhaseCulling';
import { CcdJobs, ccdPoolSize, chooseInterSlices, MIN_SLICING_GAIN_MS, sharedMemoryAvailable, splitParts } from '../../../src/workers/ccdJobs';
import { nodeCcdPool, nodePoolSize } from '../../../src/workers/ccdNodePool';
import type { CcdWorkerApi } from '../../../src/workers/ccdWorkerApi';
import type { WorkerPool } from '../../../src/workers/workerPool';
import { rng } from '../../support/random';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { ccdWorkerBundle } from '../../../src/runner/ccdWorkerBundle';

let workerFile: string;
let pool: WorkerPool<CcdWorkerApi> | undefined;
beforeAll(async () => {
  workerFile = await ccdWorkerBundle(resolve(__dirname, '../../..'));
});
afterEach(() => {
  pool?.terminate();
  pool = undefined;
});

/** Two octopi of octopus_2KFaces.t, the second shifted into the first's arms (objects 0 and 1). */
function scene(): CcdTopology & { x: Float32Array } {
  const m = loadSharedTetArrays('octopus_2KFaces.t');
  const n = m.positions.length / 3;
  const positions = new Float32Array(2 * m.positions.length);
  const tets = new Uint32Array(2 * m.tets.length);
  const objectIds = new Uint32Array(tets.length / 4).fill(1, m.tets.length / 4);
  for (let i = 0; i < m.positions.length; i++) {
    positions[i] = m.positions[i];
    positions[m.positions.length + i] = m.positions[i] + [0.3, 0.15, 0][i % 3];
  }
  for (let i = 0; i < m.tets.length; i++) {
    tets[i] = m.tets[i];
    tets[m.tets.length + i] = m.tets[i] + n;
  }
  const mesh = buildTetMesh({ positions, tets }, { objectIds }).mesh;
  const x = new Float32Array(4 * mesh.vertexCount);
  for (let i = 0; i < mesh.vertexCount; i++) for (let k = 0; k < 3; k++) x[4 * i + k] = mesh.positions[3 * i + k];
  return { ...ccdTopologyOf(mesh), x };
}

const topo = scene();
const bound: MotionBound = { horizon: 1 / 60, gravity: [0, -9.81, 0], margin: 0.002 };
/** Falling at about 0.5 m/s, each vertex a little differently. */
function velocities(seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(topo.x.length);
  for (let i = 0; i < v.length; i++) if (i % 4 !== 3) v[i] = (i % 4 === 1 ? -0.5 : 0) + (r() - 0.5) * 0.4;
  return v;
}

/** Exact equality of two candidate arrays, cheaply (vitest's deep equality is slow on 10^5 elements). */
function sameArray(got: ArrayLike<number>, want: ArrayLike<number>): string {
  if (got.length !== want.length) return `length ${got.length}, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return `element ${i}: ${got[i]}, expected ${want[i]}`;
  return 'equal';
}

/**
 * The same pairs in any order (a job split across workers returns them part by part): sorted
 * pair keys compared, cheaply.
 */
function samePairs(got: Uint32Array, want: Uint32Array): string {
  const keys = (a: Uint32Array): Float64Array => {
    const k = new Float64Array(a.length / 2);
    for (let i = 0; i < k.length; i++) k[i] = a[2 * i] * 2 ** 24 + a[2 * i + 1];
    return k.sort();
  };
  return sameArray(keys(got), keys(want));
}

function inThread(x: Float32Array, v: Float32Array, self: boolean): { vertexFace: Uint32Array; edgeEdge: Uint32Array } {
  const c = sweptCandidates(topo, x, v, bound, self);
  return { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge };
}

describe('CcdJobs.broadPhase in a worker', () => {
  it('the SharedArrayBuffer path and the transfer path give the in-thread candidates, self on and off', async () => {
    expect(sharedMemoryAvailable()).toBe(true); // Node: always
    pool = nodeCcdPool(workerFile, 2);
    const shared = await CcdJobs.create(pool, topo);
    const transfer = await CcdJobs.create(pool, topo, { transport: 'transfer' });
    expect(shared.transport).toBe('shared');
    expect(shared.positions.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(transfer.transport).toBe('transfer');
    const v = velocities(1);
    for (const self of [true, false]) {
      const want = inThread(topo.x, v, self);
      expect(want.vertexFace.length).toBeGreaterThan(1000);
      expect(want.edgeEdge.length).toBeGreaterThan(1000);
      for (const jobs of [shared, transfer]) {
        const got = await jobs.broadPhase(topo.x, v, bound, self);
        expect(samePairs(got.vertexFace, want.vertexFace)).toBe('equal');
        expect(samePairs(got.edgeEdge, want.edgeEdge)).toBe('equal');
        expect(got.jobMs).toBeGreaterThan(0);
      }
    }
    // The caller's arrays are left as they were (copied, not moved), on both paths.
    expect(topo.x.length).toBe(4 * topo.vertexCount);
    expect(v.length).toBe(topo.x.length);
  });

  it('a pool of 2 splits a self-collision job by object across both workers: each pair once, as in this thread', async () => {
    pool = nodeCcdPool(workerFile, 2);
    const jobs = await CcdJobs.create(pool, topo);
    expect(jobs.parts).toEqual([{ inter: true, objects: [0, 1] }, { inter: false, objects: [1, 2] }]);
    const v = velocities(6);
    const want = inThread(topo.x, v, true);
    const before = pool.completed.reduce((a, b) => a + b, 0);
    const got = await jobs.broadPhase(topo.x, v, bound, true);
    expect(pool.completed.reduce((a, b) => a + b, 0) - before).toBe(2);
    expect(pool.completed.every((n) => n > 0)).toBe(true);
    expect(samePairs(got.vertexFace, want.vertexFace)).toBe('equal');
    expect(samePairs(got.edgeEdge, want.edgeEdge)).toBe('equal');
    // The bound's own margins and frame choice reach the workers: object 0's own margin doubled
    // (a landing's escapes) joins its pairs in the world frame (collision/ccd/selfPairFrames.ts).
    const adaptive: MotionBound = { ...bound, ownMargins: [0.05, 0.002], selfPairFrame: 'adaptive' };
    const wantAdaptive = sweptCandidates(topo, topo.x, v, adaptive, true);
    expect(wantAdaptive.selfFrames).toEqual({ worldJoined: 1 });
    const gotAdaptive = await jobs.broadPhase(topo.x, v, adaptive, true);
    expect(gotAdaptive.selfFrames).toEqual({ worldJoined: 1 });
    expect(samePairs(gotAdaptive.vertexFace, wantAdaptive.vertexFace)).toBe('equal');
    expect(samePairs(gotAdaptive.edgeEdge, wantAdaptive.edgeEdge)).toBe('equal');
    // Without self-collision there is nothing to split: one job.
    const one = pool.completed.reduce((a, b) => a + b, 0);
    await jobs.broadPhase(topo.x, v, bound, false);
    expect(pool.completed.reduce((a, b) => a + b, 0) - one).toBe(1);
  });

  it('a pool of 2 slices the pairs between objects over both workers: each pair once, as in this thread', async () => {
    pool = nodeCcdPool(workerFile, 2);
    const jobs = await CcdJobs.create(pool, topo, { interSlices: 2 });
    const v = velocities(8);
    // Boxes over 0.1 s: the pairs between the falling octopi are most of the job's.
    const far: MotionBound = { ...bound, horizon: 0.1 };
    const whole = sweptCandidates(topo, topo.x, v, far, true);
    expect(whole.interPairs).toBeGreaterThan(100_000);
    expect(jobs.jobParts(true)).toEqual([{ inter: true, objects: [0, 1], interSlice: [0, 2] }, { inter: true, objects: [1, 2], interSlice: [1, 2] }]);
    const before = pool.completed.reduce((a, b) => a + b, 0);
    const got = await jobs.broadPhase(topo.x, v, far, true);
    expect(pool.completed.reduce((a, b) => a + b, 0) - before).toBe(2);
    expect(got.interPairs).toBe(whole.interPairs);
    expect(got.interSlices).toBe(2);
    expect(samePairs(got.vertexFace, whole.vertexFace)).toBe('equal');
    expect(samePairs(got.edgeEdge, whole.edgeEdge)).toBe('equal');
    // Without self-collision: slices of the pairs between objects only, one a worker.
    const wantInter = sweptCandidates(topo, topo.x, v, far, false);
    expect(jobs.jobParts(false)).toEqual([{ inter: true, objects: [0, 0], interSlice: [0, 2] }, { inter: true, objects: [0, 0], interSlice: [1, 2] }]);
    const before2 = pool.completed.reduce((a, b) => a + b, 0);
    const got2 = await jobs.broadPhase(topo.x, v, far, false);
    expect(pool.completed.reduce((a, b) => a + b, 0) - before2).toBe(2);
    expect(samePairs(got2.vertexFace, wantInter.vertexFace)).toBe('equal');
    expect(samePairs(got2.edgeEdge, wantInter.edgeEdge)).toBe('equal');
    // The default chooses from the last job's times; whatever it chose, the pairs are the same.
    const chosen = await CcdJobs.create(pool, topo);
    expect(chosen.jobParts(true)).toEqual(chosen.parts);
    for (let job = 0; job < 2; job++) {
      const c = await chosen.broadPhase(topo.x, v, far, true);
      expect(samePairs(c.vertexFace, whole.vertexFace)).toBe('equal');
      expect(samePairs(c.edgeEdge, whole.edgeEdge)).toBe('equal');
      expect(c.interSlices).toBeGreaterThanOrEqual(1);
    }
    await expect(CcdJobs.create(pool, topo, { interSlices: 3 })).rejects.toThrow('CcdJobs: interSlices must be an integer in [1, 2] (the pool\'s workers), got 3');
  });

  it('a pool of 2 splits a one-object job into two slices of its pairs: each pair once, as in this thread', async () => {
    pool = nodeCcdPool(workerFile, 2);
    const single: CcdTopology = { ...topo, vertexObject: new Uint32Array(topo.vertexCount) };
    const jobs = await CcdJobs.create(pool, single);
    expect(jobs.parts).toEqual([{ inter: true, objects: [0, 1], slice: [0, 2] }, { inter: false, objects: [0, 1], slice: [1, 2] }]);
    const v = velocities(7);
    const want = sweptCandidates(single, topo.x, v, bound, true);
    const before = pool.completed.reduce((a, b) => a + b, 0);
    for (let job = 0; job < 2; job++) {
      const got = await jobs.broadPhase(topo.x, v, bound, true);
      expect(samePairs(got.vertexFace, want.vertexFace)).toBe('equal');
      expect(samePairs(got.edgeEdge, want.edgeEdge)).toBe('equal');
    }
    expect(pool.completed.reduce((a, b) => a + b, 0) - before).toBe(4);
    expect(pool.completed.every((n) => n > 0)).toBe(true);
  });

  it('shared: the worker reads the shared views in place, as they are when the job is asked for', async () => {
    pool = nodeCcdPool(workerFile, 1);
    const jobs = await CcdJobs.create(pool, topo);
    jobs.positions.set(topo.x);
    jobs.velocities.set(velocities(2));
    const first = await jobs.broadPhase(jobs.positions, jobs.velocities, bound, true);
    expect(sameArray(first.vertexFace, inThread(topo.x, velocities(2), true).vertexFace)).toBe('equal');
    // Move the second octopus away in place: the next job must see it (no stale copy anywhere).
    for (let i = 4 * (topo.vertexCount / 2); i < jobs.positions.length; i += 4) jobs.positions[i] += 5;
    const moved = Float32Array.from(jobs.positions);
    const second = await jobs.broadPhase(jobs.positions, jobs.velocities, bound, false);
    const want = inThread(moved, velocities(2), false);
    expect(want.vertexFace.length).toBe(0); // apart: no inter-object pair left
    expect(sameArray(second.vertexFace, want.vertexFace)).toBe('equal');
    expect(sameArray(second.edgeEdge, want.edgeEdge)).toBe('equal');
    expect(inThread(topo.x, velocities(2), false).vertexFace.length).toBeGreaterThan(0); // ...but there were before
  });
});

describe('self-collision culling in the broad-phase job', () => {
  it('a worker culls the same same-object pairs as this thread (both transports), and reports it', async () => {
    pool = nodeCcdPool(workerFile, 2);
    // Falling and turning slowly: a motion the cones can follow.
    const v = new Float32Array(topo.x.length);
    for (let i = 0; i < topo.vertexCount; i++) {
      v[4 * i] = 0.3 * (topo.x[4 * i + 1] - 3);
      v[4 * i + 1] = -0.5 - 0.3 * topo.x[4 * i];
    }
    const deviation = (): Float32Array => new Float32Array(topo.vertexCount).fill(1e-4);
    const want = culledSweptCandidates(topo, topo.x, v, bound, true, { mode: 'enhanced', deviation: deviation() });
    expect(want.selfCulling!.pairsAfter).toBeLessThan(0.9 * want.selfCulling!.pairsBefore);
    const all = sweptCandidates(topo, topo.x, v, bound, true);
    expect(all.vertexFace.length + all.edgeEdge.length - want.vertexFace.length - want.edgeEdge.length).toBe(2 * (want.selfCulling!.pairsBefore - want.selfCulling!.pairsAfter));
    let jobs: CcdJobs | undefined;
    for (const transport of ['shared', 'transfer'] as const) {
      jobs = await CcdJobs.create(pool, topo, { transport });
      const d = deviation();
      const got = await jobs.broadPhase(topo.x, v, bound, true, { mode: 'enhanced', deviation: d });
      expect(d.length).toBe(0); // transferred to the worker
      expect(samePairs(got.vertexFace, want.vertexFace)).toBe('equal');
      expect(samePairs(got.edgeEdge, want.edgeEdge)).toBe('equal');
      expect({ ...got.selfCulling!, conesMs: 0, traversalMs: 0, filterMs: 0 }).toEqual({ ...want.selfCulling!, conesMs: 0, traversalMs: 0, filterMs: 0 });
      // No bound yet: nothing is culled, and the report says so.
      const none = await jobs.broadPhase(topo.x, v, bound, true, { mode: 'enhanced', deviation: null });
      expect(none.selfCulling).toMatchObject({ bounded: false, pairsAfter: want.selfCulling!.pairsBefore });
      expect(none.vertexFace.length).toBe(all.vertexFace.length);
    }
    await expect(jobs!.broadPhase(topo.x, v, bound, true, { mode: 'sideways' as 'off', deviation: null })).rejects.toThrow('culling.mode must be one of off, plain, enhanced, got sideways');
  });
});

describe('two CcdJobs on one pool', () => {
  it('each gets the candidates of its own topology, also when the other replaced it in the worker', async () => {
    pool = nodeCcdPool(workerFile, 1);
    // Same sizes, but B calls everything one object: without self-collision B has no pairs, A many.
    const b = { ...topo, vertexObject: new Uint32Array(topo.vertexCount) };
    const jobsA = await CcdJobs.create(pool, topo);
    const jobsB = await CcdJobs.create(pool, b);
    const v = velocities(5);
    const wantA = inThread(topo.x, v, false);
    expect(wantA.vertexFace.length).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) {
      const a = await jobsA.broadPhase(topo.x, v, bound, false);
      expect(sameArray(a.vertexFace, wantA.vertexFace)).toBe('equal');
      expect(sameArray(a.edgeEdge, wantA.edgeEdge)).toBe('equal');
      const got = await jobsB.broadPhase(topo.x, v, bound, false);
      expect([got.vertexFace.length, got.edgeEdge.length]).toEqual([0, 0]);
    }
    // The worker itself refuses a job posed on a topology it does not hold.
    await expect(pool.run((api) => api.broadPhase(topo.x, v, bound, false, 12345))).rejects.toThrow(/ccdWorker: broadPhase posed on topology 12345, this worker holds topology \d+/);
  });
});

describe('CcdJobs.narrowPhase across the pool', () => {
  it('equals the exact CCD run here, query by query, and spreads the batch over every worker', async () => {
    // Candidate pairs of the scene, each given its own motion over [t0, t1]: even queries drive the
    // first primitive through the second's centre (mostly hits), odd ones only nudge it (mostly not).
    const c = inThread(topo.x, velocities(3), true);
    const r = rng(9);
    const batch = (pairs: Uint32Array, ids: (a: number, b: number) => number[], split: number, count: number): Float64Array => {
      const q = new Float64Array(24 * count);
      for (let i = 0; i < count; i++) {
        const id = ids(pairs[2 * i], pairs[2 * i + 1]);
        const centre = (from: number, to: number, k: number): number => id.slice(from, to).reduce((s, v) => s + topo.x[4 * v + k], 0) / (to - from);
        const shift = [0, 1, 2].map((k) => (i % 2 === 0 ? 2 * (centre(split, 4, k) - centre(0, split, k)) : 0.001 * (r() - 0.5)));
        id.forEach((v, j) => {
          for (let k = 0; k < 3; k++) {
            q[24 * i + 3 * j + k] = topo.x[4 * v + k];
            q[24 * i + 12 + 3 * j + k] = topo.x[4 * v + k] + (j < split ? shift[k] : 0);
          }
        });
      }
      return q;
    };
    const T = topo.triangles, E = topo.edges;
    const vf = batch(c.vertexFace, (vtx, t) => [vtx, T[3 * t], T[3 * t + 1], T[3 * t + 2]], 1, 600);
    const ee = batch(c.edgeEdge, (a, b) => [E[2 * a], E[2 * a + 1], E[2 * b], E[2 * b + 1]], 2, 600);
    pool = nodeCcdPool(workerFile, 2);
    const jobs = await CcdJobs.create(pool, topo, { minChunk: 50 });
    for (const [kind, queries, ccd] of [['vertexFace', vf, vertexFaceCcd], ['edgeEdge', ee, edgeEdgeCcd]] as const) {
      const before = pool.completed.reduce((a, b) => a + b, 0);
      const got = await jobs.narrowPhase(kind, queries);
      const want = Float64Array.from({ length: 600 }, (_, i) => {
        const r = ccd(queries.subarray(24 * i, 24 * i + 24));
        return r.hit ? r.toi : -1;
      });
      expect(sameArray(got, want)).toBe('equal');
      // Both outcomes occur, so a worker that answered "no hit" (or "hit") throughout would fail.
      const hits = want.filter((t) => t >= 0).length;
      expect(hits).toBeGreaterThan(100);
      expect(hits).toBeLessThan(500);
      expect(pool.completed.reduce((a, b) => a + b, 0) - before).toBe(2); // two chunks, one per worker
    }
    expect(pool.started).toBe(2);
    expect(pool.completed.every((n) => n >= 2)).toBe(true);
    expect(await jobs.narrowPhase('edgeEdge', new Float64Array(0))).toEqual(new Float64Array(0));
  });
});

describe('CCD jobs that fail', () => {
  it('reject with the worker\'s message; the pool keeps its workers and keeps working', async () => {
    pool = nodeCcdPool(workerFile, 1);
    // A worker that never got the topology.
    await expect(pool.run((api) => api.broadPhase(topo.x, velocities(4), bound, true))).rejects.toThrow(
      'ccdWorker: broadPhase before init(topology): this worker holds no topology',
    );
    // A malformed topology sent to the worker directly (CcdJobs.create checks it on this side first).
    const bad = { ...topo, edges: Uint32Array.of(0, topo.vertexCount + 2) };
    await expect(pool.run((api) => api.init(bad))).rejects.toThrow(`ccdWorker: init: edges[1] (element 0) = vertex ${topo.vertexCount + 2}, out of range [0, ${topo.vertexCount})`);
    await expect(CcdJobs.create(pool, bad)).rejects.toThrow(/CcdJobs.create: edges\[1\]/);

    const jobs = await CcdJobs.create(pool, topo);
    const x = topo.x.slice();
    x[4 * 7 + 1] = NaN;
    await expect(jobs.broadPhase(x, velocities(4), bound, true)).rejects.toThrow(/sweptVertexBoxes: vertex 7: position \(.*, NaN, .*\)/);
    await expect(jobs.broadPhase(topo.x, velocities(4), { ...bound, horizon: -1 }, true)).rejects.toThrow('bound.horizon must be a finite number >= 0, got -1');
    const queries = new Float64Array(24 * 100);
    for (let i = 0; i < queries.length; i++) queries[i] = (i % 24) * 0.1;
    queries[24 * 70 + 5] = Infinity;
    await expect(jobs.narrowPhase('vertexFace', queries)).rejects.toThrow(/ccdWorker: narrowPhase query 70: vertexFaceCcd: coordinate 5 .* is Infinity, not finite/);
    await expect(jobs.narrowPhase('faceFace' as never, queries.subarray(0, 24))).rejects.toThrow("kind must be 'vertexFace' or 'edgeEdge', got faceFace");

    // Still the same worker, still working.
    expect(pool.failed).toBe(0);
    const got = await jobs.broadPhase(topo.x, velocities(4), bound, true);
    expect(samePairs(got.edgeEdge, inThread(topo.x, velocities(4), true).edgeEdge)).toBe('equal');
  });

  it('a chunk that fails on a later worker names the caller\'s query index', async () => {
    pool = nodeCcdPool(workerFile, 2);
    const jobs = await CcdJobs.create(pool, topo, { minChunk: 10 });
    const queries = new Float64Array(24 * 40);
    for (let i = 0; i < queries.length; i++) queries[i] = (i % 24) * 0.1;
    queries[24 * 33] = NaN; // in the second chunk (queries 20..39), its 14th
    await expect(jobs.narrowPhase('edgeEdge', queries)).rejects.toThrow(/narrowPhase query 33: edgeEdgeCcd: coordinate 0/);
  });
});

describe('pool size', () => {
  it('all cores but one, at least one worker; Node asks os.availableParallelism()', () => {
    expect([1, 2, 3, 8, 16, 0, NaN].map(ccdPoolSize)).toEqual([1, 1, 2, 7, 15, 1, 1]);
    expect(nodePoolSize()).toBe(ccdPoolSize(availableParallelism()));
  });
});

/** 9 objects of uneven size: object o has o + 1 triangles and edges of its own (no tets). */
function nineObjects(): CcdTopology {
  const tri: number[] = [], edg: number[] = [], obj: number[] = [];
  for (let o = 0; o < 9; o++) {
    for (let k = 0; k <= o; k++) {
      const v = obj.length;
      obj.push(o, o, o);
      tri.push(v, v + 1, v + 2);
      edg.push(v, v + 1);
    }
  }
  return {
    vertexCount: obj.length, boundaryVertices: Uint32Array.from(obj.keys()), triangles: Uint32Array.from(tri), edges: Uint32Array.from(edg), vertexObject: Uint32Array.from(obj),
  };
}

describe('splitParts', () => {
  it('contiguous object ranges covering every object once, the pairs between objects in exactly one, about equal surface per part', () => {
    const t = nineObjects();
    for (const workers of [1, 2, 3, 4, 9]) {
      const parts = splitParts(t, workers);
      expect(parts.length).toBe(workers);
      for (const p of parts) expect(p.slice).toBeUndefined();
      expect(parts.filter((p) => p.inter).length).toBe(1);
      expect(parts[0]!.objects[0]).toBe(0);
      expect(parts[parts.length - 1]!.objects[1]).toBe(9);
      for (let i = 1; i < parts.length; i++) expect(parts[i]!.objects[0]).toBe(parts[i - 1]!.objects[1]);
      for (const p of parts) expect(p.objects[1]).toBeGreaterThan(p.objects[0]);
      // Surface per part (2 (o + 1) per object): no part above twice the even share, except a single object larger than that.
      const share = (2 * 45) / parts.length;
      const surface = (p: { objects: [number, number] }): number => {
        let sum = 0;
        for (let o = p.objects[0]; o < p.objects[1]; o++) sum += 2 * (o + 1);
        return sum;
      };
      for (const p of parts) expect(surface(p) <= 2 * share || p.objects[1] - p.objects[0] === 1).toBe(true);
      // The pairs between objects ride with the part of least surface.
      expect(surface(parts.find((p) => p.inter)!)).toBe(Math.min(...parts.map(surface)));
    }
    // More workers than objects: one part per worker, each object's pairs in slices 0..K-1 of one
    // part each, the larger objects in more slices.
    for (const workers of [10, 16, 40]) {
      const parts = splitParts(t, workers);
      expect(parts.length).toBe(workers);
      expect(parts.filter((p) => p.inter).length).toBe(1);
      const slices = Array.from({ length: 9 }, (_, o) => parts.filter((p) => p.objects[0] === o && p.objects[1] === o + 1));
      expect(slices.reduce((n, s) => n + s.length, 0)).toBe(workers);
      slices.forEach((s) => {
        const count = s.length;
        expect(s.map((p) => p.slice ?? [0, 1])).toEqual(Array.from({ length: count }, (_, k) => [k, count]));
      });
      for (let o = 1; o < 9; o++) expect(slices[o].length).toBeGreaterThanOrEqual(slices[o - 1].length);
      // Slice sizes within 2x of each other's, but for the smallest objects' single slices.
      const size = (o: number): number => (2 * (o + 1)) / slices[o].length;
      const sliced = slices.map((_, o) => o).filter((o) => slices[o].length > 1);
      expect(Math.max(...sliced.map(size))).toBeLessThanOrEqual(2 * Math.min(...sliced.map(size)));
    }
    // One object, 3 workers: its pairs in 3 slices.
    const one: CcdTopology = { ...t, vertexObject: new Uint32Array(t.vertexCount) };
    expect(splitParts(one, 3)).toEqual([{ inter: true, objects: [0, 1], slice: [0, 3] }, { inter: false, objects: [0, 1], slice: [1, 3] }, { inter: false, objects: [0, 1], slice: [2, 3] }]);
    expect(splitParts(one, 1)).toEqual([{ inter: true, objects: [0, 1] }]);
  });

  it('slices the pairs between objects over the parts a plan names, each part its slice', () => {
    // nineObjects over 4 workers.
    const t = nineObjects();
    const base = splitParts(t, 4);
    const sliced = splitParts(t, 4, { parts: [3, 1] });
    expect(sliced.map((p) => p.objects)).toEqual(base.map((p) => p.objects));
    expect(sliced.map((p) => (p.inter ? p.interSlice : null))).toEqual([null, [1, 2], null, [0, 2]]);
    expect(splitParts(t, 4, { parts: [2] }).map((p) => p.inter)).toEqual([false, false, true, false]);
    expect(() => splitParts(t, 4, { parts: [4] })).toThrow('splitParts: plan.parts must be part indices in [0, 4), got [4]');
  });

  it('chooseInterSlices: the parts that make the longest predicted part shortest, none unless it saves MIN_SLICING_GAIN_MS', () => {
    // A landed pile on 4 workers: parts of their own 100-130 ms, joins between objects 900 ms,
    // setup 10. Whole: 100 + 10 + 900 = 1,010 on one part. Sliced over all 4: 130 + 10 + 225 = 365;
    // over 3 (least three): max(130, 120 + 10 + 300) = 430. Best: all 4, the least first.
    expect(chooseInterSlices({ selfMs: [120, 100, 130, 110], interJoinMs: 900, interSetupMs: 10 })).toEqual({ parts: [1, 3, 0, 2] });
    // Parts of their own set the length (a falling pile's self pairs on 4 workers): the longest part
    // is 300 ms whoever takes 50 ms of joins, so the joins stay whole, on the least part.
    expect(chooseInterSlices({ selfMs: [300, 40, 250, 60], interJoinMs: 50, interSetupMs: 5 })).toEqual({ parts: [1] });
    // Setup as large as the joins: two slices predict max(0 + 40 + 20, ...) = 60 against 80 whole;
    // three 40 + 13.3 = 53.3, four 50: four.
    expect(chooseInterSlices({ selfMs: [0, 0, 0, 0], interJoinMs: 40, interSetupMs: 40 }).parts.length).toBe(4);
    // A saving below MIN_SLICING_GAIN_MS is not taken.
    expect(chooseInterSlices({ selfMs: [0, 0], interJoinMs: 2 * MIN_SLICING_GAIN_MS * 0.9, interSetupMs: 0 }).parts.length).toBe(1);
    expect(chooseInterSlices({ selfMs: [0, 0], interJoinMs: 2 * MIN_SLICING_GAIN_MS * 1.1, interSetupMs: 0 }).parts.length).toBe(2);
    expect(() => chooseInterSlices({ selfMs: [1, NaN], interJoinMs: 1, interSetupMs: 0 })).toThrow('chooseInterSlices: times must be finite and >= 0');
  });
});
