/**
 * The solver parameters the panel shows, declared as tables: one row per control (its
 * SolverParams field, label, kind, range and help text), so a new setting is one row here, not
 * code. The Collisions folder is COLLISION_CONTROLS: a collision setting added to SolverParams
 * (src/contract/params.ts) gets its control by a row below, and its URL key by a row in PARAM_KEYS
 * (src/app/config/hashConfig.ts). Each control's element has the id `gui-<field>` for tests.
 * No DOM here (simulationPanel.ts builds the controls from the tables).
 */
import type { SolverParams } from '../contract/params';
import { PENETRATION_LABELS, PENETRATION_METHODS } from '../penetration/methods';

interface ControlBase {
  /** The SolverParams field the control sets. */
  key: keyof SolverParams;
  label: string;
  /** Tooltip: what the setting does. */
  help?: string;
}

export type ParamControl =
  | (ControlBase & { kind: 'number'; min?: number; max?: number; step?: number; decimals?: number })
  | (ControlBase & { kind: 'toggle' })
  | (ControlBase & { kind: 'choice'; options: Record<string, string> })
  /** The y component of `gravity` (x and z stay 0 in the panel; the URL sets all three). */
  | (ControlBase & { kind: 'gravityY'; min: number; max: number; step: number })
  /** A text box taking 'auto' or a number (the panel keeps its text in `<key>Text`; setParams refuses what the setting does not take). */
  | (ControlBase & { kind: 'numberOrAuto' })
  /** A text box taking 'off' (Infinity) or a number, kept in `<key>Text` as 'numberOrAuto'. */
  | (ControlBase & { kind: 'numberOrOff' });

/** The panel's text field of a 'numberOrAuto' control. */
export function numberOrAutoTextKey(key: keyof SolverParams): string {
  return `${key}Text`;
}

/** The value a 'numberOrAuto' text box sets: 'auto', or the number (NaN for anything else, which setParams refuses with its message). */
export function parseNumberOrAuto(text: string): number | 'auto' {
  const t = text.trim();
  return t === 'auto' ? 'auto' : t === '' ? NaN : Number(t);
}

/** The value a 'numberOrOff' text box sets: Infinity for 'off', or the number (NaN for anything else, refused by setParams). */
export function parseNumberOrOff(text: string): number {
  const t = text.trim();
  return t === 'off' ? Infinity : t === '' ? NaN : Number(t);
}

/** The text a text-box control shows for a value ('off' for Infinity). */
export function controlText(value: unknown): string {
  return value === Infinity ? 'off' : String(value);
}

/** The Solver folder. */
export const SOLVER_CONTROLS: readonly ParamControl[] = [
  { kind: 'number', key: 'dt', label: 'dt (s per frame)', min: 1 / 480, max: 1 / 20, decimals: 5, help: 'simulated time per frame' },
  { kind: 'number', key: 'substeps', label: 'Substeps', min: 1, max: 100, step: 1, help: 'XPBD substeps per frame (smaller steps: stiffer, more accurate, slower)' },
  { kind: 'number', key: 'iterations', label: 'Iterations', min: 1, max: 30, step: 1, help: 'material constraint iterations per substep' },
  {
    kind: 'choice',
    key: 'solveOrder',
    label: 'Solve order',
    options: { 'Gauss-Seidel (partitioned)': 'partitioned', 'Gauss-Seidel (coloured)': 'gauss-seidel', 'Jacobi (averaged)': 'jacobi' },
    help: 'how the tets are swept each iteration (docs/architecture.md)',
  },
  {
    kind: 'choice',
    key: 'partitionBalance',
    label: 'Partition passes (partitioned)',
    options: { "by the busiest vertex's load": 'valence', 'by pass size': 'count' },
    help: "partitioned order: a tet interior in several passes goes to the pass where its busiest vertex holds the fewest tets (fewer serial rounds on a GPU) or to the least loaded pass; the GPU engine is built again from the scene's start",
  },
  { kind: 'number', key: 'jacobiRelaxation', label: 'Jacobi relaxation', min: 1, max: 2, step: 0.05 },
  { kind: 'toggle', key: 'warmStart', label: 'Warm start (Gauss-Seidel)', help: 'Neo-Hookean: start each substep from half the last multipliers where a tet changed little' },
  { kind: 'number', key: 'vertexMassFloor', label: 'Light vertices raised to (× neighbours\' mass)', min: 0, max: 0.5, step: 0.01, help: "a vertex lighter than this fraction of the mean mass of its tet neighbours takes mass from them (each object keeps its mass): a light vertex pressed or kicked otherwise swings through its stiff tets and their energy explodes; 0 keeps the lumped masses" },
  { kind: 'number', key: 'sliverQuality', label: 'Sliver tets below (× median quality)', min: 0, max: 0.5, step: 0.01, help: "tets much flatter than their object's typical one keep a millionth of their stiffness: at impacts their light corners otherwise swing through them and their energy explodes; 0 keeps every tet's stiffness" },
  { kind: 'toggle', key: 'lineSearch', label: 'Line search (Gauss-Seidel)', help: 'Neo-Hookean: line search on each block\'s step below a stiffness ratio of 1e3' },
  { kind: 'toggle', key: 'positionCarry', label: 'Rounding carry (GPU)', help: 'Each tet correction\'s f32 rounding kept per vertex and added to its next: the material keeps momentum' },
  { kind: 'number', key: 'andersonDepth', label: 'Anderson acceleration (depth)', min: 0, max: 4, step: 1, help: 'Neo-Hookean, 4 iterations or more: from the third iteration of a substep, each iterate mixes the last sweeps so that their residual is least (3 iterations or fewer: no change); two differences before the sixth iteration, up to this depth from it; 0 = off; 2-4 alike up to 6 iterations, 4 the best from 8 (docs/benchmarks.md)' },
  { kind: 'number', key: 'andersonLineSearchSweeps', label: 'Anderson: line-searched sweeps', min: 0, max: 64, step: 1, help: 'with Anderson acceleration and the line search on: the first sweeps of each accelerated run search each tet\'s step length, the later ones reuse it, so the mixing can extrapolate them near the solution (searched sweeps are not smooth there and the mixing stalls); default 6; at or above the iterations: the search in every sweep' },
  { kind: 'choice', key: 'constraint', label: 'Constraint', options: { 'Neo-Hookean (tets)': 'neohookean', 'Mass-spring (edges)': 'springs' } },
  { kind: 'number', key: 'damping', label: 'Damping (1/s)', min: 0, max: 20, step: 0.01, help: 'damps deformation only, never the fall' },
  { kind: 'gravityY', key: 'gravity', label: 'Gravity y (m/s²)', min: -30, max: 30, step: 0.01 },
  { kind: 'number', key: 'friction', label: 'Friction (colliders and contacts)', min: 0, max: 1, step: 0.01, help: 'Coulomb friction coefficient' },
  {
    kind: 'choice',
    key: 'colliderResponse',
    label: 'Collider response',
    options: { 'Auto (multiplier with Anderson acceleration)': 'auto', 'Projection (pushes kept)': 'projection', 'Multiplier (pushes taken back)': 'multiplier' },
    help: "how the ground, boxes and bowls act after each sweep: push a point out and keep the push, or keep each vertex's push and friction as a multiplier over the substep and give back what it no longer needs (a converged contact then does not depend on the sweeps' order, and Anderson acceleration converges to the same answer); auto: the multiplier where Anderson acceleration is on, the projection otherwise",
  },
];

/**
 * The Collisions folder (paper 000 section 4): runtime switches of the GPU collision stages and
 * the CPU engine, applied from the next frame. Add a collision setting here.
 */
export const COLLISION_CONTROLS: readonly ParamControl[] = [
  { kind: 'toggle', key: 'collisions', label: 'Collisions', help: 'collisions between and within bodies' },
  { kind: 'toggle', key: 'selfCollision', label: 'Self-collision' },
  { kind: 'toggle', key: 'recovery', label: 'Recovery mode (section 5.2)', help: 'every vertex and tet centroid is a query point: untangles bodies that start intersecting' },
  {
    kind: 'choice',
    key: 'interObject',
    label: 'Between objects (Fig. 15)',
    options: { 'Shortest path (exact)': 'exact', 'Euclidean closest point': 'euclidean' },
  },
  {
    kind: 'choice',
    key: 'penetration',
    label: 'Penetration depth (Figs. 22-23)',
    options: Object.fromEntries(PENETRATION_METHODS.map((m) => [PENETRATION_LABELS[m], m])),
    help: 'every DCD contact\'s target: the exact shortest path, the rest pose\'s closest boundary point, or the deformed distance field (paper 003)',
  },
  {
    kind: 'choice',
    key: 'collisionMode',
    label: 'Detection (Fig. 9)',
    options: { 'Hybrid CCD + DCD (Alg. 5)': 'hybrid', 'DCD + shortest path only': 'dcd', 'CCD only': 'ccd', 'Air mesh (paper 004)': 'air' },
  },
  {
    kind: 'choice',
    key: 'collideEvery',
    label: 'Collisions run',
    options: { 'Auto (every iteration in recovery, air or DCD; contacts between bodies)': 'auto', 'Once a substep': 'substep', 'After every iteration (paper)': 'iteration', 'Contacts after every iteration': 'contacts' },
    help: "detection, shortest path, CCD and contacts once after the material iterations, or after each of them (the authors' schedule: resolves tangles in fewer substeps at more dispatches); or detection once and the contact passes after every iteration (bodies resting on each other keep their energy); Auto: after every iteration in recovery mode, in air mode (paper 004) and with DCD only between two or more bodies, contacts after every iteration with two or more bodies otherwise, once a substep for one",
  },
  {
    kind: 'choice',
    key: 'ccdWorldBoxes',
    label: 'CCD world boxes',
    options: { 'Clipped to the mean path': 'mean-path', 'Ball of motion': 'ball' },
    help: "the box CCD's broad phase predicts for each vertex over its job (the GPU checks the vertex stays in it; an escape goes to DCD): the ball of any motion that does not speed it up, or that ball clipped to its body's mean path plus its own deviation (a falling or landing pile: 1.7-2.2x fewer pairs between bodies)",
  },
  {
    kind: 'choice',
    key: 'ccdSelfPairFrame',
    label: 'CCD self pairs: frame',
    options: { 'Adaptive (own or world, per body)': 'adaptive', 'Own frame always': 'own' },
    help: "the frame CCD's broad phase joins a body's own pairs in: adaptive picks per body the frame with the smaller boxes (a falling body its own, a landed one the world); never loses a contact, only changes the worker job's time",
  },
  {
    kind: 'choice',
    key: 'ccdJobLatency',
    label: 'CCD job latency',
    options: { 'Auto (0 while frames wait for their jobs)': 'auto', '1 frame (job beside a frame)': '1', '0 frames (frame waits)': '0' },
    help: "when CCD's broad-phase job runs: 1 starts it a frame ahead so it runs beside the GPU's frame, its boxes holding two frames' motion; 0 makes the frame wait for it, its boxes holding one frame's (2-5x fewer pairs in a fast pile); auto takes 0 while frames wait for their jobs anyway",
  },
  { kind: 'toggle', key: 'ccdObstacleGrowth', label: 'CCD boxes grow for landings', help: "the same-object CCD boxes of a body that may meet a collider or another body grow along their relative speed: a landing body's lower part stops while the rest falls on; off: only escapes widen them" },
  { kind: 'toggle', key: 'ccdEveryRound', label: 'CCD in every round (collide contacts)', help: "with collide-every contacts, the rounds that only solve the contacts again first run CCD's narrow phase again, so a free point that the later material iterations carry into another body gets its contact in that substep" },
  { kind: 'toggle', key: 'pinRelease', label: 'Pin release (hybrid)', help: "a vertex inside a tet at the substep's start that the first material iteration carried out (found in no tet at detection) goes to CCD, which holds it outside the faces it left through; off: no contact for it in that substep (Alg. 5 as written)" },
  { kind: 'toggle', key: 'ccdSkipInverted', label: 'CCD skips inverted folds (self)', help: "CCD leaves out the same-object pairs with a vertex on a boundary triangle whose tet is inverted at the substep's start, so the material can turn the tet back (turning it back moves the two triangles of its fold back through each other, which CCD otherwise stops); on by default; off: every pair tested" },
  { kind: 'toggle', key: 'pinByKind', label: 'Pin by kind (hybrid)', help: "a point inside a tet at the substep's start skips in CCD only the pairs of that tet's kind: a vertex pressed into a dent of its own body still meets other bodies through CCD; off (default): every pair of a Pin point goes to DCD (Alg. 5 as written)" },
  { kind: 'toggle', key: 'ccdEdgeInterior', label: 'Edge pairs inside their ends (CCD)', help: "edge-edge CCD searches the edges' interiors (each cut 1 % short of its ends): a pair first near at a vertex still gets its contact when the edges turn about that vertex and meet mid-edge; off (default): whole edges, a pair first near at an end is left to that vertex's pairs" },
  { kind: 'toggle', key: 'escapedToDcd', label: 'Escaped points to DCD (hybrid)', help: 'a free point that left the box its CCD candidates were found with is tested like a Pin point at the substep end, so a crossing CCD could miss is resolved in that substep' },
  {
    kind: 'choice',
    key: 'farSideContacts',
    label: 'Far-side contacts',
    options: { 'Auto (drop in recovery)': 'auto', 'Drop': 'drop', 'Keep (paper)': 'keep' },
    help: "a point that has crossed more than half of a part has its shortest path out through the far side, pushing the same way as the other part's points around it: drop such a contact when a shallower contact of that part's points at the point pushes the same way, or keep every contact",
  },
  { kind: 'number', key: 'inversionFloor', label: 'Inversion floor (× rest volume)', min: 0, max: 0.5, step: 0.01, help: "recovery mode: after each round's contacts, tets whose volume fell below this fraction of their rest volume are lifted back to it (no velocity added), so the inversions recovery's pushes make do not switch off the self queries around them (paper section 3.5); 0 = off" },
  { kind: 'toggle', key: 'sliverFloor', label: 'Sliver floor (outside recovery)', help: "once a substep, sliver tets (see 'Sliver tets below') whose volume fell below the inversion floor are lifted back to it, no velocity added: a sliver keeps a millionth of its stiffness, so an impact that turns it inside out would leave its faces crossing the surface" },
  {
    kind: 'choice',
    key: 'sliverLift',
    label: 'Sliver lift',
    options: { 'After the contacts': 'after-contacts', 'After the contacts, kept off their pushes': 'clipped-to-contacts', 'After the contacts, their corners held': 'holding-contacts', 'With the contacts': 'with-contacts' },
    help: "where the sliver floor lifts in the substep's last round: after the contacts (the floor has the last word, but collision detection never sees the lift, so a lifted corner can pass through another body at a fast impact), after them with no corner moved back against the way the contacts between bodies push it (the default), after them holding still every vertex a contact pushed in the substep (only a sliver's free corners move; one whose corners were all pushed lifts with them free), or with them (before detection and before each later contact pass, so CCD and the contacts answer what it moved; a few dispatches more a substep)",
  },
  { kind: 'toggle', key: 'sliverFloorInSweeps', label: 'Sliver floor in every sweep', help: "with the sliver floor on: the slivers are also lifted to the floor after every material sweep, so the stiff tets around a sliver cannot pull it back inside out between the lifts and the lift after the contacts has little left to move (its big corner jumps are never tested by collision detection); one small dispatch more per iteration" },
  { kind: 'number', key: 'sliverFloorQuality', label: 'Sliver floor holds tets below (× median quality)', min: 0, max: 0.5, step: 0.01, help: "with the sliver floor on, it also holds the tets flatter than this fraction of their object's typical one, though they keep their stiffness (the floor holds every tet below the larger of this and 'Sliver tets below'): an impact can turn such a tet inside out and the material does not always turn it back within the frame; 0 = the softened slivers only" },
  {
    kind: 'choice',
    key: 'contactDispatch',
    label: 'Contact dispatch',
    options: { 'Auto (one workgroup up to 512 contacts)': 'auto', 'One workgroup (barriers)': 'workgroup', 'Grid (count, solve, apply)': 'grid' },
    help: 'the contact passes as three dispatches each over the whole list, or swept by one workgroup between storage barriers (fewer dependent dispatches; same Jacobi passes)',
  },
  { kind: 'number', key: 'airIterations', label: 'Air passes (air mode)', min: 1, max: 20, step: 1, help: 'air mode: passes over the air tets\' constraints (eq. 2) each time they run: after every material iteration under Auto (paper 004), once a substep under Once a substep' },
  { kind: 'number', key: 'airOptimizeFrames', label: 'Air optimisation every (frames, 0 = off)', min: 0, max: 60, step: 1, help: 'air mode: edge and multi-face removal (section 3.3) in a worker every this many frames' },
  {
    kind: 'choice',
    key: 'airMesher',
    label: 'Air mesher',
    options: { 'Auto (lattice where the scene has one)': 'auto', 'Lattice (air-boxes)': 'lattice', 'General (Delaunay + recovery)': 'general' },
    help: 'air mode: how the air between the objects is tetrahedralized (any scene runs with general)',
  },
  {
    kind: 'choice',
    key: 'airSolve',
    label: 'Air passes order',
    options: { 'Gauss-Seidel (partitioned)': 'partitioned', 'Gauss-Seidel (coloured)': 'coloured', 'Jacobi (mass splitting, CPU engine)': 'jacobi' },
    help: 'air mode: order of the air constraint passes (docs/benchmarks.md compares them)',
  },
  {
    kind: 'choice',
    key: 'selfCulling',
    label: 'Self-pair culling (CCD, paper 002)',
    options: { 'Enhanced dual-cone': 'enhanced', 'Plain dual-cone (misses contacts)': 'plain', 'Off (boxes only)': 'off' },
    help: 'drops same-object CCD candidate pairs whose surface cannot touch itself: enhanced loses no contact, plain (Heo et al.) misses some',
  },
  { kind: 'number', key: 'selfPairSkin', label: 'Self pairs kept: skin (× own margin, 0 = off)', min: 0, max: 4, step: 0.05, help: "CCD's same-object pairs are kept from job to job on boxes grown by this fraction of the margin and reused while the bodies stay inside them; never changes a candidate, only the worker job's time" },
  { kind: 'toggle', key: 'culling', label: 'Infeasible-region culling (3.6)' },
  { kind: 'number', key: 'epsI', label: 'eps_i (Alg. 2, × h²)', help: 'exit-face sign test tolerance, in (0, 1)' },
  { kind: 'number', key: 'epsR', label: 'eps_r (Alg. 4, cosine)', help: 'culling tolerance, in [0, 1)' },
  { kind: 'number', key: 'contactIterations', label: 'Contact passes', min: 1, max: 10, step: 1, help: 'contact solve passes per substep' },
  { kind: 'numberOrAuto', key: 'contactOffset', label: 'Contact offset (m, or auto)', help: 'contact thickness: every contact keeps (x - s) . n >= this; auto = 3% of the mean boundary edge between objects, 1% for self-contacts and the colliders, each at most 0.29 of the smallest element edge; self-contacts keep at most that cap at any setting (docs/collisions.md)' },
  { kind: 'numberOrOff', key: 'contactOffsetSpeed', label: 'Offset opening speed (m/s, or off)', help: 'where surfaces start nearer than the contact offset (or inside), contacts open the layer at most this fast, so a large offset does not crush the surface and launch the body; off: at once (docs/collisions.md "Contact offset")' },
  { kind: 'numberOrOff', key: 'depenetrationSpeed', label: 'Depenetration speed (m/s, or off)', help: 'a penetration that existed at the start of a substep (between bodies, or in the ground, a box or a bowl) is removed at most this fast (without velocity), so a point pushed far out of a fold does not crush the tets behind it and launch the body; off: at once; recovery mode: always at once (docs/collisions.md "Depenetration speed")' },
  { kind: 'numberOrAuto', key: 'impactSubsteps', label: 'Impact substeps (max, auto, 0 = off)', help: 'a frame whose CCD candidates (or vertices landing on a collider) close fast takes up to this many substeps; auto = twice the substeps, at least 24 (docs/collisions.md "Impact-adaptive substeps")' },
  { kind: 'number', key: 'bvhRebuildFrames', label: 'BVH rebuild every (frames, 0 = never)', min: 0, max: 240, step: 1 },
];

/** Every field a table declares, once (for checks that each has a URL key). */
export function declaredParamKeys(): (keyof SolverParams)[] {
  return [...new Set([...SOLVER_CONTROLS, ...COLLISION_CONTROLS].map((c) => c.key))];
}
