/**
 * Two octopi thrown at each other, counted for edges through the other body after every substep
 * (issue 19; docs/collisions.md "Edges that turn under a ridge"). The shared octopus
 * (octopus_2KFaces.t) twice, centred on the x axis 2 % of its size apart, the second turned
 * --turn radians about y and lifted --lift of its size, flying at --speed m/s each toward the
 * other; the octopus box's settings (5 substeps x 5 iterations, contacts after every iteration,
 * CCD in every round, far-side contacts dropped, damping 0.5, friction 0.2) without gravity or
 * box, on the float64 CPU reference. After every substep a brute-force test (its own boundary and
 * tests/support/surfaceCrossings.ts's segment-triangle test, no code shared with src/) counts the boundary edges of one
 * octopus that pass through a boundary triangle of the other; after every frame also the
 * boundary vertices inside the other (tests/support/intersectionCounter.ts; their ids in the mesh),
 * the tets inside out (signed volume against the rest one; of them the slivers, SolverParams.sliverQuality)
 * and the solver's DCD hits between the two.
 *
 *   node scripts/run-ts.mjs bench/octopusHeadOn.ts [--speed 3] [--turn 1] [--lift 0.1] [--frames 14] [--pin-by-kind on|off] [--ccd-edge-interior on|off] [--sliver-lift after-contacts|clipped-to-contacts|holding-contacts|with-contacts] [--sliver-floor-in-sweeps on|off]
 *
 * --pin-by-kind: SolverParams.pinByKind (default off, as the solver's).
 * --ccd-edge-interior: SolverParams.ccdEdgeInterior (default off, as the solver's).
 * --sliver-lift: SolverParams.sliverLift (default clipped-to-contacts, as the solver's).
 * --sliver-floor-in-sweeps: SolverParams.sliverFloorInSweeps (default off, as the solver's).
 */
import { readFileSync } from 'node:fs';
import { parseGaiaT } from '../src/mesh/io/gaiaT';
import { buildModel, sliverTets } from '../src/sim/model';
import { defaultParams, SLIVER_LIFTS, type SliverLift } from '../src/contract/params';
import { CpuSolver } from '../src/sim/cpuSolver';
import { turnedAboutY } from '../src/scenes/place';
import { centredAt } from '../src/scenes/impact';
import { countIntersections } from '../tests/support/intersectionCounter';
import { segmentCrossesTriangle } from '../tests/support/surfaceCrossings';
import { signedVolume6 } from '../tests/support/invertedTets';
import { checkBenchArgs, onOffArg } from './cli';

const USAGE = 'node scripts/run-ts.mjs bench/octopusHeadOn.ts [--speed 3] [--turn 1] [--lift 0.1] [--frames 14] [--pin-by-kind on|off] [--ccd-edge-interior on|off] [--sliver-lift after-contacts|clipped-to-contacts|holding-contacts|with-contacts] [--sliver-floor-in-sweeps on|off]';
const argv = process.argv.slice(2);
checkBenchArgs(argv, { usage: USAGE, values: ['--speed', '--turn', '--lift', '--frames', '--pin-by-kind', '--ccd-edge-interior', '--sliver-lift', '--sliver-floor-in-sweeps'] });
function numberArg(name: string, fallback: number): number {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(argv[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`${name}: expected a number, got "${argv[i + 1]}"`);
  return v;
}
const speed = numberArg('--speed', 3), turn = numberArg('--turn', 1), lift = numberArg('--lift', 0.1), frames = numberArg('--frames', 14);
const pinByKind = onOffArg(argv, '--pin-by-kind', false);
const ccdEdgeInterior = onOffArg(argv, '--ccd-edge-interior', false);
const sliverFloorInSweeps = onOffArg(argv, '--sliver-floor-in-sweeps', defaultParams().sliverFloorInSweeps);
const sliverLiftAt = argv.indexOf('--sliver-lift');
const sliverLift = sliverLiftAt < 0 ? defaultParams().sliverLift : argv[sliverLiftAt + 1];
if (!(SLIVER_LIFTS as readonly string[]).includes(sliverLift)) throw new Error(`--sliver-lift: expected one of ${SLIVER_LIFTS.join(', ')}, got "${sliverLift}"`);
if (!(frames >= 1 && Number.isInteger(frames))) throw new Error(`--frames: expected a positive whole number, got ${frames}`);

const file = '../shared/meshes/octopus_2KFaces.t';
const mesh = parseGaiaT(readFileSync(file, 'utf8'), file);
const { positions: p, extent } = centredAt(mesh.positions, [0, 0, 0]);
const size = Math.max(...extent);
const half = extent[0] / 2 + 0.02 * size;
const material = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
const model = buildModel([
  { name: 'octopus A', positions: turnedAboutY(p, 0, [-half, 0, 0]), tets: mesh.tets, material, velocity: [speed, 0, 0] },
  { name: 'octopus B', positions: turnedAboutY(p, turn, [half, lift * size, 0]), tets: mesh.tets, material, velocity: [-speed, 0, 0] },
]);
const params = defaultParams({
  dt: 1 / 60, substeps: 5, iterations: 5, gravity: [0, 0, 0], friction: 0.2, damping: 0.5, collisions: true, selfCollision: true,
  collideEvery: 'contacts', ccdEveryRound: true, contactIterations: 5, farSideContacts: 'drop', pinByKind, ccdEdgeInterior, sliverLift: sliverLift as SliverLift, sliverFloorInSweeps,
});
const solver = new CpuSolver({ model, colliders: [], handles: [], params });

// The brute force's own boundary: faces of exactly one tet, and their edges.
const faces = new Map<string, number[]>();
const T = model.tets;
for (let t = 0; t < T.length / 4; t++) {
  for (const f of [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]) {
    const ids = f.map((j) => T[4 * t + j]);
    const key = [...ids].sort((a, b) => a - b).join(',');
    if (faces.has(key)) faces.delete(key);
    else faces.set(key, ids);
  }
}
const tris = [...faces.values()];
const edges = new Map<string, [number, number]>();
for (const t of tris) for (let j = 0; j < 3; j++) { const u = t[j], v = t[(j + 1) % 3]; edges.set(u < v ? `${u},${v}` : `${v},${u}`, [u, v]); }
const objectOf = new Int32Array(model.vertexCount);
for (let t = 0; t < T.length / 4; t++) for (let c = 0; c < 4; c++) objectOf[T[4 * t + c]] = model.tetObject[t];

/** Boundary edges of one octopus that pass through a boundary triangle of the other. */
function edgesThroughOther(x: ArrayLike<number>): number {
  const box = tris.map((t) => {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const v of t) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], x[3 * v + k]); hi[k] = Math.max(hi[k], x[3 * v + k]); }
    return [lo, hi];
  });
  let count = 0;
  for (const [u, v] of edges.values()) {
    const lo = [0, 1, 2].map((k) => Math.min(x[3 * u + k], x[3 * v + k])), hi = [0, 1, 2].map((k) => Math.max(x[3 * u + k], x[3 * v + k]));
    for (let i = 0; i < tris.length; i++) {
      const t = tris[i];
      if (objectOf[t[0]] === objectOf[u]) continue;
      const [l, h] = box[i];
      if (l[0] > hi[0] || h[0] < lo[0] || l[1] > hi[1] || h[1] < lo[1] || l[2] > hi[2] || h[2] < lo[2]) continue;
      if (segmentCrossesTriangle(x, u, v, t[0], t[1], t[2])) { count++; break; }
    }
  }
  return count;
}

console.log(`two octopi head-on at ${speed} m/s each, the second turned ${turn} rad and lifted ${lift} of its size (${model.vertexCount} vertices; float64 CPU reference)`);
let substepEdges = 0, substepsWithEdges = 0, frameEndEdges = 0, framesInside = 0, dcdVertex = 0, dcdEdge = 0;
let frameSubsteps: number[] = [];
let invertedTets = 0, invertedSlivers = 0, framesInverted = 0;
const slivers = new Set(sliverTets(model));
const restVolume6 = Float64Array.from({ length: model.tetCount }, (_, t) => signedVolume6(model.restPositions, T, t));
/** Tets inside out at x (the sign of 6 V against the rest one), and of them the slivers. */
function insideOut(x: ArrayLike<number>): { tets: number; slivers: number } {
  let tets = 0, ofSlivers = 0;
  for (let t = 0; t < model.tetCount; t++) {
    if (signedVolume6(x, T, t) * restVolume6[t] >= 0) continue;
    tets++;
    if (slivers.has(t)) ofSlivers++;
  }
  return { tets, slivers: ofSlivers };
}
solver.onSubstep = () => {
  const n = edgesThroughOther(solver.x);
  frameSubsteps.push(n);
  substepEdges += n;
  if (n > 0) substepsWithEdges++;
};
console.log('frame | substeps | edges through the other, per substep with any | at the frame end | vertices inside the other (mesh ids, octopus) | tets inside out (slivers) | DCD hits between the two, vertex / edge');
for (let f = 0; f < frames; f++) {
  frameSubsteps = [];
  solver.stepFrame();
  const x = Float64Array.from(solver.x);
  const count = countIntersections({ positions: x, tets: model.tets, tetObject: model.tetObject });
  const inside = count.inter;
  // Which vertices: their ids in the mesh (for bench/vertexFeatures.ts --vertices) and their octopus.
  const insideIds = count.hits.filter((hit) => !hit.self).map((hit) => `${hit.vertex % (mesh.positions.length / 3)}${'AB'[objectOf[hit.vertex]]}`);
  const atEnd = frameSubsteps[frameSubsteps.length - 1] ?? 0;
  const inverted = insideOut(x);
  invertedTets += inverted.tets;
  invertedSlivers += inverted.slivers;
  if (inverted.tets > 0) framesInverted++;
  const h = solver.collisionCounters.dcdHits;
  frameEndEdges += atEnd;
  if (inside > 0) framesInside++;
  dcdVertex += h.vertexInter;
  dcdEdge += h.edgeInter;
  const withEdges = frameSubsteps.map((n, k) => (n > 0 ? `${k}:${n}` : '')).filter(Boolean).join(' ');
  console.log(`${f + 1} | ${frameSubsteps.length} | ${withEdges || '-'} | ${atEnd} | ${inside}${inside > 0 ? ` (${insideIds.join(' ')})` : ''} | ${inverted.tets} (${inverted.slivers}) | ${h.vertexInter} / ${h.edgeInter}`);
}
console.log(`total: ${substepEdges} edges through the other over ${substepsWithEdges} substeps; ${frameEndEdges} at frame ends; ${framesInside} frames ending with a vertex inside the other; ${invertedTets} tets inside out at frame ends over ${framesInverted} frames, ${invertedSlivers} of them slivers; DCD hits between the two ${dcdVertex} / ${dcdEdge}`);
