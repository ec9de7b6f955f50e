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
import { generateShape } from '../src/mesh/procedural/catalog';
import { fibonacciDirections } from '../src/mesh/procedural/shapes/squishyBall';
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
  /** A tet strictly containing p, skipping those `skip` rejects; -1 if none. */
  locate(px: number, py: number, pz: number, skip?: (t: number) => boolean): number {
    const c = [px, py, pz].map((v, i) => Math.floor((v - this.lo[i]) / this.size));
    const list = this.cells.get((c[0] * 1024 + c[1]) * 1024 + c[2]);
    if (!list) return -1;
    const x = this.mesh.positions;
    for (const t of list) {
      if (skip && skip(t)) continue;
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

/**
 * A self-intersecting squishy ball (paper Figs. 11-12 flatten the toy between planes, which
 * presses tentacles into each other): the generated ball's tentacles are paired with their
 * nearest free neighbour, and one of each pair is bent rigidly about the ball centre onto the
 * other (the full angle between them, ramped in over the first 0.2 of its length), so its knob
 * lands on the partner's knob. Queries: DCD hits, i.e. boundary vertices of a tentacle strictly
 * inside a tet of another tentacle or of the shell, excluding the vertex itself.
 */
function squishyBallQueries(): { mesh: TetMesh; queries: Queries } {
  const R = 0.38, count = 24;
  const g = generateShape('squishyBall');
  const dirs = fibonacciDirections(count);
  const dot3 = (i: number, j: number): number => dirs[3 * i] * dirs[3 * j] + dirs[3 * i + 1] * dirs[3 * j + 1] + dirs[3 * i + 2] * dirs[3 * j + 2];
  // Greedy pairing by angle; `bendTo[i]` = partner that tentacle i bends onto, or -1.
  const pairs: [number, number][] = [];
  for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) pairs.push([i, j]);
  pairs.sort((a, b) => dot3(b[0], b[1]) - dot3(a[0], a[1]));
  const used = new Uint8Array(count);
  const bendTo = new Int32Array(count).fill(-1);
  for (const [i, j] of pairs) {
    if (used[i] || used[j]) continue;
    used[i] = used[j] = 1;
    bendTo[i] = j;
  }
  const x = g.positions;
  const n = x.length / 3;
  const part = new Int32Array(n).fill(-1);
  const out = Float32Array.from(x);
  for (let v = 0; v < n; v++) {
    const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
    const r = Math.hypot(px, py, pz);
    if (r <= R) continue;
    let best = 0;
    for (let i = 1; i < count; i++) {
      if (px * dirs[3 * i] + py * dirs[3 * i + 1] + pz * dirs[3 * i + 2] > px * dirs[3 * best] + py * dirs[3 * best + 1] + pz * dirs[3 * best + 2]) best = i;
    }
    part[v] = best;
    const j = bendTo[best];
    if (j < 0) continue;
    // Rotation about the unit axis d_i x d_j by the angle between them (Rodrigues).
    const di = [dirs[3 * best], dirs[3 * best + 1], dirs[3 * best + 2]], dj = [dirs[3 * j], dirs[3 * j + 1], dirs[3 * j + 2]];
    const axis = [di[1] * dj[2] - di[2] * dj[1], di[2] * dj[0] - di[0] * dj[2], di[0] * dj[1] - di[1] * dj[0]];
    const al = Math.hypot(axis[0], axis[1], axis[2]);
    const [ax, ay, az] = axis.map((c) => c / al);
    const t = Math.min(1, Math.max(0, (r - R) / 0.2));
    const angle = Math.acos(Math.min(1, dot3(best, j))) * t * t * (3 - 2 * t);
    const c = Math.cos(angle), s = Math.sin(angle);
    const d = ax * px + ay * py + az * pz;
    const cx = ay * pz - az * py, cy = az * px - ax * pz, cz = ax * py - ay * px;
    out[3 * v] = px * c + cx * s + ax * d * (1 - c);
    out[3 * v + 1] = py * c + cy * s + ay * d * (1 - c);
    out[3 * v + 2] = pz * c + cz * s + az * d * (1 - c);
  }
  // Topology from the rest shape (validation rejects inverted input tets), then the bent positions.
  const mesh = { ...buildTetMesh({ positions: x, tets: g.tets }, { source: 'squishyBall' }).mesh, positions: out };
  const tetPart = (t: number): number => {
    for (let k = 0; k < 4; k++) if (part[mesh.tets[4 * t + k]] >= 0) return part[mesh.tets[4 * t + k]];
    return -1;
  };
  const locator = new TetLocator(mesh, 0, mesh.tetCount);
  const pts: number[] = [], tets: number[] = [], excl: number[] = [];
  for (const v of mesh.boundaryVertices) {
    if (part[v] < 0) continue;
    const px = mesh.positions[3 * v], py = mesh.positions[3 * v + 1], pz = mesh.positions[3 * v + 2];
    const t = locator.locate(px, py, pz, (u) => tetPart(u) === part[v]);
    if (t < 0) continue;
    pts.push(px, py, pz);
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
  const authors = Number.isNaN(authorsUs) ? 'no authors\' figure' : `authors' C++: ${authorsUs} us; ratio ${f(on.usPerQuery / authorsUs)}x`;
  console.log(`dynamic, culling on : ${f(on.usPerQuery)} us/query (${authors}), found ${on.found}/${q.tets.length}`);
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
{
  const { mesh, queries } = squishyBallQueries();
  const data = createSpbMeshData(mesh);
  console.log(`(squishy ball: ${data.invertedCount} inverted tets after bending)`);
  report('generated squishy ball, tentacles bent into each other, DCD hits of tentacle boundary vertices', data, queries, NaN);
}
