/**
 * Penetration counted at the end of every substep, not only of every frame (issue 19): any scene
 * the runner runs, with the runner's own flags, on the float64 CPU engine. After each substep of
 * the counted frames the brute-force counter (tests/support/intersectionCounter.ts, no code shared
 * with src/collision or src/spb) counts the boundary vertices strictly inside a tet of another
 * object, and those inside a tet of their own object that does not have them as a corner (a vertex
 * through a face of one of its own tets, that tet inverted, is an element inversion: counted apart).
 *
 * Why: a pile ends only a few frames with a vertex inside another body (6 frames over the seven
 * 56-frame octopus boxes of docs/collisions.md "Fourteen more boxes"), so a frame count ranks two
 * settings only by chance. Every substep is a sample too (5 to 24 a frame in the octopus box), and a
 * vertex left inside in the middle of a frame is the same failure the frame's end shows when it
 * happens in the last substep.
 *
 *   node scripts/run-ts.mjs bench/substepPenetration.ts [--count-from 30] -- --scene octopus-box --copies 3 --frames 44 [any runner flag]
 *
 * --count-from F: count the substeps of frames F+1, F+2, ... (frames completed before the frame
 * starts; default 0: every frame). --trace inter|self|all: after each counted substep, one line
 * per vertex inside another object (inter), inside its own (self: through its own inverted tet
 * included, so marked) or both, with what the collision stage did for it in that substep: its Pin
 * mark, its vertex query (found with the path's length, skipped by section 3.5, none), and the
 * contacts on it as a point (offset, gap, normal) and at its triangles (bench/vertexTrace.ts), and at the end
 * the traced vertex-substeps summed by what held them (TraceCause). The
 * query is the substep's detecting round's; the contacts are those of its last round. --lift-moves:
 * per counted frame, what the sliver floor's lift after the contacts did (bench/sliverLiftMoves.ts:
 * slivers lifted, of them lifted in the substep before too, the largest corner move and the moves
 * farther than the contact offset), and at the end the slivers lifted most. The flags after `--` are the runner's (`npm run sim -- --help`);
 * --engine must be cpu or absent, and the runner's output flags (--out, --dump, --csv) are refused.
 * Prints one line per counted frame with a failure, then the totals.
 */
import { parseRunArgs, UsageError } from '../src/runner/args';
import { buildScene, checkSceneFlags, meshFileOf, runParams } from '../src/runner/sceneSetup';
import { readMeshFile } from '../src/runner/meshFile';
import { findScene } from '../src/scenes/registry';
import { changesAt } from '../src/scenes/schedule';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { countIntersections } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';
import { TRACE_CAUSES, vertexTrace, type TraceCause } from './vertexTrace';
import { watchSliverLift, type LiftWatch } from './sliverLiftMoves';

const USAGE = 'node scripts/run-ts.mjs bench/substepPenetration.ts [--count-from F] [--trace inter|self|all] [--lift-moves] -- --scene NAME [runner flags of scripts/sim.ts: npm run sim -- --help]';

function fail(message: string): never {
  console.error(`substepPenetration: ${message}\nusage: ${USAGE}`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split >= 0 ? argv.slice(0, split) : argv;
const runnerArgs = split >= 0 ? argv.slice(split + 1) : [];
// Only this bench's own flags (before `--`); the runner's after it are parseRunArgs's to judge.
checkBenchArgs(own, { usage: USAGE, values: ['--count-from', '--trace'], switches: ['--lift-moves'] });
const liftMoves = own.includes('--lift-moves');
const at = own.indexOf('--count-from');
const countFrom = at >= 0 ? Number(own[at + 1]) : 0;
if (!(Number.isInteger(countFrom) && countFrom >= 0)) fail(`--count-from: expected a whole number >= 0, got "${own[at + 1]}"`);
const traceAt = own.indexOf('--trace');
const trace = traceAt >= 0 ? own[traceAt + 1] : 'none';
if (!['none', 'inter', 'self', 'all'].includes(trace)) fail(`--trace: expected inter, self or all, got "${trace}"`);
let parsed;
try {
  parsed = parseRunArgs(runnerArgs);
} catch (e) {
  if (e instanceof UsageError) fail(e.message);
  throw e;
}
if (parsed.kind !== 'run') fail('give the runner flags of a run after --, e.g. -- --scene octopus-box --copies 3 (`npm run sim -- --list` lists the scenes)');
const o = parsed.options;
if (o.engine !== 'cpu' && runnerArgs.includes('--engine')) fail('--engine: this benchmark steps the float64 CPU engine only (--engine cpu)');
for (const flag of ['--out', '--dump', '--csv']) if (runnerArgs.includes(flag)) fail(`${flag}: this benchmark writes no files (use the runner for them)`);
if (countFrom >= o.frames) fail(`--count-from ${countFrom}: the run has only ${o.frames} frames (--frames)`);

let scene;
try {
  scene = findScene(o.scene);
} catch (e) {
  fail((e as Error).message);
}
let setup;
try {
  checkSceneFlags(scene, o);
  const meshFile = meshFileOf(scene, o);
  setup = buildScene(scene, o, meshFile !== undefined ? readMeshFile(meshFile) : undefined);
} catch (e) {
  if (e instanceof UsageError || e instanceof RangeError) fail((e as Error).message);
  throw e;
}
const run = runParams(setup, o);
setup.params = { ...setup.params, partitionBalance: run.initial.partitionBalance ?? setup.params.partitionBalance };
const sim = new CpuSimulation(setup);
sim.setParams(run.initial);
const m = setup.model;
const solver = sim.solver;

interface Tally { substeps: number; inter: number; interVertices: number; interDeepest: number; self: number; selfVertices: number; inverted: number }
const empty = (): Tally => ({ substeps: 0, inter: 0, interVertices: 0, interDeepest: 0, self: 0, selfVertices: 0, inverted: 0 });
const total = empty();
let frameTally = empty();
let frameEndInter = 0;
let counting = false;
let frameNumber = 0;
// Assigned in the substep callback (so not narrowed to null here).
let lift = null as LiftWatch | null;
/** --trace: the traced vertex-substeps per cause, [inside another object, inside its own]. */
const causes = new Map<TraceCause, [number, number]>(TRACE_CAUSES.map((k) => [k, [0, 0]]));
solver.onSubstep = (substep) => {
  // The collision stage exists from the first substep with collisions on; the lift is watched
  // from the counted frames on (a substep later at the latest).
  if (liftMoves && counting && !lift && solver.collisionStage) lift = watchSliverLift(solver.collisionStage, m);
  if (!counting) return;
  const c = countIntersections({ positions: solver.x, tets: m.tets, tetObject: m.tetObject }, { depth: true });
  for (const h of c.hits) {
    if (trace === 'none' || (trace === 'inter' && h.self) || (trace === 'self' && !h.self)) continue;
    const { line, cause } = vertexTrace(solver.collisionStage, solver.x, m.vertexObject, h.vertex, h.tet, m.tetObject[h.tet], h.inverted, h.depth);
    console.log(`  frame ${frameNumber} substep ${substep + 1}: ${line}${h.throughOwnTet ? ' (through its own inverted tet)' : ''}`);
    // Summed as the counts are: a vertex through its own inverted tet is an inversion, not counted inside its own.
    if (cause && !h.throughOwnTet) causes.get(cause)![h.self ? 1 : 0]++;
  }
  let inter = 0, deepest = 0, self = 0, inverted = 0;
  for (const h of c.hits) {
    if (!h.self) { inter++; deepest = Math.max(deepest, h.depth); } else if (h.throughOwnTet) inverted++; else self++;
  }
  for (const t of [frameTally, total]) {
    t.substeps++;
    if (inter > 0) t.inter++;
    t.interVertices += inter;
    t.interDeepest = Math.max(t.interDeepest, deepest);
    if (self > 0) t.self++;
    t.selfVertices += self;
    if (inverted > 0) t.inverted++;
  }
  frameEndInter = inter;
};

console.log(`${o.scene}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.objectNames.length} objects; float64 CPU engine; counting every substep of frames ${countFrom + 1}-${o.frames}`);
console.log('| frame | substeps | substeps ending with a vertex inside another object (vertices) | deepest (mesh units) | the frame ends so | inside its own (vertices) | through its own inverted tet |');
console.log('|---|---|---|---|---|---|---|');
let framesEnding = 0;
for (let f = 0; f < o.frames; f++) {
  const change = changesAt(run.schedule, f);
  if (change) sim.setParams(change);
  counting = f >= countFrom;
  frameNumber = f + 1;
  frameTally = empty();
  frameEndInter = 0;
  await sim.stepFrame();
  if (frameEndInter > 0) framesEnding++;
  const t = frameTally;
  if (counting && (t.inter > 0 || t.self > 0 || t.inverted > 0)) {
    console.log(`| ${f + 1} | ${t.substeps} | ${t.inter} (${t.interVertices}) | ${t.interDeepest.toExponential(2)} | ${frameEndInter > 0 ? `yes (${frameEndInter})` : 'no'} | ${t.self} (${t.selfVertices}) | ${t.inverted} |`);
  }
  const l = lift?.takeFrame();
  if (l && l.lifts > 0) {
    console.log(`  frame ${f + 1} sliver lift: ${l.lifts} slivers lifted over the substeps, ${l.again} of them lifted in the substep before too; largest corner move ${(1000 * l.largestMove).toFixed(2)} mm; ${l.movesOverOffset} of ${l.cornerMoves} corner moves farther than the contact offset`);
  }
}
// An object the solver's guard stopped (a coordinate not finite) is frozen: its counts stop meaning motion.
for (const message of sim.stoppedMessages) console.log(`stopped: ${message}`);
if (lift) {
  console.log('| sliver (tet of its object) | substeps lifted | of them lifted in the substep before too | largest corner move (mm) | lowest volume before a lift (x rest) |');
  console.log('|---|---|---|---|---|');
  for (const row of lift.summary(10)) console.log(row);
}
if (trace !== 'none') {
  console.log('| what held the traced vertex-substeps (bench/vertexTrace.ts) | inside another object | inside its own |');
  console.log('|---|---|---|');
  for (const [cause, [inter, self]] of causes) console.log(`| ${cause} | ${trace === 'self' ? '-' : inter} | ${trace === 'inter' ? '-' : self} |`);
}
console.log(
  `total over ${total.substeps} substeps of ${o.frames - countFrom} frames: ${total.inter} end with a vertex inside another object (${total.interVertices} vertex-substeps, deepest ${total.interDeepest.toExponential(2)}), ` +
    `${framesEnding} of them a frame's last; ${total.self} with a vertex inside its own object (${total.selfVertices}); ${total.inverted} with a vertex through its own inverted tet`,
);
