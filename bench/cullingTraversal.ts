/**
 * Self-collision culling's own cost on a falling pile of octopi (paper 002; SelfCulling.cull alone,
 * no join or filter): cones + traversal per call with every traversal from the trees' roots
 * (fullTraversalEvery 1) against the default schedule (from the last culled nodes, from the roots
 * one call in 8; selfCulling.ts), alternated call by call on the same motions; then what the
 * culling culls at a range of deviation bounds (the time step's bound on a vertex's departure from
 * its predicted motion): why a certificate that covered a slack for reuse would cost the culling.
 *
 *   node scripts/run-ts.mjs bench/cullingTraversal.ts [--copies 8] [--calls 40]      # from the repository root, ../shared beside it
 */
import { resolve } from 'node:path';
import { ccdTopologyOf } from '../src/collision/ccd/broadPhase';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { SelfCulling } from '../src/collision/selfCulling/selfCulling';
import { defaultParams } from '../src/contract/params';
import { readMeshFile } from '../src/runner/meshFile';
import { pileScene, type PileItem } from '../src/scenes/pile';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/cullingTraversal.ts [--copies 8] [--calls 40]   (from the repository root, ../shared beside it)',
  values: ['--copies', '--calls'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const copies = Number(flag('copies', '8'));
const calls = Number(flag('calls', '40'));
if (!(Number.isInteger(copies) && copies >= 1)) throw new Error(`--copies must be an integer >= 1, got ${flag('copies', '')}`);
if (!(Number.isInteger(calls) && calls >= 2)) throw new Error(`--calls must be an integer >= 2, got ${flag('calls', '')}`);

const mesh = readMeshFile(resolve(process.cwd(), '../shared/meshes/octopus_2KFaces.t'));
const material = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
const items: PileItem[] = Array.from({ length: copies }, (_, i) => ({ name: `octopus ${i + 1}`, positions: mesh.positions, tets: mesh.tets, material }));
const { model } = pileScene(items, defaultParams({}));
const topology = ccdTopologyOf(buildSceneMesh(model));
const n = model.vertexCount;
console.log(`${copies} octopi: ${n} vertices, ${topology.triangles.length / 3} boundary triangles`);

// A pile falling at 2 m/s, seen once a frame (1/60 s): the same shape, moved; 1 mm deviation bound.
const start = Float64Array.from(model.restPositions), move = new Float64Array(3 * n), deviation = new Float64Array(n).fill(0.001);
const schedules = { 'from the roots every call (1)': 1, 'from the last culled nodes, roots every 8th (default)': 8 } as const;
const culling = Object.fromEntries(Object.entries(schedules).map(([k, every]) => [k, new SelfCulling(topology, { fullTraversalEvery: every, rebuildEvery: 0 })]));
const ms: Record<string, number[]> = Object.fromEntries(Object.keys(schedules).map((k) => [k, []]));
const tested: Record<string, number> = {};
for (let call = 0; call < calls; call++) {
  for (let v = 0; v < n; v++) start[3 * v + 1] -= 2 / 60;
  for (const [k, c] of Object.entries(culling)) {
    const s = c.cull({ start, move, deviation }, 'enhanced');
    if (call === 0) continue; // the trees' build
    ms[k].push(s.conesMs + s.traversalMs);
    tested[k] = (tested[k] ?? 0) + s.nodes.tested;
  }
}
console.log(`\ncones + traversal per call (ms), ${calls - 1} calls after the build, alternated:\n`);
console.log('| schedule | median | min | nodes tested a call |\n| --- | --- | --- | --- |');
for (const k of Object.keys(schedules)) {
  const a = ms[k].sort((x, y) => x - y);
  console.log(`| ${k} | ${a[a.length >> 1].toFixed(2)} | ${a[0].toFixed(2)} | ${(tested[k] / a.length).toFixed(0)} |`);
}

console.log('\nculled by the deviation bound (the pile at rest, move 0):\n');
console.log('| deviation bound (mm) | triangles culled | nodes culled |\n| --- | --- | --- |');
for (const d of [0, 0.5, 1, 1.5, 2, 3, 5]) {
  const s = new SelfCulling(topology).cull({ start: Float64Array.from(model.restPositions), move: new Float64Array(3 * n), deviation: new Float64Array(n).fill(d / 1000) }, 'enhanced');
  console.log(`| ${d} | ${s.culledTriangles} | ${s.culledNodes} |`);
}
