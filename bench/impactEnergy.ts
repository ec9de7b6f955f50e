/**
 * Energy substep by substep through one frame of a run on the float64 CPU engine, and the tets
 * that hold the most elastic energy at its end: where an energy rise at an impact comes from
 * (docs/collisions.md "Energy at a landing: sliver tets"). Prints figures; asserts nothing.
 *
 *   node scripts/run-ts.mjs bench/impactEnergy.ts --frame 22 --top 8 -- --scene drop --mesh ../shared/meshes/octopus_2KFaces.t --height 0.5 [--sliver-quality 0] [runner flags]
 *
 * Runner flags after `--` build the scene and set its parameters as `scripts/sim.ts` does
 * (the scene's schedule is not applied). --frame N: the frame traced (1-based; the frames before
 * it run whole). Per substep: kinetic, elastic, gravitational and total energy (J). Then the
 * --top tets by elastic energy (the energy measure's constants, softened slivers included), with
 * det F, their rest quality over their object's median and their corners' speeds; then the fastest
 * vertices with the flattest (rest quality) and most compressed (det F) of their tets.
 *
 * --inside: also, per substep, the boundary vertices inside another object (the brute-force
 * counter of tests/support/intersectionCounter.ts, no code shared with detection), with their
 * depths, and the frame's collision counters so far (CCD hits, DCD hits between objects, far-side
 * contacts dropped): which substep let a vertex in and whether a contact then held it
 * (docs/collisions.md "A vertex left inside another octopus, traced"). --traced-params JSON:
 * solver parameters for the traced frame only (e.g. '{"farSideContacts":"keep"}'), so that a
 * setting is compared on the same state.
 */
import { parseRunArgs } from '../src/runner/args';
import { findScene } from '../src/scenes/registry';
import { buildScene, runParams } from '../src/runner/sceneSetup';
import { readMeshFile } from '../src/runner/meshFile';
import { CpuSolver } from '../src/sim/cpuSolver';
import { neoHookeanTetEnergy, totalEnergy } from '../src/sim/energy';
import { countIntersections } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split >= 0 ? argv.slice(0, split) : argv;
const runner = split >= 0 ? argv.slice(split + 1) : [];
// Only this bench's own flags (before `--`); the runner's after it are parseRunArgs's to judge.
checkBenchArgs(own, {
  usage: 'node scripts/run-ts.mjs bench/impactEnergy.ts [--frame 22] [--top 8] [--inside] [--traced-params JSON] -- --scene drop --mesh FILE [--height 0.5] [runner flags of scripts/sim.ts]',
  values: ['--frame', '--top', '--traced-params'],
  switches: ['--inside'],
});
const flag = (name: string, fallback: string): string => {
  const i = own.indexOf(`--${name}`);
  return i >= 0 && i + 1 < own.length ? own[i + 1] : fallback;
};
const frame = Number(flag('frame', '22'));
const top = Number(flag('top', '8'));
if (!(Number.isInteger(frame) && frame >= 1)) throw new Error(`--frame: expected an integer >= 1, got ${flag('frame', '')}`);
if (!(Number.isInteger(top) && top >= 0)) throw new Error(`--top: expected an integer >= 0, got ${flag('top', '')}`);
const inside = own.includes('--inside');
let tracedParams: Record<string, unknown> = {};
try {
  tracedParams = JSON.parse(flag('traced-params', '{}'));
} catch (e) {
  throw new Error(`--traced-params: expected a JSON object of solver parameters, got ${flag('traced-params', '')} (${(e as Error).message})`);
}

const parsed = parseRunArgs(runner);
if (parsed.kind !== 'run') throw new Error('give the runner flags of a run after --, e.g. -- --scene drop --mesh FILE --height 0.5');
const o = parsed.options;
const scene = findScene(o.scene);
const setup = buildScene(scene, o, o.mesh !== undefined ? readMeshFile(o.mesh) : undefined);
setup.params = { ...setup.params, ...runParams(setup, o).initial };
const solver = new CpuSolver(setup);
const m = solver.model;
const p = solver.params;
const energy = () => totalEnergy(m, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity });
const j = (x: number): string => x.toFixed(2);

for (let f = 1; f < frame; f++) solver.stepFrame();
if (Object.keys(tracedParams).length > 0) {
  // checkParams (in stepFrame) refuses a bad key's value; an unknown key would pass unread.
  for (const key of Object.keys(tracedParams)) if (!(key in p)) throw new Error(`--traced-params: ${key} is not a solver parameter`);
  solver.params = { ...solver.params, ...tracedParams };
}
/** Vertices inside another object now: "id depth_mm" each (the counter's depth: a lower bound). */
const insideOthers = (): string => {
  const c = countIntersections({ positions: solver.x, tets: m.tets, tetObject: m.tetObject }, { depth: true, self: false });
  return `${c.inter} inside another object${c.inter > 0 ? ` (${c.hits.filter((h) => !h.self).map((h) => `${h.vertex} ${(1000 * h.depth).toFixed(2)} mm`).join(', ')})` : ''}`;
};
const e0 = energy();
if (inside) console.log(`at the frame's start: ${insideOthers()}`);
console.log(`${scene.name}, CPU engine, frame ${frame}: before it kinetic ${j(e0.kinetic)}, elastic ${j(e0.elastic)}, gravitational ${j(e0.gravitational)}, total ${j(e0.total)} J`);
console.log('substep | kinetic | elastic | gravitational | total (J)');
let substep = 0;
solver.onSubstep = () => {
  const e = energy();
  console.log(`${substep++} | ${j(e.kinetic)} | ${j(e.elastic)} | ${j(e.gravitational)} | ${j(e.total)}`);
  if (inside) {
    const c = solver.collisionCounters;
    console.log(`    ${insideOthers()}; so far this frame: CCD hits ${c.ccd.hitsVertexFace} vertex-face, ${c.ccd.hitsEdgeEdge} edge-edge; DCD hits between objects ${c.dcdHits.vertexInter} vertex, ${c.dcdHits.edgeInter} edge; far-side contacts dropped ${c.farSideDropped}`);
  }
};
solver.stepFrame();
solver.onSubstep = undefined;

// The tets holding the most elastic energy now.
const rows: { t: number; e: number; det: number }[] = [];
for (let t = 0; t < m.tetCount; t++) {
  const tet = { det: 0 };
  const e = neoHookeanTetEnergy(m, solver.x, t, tet);
  rows.push({ t, e, det: tet.det });
}
rows.sort((a, b) => b.e - a.e);
const total = rows.reduce((s, r) => s + r.e, 0);
console.log(`\nelastic energy at the frame's end ${j(total)} J; the ${top} largest tets hold ${j(rows.slice(0, top).reduce((s, r) => s + r.e, 0))} J:`);
console.log('tet (in its object) | energy J | det F | rest quality / median | corners: speed m/s');
for (const r of rows.slice(0, top)) {
  const o = m.tetObject[r.t];
  const speeds = [0, 1, 2, 3].map((k) => {
    const v = m.tets[4 * r.t + k];
    return `${v}: ${Math.hypot(solver.v[3 * v], solver.v[3 * v + 1], solver.v[3 * v + 2]).toFixed(2)}`;
  });
  console.log(`${r.t - m.objectTetOffsets[o]} (${m.objectNames[o]}) | ${r.e.toFixed(3)} | ${r.det.toFixed(3)} | ${m.relativeQuality[r.t].toFixed(4)} | ${speeds.join(', ')}`);
}

// The fastest vertices now, and the worst tet around each (a swing through a flat tet shows there).
const speedOf = (v: number): number => Math.hypot(solver.v[3 * v], solver.v[3 * v + 1], solver.v[3 * v + 2]);
const fastest = Array.from({ length: m.vertexCount }, (_, v) => v).sort((a, b) => speedOf(b) - speedOf(a)).slice(0, Math.max(1, Math.min(top, 5)));
console.log('\nfastest vertices | speed m/s | object | y | its tets: lowest rest quality / median, lowest det F');
for (const v of fastest) {
  let quality = Infinity, det = Infinity;
  for (let k = m.vertexTetOffsets[v]; k < m.vertexTetOffsets[v + 1]; k++) {
    const t = m.vertexTetCorners[k] >> 2;
    quality = Math.min(quality, m.relativeQuality[t]);
    const tet = { det: 0 };
    neoHookeanTetEnergy(m, solver.x, t, tet);
    det = Math.min(det, tet.det);
  }
  console.log(`${v} | ${speedOf(v).toFixed(2)} | ${m.objectNames[m.vertexObject[v]]} | ${solver.x[3 * v + 1].toFixed(4)} | ${quality.toFixed(4)}, ${det.toFixed(3)}`);
}
