/**
 * The 'spb' stage as the time step runs it: a query list written straight into its GPU buffer
 * (header count and capacity, Query[]), the indirect args beside it, the stage encoded per
 * substep (BVH refit from the state's vec4 positions, prepass, indirect query). Checked query by
 * query against the CPU static twin, and against independent truths: s lies on its triangle,
 * the distance is |s - p|, and it is the brute-force nearest point of the valid layer (the host
 * copy of the octopus pair, intersection-free by itself; the lower arm of the folded slab for
 * edge hits). Also: n = min(count, capacity), the i < n guard of an oversized dispatch, stats
 * summed over a frame's substeps and cleared per frame, buffers replaced, positions moved.
 */
import { describe, expect, it } from 'vitest';
import {
  QUERY_FOUND,
  SPB_DEFAULT_TOLERANCES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  updateSpbMeshData,
  type SpbMeshData,
} from '../../src/spb';
import { RESULT_WORDS } from '../../src/spb/gpu/packSpbBuffers';
import { QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_WORDS } from '../../src/spb/gpu/queryListLayout';
import { SpbStage } from '../../src/spb/gpu/spbStage';
import type { SubstepContext } from '../../src/contract/stage';
import type { GpuState } from '../../src/contract/state';
import { bruteForceDistance } from '../unit/spb/helpers';
import { foldedSlabEdgeHits } from '../unit/spb/edgeScenes';
import { pushedPair, spbTestDevice } from './spbCases';

const SENTINEL = 0xdeadbeef;
/** Storage usage (the GPU globals exist once the device was acquired). */
const usage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;

interface Queries {
  points: Float32Array;
  tets: Uint32Array;
  exclude: Int32Array;
  exclude2: Int32Array;
  euclidean: Uint8Array;
}

/** The list's bytes as detection would leave them: header (count, capacity), then Query[capacity]. */
function listWords(q: Queries, count: number, capacity: number): ArrayBuffer {
  const buf = new ArrayBuffer(4 * (QL_HEADER_WORDS + QUERY_WORDS * capacity));
  const u = new Uint32Array(buf), f = new Float32Array(buf), i = new Int32Array(buf);
  u[0] = count;
  u[1] = capacity;
  for (let k = 0; k < Math.min(q.tets.length, capacity); k++) {
    const o = QL_HEADER_WORDS + QUERY_WORDS * k;
    f.set(q.points.subarray(3 * k, 3 * k + 3), o);
    u[o + 3] = q.tets[k];
    i[o + 4] = q.exclude[k];
    i[o + 5] = q.exclude2[k];
    u[o + 6] = (q.euclidean[k] ? QUERY_EUCLIDEAN : 0) | (q.exclude2[k] >= 0 ? 1 << 29 : 0); // kind bits: not read by spb
    f[o + 7] = 0.5;
  }
  return buf;
}

interface Buffers {
  list: GPUBuffer;
  args: GPUBuffer;
  results: GPUBuffer;
}

function buffers(device: GPUDevice, q: Queries, count: number, capacity: number, groups: number): Buffers {
  const list = device.createBuffer({ label: 'test.list', size: 4 * (QL_HEADER_WORDS + QUERY_WORDS * capacity), usage: usage() });
  device.queue.writeBuffer(list, 0, listWords(q, count, capacity));
  const args = device.createBuffer({ label: 'test.args', size: 16, usage: usage() | GPUBufferUsage.INDIRECT });
  device.queue.writeBuffer(args, 0, new Uint32Array([groups, 1, 1, 0]));
  const results = device.createBuffer({ label: 'test.results', size: 4 * RESULT_WORDS * capacity, usage: usage() });
  device.queue.writeBuffer(results, 0, new Uint32Array(RESULT_WORDS * capacity).fill(SENTINEL));
  return { list, args, results };
}

function vec4(x: Float32Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array((x.length / 3) * 4).fill(0.25);
  for (let i = 0; i < x.length / 3; i++) out.set(x.subarray(3 * i, 3 * i + 3), 4 * i);
  return out;
}

async function read(device: GPUDevice, buffer: GPUBuffer, bytes = buffer.size): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return out;
}

/** One frame of `substeps` substeps of the stage alone (the time step's calls, in its order). */
function frame(device: GPUDevice, stage: SpbStage, state: GpuState, substeps: number): { passes: number; dispatches: number } {
  const enc = device.createCommandEncoder();
  const count = { passes: 0, dispatches: 0 };
  stage.beginFrame(enc);
  for (let s = 0; s < substeps; s++) {
    const step: SubstepContext = {
      substep: s,
      substeps,
      round: 0,
      rounds: 1,
      slotOffset: 0,
      joinNext: false,
      nextSlotOffset: 0,
      beginPass(e, phase, label) {
        expect(phase).toBe('spb');
        count.passes++;
        return e.beginComputePass({ label });
      },
      countDispatches(n) {
        count.dispatches += n;
      },
    };
    stage.encode(enc, state, step);
  }
  device.queue.submit([enc.finish()]);
  return count;
}

/** The stage binds only state.positions (vec4 per vertex); a state holding just that buffer. */
function stateWith(positions: GPUBuffer): GpuState {
  return { positions } as unknown as GpuState;
}

/** Distance from s to the plane of triangle f and its smallest barycentric coordinate (f64, from scratch). */
function onTriangle(x: ArrayLike<number>, tris: ArrayLike<number>, f: number, s: ArrayLike<number>): { off: number; minBary: number } {
  const P = [0, 1, 2].map((k) => [x[3 * tris[3 * f + k]], x[3 * tris[3 * f + k] + 1], x[3 * tris[3 * f + k] + 2]]);
  const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const n = cross(sub(P[1], P[0]), sub(P[2], P[0]));
  const nn = dot(n, n);
  const q = [s[0], s[1], s[2]];
  const off = Math.abs(dot(sub(q, P[0]), n)) / Math.sqrt(nn);
  const bary = [0, 1, 2].map((k) => dot(cross(sub(P[(k + 2) % 3], P[(k + 1) % 3]), sub(q, P[(k + 1) % 3])), n) / nn);
  return { off, minBary: Math.min(...bary) };
}

interface Answers {
  f: Float32Array;
  u: Uint32Array;
  i: Int32Array;
}

/** Query k's answer equals the static twin's (status; distance within 1e-4 h); returns the twin's status. */
function expectTwin(data: SpbMeshData, q: Queries, k: number, a: Answers): number {
  const ws = new SpbWorkspace(SPB_STATIC_CAPACITIES, data.tetCount);
  const cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
  const st = shortestPathToBoundary(data, ws, cfg, q.points[3 * k], q.points[3 * k + 1], q.points[3 * k + 2], q.tets[k], q.exclude[k], q.exclude2[k], q.euclidean[k] !== 0);
  const o = RESULT_WORDS * k;
  expect(a.u[o + 6], `query ${k} status`).toBe(st);
  if (st === QUERY_FOUND) {
    const h = Math.sqrt(data.tetSize2[q.tets[k]]);
    expect(Math.abs(a.f[o + 3] - Math.sqrt(ws.resultDistance2)) / h, `query ${k} distance`).toBeLessThan(1e-4);
  }
  return st;
}

/** Independent checks of a found answer: s on its triangle, |s - p| = distance, the layer's brute-force nearest. */
function expectOnLayer(x: Float32Array, tris: Uint32Array, q: Queries, k: number, a: Answers, layer: (f: number) => boolean): void {
  const o = RESULT_WORDS * k;
  const s = a.f.subarray(o, o + 3);
  const p = q.points.subarray(3 * k, 3 * k + 3);
  const f = a.i[o + 4];
  expect(layer(f), `query ${k}: triangle ${f} off the valid layer`).toBe(true);
  const t = onTriangle(x, tris, f, s);
  expect(t.off, `query ${k}`).toBeLessThan(1e-5);
  expect(t.minBary, `query ${k}`).toBeGreaterThan(-1e-4);
  expect(Math.abs(Math.hypot(s[0] - p[0], s[1] - p[1], s[2] - p[2]) - a.f[o + 3]), `query ${k}`).toBeLessThan(1e-6);
  const truth = bruteForceDistance(x, tris, p, layer);
  expect(Math.abs(a.f[o + 3] - truth), `query ${k}`).toBeLessThan(1e-5);
}

function answers(raw: ArrayBuffer): Answers {
  return { f: new Float32Array(raw), u: new Uint32Array(raw), i: new Int32Array(raw) };
}

describe('SpbStage: the shortest path in the time step (indirect, GPU-side query list)', () => {
  it('octopus pair: twin and brute force per query, count/capacity, the dispatch guard, frame stats, new buffers, moved positions', async () => {
    const device = await spbTestDevice();
    const batch = pushedPair('octopus_2KFaces.t', 0.12);
    const mesh = batch.mesh;
    const n = batch.tets.length;
    expect(n).toBeGreaterThan(100);
    // Every other query in the Euclidean mode (inter-object pairs with the switch on).
    const q: Queries = { points: batch.points, tets: batch.tets, exclude: batch.exclude, exclude2: new Int32Array(n).fill(-1), euclidean: new Uint8Array(n).map((_, k) => k % 2) };
    const data = createSpbMeshData(mesh);
    updateSpbMeshData(data, batch.positions);
    const positions = device.createBuffer({ label: 'test.positions', size: 16 * mesh.vertexCount, usage: usage() });
    device.queue.writeBuffer(positions, 0, vec4(batch.positions));
    const state = stateWith(positions);
    const capacity = 256;
    // One workgroup more than n needs: the kernel's i < n guard must keep the rest untouched.
    const b = buffers(device, q, n, capacity, Math.ceil(n / 64) + 1);
    const stage = new SpbStage(device, data, b.list, b.args, b.results);
    expect(stage.active()).toBe(true);

    const counted = frame(device, stage, state, 2);
    expect(counted.passes).toBe(2);
    expect(counted.dispatches).toBe(2 * (stage.mesh.bvhGpu.refitDispatches + 2));
    const a = answers(await read(device, stage.resultsBuffer));
    const host = (f: number): boolean => mesh.tetObject[mesh.boundaryTriangleTet[f]] === 0;
    let found = 0;
    for (let k = 0; k < n; k++) {
      if (expectTwin(data, q, k, a) !== QUERY_FOUND) continue;
      const v = q.exclude[k];
      expectOnLayer(batch.positions, mesh.boundaryTriangles, q, k, a, (f) => host(f) && !mesh.boundaryTriangles.subarray(3 * f, 3 * f + 3).includes(v));
      if (q.euclidean[k]) expect(a.u[RESULT_WORDS * k + 8]).toBe(0); // no traversal in the Euclidean mode
      found++;
    }
    expect(found).toBe(n);
    for (let k = n; k < capacity; k++) expect(a.u[RESULT_WORDS * k + 6], `slot ${k} beyond the count`).toBe(SENTINEL);

    // Statistics: summed over the frame's 2 substeps (same positions: twice the last substep's).
    const names = stage.statsLayout.names;
    const stats = new Uint32Array(await read(device, stage.statsBuffer, stage.statsLayout.byteOffset + 4 * names.length), stage.statsLayout.byteOffset);
    const perQuery = (word: number): number => {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += a.u[RESULT_WORDS * k + word];
      return sum;
    };
    expect(stats[names.indexOf('queries')]).toBe(2 * n);
    expect(stats[names.indexOf('bvhCandidates')]).toBe(2 * perQuery(7));
    expect(stats[names.indexOf('traversals')]).toBe(2 * perQuery(8));
    expect(stats[names.indexOf('tetsVisited')]).toBe(2 * perQuery(9));
    expect(stats[names.indexOf('overflows')]).toBe(0);
    // A new frame clears them: one substep, n queries.
    frame(device, stage, state, 1);
    const stats1 = new Uint32Array(await read(device, stage.statsBuffer, stage.statsLayout.byteOffset + 4 * names.length), stage.statsLayout.byteOffset);
    expect(stats1[names.indexOf('queries')]).toBe(n);

    // The list grew: new buffers, count beyond the capacity word -> only min(count, capacity) answered.
    const cap2 = 512, answered = n - 20;
    const b2 = buffers(device, q, n, cap2, Math.ceil(n / 64));
    device.queue.writeBuffer(b2.list, 4, new Uint32Array([answered])); // capacity word below the count
    stage.setBuffers(b2.list, b2.args, b2.results);
    frame(device, stage, state, 1);
    const a2 = answers(await read(device, stage.resultsBuffer));
    for (let k = 0; k < n; k++) {
      if (k < answered) expect(a2.f[RESULT_WORDS * k + 3]).toBe(a.f[RESULT_WORDS * k + 3]);
      else expect(a2.u[RESULT_WORDS * k + 6], `slot ${k} beyond the capacity word`).toBe(SENTINEL);
    }

    // Positions moved (the whole scene translated): the stage refits from them; same distances.
    const moved = batch.positions.map((v, i) => Math.fround(v + [1.5, -2, 0.75][i % 3]));
    const qMoved: Queries = { ...q, points: q.points.map((v, i) => Math.fround(v + [1.5, -2, 0.75][i % 3])) };
    device.queue.writeBuffer(positions, 0, vec4(moved));
    device.queue.writeBuffer(b2.list, 0, listWords(qMoved, n, cap2));
    frame(device, stage, state, 1);
    const a3 = answers(await read(device, stage.resultsBuffer));
    const dataMoved = createSpbMeshData(mesh);
    updateSpbMeshData(dataMoved, moved);
    for (let k = 0; k < n; k++) {
      expect(expectTwin(dataMoved, qMoved, k, a3)).toBe(QUERY_FOUND);
      expect(Math.abs(a3.f[RESULT_WORDS * k + 3] - a.f[RESULT_WORDS * k + 3]), `query ${k}`).toBeLessThan(1e-5);
    }

    expect(() => stage.setBuffers(b2.list, b2.list, b2.results)).toThrow(/INDIRECT/);
    expect(() => stage.setBuffers(b2.list, b2.args, b.results)).toThrow(/results buffer holds/);
    stage.destroy();
    for (const x of [positions, b.list, b.args, b.results, b2.list, b2.args, b2.results]) x.destroy();
  });

  it('folded slab edge hits (exclude2): answered on the lower arm, as the twin', async () => {
    const device = await spbTestDevice();
    const hits = foldedSlabEdgeHits();
    const mesh = hits.mesh;
    const n = hits.tets.length;
    const q: Queries = {
      points: Float32Array.from(hits.points),
      tets: Uint32Array.from(hits.tets),
      exclude: hits.exclude,
      exclude2: hits.exclude2,
      euclidean: new Uint8Array(n),
    };
    const data = createSpbMeshData(mesh);
    const positions = device.createBuffer({ label: 'test.positions', size: 16 * mesh.vertexCount, usage: usage() });
    device.queue.writeBuffer(positions, 0, vec4(mesh.positions));
    const b = buffers(device, q, n, 128, Math.ceil(n / 64));
    const stage = new SpbStage(device, data, b.list, b.args, b.results);
    frame(device, stage, stateWith(positions), 1);
    const a = answers(await read(device, stage.resultsBuffer));
    for (let k = 0; k < n; k++) {
      expect(expectTwin(data, q, k, a)).toBe(QUERY_FOUND);
      expectOnLayer(mesh.positions, mesh.boundaryTriangles, q, k, a, (f) => hits.lower(mesh.boundaryTriangleTet[f]));
    }
    stage.destroy();
    for (const x of [positions, b.list, b.args, b.results]) x.destroy();
  });
});
