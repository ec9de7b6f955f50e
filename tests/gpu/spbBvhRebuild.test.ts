/**
 * Swapping a rebuilt surface BVH into the running 'spb' stage (SpbStage.replaceBvh).
 *
 * A real mesh made by others (the overhand knot) twisted two full turns about its long axis:
 * the tree built at rest and refitted has overlapping sibling boxes, a tree rebuilt from the
 * twisted positions (rebuildSurfaceBvhFromVec4, the worker's job) has a lower SAH cost and the
 * GPU traversal visits fewer candidate triangles (both measured and printed). The answers do not
 * depend on the tree: after the swap, every GPU distance equals the CPU float64 query's and is
 * never below the brute-force Euclidean distance to the nearest boundary triangle (a lower bound
 * of any path to the boundary; the oracle below shares no code with the project). Malformed trees
 * are refused with a RangeError naming the fault and the stage keeps answering with its tree;
 * a swap between two substeps of one frame is valid; the old buffers are destroyed afterwards.
 */
import { describe, expect, it } from 'vitest';
import { BVH_LINK, buildSurfaceBvh, refitSurfaceBvh, sahCost, type SurfaceBvh } from '../../src/bvh';
import { rebuildSurfaceBvhFromVec4 } from '../../src/bvh/rebuildJob';
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
import { RESULT_WORDS, packQueries } from '../../src/spb/gpu/packSpbBuffers';
import { SpbStage } from '../../src/spb/gpu/spbStage';
import type { SubstepContext } from '../../src/contract/stage';
import type { GpuState } from '../../src/contract/state';
import { loadSharedTetMesh } from '../support/sharedMeshes';
import { twist } from '../support/twist';
import { packVec4 } from '../../src/gpu/buffers';
import { interiorPoints, spbTestDevice } from './spbCases';
import { refitSchedule } from '../../src/bvh/refitSchedule';

const MESH = 'OverhandKnot.t';
const TURNS = 2;
const QUERIES = 160;

/**
 * Oracle: squared distance from p to triangle (a, b, c), f64, by minimising over the plane
 * projection when it falls inside and over the three edges otherwise (written for this test).
 */
function pointTriangle2(p: number[], a: number[], b: number[], c: number[]): number {
  const sub = (u: number[], v: number[]) => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const dot = (u: number[], v: number[]) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const segment2 = (s0: number[], s1: number[]): number => {
    const d = sub(s1, s0);
    const dd = dot(d, d);
    const t = dd > 0 ? Math.min(1, Math.max(0, dot(sub(p, s0), d) / dd)) : 0;
    const q = [s0[0] + t * d[0], s0[1] + t * d[1], s0[2] + t * d[2]];
    const e = sub(p, q);
    return dot(e, e);
  };
  const n = cross(sub(b, a), sub(c, a));
  const nn = dot(n, n);
  if (nn > 0) {
    // Inside test by the signs of the sub-triangle normals against n.
    const inside = dot(cross(sub(b, a), sub(p, a)), n) >= 0 && dot(cross(sub(c, b), sub(p, b)), n) >= 0 && dot(cross(sub(a, c), sub(p, c)), n) >= 0;
    if (inside) {
      const h = dot(sub(p, a), n);
      return (h * h) / nn;
    }
  }
  return Math.min(segment2(a, b), segment2(b, c), segment2(c, a));
}

function bruteNearest(x: Float32Array, tris: Uint32Array, p: number[]): number {
  let best = Infinity;
  const v = (i: number) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  for (let t = 0; t < tris.length / 3; t++) best = Math.min(best, pointTriangle2(p, v(tris[3 * t]), v(tris[3 * t + 1]), v(tris[3 * t + 2])));
  return Math.sqrt(best);
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

/** One frame of the stage alone (the time step's call order); `between(s)` runs after substep s is encoded. */
function frame(device: GPUDevice, stage: SpbStage, state: GpuState, substeps = 1, between?: (s: number) => void): number {
  const enc = device.createCommandEncoder();
  let dispatches = 0;
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
      beginPass: (e, _phase, label) => e.beginComputePass({ label }),
      countDispatches: (n) => {
        dispatches += n;
      },
    };
    stage.encode(enc, state, step);
    between?.(s);
  }
  device.queue.submit([enc.finish()]);
  return dispatches;
}

/** A copy of `bvh` with its own arrays, for corrupting. */
function copyBvh(bvh: SurfaceBvh, patch: Partial<Record<keyof SurfaceBvh, unknown>> = {}): SurfaceBvh {
  const buf = bvh.nodes.slice().buffer;
  return { ...bvh, nodes: new Float32Array(buf), nodeWords: new Uint32Array(buf), triangleOrder: bvh.triangleOrder.slice(), ...patch } as SurfaceBvh;
}

describe('SpbStage.replaceBvh: a rebuilt tree swapped in on the GPU', () => {
  it(`${MESH} twisted ${TURNS} turns: lower SAH, fewer GPU candidates, same answers (CPU f64, brute-force bound), bad trees refused`, async () => {
    const device = await spbTestDevice();
    const mesh = loadSharedTetMesh(MESH);
    const tris = mesh.boundaryTriangles;
    const twisted = twist(mesh.positions, TURNS);

    // Refit (topology of the rest shape) vs rebuild (from the GPU layout, as a worker gets it).
    const refitted = buildSurfaceBvh(mesh.positions, tris);
    refitSurfaceBvh(refitted, twisted);
    const rebuilt = rebuildSurfaceBvhFromVec4(packVec4(twisted, twisted.length / 3, () => 1), tris);
    const sahRefit = sahCost(refitted), sahRebuild = sahCost(rebuilt);
    console.log(`[spbBvhRebuild] ${MESH} twisted ${TURNS} turns: SAH cost refit ${sahRefit.toFixed(2)}, rebuild ${sahRebuild.toFixed(2)}, factor ${(sahRefit / sahRebuild).toFixed(2)}; nodes ${refitted.nodeCount} -> ${rebuilt.nodeCount}, depth ${refitted.depth} -> ${rebuilt.depth}`);
    expect(sahRefit / sahRebuild).toBeGreaterThan(1.3);

    // The stage starts with data.bvh: built at rest, refitted to the twisted shape.
    const data = createSpbMeshData(mesh);
    updateSpbMeshData(data, twisted);
    const batch = interiorPoints(MESH, mesh, twisted, QUERIES, 7);
    const n = QUERIES;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const positions = device.createBuffer({ label: 'test.positions', size: 16 * mesh.vertexCount, usage });
    device.queue.writeBuffer(positions, 0, packVec4(twisted, twisted.length / 3, () => 1));
    const listBytes = packQueries(batch.points, batch.tets);
    const list = device.createBuffer({ label: 'test.list', size: listBytes.byteLength, usage });
    device.queue.writeBuffer(list, 0, listBytes);
    const args = device.createBuffer({ label: 'test.args', size: 16, usage: usage | GPUBufferUsage.INDIRECT });
    device.queue.writeBuffer(args, 0, new Uint32Array([Math.ceil(n / 64), 1, 1, 0]));
    const results = device.createBuffer({ label: 'test.results', size: 4 * RESULT_WORDS * n, usage });
    const stage = new SpbStage(device, data, list, args, results);
    const state = { positions } as unknown as GpuState;
    const names = stage.statsLayout.names;
    const candidates = async (): Promise<number> =>
      new Uint32Array(await read(device, stage.statsBuffer, stage.statsLayout.byteOffset + 4 * names.length), stage.statsLayout.byteOffset)[names.indexOf('bvhCandidates')];
    const distances = async (): Promise<{ f: Float32Array; u: Uint32Array }> => {
      const raw = await read(device, results);
      return { f: new Float32Array(raw), u: new Uint32Array(raw) };
    };

    // CPU float64 query (static capacities: the kernel's twin) on the same f32 inputs.
    const cpu = cpuAnswers(data, batch.points, batch.tets);
    const oracle = Array.from({ length: n }, (_, k) => bruteNearest(twisted, tris, [batch.points[3 * k], batch.points[3 * k + 1], batch.points[3 * k + 2]]));
    const expectAnswers = (a: { f: Float32Array; u: Uint32Array }, label: string): void => {
      for (let k = 0; k < n; k++) {
        const o = RESULT_WORDS * k;
        expect(a.u[o + 6], `${label}: query ${k} status`).toBe(cpu.status[k]);
        if (cpu.status[k] !== QUERY_FOUND) continue;
        const d = a.f[o + 3];
        // Equal to the CPU float64 distance within 1e-4 of the query tet's longest edge (f32 kernel).
        expect(Math.abs(d - cpu.distance[k]) / Math.sqrt(data.tetSize2[batch.tets[k]]), `${label}: query ${k} vs CPU`).toBeLessThan(1e-4);
        // Never shorter than the nearest boundary triangle (f32 rounding: 1e-6 of the knot's size).
        expect(d, `${label}: query ${k} vs brute force`).toBeGreaterThanOrEqual(oracle[k] - 1e-6 * 0.3);
        // |s - p| is the reported distance (s: the answer's boundary point).
        const p = batch.points.subarray(3 * k, 3 * k + 3);
        expect(Math.abs(Math.hypot(a.f[o] - p[0], a.f[o + 1] - p[1], a.f[o + 2] - p[2]) - d), `${label}: query ${k} |s - p|`).toBeLessThan(1e-6);
      }
    };
    let found = 0;
    for (let k = 0; k < n; k++) if (cpu.status[k] === QUERY_FOUND) found++;
    expect(found, 'queries the CPU answers').toBe(n);

    const levelsBefore = stage.bvhLevelCount;
    expect(levelsBefore).toBe(data.bvh.depth + 1);
    // The refit takes 1 or 2 dispatches whatever the depth (subtrees, then the top: refitSchedule.ts).
    expect(stage.bvhRefitDispatches).toBeGreaterThanOrEqual(1);
    expect(stage.bvhRefitDispatches).toBeLessThanOrEqual(2);
    expect(frame(device, stage, state)).toBe(stage.bvhRefitDispatches + 2);
    const before = await distances();
    const candidatesRefit = await candidates();
    expectAnswers(before, 'refitted tree');

    // Malformed trees: refused, named, nothing changed.
    const half = new Uint32Array(tris.subarray(0, 3 * Math.floor(tris.length / 6)));
    const dup = copyBvh(rebuilt);
    dup.triangleOrder[5] = dup.triangleOrder[4];
    const badLink = copyBvh(rebuilt);
    badLink.nodeWords[BVH_LINK] = rebuilt.nodeCount + 10; // the root's children beyond the array
    const short = copyBvh(rebuilt, { nodeCount: rebuilt.nodeCount + 1 });
    const cases: [SurfaceBvh, RegExp][] = [
      [buildSurfaceBvh(twisted, half), /triangleCount \d+, but the mesh has \d+ boundary triangles/],
      [dup, /triangleOrder\[5\] = \d+ repeats an earlier entry \(not a permutation\)/],
      [badLink, /internal node 0 has children \d+/],
      [short, /nodes holds \d+ floats, \d+ nodes need \d+/],
    ];
    const nodesBefore = stage.mesh.bvhGpu.nodes;
    for (const [bad, message] of cases) {
      expect(() => stage.replaceBvh(bad)).toThrow(RangeError);
      expect(() => stage.replaceBvh(bad)).toThrow(message);
    }
    expect(stage.mesh.bvhGpu.nodes).toBe(nodesBefore);
    expect(stage.bvhLevelCount).toBe(levelsBefore);
    device.pushErrorScope('validation');
    expect(frame(device, stage, state)).toBe(stage.bvhRefitDispatches + 2);
    expect(await device.popErrorScope(), 'no validation error after the refusals').toBeNull();
    const afterRefusals = await distances();
    expectAnswers(afterRefusals, 'after refusals');
    expect(afterRefusals.f).toEqual(before.f);

    // The swap: a new level count, and the traversal visits fewer candidates.
    const oldNodes = stage.mesh.bvhGpu.nodes;
    stage.replaceBvh(rebuilt);
    expect(stage.bvhLevelCount).toBe(rebuilt.depth + 1);
    expect(stage.mesh.bvhGpu.nodes).not.toBe(oldNodes);
    device.pushErrorScope('validation');
    expect(frame(device, stage, state)).toBe(stage.bvhRefitDispatches + 2);
    expect(await device.popErrorScope(), 'no validation error after the swap').toBeNull();
    const after = await distances();
    const candidatesRebuild = await candidates();
    expectAnswers(after, 'rebuilt tree');
    console.log(`[spbBvhRebuild] GPU BVH candidates over ${n} queries: refit ${candidatesRefit}, rebuild ${candidatesRebuild}, factor ${(candidatesRefit / candidatesRebuild).toFixed(2)}`);
    expect(candidatesRebuild).toBeLessThan(candidatesRefit);

    // The old node buffer was destroyed at that frame's beginFrame: using it is an error now.
    device.pushErrorScope('validation');
    const enc = device.createCommandEncoder();
    const scratch = device.createBuffer({ size: 32, usage: GPUBufferUsage.COPY_DST });
    enc.copyBufferToBuffer(oldNodes, 0, scratch, 0, 32);
    device.queue.submit([enc.finish()]);
    expect(await device.popErrorScope(), 'the replaced node buffer is destroyed').not.toBeNull();
    scratch.destroy();

    // Swapped back between two substeps of one frame: substep 0 keeps the rebuilt tree's buffers,
    // substep 1 uses the new ones; the frame is valid and the answers unchanged.
    const again = rebuildSurfaceBvhFromVec4(packVec4(twisted, twisted.length / 3, () => 1), tris);
    const refitCopy = copyBvh(refitted);
    device.pushErrorScope('validation');
    const dispatched = frame(device, stage, state, 2, (s) => {
      if (s === 0) stage.replaceBvh(refitCopy);
    });
    expect(await device.popErrorScope(), 'no validation error for a swap inside a frame').toBeNull();
    // Each substep's refit: its tree's subtrees dispatch, then its top (refitSchedule.ts).
    const refitDispatchesOf = (b: SurfaceBvh) => {
      const r = refitSchedule(b);
      return (r.subtrees > 0 ? 1 : 0) + r.top;
    };
    expect(dispatched).toBe(refitDispatchesOf(rebuilt) + refitDispatchesOf(refitted) + 4);
    expectAnswers(await distances(), 'swapped mid-frame');
    stage.replaceBvh(again);
    frame(device, stage, state);
    expectAnswers(await distances(), 'rebuilt again');

    stage.destroy();
    for (const b of [positions, list, args, results]) b.destroy();
  });
});

function cpuAnswers(data: SpbMeshData, points: Float32Array, tets: Uint32Array): { status: Uint32Array; distance: Float64Array } {
  const ws = new SpbWorkspace(SPB_STATIC_CAPACITIES, data.tetCount);
  const cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
  const n = tets.length;
  const status = new Uint32Array(n), distance = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    status[k] = shortestPathToBoundary(data, ws, cfg, points[3 * k], points[3 * k + 1], points[3 * k + 2], tets[k], -1);
    distance[k] = Math.sqrt(ws.resultDistance2);
  }
  return { status, distance };
}
