/**
 * CPU shortest-path-to-boundary benchmark (one core): microseconds per query, culling on vs off,
 * static (fixed stacks) vs dynamic, and mean Q / Tr / Tet per query next to the paper's Table 1.
 *
 *   node scripts/run-ts.mjs bench/spbCpu.ts [--knotQueries 2000] [--repeat 5]
 *
 * Scenes (issue 4's targets, the authors' C++ on one core):
 *  - knot: 2,000 random interior points of OverhandKnot.t (authors: 2.9 us per query);
 *  - octopus pair: two copies of an octopus, the second moved 0.12 units along x into the first; the
 *    queries are the second's boundary vertices found inside tets of the first (authors: 4.4 us).
 */
import { parseGaiaT } from '../src/mesh/io/gaiaT';
import { buildTetMesh, mergeTetMeshes } from '../src/mesh/tetMesh';
import type { TetMesh } from '../src/mesh/types';
import {
  QUERY_FOUND,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SPB_STATIC_CAPACITIES,
  STAT_NAMES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  type SpbCapacities,
  type SpbMeshData,
} from '../src/spb';
import { readSharedMesh } from '../tests/support/sharedMeshes';

const args = process.argv.slice(2);
const arg = (name: string, def: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const knotQueries = arg('knotQueries', 2000);
const repeat = arg('repeat', 5);

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function load(name: string): TetMesh {
  const m = parseGaiaT(readSharedMesh(name), name);
  return buildTetMesh(m, m).mesh;
}

interface Queries {
  points: Float64Array;
  tets: Int32Array;
  exclude: Int32Array;
}

function knotQueriesOf(mesh: TetMesh, n: number): Queries {
  const r = rng(2023);
  const q: Queries = { points: new Float64Array(3 * n), tets: new Int32Array(n), exclude: new Int32Array(n).fill(-1) };
  for (let i = 0; i < n; i++) {
    const t = Math.floor(r() * mesh.tetCount);
    const w = [r(), r(), r(), r()].map((v) => -Math.log(v + 1e-300));
    const s = w[0] + w[1] + w[2] + w[3];
    for (let k = 0; k < 4; k++) {
      const v = mesh.tets[4 * t + k];
      for (let c = 0; c < 3; c++) q.points[3 * i + c] += (w[k] / s) * mesh.positions[3 * v + c];
    }
    q.tets[i] = t;
  }
  return q;
}

/** Tet containing p (strict barycentric test) among tets [t0, t1), via a uniform grid of tet boxes. */
class TetLocator {
  private readonly cells = new Map<number, number[]>();
  private readonly lo: number[];
  private readonly size: number;
  constructor(private readonly mesh: TetMesh, t0: number, t1: number) {
    const x = mesh.positions;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let edge = 0;
    for (let t = t0; t < t1; t++) {
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) {
        const v = x[3 * mesh.tets[4 * t + k] + c];
        lo[c] = Math.min(lo[c], v);
        hi[c] = Math.max(hi[c], v);
      }
      edge += Math.abs(x[3 * mesh.tets[4 * t]] - x[3 * mesh.tets[4 * t + 1]]);
    }
    this.lo = lo;
    this.size = Math.max((3 * edge) / (t1 - t0), 1e-9);
    for (let t = t0; t < t1; t++) {
      const blo = [Infinity, Infinity, Infinity], bhi = [-Infinity, -Infinity, -Infinity];
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) {
        const v = x[3 * mesh.tets[4 * t + k] + c];
        blo[c] = Math.min(blo[c], v);
        bhi[c] = Math.max(bhi[c], v);
      }
      const a = blo.map((v, c) => Math.floor((v - lo[c]) / this.size));
      const b = bhi.map((v, c) => Math.floor((v - lo[c]) / this.size));
      for (let i = a[0]; i <= b[0]; i++) for (let j = a[1]; j <= b[1]; j++) for (let k = a[2]; k <= b[2]; k++) {
        const key = (i * 1024 + j) * 1024 + k;
        const list = this.cells.get(key);
        if (list) list.push(t);
        else this.cells.set(key, [t]);
      }
    }
  }
  locate(px: number, py: number, pz: number): number {
    const c = [px, py, pz].map((v, i) => Math.floor((v - this.lo[i]) / this.size));
    const list = this.cells.get((c[0] * 1024 + c[1]) * 1024 + c[2]);
    if (!list) return -1;
    const x = this.mesh.positions;
    for (const t of list) {
      const v = [0, 1, 2, 3].map((k) => 3 * this.mesh.tets[4 * t + k]);
      const det = (a: number, b: number, cc: number, d: number): number => {
        const ax = x[b] - x[a], ay = x[b + 1] - x[a + 1], az = x[b + 2] - x[a + 2];
        const bx = x[cc] - x[a], by = x[cc + 1] - x[a + 1], bz = x[cc + 2] - x[a + 2];
        const cx = (d < 0 ? px : x[d]) - x[a], cy = (d < 0 ? py : x[d + 1]) - x[a + 1], cz = (d < 0 ? pz : x[d + 2]) - x[a + 2];
        return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
      };
      // p replaces each vertex in turn; all four volumes positive => strictly inside.
      const vol = det(v[0], v[1], v[2], v[3]);
      const w0 = detP(v[1], v[2], v[3]);
      function detP(a: number, b: number, cc: number): number {
        const ax = x[a] - px, ay = x[a + 1] - py, az = x[a + 2] - pz;
        const bx = x[b] - px, by = x[b + 1] - py, bz = x[b + 2] - pz;
        const cx = x[cc] - px, cy = x[cc + 1] - py, cz = x[cc + 2] - pz;
        return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
      }
      const w1 = -detP(v[0], v[2], v[3]);
      const w2 = detP(v[0], v[1], v[3]);
      const w3 = -detP(v[0], v[1], v[2]);
      if (vol > 0 && w0 > 0 && w1 > 0 && w2 > 0 && w3 > 0) return t;
    }
    return -1;
  }
}

function octopusPairQueries(name: string, push: number): { mesh: TetMesh; queries: Queries } {
  const m = parseGaiaT(readSharedMesh(name), name);
  let minX = Infinity, maxX = -Infinity;
  for (let i = 0; i < m.positions.length; i += 3) {
    minX = Math.min(minX, m.positions[i]);
    maxX = Math.max(maxX, m.positions[i]);
  }
  // The second copy is the first moved `push` units along +x: its boundary vertices on the
  // -x side of every arm lie inside the first copy, up to `push` deep.
  void minX;
  void maxX;
  const shift = push;
  const second = Float32Array.from(m.positions);
  for (let i = 0; i < second.length; i += 3) second[i] += shift;
  const merged = mergeTetMeshes([m, { positions: second, tets: m.tets }]);
  const mesh = buildTetMesh(merged.arrays, { objectIds: merged.tetObject }).mesh;
  const locator = new TetLocator(mesh, 0, merged.tetOffsets[1]);
  const pts: number[] = [], tets: number[] = [], excl: number[] = [];
  for (const v of mesh.boundaryVertices) {
    if (mesh.vertexObject[v] !== 1) continue;
    const x = mesh.positions[3 * v], y = mesh.positions[3 * v + 1], z = mesh.positions[3 * v + 2];
    const t = locator.locate(x, y, z);
    if (t < 0) continue;
    pts.push(x, y, z);
    tets.push(t);
    excl.push(v);
  }
  return { mesh, queries: { points: Float64Array.from(pts), tets: Int32Array.from(tets), exclude: Int32Array.from(excl) } };
}

interface RunResult {
  usPerQuery: number;
  found: number;
  overflows: number;
  mean: Record<string, number>;
  distances: Float64Array;
}

function runQueries(data: SpbMeshData, q: Queries, capacities: Readonly<SpbCapacities>, culling: boolean): RunResult {
  const n = q.tets.length;
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const distances = new Float64Array(n);
  let best = Infinity;
  let ws = new SpbWorkspace(capacities, data.tetCount);
  // rep -1 warms the JIT up and is not timed; small batches are repeated more (timer resolution).
  const reps = Math.max(repeat, Math.ceil(20000 / Math.max(n, 1)));
  for (let rep = -1; rep < reps; rep++) {
    ws = new SpbWorkspace(capacities, data.tetCount);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const st = shortestPathToBoundary(data, ws, cfg, q.points[3 * i], q.points[3 * i + 1], q.points[3 * i + 2], q.tets[i], q.exclude[i]);
      distances[i] = st === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : st === QUERY_OVERFLOW ? -1 : Infinity;
    }
    if (rep >= 0) best = Math.min(best, performance.now() - t0);
  }
  const totals = SpbWorkspace.describe(ws.totals);
  const mean: Record<string, number> = {};
  for (const k of STAT_NAMES) mean[k] = totals[k] / n;
  let found = 0;
  for (const d of distances) if (d >= 0 && d < Infinity) found++;
  return { usPerQuery: (1000 * best) / n, found, overflows: totals.overflows, mean, distances };
}

function report(title: string, data: SpbMeshData, q: Queries, authorsUs: number): void {
  const on = runQueries(data, q, SPB_DYNAMIC_CAPACITIES, true);
  const off = runQueries(data, q, SPB_DYNAMIC_CAPACITIES, false);
  const st = runQueries(data, q, SPB_STATIC_CAPACITIES, true);
  let differ = 0, staticDiffer = 0;
  for (let i = 0; i < q.tets.length; i++) {
    if (on.distances[i] !== off.distances[i]) differ++;
    if (st.distances[i] >= 0 && st.distances[i] !== on.distances[i]) staticDiffer++;
  }
  const f = (x: number): string => x.toFixed(2);
  console.log(`\n## ${title}: ${q.tets.length} queries, ${data.tetCount} tets, ${data.triangleCount} boundary triangles`);
  console.log(`dynamic, culling on : ${f(on.usPerQuery)} us/query (authors' C++: ${authorsUs} us; ratio ${f(on.usPerQuery / authorsUs)}x), found ${on.found}/${q.tets.length}`);
  console.log(`dynamic, culling off: ${f(off.usPerQuery)} us/query; culling speed-up ${f(off.usPerQuery / on.usPerQuery)}x; answers differing: ${differ}`);
  console.log(`static,  culling on : ${f(st.usPerQuery)} us/query; overflows ${st.overflows}; answers differing from dynamic (non-overflow): ${staticDiffer}`);
  const m = (r: RunResult): string => `Q ${f(r.mean.bvhCandidates)}  Tr ${f(r.mean.traversals)}  Tet ${f(r.mean.tetsVisited)}  culled ${f(r.mean.culled)}  descent ${f(r.mean.descentCandidates)}  branchings ${f(r.mean.branchings)}`;
  console.log(`mean per query, culling on : ${m(on)}`);
  console.log(`mean per query, culling off: ${m(off)}`);
}

console.log(`spbCpu benchmark (node ${process.version}, best of ${repeat} runs, one core)`);
console.log(`paper Table 1 (per query): Q 11-89, Tr 3.3-12, Tet 3.2-14`);
{
  const mesh = load('OverhandKnot.t');
  const data = createSpbMeshData(mesh);
  report('OverhandKnot.t random interior points', data, knotQueriesOf(mesh, knotQueries), 2.9);
}
for (const name of ['octopus_2KFaces.t', 'Octopus_Inflated_5k_noIntersection.t']) {
  const { mesh, queries } = octopusPairQueries(name, 0.12);
  const data = createSpbMeshData(mesh);
  report(`${name} x2, pushed 0.12 into each other, boundary vertices of one inside the other`, data, queries, 4.4);
}
