/**
 * CCD's same-object pairs at impact: one reference velocity per object (the broad phase's own
 * frame today) against one per cubic region of the object (a design measured, not built; see
 * docs/benchmarks.md "One reference velocity per region instead of per object").
 *
 * The state is bench/ccd.ts's impact (impactRamp.ts): the shared octopus, its lowest 15 cm stopped, a linear ramp
 * up to the fall speed above. Each element's box holds its vertices grown by the margin plus
 * |v - u| H, u the reference of the element's region (its centroid's cell; one cell = the object).
 * A pair is counted when one box, swept by the two regions' relative motion (u_a - u_b) s for s in
 * [0, H], meets the other: a brute force over the octopus's boundary, sharing no code with the
 * broad phase's joins. Pairs sharing a vertex are not counted; culling is not applied.
 *
 *   node scripts/run-ts.mjs bench/regionFramePairs.ts [--speeds 2,5] [--cells 0.4,0.2,0.1,0.05] [--horizon 0.0333] [--margin 0.0078]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMeshFile } from '../src/runner/meshFile';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { pileScene } from '../src/scenes/pile';
import { defaultParams } from '../src/contract/params';
import { IMPACT_DEPTH, impactFallSpeed } from './impactRamp';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/regionFramePairs.ts [--speeds 2,5] [--cells 0.4,0.2,0.1,0.05] [--horizon 0.0333] [--margin 0.0078]',
  values: ['--speeds', '--cells', '--horizon', '--margin'],
});

// This file runs as dist/node/regionFramePairs.mjs (scripts/run-ts.mjs): the project root is two folders up.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OCTOPUS = resolve(ROOT, '../shared/meshes/octopus_2KFaces.t');

const args = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const numbers = (s: string): number[] => s.split(',').map(Number);

const horizon = Number(arg('horizon', String(2 / 60)));
const margin = Number(arg('margin', '0.0078'));
const speeds = numbers(arg('speeds', '2,5'));
const cellSizes = [Infinity, ...numbers(arg('cells', '0.4,0.2,0.1,0.05'))];

const octopus = readMeshFile(OCTOPUS);
const mesh = buildSceneMesh(pileScene([{ name: 'octopus', positions: octopus.positions, tets: octopus.tets, material: { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 } }], defaultParams({})).model);
const x = mesh.positions;
const boundary = mesh.boundaryVertices, triangles = mesh.boundaryTriangles, edges = mesh.boundaryEdges;
const lo = [Infinity, Infinity, Infinity];
for (const v of boundary) for (let k = 0; k < 3; k++) lo[k] = Math.min(lo[k], x[3 * v + k]);

/** An element's vertices' centroid. */
function centroid(ids: ArrayLike<number>, first: number, count: number): number[] {
  const c = [0, 0, 0];
  for (let j = 0; j < count; j++) for (let k = 0; k < 3; k++) c[k] += x[3 * ids[first + j] + k] / count;
  return c;
}

function countPairs(speed: number, cell: number): { regions: number; vertexFace: number; edgeEdge: number } {
  const vy = (v: number) => -impactFallSpeed(x[3 * v + 1], lo[1], speed);
  const regionIds = new Map<string, number>();
  const regionOf = (p: number[]): number => {
    const key = Number.isFinite(cell) ? p.map((q, k) => Math.floor((q - lo[k]) / cell)).join(',') : 'object';
    if (!regionIds.has(key)) regionIds.set(key, regionIds.size);
    return regionIds.get(key)!;
  };
  // Elements: boundary vertices (1 id), triangles (3), edges (2), each with its region.
  const vertexRegion = Array.from(boundary, (v) => regionOf([x[3 * v], x[3 * v + 1], x[3 * v + 2]]));
  const triRegion = Array.from({ length: triangles.length / 3 }, (_, i) => regionOf(centroid(triangles, 3 * i, 3)));
  const edgeRegion = Array.from({ length: edges.length / 2 }, (_, i) => regionOf(centroid(edges, 2 * i, 2)));
  // Each region's reference: the mean velocity of the vertices of its elements.
  const sum = new Float64Array(regionIds.size), count = new Float64Array(regionIds.size);
  const add = (region: number, ids: ArrayLike<number>, first: number, n: number) => { for (let j = 0; j < n; j++) { sum[region] += vy(ids[first + j]); count[region]++; } };
  boundary.forEach((_, i) => add(vertexRegion[i], boundary, i, 1));
  triRegion.forEach((r, i) => add(r, triangles, 3 * i, 3));
  edgeRegion.forEach((r, i) => add(r, edges, 2 * i, 2));
  const u = (region: number) => sum[region] / count[region];
  // Boxes (min x, y, z, max x, y, z) in their region's frame.
  const box = (ids: ArrayLike<number>, first: number, n: number, region: number): number[] => {
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let j = 0; j < n; j++) {
      const v = ids[first + j], g = margin + horizon * Math.abs(vy(v) - u(region));
      for (let k = 0; k < 3; k++) { b[k] = Math.min(b[k], x[3 * v + k] - g); b[3 + k] = Math.max(b[3 + k], x[3 * v + k] + g); }
    }
    return b;
  };
  const meet = (a: number[], ra: number, b: number[], rb: number): boolean => {
    const shift = (u(ra) - u(rb)) * horizon; // only y moves in this state
    for (let k = 0; k < 3; k++) {
      const d = k === 1 ? shift : 0;
      if (a[3 + k] + Math.max(0, d) < b[k] || a[k] + Math.min(0, d) > b[3 + k]) return false;
    }
    return true;
  };
  const vertexBoxes = Array.from(boundary, (_, i) => box(boundary, i, 1, vertexRegion[i]));
  const triBoxes = triRegion.map((r, i) => box(triangles, 3 * i, 3, r));
  const edgeBoxes = edgeRegion.map((r, i) => box(edges, 2 * i, 2, r));
  let vertexFace = 0, edgeEdge = 0;
  for (let i = 0; i < boundary.length; i++) {
    const v = boundary[i];
    for (let t = 0; t < triRegion.length; t++) {
      if (triangles[3 * t] === v || triangles[3 * t + 1] === v || triangles[3 * t + 2] === v) continue;
      if (meet(vertexBoxes[i], vertexRegion[i], triBoxes[t], triRegion[t])) vertexFace++;
    }
  }
  for (let i = 0; i < edgeRegion.length; i++) {
    const a = edges[2 * i], b = edges[2 * i + 1];
    for (let j = i + 1; j < edgeRegion.length; j++) {
      const c = edges[2 * j], d = edges[2 * j + 1];
      if (a === c || a === d || b === c || b === d) continue;
      if (meet(edgeBoxes[i], edgeRegion[i], edgeBoxes[j], edgeRegion[j])) edgeEdge++;
    }
  }
  return { regions: regionIds.size, vertexFace, edgeEdge };
}

console.log(`octopus_2KFaces.t: ${boundary.length} boundary vertices, ${triangles.length / 3} triangles, ${edges.length / 2} edges; impact state (lowest ${IMPACT_DEPTH} m stopped), horizon ${horizon.toFixed(4)} s, margin ${margin} m`);
console.log('| fall speed (m/s) | reference | regions | vertex-face | edge-edge | all | fewer than one per object |');
console.log('|---|---|---|---|---|---|---|');
for (const speed of speeds) {
  let whole = 0;
  for (const cell of cellSizes) {
    const r = countPairs(speed, cell);
    const all = r.vertexFace + r.edgeEdge;
    if (!Number.isFinite(cell)) whole = all;
    console.log(`| ${speed} | ${Number.isFinite(cell) ? `${cell} m cells` : 'the object'} | ${r.regions} | ${r.vertexFace} | ${r.edgeEdge} | ${all} | ${(whole / all).toFixed(2)}x |`);
  }
}
