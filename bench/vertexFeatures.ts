/**
 * What kind of boundary vertex a traced one is: for vertices of a mesh file (the ids a trace or
 * the brute-force counter named; in a scene of N copies of the mesh, global id v is vertex
 * v mod (the mesh's vertex count) of its copy), its tets, its lumped mass, the interior solid
 * angle of the mesh at it (the sum of its tets' solid angles at that corner, over 4 pi: 0.5 on a
 * flat patch, near 0 at a needle's tip, above 0.5 in a crease) and its worst tet's quality over
 * the mesh's median (the sliver rule's measure, SolverParams.sliverQuality), each with its rank
 * among the mesh's boundary vertices (the fraction below it). Prints figures; asserts nothing.
 *
 *   node scripts/run-ts.mjs bench/vertexFeatures.ts --mesh FILE (--vertices v1,v2,... | --dump DIR) [--rare F]
 *
 * --dump DIR (a run's `--dump`, of a scene whose objects are all copies of FILE): the vertices are
 * those the brute-force counter (tests/support/intersectionCounter.ts) finds inside another object
 * at the end of any dumped frame, each listed once with the frames it ends inside.
 *
 * --rare F (default 0.02): the summary counts the listed vertices that fall in the lowest F of
 * the boundary vertices by mass, by solid angle or by worst quality, against the at most 3 F of
 * them that vertices drawn at random would give.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultParams } from '../src/contract/params';
import { parseVtk } from '../src/mesh/io/vtk';
import { computeVertexMasses } from '../src/mesh/mass';
import { buildTetMesh } from '../src/mesh/tetMesh';
import { relativeTetQuality } from '../src/mesh/tetQuality';
import { readMeshFile } from '../src/runner/meshFile';
import { countIntersections, countedBoundaryVertices } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';

const USAGE = 'node scripts/run-ts.mjs bench/vertexFeatures.ts --mesh FILE (--vertices v1,v2,... | --dump DIR) [--rare F]';
checkBenchArgs(process.argv.slice(2), { usage: USAGE, values: ['--mesh', '--vertices', '--dump', '--rare'] });

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(why: string): never {
  console.error(`vertexFeatures: ${why}\nusage: ${USAGE}`);
  process.exit(2);
}

const meshPath = flag('mesh') ?? fail('--mesh FILE is required');
/** Per listed vertex (global id), the dumped frames it ended inside another object (--dump). */
const framesInside = new Map<number, number[]>();
/** Vertices of the dumped scene (--dump): a whole number of copies of the mesh. */
let dumpedVertexCount = 0;
const dumpDir = flag('dump');
if ((dumpDir === undefined) === (flag('vertices') === undefined)) fail('give either --vertices v1,v2,... or --dump DIR');
const listed = dumpDir !== undefined ? vertexIdsInside(dumpDir) : flag('vertices')!.split(',').map((s) => {
  const v = Number(s);
  if (!Number.isInteger(v) || v < 0) fail(`--vertices: "${s}" is not a vertex id (an integer >= 0)`);
  return v;
});

/** The vertices found inside another object at the end of any frame of the dump, in order of id. */
function vertexIdsInside(dir: string): number[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^frame_\d+\.vtk$/.test(f)).sort();
  } catch (e) {
    fail(`cannot read --dump ${dir}: ${(e as Error).message}`);
  }
  if (files.length === 0) fail(`--dump ${dir} holds no frame_NNNNNN.vtk files (write them with the runner's --dump)`);
  for (const f of files) {
    const dumped = parseVtk(readFileSync(join(dir, f), 'utf8'), f);
    dumpedVertexCount = dumped.positions.length / 3;
    const object = dumped.cellData.object ?? fail(`${f} has no cell array "object" (write it with the runner's --dump)`);
    const count = countIntersections({ positions: Float64Array.from(dumped.positions), tets: dumped.tets, tetObject: Uint32Array.from(object) });
    for (const hit of count.hits) {
      if (hit.self) continue;
      const frames = framesInside.get(hit.vertex) ?? [];
      frames.push(Number(f.slice(6, 12)));
      framesInside.set(hit.vertex, frames);
    }
  }
  console.log(`${dir}: ${files.length} frames; ${framesInside.size} vertices end a frame inside another object`);
  return [...framesInside.keys()].sort((a, b) => a - b);
}
const rare = Number(flag('rare') ?? '0.02');
if (!(rare > 0 && rare < 1)) fail(`--rare must be a fraction in (0, 1), got ${flag('rare')}`);

let mesh;
try {
  mesh = readMeshFile(meshPath);
} catch (e) {
  fail((e as Error).message);
}
const P = Float64Array.from(mesh.positions), T = Uint32Array.from(mesh.tets);
const vertexCount = P.length / 3, tetCount = T.length / 4;
if (dumpedVertexCount % vertexCount !== 0) fail(`--dump ${dumpDir}: its ${dumpedVertexCount} vertices are not copies of ${meshPath}'s ${vertexCount} (give the mesh the scene copied)`);

/** Solid angle of tet t at its corner k (Van Oosterom and Strackee), in steradians. */
function cornerSolidAngle(t: number, k: number): number {
  const o = T[4 * t + k];
  const e: number[][] = [];
  for (let j = 0; j < 4; j++) {
    if (j === k) continue;
    const q = T[4 * t + j];
    e.push([P[3 * q] - P[3 * o], P[3 * q + 1] - P[3 * o + 1], P[3 * q + 2] - P[3 * o + 2]]);
  }
  const [a, b, c] = e;
  const la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]), lc = Math.hypot(c[0], c[1], c[2]);
  const dot = (x: number[], y: number[]): number => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const triple = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  return 2 * Math.atan2(Math.abs(triple), la * lb * lc + dot(a, b) * lc + dot(a, c) * lb + dot(b, c) * la);
}

// The sliver rule's own measure (quality over the object's median) and the solver's lumped masses
// (unit density), on the mesh as the runner builds it.
const relativeQuality = relativeTetQuality(P, T, new Uint32Array(tetCount), 1);
const mass = computeVertexMasses(buildTetMesh({ positions: Float32Array.from(P), tets: T }).mesh, 1);
const tetsAt = new Uint32Array(vertexCount), solid = new Float64Array(vertexCount);
const worstQuality = new Float64Array(vertexCount).fill(Infinity);
for (let t = 0; t < tetCount; t++) {
  for (let k = 0; k < 4; k++) {
    const v = T[4 * t + k];
    tetsAt[v]++;
    solid[v] += cornerSolidAngle(t, k);
    worstQuality[v] = Math.min(worstQuality[v], relativeQuality[t]);
  }
}
const boundary = Array.from(countedBoundaryVertices(T, vertexCount));
const onBoundary = new Uint8Array(vertexCount);
for (const v of boundary) onBoundary[v] = 1;

/** Fraction of the boundary vertices whose value is below v's. */
function rank(values: Float64Array | Float32Array, v: number): number {
  let below = 0;
  for (const u of boundary) if (values[u] < values[v]) below++;
  return below / boundary.length;
}

const medianMass = Float64Array.from(boundary, (v) => mass[v]).sort()[boundary.length >> 1];
console.log(`${meshPath}: ${vertexCount} vertices (${boundary.length} on the boundary), ${tetCount} tets; median boundary lumped mass ${medianMass.toExponential(2)} (volume units)`);
console.log('vertex (id in the mesh) | tets | lumped mass / median (rank) | solid angle / 4 pi (rank) | worst tet quality / median (rank)');
let rareCount = 0;
for (const global of listed) {
  const v = global % vertexCount;
  const frames = framesInside.get(global);
  const id = (global === v ? `${v}` : `${global} (${v})`) + (frames ? ` [frames ${frames.join(' ')}]` : '');
  if (!onBoundary[v]) {
    console.log(`${id} | ${tetsAt[v]} | not a boundary vertex`);
    continue;
  }
  const r = [rank(mass, v), rank(solid, v), rank(worstQuality, v)];
  if (r.some((x) => x < rare)) rareCount++;
  console.log(`${id} | ${tetsAt[v]} | ${(mass[v] / medianMass).toFixed(3)} (${r[0].toFixed(3)}) | ${(solid[v] / (4 * Math.PI)).toFixed(3)} (${r[1].toFixed(3)}) | ${worstQuality[v].toFixed(3)} (${r[2].toFixed(3)})`);
}
const needles = boundary.filter((v) => solid[v] / (4 * Math.PI) < 0.05).length;
console.log(`${rareCount} of ${listed.length} listed vertices are in the lowest ${rare} of the boundary by mass, solid angle or worst quality (vertices drawn at random: at most ${(3 * rare * listed.length).toFixed(1)} of ${listed.length} expected); boundary vertices with a solid angle below 0.05 x 4 pi (needle tips): ${needles}`);
// The sliver rule's default (SolverParams.sliverQuality): such tets keep a millionth of their stiffness.
const sliver = defaultParams().sliverQuality;
const atSliver = (v: number): boolean => worstQuality[v] < sliver;
const listedAtSliver = listed.filter((g) => onBoundary[g % vertexCount] && atSliver(g % vertexCount)).length;
console.log(`corners of a softened sliver (a tet below ${sliver} x the median quality): ${listedAtSliver} of the ${listed.length} listed, ${boundary.filter(atSliver).length} of the ${boundary.length} boundary vertices`);
