import { afterAll, describe, expect, it } from 'vitest';
import {
  QUERY_NONE,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  type SpbCapacities,
  shortestPathToBoundary,
  updateSpbMeshData,
} from '../../src/spb';
import { storageBuffer } from '../../src/gpu/buffers';
import { SpbQueryGpu } from '../../src/spb/gpu/spbQueryGpu';
import { SpbWorkerFallback } from '../../src/workers/spbFallback';
import type { SpbWorkerApi } from '../../src/workers/spbWorkerApi';
import { WorkerPool } from '../../src/workers/workerPool';
import { spbPoolWorkerFactory } from '../unit/workers/support/spbNodeWorker';
import { loadSharedTetMesh } from '../support/sharedMeshes';
import { compareBatch, countInverted, expectAgreement, summary } from './spbCompare';
import { interiorPoints, invertedBlock, overlappingRing, pushedPair, ringBesideInvertedBlock, spbTestDevice } from './spbCases';

/**
 * The WGSL kernel (f32) against its TypeScript static twin (spbCompare.ts): every query that
 * neither flags as overflowed gets the same status and the same distance within 1e-4 of the
 * local element size, and the overflowed queries are exactly the ones the twin flags. Then the
 * fallback: flagged queries answered by the CPU.
 */

/** xyz -> vec4 per vertex, w = 0.5 (an inverse mass the query must ignore). */
function vec4(x: Float32Array): Float32Array {
  const out = new Float32Array((x.length / 3) * 4).fill(0.5);
  for (let i = 0; i < x.length / 3; i++) out.set(x.subarray(3 * i, 3 * i + 3), 4 * i);
  return out;
}

describe('WGSL shortest path kernel vs the TypeScript static twin', () => {
  afterAll(() => console.log(summary.join('\n')));

  it('octopus_2KFaces.t: 4,000 random interior points (culling on and off)', async () => {
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const batch = interiorPoints('octopus_2KFaces.t interior', mesh, mesh.positions, 4000, 1);
    const on = await compareBatch(batch, true);
    expectAgreement(on);
    expect(on.found).toBeGreaterThan(3900);
    const off = await compareBatch({ ...batch, points: batch.points.subarray(0, 3 * 1000), tets: batch.tets.subarray(0, 1000), exclude: batch.exclude.subarray(0, 1000) }, false);
    expectAgreement(off);
  });

  it('OverhandKnot.t (0.3 units, tiny tets): 3,000 random interior points', async () => {
    const mesh = loadSharedTetMesh('OverhandKnot.t');
    const c = await compareBatch(interiorPoints('OverhandKnot.t interior', mesh, mesh.positions, 3000, 2), true);
    expectAgreement(c);
    expect(c.found).toBeGreaterThan(2900);
  });

  it('two octopi pushed 0.12 into each other: boundary vertices of one inside the other (DCD hits)', async () => {
    const batch = pushedPair('octopus_2KFaces.t', 0.12);
    expect(batch.tets.length).toBeGreaterThan(50);
    expectAgreement(await compareBatch(batch, true));
  });

  it('a beam bent past a full turn, its ends interpenetrating: 500 points', async () => {
    // Few points: queries here are long (about 80 traversals each), slow on a software adapter.
    const batch = overlappingRing(60, 3, 500);
    expectAgreement(await compareBatch(batch, true));
  });

  it('a block with inverted interior tets: 1,000 points', async () => {
    const batch = invertedBlock(4, 1000);
    const c = await compareBatch(batch, true);
    expectAgreement(c);
    expect(c.invertedTets).toBeGreaterThan(0); // the prepass saw the inversions (backward travel on)
    expect(c.invertedTets).toBe(countInverted(batch.mesh.tets, batch.positions));
  });

  it('inversions in one object only: the other keeps the beyond-p cut (same work as the twin)', async () => {
    const c = await compareBatch(ringBesideInvertedBlock(6, 300), true);
    expectAgreement(c);
    expect(c.invertedTets).toBeGreaterThan(0);
    // Per-component inversion mode: a global flag would let the ring's branches run on past p.
    expect(Math.abs(c.tetsGpu - c.tetsTwin)).toBeLessThanOrEqual(0.001 * c.tetsTwin);
  });

  it('a mesh at 1e30 (every f32 squared distance overflows): the kernel answers "no path" instead of widening forever', async () => {
    // |s - p|^2 ~ 1e56 is Infinity in f32 (or NaN, as a non-finite position before finalize
    // stops its object gives): the search's last pass is the one up to BIG; looping on would
    // hang the GPU, and every frame after it.
    const device = await spbTestDevice();
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const far = Float32Array.from(mesh.positions, (x) => 1e30 * x);
    const batch = interiorPoints('octopus at 1e30', mesh, far, 64, 13);
    const data = createSpbMeshData(mesh);
    updateSpbMeshData(data, far);
    const gpu = new SpbQueryGpu(device, data);
    const res = await gpu.run(batch.points, batch.tets, batch.exclude, { fallback: false });
    gpu.destroy();
    expect(Array.from(res.status)).toEqual(new Array(64).fill(QUERY_NONE));
  });

  it('tiny capacities: the GPU flags exactly the queries the twin flags, and the CPU answers them', async () => {
    const tiny: SpbCapacities = { bvhStack: 6, faceStack: 2, tetStack: 2, visitedRing: 6, maxSteps: 24 };
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const batch = interiorPoints('octopus_2KFaces.t interior', mesh, mesh.positions, 1500, 5);
    const c = await compareBatch(batch, true, tiny);
    expectAgreement(c);
    expect(c.overflowGpu).toBeGreaterThan(50); // the capacities really bind
    expect(c.overflowGpu).toBeLessThan(c.total);

    // With the fallback on, the flagged queries get the dynamic CPU version's answers.
    const device = await spbTestDevice();
    const data = createSpbMeshData(mesh);
    const gpu = new SpbQueryGpu(device, data, { capacities: tiny });
    const res = await gpu.run(batch.points, batch.tets, batch.exclude);
    gpu.destroy();
    expect(res.overflowed.length).toBe(c.overflowGpu);
    const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
    let wrong = 0;
    for (const q of res.overflowed) {
      const st = shortestPathToBoundary(data, ws, { culling: true, tolerances: SPB_DEFAULT_TOLERANCES }, batch.points[3 * q], batch.points[3 * q + 1], batch.points[3 * q + 2], batch.tets[q], -1);
      if (res.status[q] !== st || res.triangle[q] !== ws.resultTriangle || res.distance[q] !== Math.fround(Math.sqrt(ws.resultDistance2))) wrong++;
    }
    expect(wrong).toBe(0);
    expect(Array.from(res.status).every((s) => s !== QUERY_OVERFLOW)).toBe(true);
  });

  it('tiny traversal stacks on branching rays (lattice ring, inverted block): same flagged queries', async () => {
    // A roomy BVH stack, so that only the traversal's face/tet stacks, ring and step bound bind.
    const tight: SpbCapacities = { bvhStack: 64, faceStack: 2, tetStack: 2, visitedRing: 2, maxSteps: 5 };
    for (const batch of [overlappingRing(60, 7, 300), invertedBlock(8, 600)]) {
      const c = await compareBatch(batch, true, tight);
      expectAgreement(c);
      expect(c.overflowGpu).toBeGreaterThan(5);
    }
  });

  it('positions resident on the GPU: refit on the GPU, same answers as uploading CPU-refitted boxes', async () => {
    const device = await spbTestDevice();
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    // A smooth twist about the vertical axis (large enough to move every box).
    const moved = new Float32Array(mesh.positions.length);
    for (let i = 0; i < moved.length; i += 3) {
      const [x, y, z] = [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]];
      const a = 0.8 * y;
      moved[i] = x * Math.cos(a) - z * Math.sin(a);
      moved[i + 1] = y;
      moved[i + 2] = x * Math.sin(a) + z * Math.cos(a);
    }
    const batch = interiorPoints('octopus twisted', mesh, moved, 1500, 9);

    const external = storageBuffer(device, 'test.simPositions', vec4(moved)); // the simulation's layout
    const resident = new SpbQueryGpu(device, createSpbMeshData(mesh), { positions: external });
    resident.setPositions(moved); // CPU copy for the fallback only
    const a = await resident.run(batch.points, batch.tets, batch.exclude);
    resident.destroy();
    external.destroy();

    const uploaded = new SpbQueryGpu(device, createSpbMeshData(mesh));
    uploaded.setPositions(moved);
    const b = await uploaded.run(batch.points, batch.tets, batch.exclude);
    uploaded.destroy();

    expect(Array.from(a.distance)).toEqual(Array.from(b.distance));
    expect(Array.from(a.triangle)).toEqual(Array.from(b.triangle));
    expect(a.totals).toEqual(b.totals);
    expectAgreement(await compareBatch(batch, true));
  });

  it('overflowed queries answered in pool workers, positions resident on the GPU: read back once, same answers as on this thread', async () => {
    const device = await spbTestDevice();
    const tiny: SpbCapacities = { bvhStack: 8, faceStack: 1, tetStack: 1, visitedRing: 2, maxSteps: 4 };
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const moved = new Float32Array(mesh.positions.length);
    for (let i = 0; i < moved.length; i += 3) {
      const a = 0.6 * mesh.positions[i + 1];
      moved[i] = mesh.positions[i] * Math.cos(a) - mesh.positions[i + 2] * Math.sin(a);
      moved[i + 1] = mesh.positions[i + 1];
      moved[i + 2] = mesh.positions[i] * Math.sin(a) + mesh.positions[i + 2] * Math.cos(a);
    }
    const batch = interiorPoints('octopus twisted', mesh, moved, 800, 13);

    const pool = new WorkerPool<SpbWorkerApi>(await spbPoolWorkerFactory(), 2);
    const fallback = new SpbWorkerFallback(pool, { minChunk: 16 });
    const external = storageBuffer(device, 'test.simPositions', vec4(moved)); // the simulation's layout
    // The CPU copy starts at the rest shape: only the readback can give the fallback the moved one.
    const inWorkers = new SpbQueryGpu(device, createSpbMeshData(mesh), { positions: external, capacities: tiny, answerOverflowed: fallback.answerOverflowed });
    const a = await inWorkers.run(batch.points, batch.tets, batch.exclude);
    expect(a.positionsReadBack).toBe(true);
    expect(inWorkers.positionReadbacks).toBe(1);
    // setPositions() since the last run: the CPU copy is current, nothing is read back.
    inWorkers.setPositions(moved);
    const again = await inWorkers.run(batch.points, batch.tets, batch.exclude);
    expect(again.positionsReadBack).toBe(false);
    expect(inWorkers.positionReadbacks).toBe(1);
    inWorkers.destroy();
    external.destroy();
    pool.terminate();

    const here = new SpbQueryGpu(device, createSpbMeshData(mesh), { capacities: tiny });
    here.setPositions(moved);
    const b = await here.run(batch.points, batch.tets, batch.exclude);
    here.destroy();

    expect(a.overflowed.length).toBeGreaterThan(50);
    expect(Array.from(a.overflowed)).toEqual(Array.from(b.overflowed));
    expect(new Set(fallback.lastWorkers).size).toBe(2); // the last batch was spread over both workers
    for (const r of [a, again]) {
      expect(Array.from(r.status)).toEqual(Array.from(b.status));
      expect(Array.from(r.distance)).toEqual(Array.from(b.distance));
      expect(Array.from(r.triangle)).toEqual(Array.from(b.triangle));
      expect(Array.from(r.point)).toEqual(Array.from(b.point));
    }
    expect(Array.from(a.status).every((s) => s !== QUERY_OVERFLOW)).toBe(true);
  });
});
