import { afterAll, describe, expect, it } from 'vitest';
import { buildSceneMesh } from '../../src/collision/sceneMesh';
import { CollisionTopologyGpu } from '../../src/collision/gpu/collisionTopology';
import { DetectStage, type DetectSettings } from '../../src/collision/gpu/detectStage';
import { QL, QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_ID_MASK, QUERY_KIND_SHIFT, QueryList } from '../../src/collision/gpu/queryList';
import { CpuDetector } from '../../src/collision/cpu/detectCpu';
import { CpuQueryList } from '../../src/collision/cpu/queryList';
import type { TetMesh } from '../../src/mesh/types';
import type { Model } from '../../src/sim/model';
import { GpuState, packVec4 } from '../../src/contract/state';
import { overlappingCubes, overlappingRing, plainSubstep } from '../support/collisionScenes';
import { runDcdOracle, type OraclePoint } from '../support/dcdOracle';
import { readBuffer, testGpu } from '../support/gpu';
import { outwardBoundary, windingNumber } from '../support/windingNumber';
import { bodiesSetup, foldedCubeAndProbes } from '../unit/collision/scenes';

/**
 * The GPU detection (spatial hash + DCD kernels) against a brute-force float64 oracle
 * (tests/support/dcdOracle.ts: every point against every tet, face planes): every point the
 * oracle finds inside a tet under the spec's rules has exactly one query, its tet is one the
 * oracle accepts and its query point / edge parameter match; no other query exists. Points the
 * oracle marks f32-ambiguous (within 1e-4 of a face) may go either way and are counted.
 */

const summary: string[] = [];
afterAll(() => console.log(summary.join('\n')));

interface GpuQuery {
  kind: number;
  id: number;
  tet: number;
  p: [number, number, number];
  param: number;
  exclude: [number, number];
  euclidean: boolean;
}

interface Run {
  header: Uint32Array;
  queries: GpuQuery[];
  positions: Float32Array;
  mesh: TetMesh;
  stage: DetectStage;
  run: (substeps?: number) => Promise<Run>;
}

const defaults: DetectSettings = { collisions: true, selfCollision: true, recovery: false, interObject: 'exact' };

async function detect(
  model: Model,
  settings: Partial<DetectSettings> = {},
  opts: { capacity?: number; poolCapacity?: number; cellSize?: number | 'largest'; positions?: Float32Array; start?: Float32Array; separatePinPass?: boolean } = {},
): Promise<Run> {
  const { device } = await testGpu();
  const mesh = buildSceneMesh(model);
  const state = new GpuState(device, model);
  if (opts.positions) device.queue.writeBuffer(state.positions, 0, packVec4(opts.positions, model.vertexCount, (i) => model.invMass[i]));
  if (opts.start) device.queue.writeBuffer(state.prev, 0, packVec4(opts.start, model.vertexCount, (i) => model.invMass[i]));
  const topology = new CollisionTopologyGpu(device, mesh);
  const list = new QueryList(device, opts.capacity ?? 4096);
  const s = { ...defaults, ...settings };
  const stage = new DetectStage(device, topology, list, () => s, { poolCapacity: opts.poolCapacity, cellSize: opts.cellSize, separatePinPass: opts.separatePinPass });
  const run = async (substeps = 1): Promise<Run> => {
    const encoder = device.createCommandEncoder();
    stage.beginFrame(encoder);
    for (let k = 0; k < substeps; k++) stage.encode(encoder, state, plainSubstep(k, substeps));
    device.queue.submit([encoder.finish()]);
    const ctx = await testGpu();
    const words = new Uint32Array(await readBuffer(ctx, list.list));
    const floats = new Float32Array(words.buffer);
    const ints = new Int32Array(words.buffer);
    const header = words.slice(0, QL_HEADER_WORDS);
    const n = Math.min(header[QL.count], list.capacity);
    const queries: GpuQuery[] = [];
    for (let i = 0; i < n; i++) {
      const o = QL_HEADER_WORDS + 8 * i;
      const source = words[o + 6];
      queries.push({
        kind: (source >>> QUERY_KIND_SHIFT) & 3,
        id: source & QUERY_ID_MASK,
        tet: words[o + 3],
        p: [floats[o], floats[o + 1], floats[o + 2]],
        param: floats[o + 7],
        exclude: [ints[o + 4], ints[o + 5]],
        euclidean: (source & QUERY_EUCLIDEAN) !== 0,
      });
    }
    const args = new Uint32Array(await readBuffer(ctx, list.args));
    expect([...args.slice(0, 3)]).toEqual([Math.ceil(n / 64), 1, 1]);
    const positions = new Float32Array(await state.readPositions());
    return { header, queries, positions, mesh, stage, run };
  };
  return run();
}

function oracleFor(r: Run, settings: Partial<DetectSettings> = {}): OraclePoint[] {
  const s = { ...defaults, ...settings };
  const m = r.mesh;
  return runDcdOracle({
    positions: Float64Array.from(r.positions),
    tets: m.tets,
    vertexObject: m.vertexObject,
    boundaryVertices: m.boundaryVertices,
    boundaryEdges: m.boundaryEdges,
    vertexTriangleOffsets: m.vertexTriangleOffsets,
    vertexTriangles: m.vertexTriangles,
    triangleTet: m.boundaryTriangleTet,
    selfCollision: s.selfCollision,
    recovery: s.recovery,
  });
}

/** Checks r against the oracle; returns the counts by kind and class of the GPU's hits. */
function expectAgreement(name: string, r: Run, oracle: OraclePoint[]): { hits: number[]; ambiguous: number } {
  const key = (kind: number, id: number) => `${kind}:${id}`;
  const gpu = new Map<string, GpuQuery>();
  for (const q of r.queries) {
    const k = key(q.kind, q.id);
    expect(gpu.has(k), `${name}: two queries for point ${k}`).toBe(false);
    gpu.set(k, q);
  }
  const truth = new Map(oracle.map((o) => [key(o.kind, o.id), o]));
  let ambiguous = 0;
  for (const o of oracle) {
    if (o.ambiguous) {
      ambiguous++;
      continue;
    }
    const q = gpu.get(key(o.kind, o.id));
    expect(q, `${name}: the oracle finds point ${key(o.kind, o.id)} inside tets ${o.tets.join(',')}, the GPU has no query`).toBeDefined();
    const i = o.tets.indexOf(q!.tet);
    expect(i, `${name}: point ${key(o.kind, o.id)} in GPU tet ${q!.tet}, the oracle accepts ${o.tets.join(',')}`).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < 3; k++) expect(Math.abs(q!.p[k] - o.points[i][k])).toBeLessThan(1e-4);
    expect(Math.abs(q!.param - o.params[i])).toBeLessThan(1e-3);
  }
  const hits = [0, 0, 0, 0, 0, 0];
  const m = r.mesh;
  for (const q of r.queries) {
    const o = truth.get(key(q.kind, q.id));
    expect(o, `${name}: GPU query for point ${key(q.kind, q.id)} (tet ${q.tet}) that the oracle has in no tet`).toBeDefined();
    // Exclusions: vertex (v, -1), edge (a, b), centroid (-1, -1).
    const ex = q.kind === 0 ? [q.id, -1] : q.kind === 1 ? [m.boundaryEdges[2 * q.id], m.boundaryEdges[2 * q.id + 1]] : [-1, -1];
    expect(q.exclude).toEqual(ex);
    const object = q.kind === 0 ? m.vertexObject[q.id] : q.kind === 1 ? m.vertexObject[m.boundaryEdges[2 * q.id]] : m.tetObject[q.id];
    hits[2 * q.kind + (m.tetObject[q.tet] === object ? 0 : 1)]++;
  }
  summary.push(`${name}: ${r.queries.length} queries (vertex self/inter ${hits[0]}/${hits[1]}, edge ${hits[2]}/${hits[3]}, centroid ${hits[4]}/${hits[5]}), oracle points ${oracle.length}, f32-ambiguous ${ambiguous}`);
  return { hits, ambiguous };
}

describe('GPU discrete detection (spatial hash + DCD) against a brute-force oracle', () => {
  it('two overlapping cubes and a slab: vertex and edge hits, edges whose ends are both outside', async () => {
    const model = overlappingCubes();
    const r = await detect(model);
    const oracle = oracleFor(r);
    const { hits, ambiguous } = expectAgreement('cubes', r, oracle);
    expect(ambiguous).toBe(0);
    expect(hits[1]).toBeGreaterThan(20);
    expect(hits[3]).toBeGreaterThan(20);
    expect(hits[0] + hits[2]).toBe(0);
    // Header: per-kind counters and the count are the list's; nothing dropped.
    expect([...r.header.slice(QL.hitsVertexSelf, QL.hitsCentroidInter + 1)]).toEqual(hits);
    expect(r.header[QL.count]).toBe(r.queries.length);
    expect(r.header[QL.maxCount]).toBe(r.queries.length);
    expect(r.header[QL.dropped] + r.header[QL.hashDropped]).toBe(0);
    // The slab's bottom edges cross cube A's vertical edge with both ends outside every tet.
    const m = r.mesh;
    const inside = new Set(r.queries.filter((q) => q.kind === 0).map((q) => q.id));
    const slab = model.objectVertexOffsets[2];
    const outsideEnds = r.queries.filter(
      (q) => q.kind === 1 && m.boundaryEdges[2 * q.id] >= slab && !inside.has(m.boundaryEdges[2 * q.id]) && !inside.has(m.boundaryEdges[2 * q.id + 1]),
    );
    expect(outsideEnds.length).toBeGreaterThanOrEqual(2);

    // Three substeps in one frame: the count restarts each substep, hits accumulate, max is one substep's.
    const r3 = await r.run(3);
    expect(r3.header[QL.count]).toBe(r.queries.length);
    expect(r3.header[QL.maxCount]).toBe(r.queries.length);
    expect([...r3.header.slice(QL.hitsVertexSelf, QL.hitsCentroidInter + 1)]).toEqual(hits.map((h) => 3 * h));
  });

  it('cell size: the largest tet extent, and cells so small that every tet goes to the oversized list, find the same', async () => {
    for (const [name, cellSize] of [['largest extent', 'largest'], ['oversized only', 0.02]] as const) {
      const r = await detect(overlappingCubes(), {}, { cellSize });
      const { hits, ambiguous } = expectAgreement(`cubes, cell ${name}`, r, oracleFor(r));
      expect(ambiguous).toBe(0);
      expect(hits[1] + hits[3]).toBe(138);
    }
  });

  it('recovery mode: every vertex and every tet centroid; the Euclidean switch marks inter-object queries only', async () => {
    const settings = { recovery: true, interObject: 'euclidean' as const };
    const r = await detect(overlappingCubes(), settings);
    const { hits, ambiguous } = expectAgreement('cubes, recovery', r, oracleFor(r, settings));
    // Two of 230 points (centroids on a lattice of the same spacing) sit within 1e-4 of a face.
    expect(ambiguous).toBeLessThanOrEqual(2);
    expect(hits[5]).toBeGreaterThan(20);
    const boundary = new Set(r.mesh.boundaryVertices);
    expect(r.queries.some((q) => q.kind === 0 && !boundary.has(q.id))).toBe(true);
    for (const q of r.queries) expect(q.euclidean).toBe(r.mesh.tetObject[q.tet] !== (q.kind === 2 ? r.mesh.tetObject[q.id] : r.mesh.vertexObject[q.kind === 0 ? q.id : r.mesh.boundaryEdges[2 * q.id]]));
  });

  it('a self-overlapping ring: self hits; self-collision off drops them', async () => {
    const model = overlappingRing();
    const on = await detect(model);
    const a = expectAgreement('ring, self on', on, oracleFor(on));
    expect(a.ambiguous).toBeLessThanOrEqual(2);
    expect(a.hits[0]).toBeGreaterThan(5);
    expect(a.hits[2]).toBeGreaterThan(5);
    const off = await detect(model, { selfCollision: false });
    expect(oracleFor(off, { selfCollision: false }).filter((o) => !o.ambiguous).length).toBe(0);
    expect(off.queries.length).toBe(0);
    expect(off.header[QL.count]).toBe(0);
  });

  it('inverted boundary tet (section 3.5): its vertices get no self query', async () => {
    const model = overlappingRing();
    const first = await detect(model);
    const m = first.mesh;
    // A vertex hit whose boundary triangle's tet we invert by reflecting its fourth corner
    // through that triangle's plane.
    const hit = first.queries.find((q) => q.kind === 0)!;
    const v = hit.id;
    const tri = m.vertexTriangles[m.vertexTriangleOffsets[v]];
    const tet = m.boundaryTriangleTet[tri];
    const [a, b, c] = [0, 1, 2].map((k) => m.boundaryTriangles[3 * tri + k]);
    const w = [0, 1, 2, 3].map((k) => m.tets[4 * tet + k]).find((x) => x !== a && x !== b && x !== c)!;
    const x = Float32Array.from(first.positions);
    const at = (i: number) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
    const [pa, pb, pc, pw] = [a, b, c, w].map(at);
    const e1 = pb.map((_, k) => pb[k] - pa[k]), e2 = pc.map((_, k) => pc[k] - pa[k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const nn = Math.hypot(...n);
    const dist = ((pw[0] - pa[0]) * n[0] + (pw[1] - pa[1]) * n[1] + (pw[2] - pa[2]) * n[2]) / nn;
    for (let k = 0; k < 3; k++) x[3 * w + k] = pw[k] - (2.5 * dist * n[k]) / nn;
    const r = await detect(model, {}, { positions: x });
    const oracle = oracleFor(r);
    expectAgreement('ring, one boundary tet inverted', r, oracle);
    expect(r.queries.some((q) => q.kind === 0 && q.id === v)).toBe(false);
    expect(r.queries.some((q) => q.kind === 1 && (m.boundaryEdges[2 * q.id] === v || m.boundaryEdges[2 * q.id + 1] === v))).toBe(false);
    expect(r.queries.length).toBeGreaterThan(0);
  });

  it("hybrid Pin marks (Alg. 5 line 1): a point is Pin only inside the other body's surface, not in its fold outside it", async () => {
    // docs/collisions.md "Pin marks in folds"; the truth: the winding number of the cube's surface
    // (tests/support/windingNumber.ts). The CPU twin is tests/unit/collision/pinInFolds.test.ts.
    const { rest, x } = foldedCubeAndProbes();
    const model = bodiesSetup(rest.map((part) => ({ part })), {}).model;
    const dented = Float32Array.from(x);
    const surface = outwardBoundary(rest[0].tets, rest[0].positions);
    const cubeVertices = rest[0].positions.length / 3;
    // The fused pass (DETECT_PIN_AND_TEST) and the separate one (DETECT_MARK_PIN).
    for (const separatePinPass of [false, true]) {
      const r = await detect(model, { collisionMode: 'hybrid' }, { positions: dented, start: dented, separatePinPass });
      const pin = new Uint32Array(await readBuffer(await testGpu(), r.stage.pin, 4 * model.vertexCount));
      let outsideInFold = 0, inside = 0;
      for (let v = cubeVertices; v < model.vertexCount; v++) {
        const w = windingNumber(surface, x, [x[3 * v], x[3 * v + 1], x[3 * v + 2]]);
        expect(pin[v] !== 0, `separate pass ${separatePinPass}, vertex ${v}: winding ${w.toFixed(3)}, pin ${pin[v]}`).toBe(Math.abs(w) > 0.5);
        if (Math.abs(w) > 0.5) inside++;
        else outsideInFold++;
      }
      expect(inside).toBe(4);
      expect(outsideInFold).toBe(4);
      // Counted (counters.pinInFold): the pit's corners and the edges a positive tet holds.
      expect(r.header[QL.pinInFold]).toBeGreaterThanOrEqual(4);
    }
  });

  it('the CPU reference (src/collision/cpu) finds the same query points (f32-ambiguous ones aside) and Euclidean bits', async () => {
    for (const [name, model, settings] of [
      ['cubes, recovery, euclidean', overlappingCubes(), { recovery: true, interObject: 'euclidean' as const }],
      ['ring', overlappingRing(), {}],
    ] as const) {
      const r = await detect(model, settings);
      const s = { ...defaults, ...settings };
      const cpu = new CpuQueryList();
      new CpuDetector(r.mesh).detect(Float64Array.from(r.positions), { selfCollision: s.selfCollision, recovery: s.recovery, euclidean: s.interObject === 'euclidean' }, cpu);
      const key = (kind: number, id: number) => `${kind}:${id}`;
      const gpu = new Map(r.queries.map((q) => [key(q.kind, q.id), q]));
      const ambiguous = new Set(oracleFor(r, settings).filter((o) => o.ambiguous).map((o) => key(o.kind, o.id)));
      let same = 0;
      for (let i = 0; i < cpu.count; i++) {
        const k = key((cpu.source[i] >>> 29) & 3, cpu.source[i] & QUERY_ID_MASK);
        if (ambiguous.has(k)) continue;
        const q = gpu.get(k);
        expect(q, `${name}: CPU query ${k} missing on the GPU`).toBeDefined();
        expect(q!.euclidean).toBe(cpu.source[i] >= 0x80000000);
        if (q!.tet === cpu.tet[i]) {
          same++;
          expect(Math.abs(q!.p[0] - cpu.px[i]) + Math.abs(q!.p[1] - cpu.py[i]) + Math.abs(q!.p[2] - cpu.pz[i])).toBeLessThan(1e-5);
        }
      }
      const unambiguousGpu = r.queries.filter((q) => !ambiguous.has(key(q.kind, q.id))).length;
      const unambiguousCpu = Array.from({ length: cpu.count }, (_, i) => key((cpu.source[i] >>> 29) & 3, cpu.source[i] & QUERY_ID_MASK)).filter((k) => !ambiguous.has(k)).length;
      expect(unambiguousGpu).toBe(unambiguousCpu);
      summary.push(`${name}: CPU reference ${cpu.count} queries, GPU ${r.queries.length}; same tet for ${same}`);
    }
  });

  it('capacity: dropped hits and hash entries are counted, and the next frame has room for all', async () => {
    const model = overlappingCubes();
    const r = await detect(model, {}, { capacity: 64, poolCapacity: 64 });
    expect(r.header[QL.hashDropped]).toBeGreaterThan(0);
    // With the pool full some hits may be missed: what was found is still right.
    const found = r.header[QL.count];
    expect(r.header[QL.dropped]).toBe(Math.max(0, found - 64));
    expect(r.queries.length).toBe(Math.min(found, 64));
    const grew = r.stage.afterFrame(r.header);
    expect(grew.hashPool).toBe(true);
    expect(grew.queryList).toBe(r.header[QL.dropped] > 0);
    // Second frame: the pool has room; the list grows again if it is still too small.
    const r2 = await r.run();
    expect(r2.header[QL.hashDropped]).toBe(0);
    const total = r2.header[QL.count];
    expect(total).toBeGreaterThan(64);
    expect(r2.header[QL.dropped]).toBe(Math.max(0, total - r2.stage.queryList.capacity));
    expect(r2.header[QL.maxCount]).toBe(total);
    expect(r.header[QL.dropped] + r2.header[QL.dropped]).toBeGreaterThan(0);
    r2.stage.afterFrame(r2.header);
    expect(r2.stage.queryList.capacity).toBeGreaterThan(total);
    const r3 = await r2.run();
    expect(r3.header[QL.dropped] + r3.header[QL.hashDropped]).toBe(0);
    expectAgreement('cubes after growth', r3, oracleFor(r3));
  });
});
