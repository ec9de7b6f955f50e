/**
 * Recovery counted per substep (issue 19; paper 000 section 5.2, Figs. 16-17: "resolved within
 * 10 substeps"): a pre-tangled scene (`noodle-recovery` or `squishy-recovery`) runs on the float64
 * CPU reference with self-collision off for `--from` frames; then, from that one state, each
 * variant of `--collide-every` switches self-collision and recovery mode on and steps one substep
 * at a time (frames of dt / substeps with 1 substep, impact-adaptive substeps off so that a step
 * is one substep), and the brute-force counter (tests/support/intersectionCounter.ts, no code
 * shared with detection) gives the self-penetrating boundary vertices after each. Also per substep
 * the tets inverted (signed volume <= 0), the boundary vertices on a surface triangle that crosses
 * another of its own surface (tests/support/surfaceCrossings.ts: the surface passing through
 * itself, what the blue tint shows; a dent of an inverted tet is not one), and how many of the vertices still inside are corners of
 * an inverted boundary tet: the points whose self queries paper 000 section 3.5 skips; how many of
 * them were inside after the previous substep too and how many have been inside since the switch
 * (the same vertices held, or new ones coming in); the deepest of each,
 * by its distance to the nearest boundary triangle (a lower bound of its depth)
 * (docs/collisions.md "What the noodle keeps after 10 substeps").
 *
 *   node scripts/run-ts.mjs bench/recoverySubsteps.ts [--scene noodle-recovery|squishy-recovery]
 *     [--from F (noodle 50, squishy 75: its switch)] [--resolution R] [--substeps-after 30] [--collide-every substep,iteration] [--vertex-mass-floor R]
 *     [--far-side-contacts auto,keep (each value a run; default auto: drop in recovery mode)]
 *     [--inversion-floor 0.1,0 (each value a run; default the scene's, 0.1: SolverParams.inversionFloor)]
 *     [--state FILE (the tangled state: read from FILE when it holds this scene, frame and size, else simulated and written there)]
 *     [--unfold-iterations 3,6,12: instead of the variants, from the tangled state with self-collision
 *      still off, how many of the tets inverted there are still inverted every 5 substeps, per
 *      material iteration count: whether the solver or the body's motion sets how fast folds undo]
 *     [-- runner flags: solver and collision flags of scripts/sim.ts (e.g. --contact-iterations 8,
 *      --iterations 10) for the recovery runs only, after the tangled state; not the step's own
 *      (--dt, --substeps, --impact-substeps: one substep a step) nor this bench's variants]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { COLLIDE_EVERY, FAR_SIDE_CONTACTS, type CollideEvery, type FarSideContacts, type SolverParams } from '../src/contract/params';
import { findScene } from '../src/scenes/registry';
import { CpuSolver } from '../src/sim/cpuSolver';
import { countIntersections } from '../tests/support/intersectionCounter';
import { countSurfaceCrossings } from '../tests/support/surfaceCrossings';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { tetVolume6 } from '../src/collision/cpu/tetGeometry';
import { SQUISHY_RECOVERY_SWITCH_FRAME } from '../src/scenes/squishyRecovery';
import { FLAGS, parseRunArgs } from '../src/runner/args';
import { checkBenchArgs } from './cli';

/**
 * The solver and collision flags after `--` (the runner's own parser and checks), for the recovery
 * runs. Refused: scene and material flags (the tangled state is built without them), the step's
 * own (every step is one substep of the scene's), and what this bench's variants set.
 */
function recoveryRunFlags(sceneName: string, runnerArgs: readonly string[]): Partial<SolverParams> {
  if (runnerArgs.length === 0) return {};
  // Only the runner's solver and collision flags (its own FLAGS table says which group each is in).
  const others = runnerArgs.filter((a) => a.startsWith('--')).map((a) => FLAGS.find((f) => `--${f.name}` === a)).filter((f) => f && f.group !== 'solver' && f.group !== 'collisions');
  if (others.length > 0) throw new Error(`after --: only solver and collision flags of scripts/sim.ts; ${others.map((f) => `--${f!.name}`).join(', ')} would change the tangled state or belong to the runner's own runs`);
  const parsed = parseRunArgs(['--scene', sceneName, ...runnerArgs]);
  if (parsed.kind !== 'run') throw new Error('after --: solver and collision flags of scripts/sim.ts, e.g. -- --contact-iterations 8');
  const o = parsed.options;
  // A collision flag that sets the scene's schedule, not a parameter: the bench's --from is that.
  if (o.selfCollisionFrom !== undefined) throw new Error("after --: --self-collision-from: this bench's --from is where self-collision switches on");
  const taken: Partial<Record<keyof SolverParams, string>> = {
    dt: '--dt: one step is one substep of the scene', substeps: '--substeps: one step is one substep of the scene', impactSubsteps: '--impact-substeps: one step is one substep',
    collideEvery: "--collide-every: give it before --, one run per value", farSideContacts: "--far-side-contacts: give it before --, one run per value", inversionFloor: "--inversion-floor: give it before --, one run per value",
    selfCollision: '--self-collision: the recovery runs switch it on', recovery: '--recovery: the recovery runs switch it on',
  };
  for (const key of Object.keys(o.params) as (keyof SolverParams)[]) {
    if (taken[key]) throw new Error(`after --: ${taken[key]}`);
  }
  return o.params;
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const args = split >= 0 ? argv.slice(0, split) : argv;
checkBenchArgs(args, {
  usage: 'node scripts/run-ts.mjs bench/recoverySubsteps.ts [--scene noodle-recovery|squishy-recovery] [--from F] [--resolution R] [--substeps-after 30] [--collide-every substep,iteration]\n' +
    '  [--vertex-mass-floor R] [--far-side-contacts auto,keep] [--inversion-floor 0.1,0] [--state FILE] [--unfold-iterations 3,6,12] [-- solver and collision flags of scripts/sim.ts]',
  values: ['--scene', '--from', '--resolution', '--substeps-after', '--collide-every', '--vertex-mass-floor', '--far-side-contacts', '--inversion-floor', '--state', '--unfold-iterations'],
});

const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number): number => {
  const t = arg(name);
  if (t === undefined) return fallback;
  const n = Number(t);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be an integer >= 0, got "${t}"`);
  return n;
};
const sceneName = arg('scene') ?? 'noodle-recovery';
if (!['noodle-recovery', 'squishy-recovery'].includes(sceneName)) throw new Error(`--scene must be noodle-recovery or squishy-recovery, got "${sceneName}"`);
// Default: the noodle's frame-50 state (tangled, at rest enough; the scene itself switches at 90),
// the squishy ball's own switch frame (before it the planes are still squeezing it).
const from = num('from', sceneName === 'squishy-recovery' ? SQUISHY_RECOVERY_SWITCH_FRAME : 50);
const after = num('substeps-after', 30);
const variants = (arg('collide-every') ?? 'substep,iteration').split(',') as CollideEvery[];
for (const v of variants) if (!COLLIDE_EVERY.includes(v)) throw new Error(`--collide-every: each of ${COLLIDE_EVERY.join(', ')}, got "${v}"`);
const farSides = (arg('far-side-contacts') ?? 'auto').split(',') as FarSideContacts[];
for (const f of farSides) if (!FAR_SIDE_CONTACTS.includes(f)) throw new Error(`--far-side-contacts: each of ${FAR_SIDE_CONTACTS.join(', ')}, got "${f}"`);
const resolution = arg('resolution') === undefined ? undefined : num('resolution', 0);
const floors = (arg('inversion-floor') ?? '').split(',').filter((t) => t !== '').map((t) => {
  const f = Number(t);
  if (!(Number.isFinite(f) && f >= 0 && f < 1)) throw new Error(`--inversion-floor: each a number in [0, 1), got "${t}"`);
  return f;
});

const recoveryFlags = recoveryRunFlags(sceneName, split >= 0 ? argv.slice(split + 1) : []);

const scene = findScene(sceneName);
const setup = scene.build({ selfCollisionFrom: from, ...(resolution !== undefined ? { resolution } : {}) });
// The light-vertex floor (SolverParams.vertexMassFloor; 0: the lumped masses), for the whole run.
const floorText = arg('vertex-mass-floor');
if (floorText !== undefined) {
  const floor = Number(floorText);
  if (!(floor >= 0 && floor < 1)) throw new Error(`--vertex-mass-floor must be a number in [0, 1), got "${floorText}"`);
  setup.params = { ...setup.params, vertexMassFloor: floor };
}
const m = setup.model;
const selfInside = (x: Float64Array): number => countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }).self;
/** The tets inverted at x (signed volume <= 0), ascending. */
const invertedTets = (x: Float64Array): number[] => {
  const out: number[] = [];
  for (let t = 0; t < m.tetCount; t++) if (!(tetVolume6(x, m.tets, t) > 0)) out.push(t);
  return out;
};
/** Boundary vertices on a surface crossing itself (tests/support/surfaceCrossings.ts: no code shared with either counter or detection). */
const selfCrossing = (x: Float64Array): number => countSurfaceCrossings({ positions: x, tets: m.tets, tetObject: m.tetObject }).selfVertices;
const boundary = buildSceneMesh(m);
/** Of the self-penetrating vertices at x: how many, which, and how many are corners of an inverted boundary tet (section 3.5's skip). */
const stuckAtInversions = (x: Float64Array): { inside: number; onInvertedBoundaryTet: number; deepest: number; deepestOther: number; vertices: Set<number> } => {
  const onInverted = new Uint8Array(m.vertexCount);
  for (let f = 0; f < boundary.boundaryTriangleTet.length; f++) {
    if (tetVolume6(x, m.tets, boundary.boundaryTriangleTet[f]) > 0) continue;
    for (let k = 0; k < 3; k++) onInverted[boundary.boundaryTriangles[3 * f + k]] = 1;
  }
  const hits = countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }, { depth: true }).hits.filter((hit) => hit.self);
  const others = hits.filter((hit) => !onInverted[hit.vertex]);
  const deepestOf = (list: typeof hits): number => list.reduce((d, hit) => Math.max(d, hit.depth), 0);
  return { inside: hits.length, onInvertedBoundaryTet: hits.length - others.length, deepest: deepestOf(hits), deepestOther: deepestOf(others), vertices: new Set(hits.map((hit) => hit.vertex)) };
};

console.log(`${sceneName}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${setup.params.substeps} substeps x ${setup.params.iterations} iterations; self-collision off for ${from} frames`);
if (Object.keys(recoveryFlags).length > 0) console.log(`the recovery runs also take ${JSON.stringify(recoveryFlags)}`);
const t0 = performance.now();
const tangled = new CpuSolver({ model: m, colliders: setup.colliders, handles: setup.handles, params: setup.params });
// The tangled state (x, v, time) from --state FILE when it holds this scene, size and frame
// (the squishy ball's release takes half an hour to reach), else simulated and saved there.
const stateFile = arg('state');
const stateKey = `${sceneName} from ${from} resolution ${resolution ?? 'default'} floor ${floorText ?? 'default'} vertices ${m.vertexCount}`;
const saved = stateFile && existsSync(stateFile) ? readFileSync(stateFile) : null;
if (saved && saved.subarray(0, 256).toString('utf8').split('\n')[0] === stateKey) {
  const bytes = saved;
  const body = new Float64Array(bytes.buffer.slice(bytes.byteOffset + 256, bytes.byteOffset + bytes.length));
  tangled.x.set(body.subarray(0, tangled.x.length));
  tangled.v.set(body.subarray(tangled.x.length, tangled.x.length + tangled.v.length));
  tangled.time = body[tangled.x.length + tangled.v.length];
  console.log(`tangled state read from ${stateFile}`);
} else {
  for (let f = 0; f < from; f++) {
    tangled.stepFrame();
    if ((f + 1) % 10 === 0) process.stderr.write(`  frame ${f + 1}/${from} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  if (stateFile) {
    const header = Buffer.alloc(256);
    header.write(`${stateKey}\n`, 'utf8');
    const body = new Float64Array(tangled.x.length + tangled.v.length + 1);
    body.set(tangled.x);
    body.set(tangled.v, tangled.x.length);
    body[body.length - 1] = tangled.time;
    writeFileSync(stateFile, Buffer.concat([header, Buffer.from(body.buffer)]));
  }
}
console.log(`tangled after ${from} frames (${((performance.now() - t0) / 1000).toFixed(0)} s): ${selfInside(tangled.x)} self-penetrating boundary vertices`);

const h = setup.params.dt / setup.params.substeps;
const unfoldText = arg('unfold-iterations');
if (unfoldText !== undefined) {
  const counts = unfoldText.split(',').map(Number);
  for (const n of counts) if (!Number.isInteger(n) || n < 1) throw new Error(`--unfold-iterations: integers >= 1, got "${unfoldText}"`);
  const start = new Set(invertedTets(tangled.x));
  for (const iterations of counts) {
    const s = new CpuSolver({ model: m, colliders: setup.colliders, handles: setup.handles, params: { ...setup.params, iterations, dt: h, substeps: 1, impactSubsteps: 0 } });
    s.x.set(tangled.x);
    s.v.set(tangled.v);
    s.time = tangled.time;
    const left: string[] = [];
    for (let k = 1; k <= after; k++) {
      s.stepFrame();
      if (k % 5 === 0) left.push(`${k}: ${invertedTets(s.x).filter((t) => start.has(t)).length}`);
    }
    console.log(`self-collision off, ${iterations} iterations: of the ${start.size} tets inverted at the start, still inverted at substep ${left.join(', ')}; all inverted at ${after}: ${invertedTets(s.x).length}`);
  }
  process.exit(0);
}
for (const every of variants) for (const farSide of farSides) for (const floor of floors.length > 0 ? floors : [setup.params.inversionFloor]) {
  const params = { ...setup.params, ...recoveryFlags, selfCollision: true, recovery: true, collideEvery: every, farSideContacts: farSide, inversionFloor: floor, dt: h, substeps: 1, impactSubsteps: 0 };
  const s = new CpuSolver({ model: m, colliders: setup.colliders, handles: setup.handles, params });
  s.x.set(tangled.x);
  s.v.set(tangled.v);
  s.time = tangled.time;
  const counts = [selfInside(s.x)];
  const start = stuckAtInversions(s.x);
  const onInverted = [start.onInvertedBoundaryTet];
  const deepest = [start.deepest], deepestOther = [start.deepestOther];
  // Of the vertices inside after each substep, those inside after the previous one too, and those inside after every substep so far.
  const retained: (number | string)[] = ['-'], always: (number | string)[] = ['-'];
  let previous = start.vertices, throughout = start.vertices;
  const inverted = [invertedTets(s.x).length];
  const crossing = [selfCrossing(s.x)];
  let stepMs = 0;
  const dropped: number[] = [], contactsBuilt: number[] = [];
  for (let k = 0; k < after; k++) {
    const t1 = performance.now();
    s.stepFrame();
    dropped.push(s.collisionCounters.farSideDropped);
    contactsBuilt.push(s.collisionCounters.contacts);
    stepMs += performance.now() - t1;
    const now = stuckAtInversions(s.x);
    counts.push(now.inside);
    onInverted.push(now.onInvertedBoundaryTet);
    deepest.push(now.deepest);
    deepestOther.push(now.deepestOther);
    retained.push([...now.vertices].filter((v) => previous.has(v)).length);
    throughout = new Set([...throughout].filter((v) => now.vertices.has(v)));
    always.push(throughout.size);
    previous = now.vertices;
    inverted.push(invertedTets(s.x).length);
    crossing.push(selfCrossing(s.x));
  }
  const stuck = stuckAtInversions(s.x);
  const firstZero = counts.findIndex((_, i) => counts.slice(i).every((d) => d === 0));
  console.log(`collideEvery ${every}, farSideContacts ${farSide}, inversionFloor ${floor}: per substep ${counts.join(' ')}`);
  console.log(`  of them corners of an inverted boundary tet ${onInverted.join(' ')}; the others ${counts.map((c, i) => c - onInverted[i]).join(' ')}`);
  console.log(`  of them inside after the previous substep too ${retained.join(' ')}; inside at the switch and after every substep since ${always.join(' ')}`);
  const mm = (list: number[]): string => list.map((d) => (1000 * d).toFixed(2)).join(' ');
  console.log(`  deepest (mm, distance to the nearest boundary triangle: a lower bound of the depth) ${mm(deepest)}; of the others ${mm(deepestOther)}`);
  console.log(`  inverted tets per substep ${inverted.join(' ')}`);
  const firstUncrossed = crossing.findIndex((_, i) => crossing.slice(i).every((d) => d === 0));
  console.log(`  boundary vertices on a triangle crossing another of its surface, per substep ${crossing.join(' ')}; none from substep ${firstUncrossed < 0 ? '-' : firstUncrossed}`);
  console.log(`  far-side contacts dropped / contacts built per substep ${dropped.map((d, i) => `${d}/${contactsBuilt[i]}`).join(' ')}`);
  console.log(`  none left from substep ${firstZero < 0 ? `- (still ${counts[counts.length - 1]} after ${after})` : firstZero}; ${(stepMs / Math.max(1, after)).toFixed(0)} ms a substep`);
  console.log(`  after substep ${after}: ${stuck.inside} inside, ${stuck.onInvertedBoundaryTet} of them corners of an inverted boundary tet (their self queries skipped, paper 000 section 3.5)`);
}
