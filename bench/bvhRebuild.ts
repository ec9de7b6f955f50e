/**
 * Refit vs rebuild of the surface BVH after a large deformation (src/bvh/README.md, "Rebuild vs
 * refit"): real meshes made by others twisted about their long axis. Per case: the SAH cost of
 * the rest tree refitted to the deformed shape and of a tree rebuilt from it (rebuildJob.ts, the
 * worker's job, from vec4 positions), the rebuild's time (median of 5, one core), and the CPU
 * shortest-path query (static capacities, culling on: the GPU kernel's twin) on random interior
 * points with either tree: BVH candidates per query and microseconds per query. The answers are
 * checked equal (the tree changes the cost, never the result). Query passes alternate between the
 * two trees, best of 5 each.
 *
 *   node scripts/run-ts.mjs bench/bvhRebuild.ts [--queries 2000]
 */
import { buildSurfaceBvh, refitSurfaceBvh, sahCost, type SurfaceBvh } from '../src/bvh';
import { rebuildSurfaceBvhFromVec4 } from '../src/bvh/rebuildJob';
import { SPB_DEFAULT_TOLERANCES, SPB_STATIC_CAPACITIES, SpbWorkspace, createSpbMeshData, shortestPathToBoundary, updateSpbMeshData, type SpbMeshData } from '../src/spb';
import { STAT_BVH_CANDIDATES } from '../src/spb/workspace';
import { randomInteriorPoint, rng } from '../tests/support/random';
import { loadSharedTetMesh } from '../tests/support/sharedMeshes';
import { twist } from '../tests/support/twist';
import { packVec4 } from '../src/gpu/buffers';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/bvhRebuild.ts [--queries 2000]',
  values: ['--queries'],
});

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const QUERIES = arg('queries', 2000);

function median(xs: number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  return s[s.length >> 1];
}

/** One pass over the queries: candidates per query, us per query, and the squared distances. */
function runQueries(data: SpbMeshData, points: Float64Array, tets: Uint32Array): { candidates: number; us: number; d: Float64Array } {
  const ws = new SpbWorkspace(SPB_STATIC_CAPACITIES, data.tetCount);
  const cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
  const n = tets.length;
  const d = new Float64Array(n);
  let candidates = 0;
  const t0 = performance.now();
  for (let k = 0; k < n; k++) {
    shortestPathToBoundary(data, ws, cfg, points[3 * k], points[3 * k + 1], points[3 * k + 2], tets[k], -1);
    candidates += ws.stats[STAT_BVH_CANDIDATES];
    d[k] = ws.resultDistance2;
  }
  return { candidates: candidates / n, us: (1000 * (performance.now() - t0)) / n, d };
}

/** Both trees, passes interleaved (JIT warm-up and machine load hit both alike); best time of each. */
function compareTrees(a: SpbMeshData, b: SpbMeshData, points: Float64Array, tets: Uint32Array, passes = 5) {
  let ra = runQueries(a, points, tets), rb = runQueries(b, points, tets);
  for (let p = 1; p < passes; p++) {
    const xa = runQueries(a, points, tets), xb = runQueries(b, points, tets);
    if (xa.us < ra.us) ra = xa;
    if (xb.us < rb.us) rb = xb;
  }
  return [ra, rb] as const;
}

const cases: [string, number][] = [
  ['octopus_2KFaces.t', 1],
  ['Beam_1k.t', 1],
  ['OverhandKnot.t', 1],
  ['OverhandKnot.t', 2],
  ['Spaghetti_1m_lowRes_tri.t', 3],
];
console.log(`queries per case: ${QUERIES} random interior points; CPU static twin, culling on`);
console.log('mesh | twist turns | SAH refit | SAH rebuild | factor | rebuild ms | candidates/query refit -> rebuild | us/query refit -> rebuild');
for (const [name, turns] of cases) {
  const mesh = loadSharedTetMesh(name);
  const tris = mesh.boundaryTriangles;
  const x = twist(mesh.positions, turns);
  const refitted = buildSurfaceBvh(mesh.positions, tris);
  refitSurfaceBvh(refitted, x);
  const v4 = packVec4(x, x.length / 3, () => 1);
  const times: number[] = [];
  let rebuilt: SurfaceBvh = refitted;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    rebuilt = rebuildSurfaceBvhFromVec4(v4, tris);
    times.push(performance.now() - t0);
  }
  const data = createSpbMeshData(mesh);
  updateSpbMeshData(data, x); // data.bvh: the rest tree, refitted
  const withRebuilt: SpbMeshData = { ...data, bvh: rebuilt };
  const r = rng(11);
  const points = new Float64Array(3 * QUERIES);
  const tets = new Uint32Array(QUERIES);
  for (let k = 0; k < QUERIES; k++) {
    tets[k] = Math.floor(r() * mesh.tetCount);
    points.set(randomInteriorPoint(x, mesh.tets, tets[k], r), 3 * k);
  }
  const [a, b] = compareTrees(data, withRebuilt, points, tets);
  let worst = 0;
  for (let k = 0; k < QUERIES; k++) worst = Math.max(worst, Math.abs(Math.sqrt(a.d[k]) - Math.sqrt(b.d[k])));
  if (worst > 1e-12) throw new Error(`${name}: the two trees gave different distances (worst ${worst})`);
  const s0 = sahCost(refitted), s1 = sahCost(rebuilt);
  console.log(
    `${name} | ${turns} | ${s0.toFixed(2)} | ${s1.toFixed(2)} | ${(s0 / s1).toFixed(2)} | ${median(times).toFixed(1)} | ` +
      `${a.candidates.toFixed(1)} -> ${b.candidates.toFixed(1)} | ${a.us.toFixed(2)} -> ${b.us.toFixed(2)}`,
  );
}
