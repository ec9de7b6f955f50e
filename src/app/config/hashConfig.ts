/**
 * The page configuration in the URL hash, so that a link reproduces a setup:
 *
 *   #scene=squishy-squeeze&size=14&substeps=20&self=0&young.0=50000&tint=1
 *
 * Every key is listed in KEYS below (and in README.md "Page URL"). Only values that differ
 * from the scene's (parameters, materials) or the page's defaults (view) are written; numbers
 * are written in JavaScript's shortest round-trip form, so decode(encode(c)) equals c exactly.
 * Decoding checks each value's type and range and throws an Error naming the key and value.
 */
import { AIR_MESHERS, AIR_SOLVES, COLLIDE_EVERY, COLLIDER_RESPONSES, CONTACT_DISPATCHES, FAR_SIDE_CONTACTS, SLIVER_LIFTS, COLLISION_MODES, CCD_JOB_LATENCIES, CCD_SELF_PAIR_FRAMES, CCD_WORLD_BOXES, MAX_JACOBI_RELAXATION, MIN_JACOBI_RELAXATION, PARTITION_BALANCES, PENETRATION_METHODS, SELF_CULLING_MODES, SOLVE_ORDERS, type SolverParams } from '../../contract/params';
import type { Material } from '../../sim/material';
import { DEFAULT_VIEW, ENGINE_CHOICES, defaultPageConfig, type PageConfig, type ViewSettings } from './pageConfig';

type Kind = 'number' | 'positive' | 'nonnegative' | 'int' | 'count' | 'bool' | 'vec3' | 'lengthOrAuto' | 'intOrAuto' | 'positiveOrOff' | readonly string[];

interface ParamKey {
  key: string;
  field: keyof SolverParams;
  kind: Kind;
  help: string;
}

/** Solver parameters by hash key (SolverParams, src/contract/params.ts). */
export const PARAM_KEYS: readonly ParamKey[] = [
  { key: 'dt', field: 'dt', kind: 'positive', help: 'frame time step, s' },
  { key: 'substeps', field: 'substeps', kind: 'count', help: 'substeps per frame' },
  { key: 'iterations', field: 'iterations', kind: 'count', help: 'material iterations per substep' },
  { key: 'solve', field: 'solveOrder', kind: SOLVE_ORDERS, help: 'material solve order' },
  { key: 'partition', field: 'partitionBalance', kind: PARTITION_BALANCES, help: "partitioned order's pass rule: valence (the busiest vertex's load) or count (the least loaded pass)" },
  { key: 'relax', field: 'jacobiRelaxation', kind: 'positive', help: 'Jacobi relaxation' },
  { key: 'warm', field: 'warmStart', kind: 'bool', help: 'Neo-Hookean warm start (Gauss-Seidel orders)' },
  { key: 'search', field: 'lineSearch', kind: 'bool', help: 'Neo-Hookean line search (Gauss-Seidel orders)' },
  { key: 'carry', field: 'positionCarry', kind: 'bool', help: 'GPU: keep the f32 rounding of the material\'s position updates (momentum)' },
  { key: 'anderson', field: 'andersonDepth', kind: 'int', help: 'Anderson acceleration of the Neo-Hookean iterations: differences remembered, 0-4 (0 = off)' },
  { key: 'andersonls', field: 'andersonLineSearchSweeps', kind: 'int', help: 'with anderson > 0: sweeps of each accelerated run that search their step lengths; the later ones reuse them' },
  { key: 'massfloor', field: 'vertexMassFloor', kind: 'nonnegative', help: "each vertex's mass at least this fraction of its tet neighbours' mean, taken from them (< 1); 0 = lumped masses" },
  { key: 'sliver', field: 'sliverQuality', kind: 'nonnegative', help: "sliver tets (rest quality below this fraction of their object's median, < 1) keep a millionth of their stiffness; 0 = off" },
  { key: 'constraint', field: 'constraint', kind: ['neohookean', 'springs'], help: 'material constraint' },
  { key: 'compliance', field: 'springCompliance', kind: 'nonnegative', help: 'spring compliance, m/N' },
  { key: 'damping', field: 'damping', kind: 'nonnegative', help: 'deformation damping, 1/s' },
  { key: 'gravity', field: 'gravity', kind: 'vec3', help: 'gravity x,y,z, m/s²' },
  { key: 'friction', field: 'friction', kind: 'nonnegative', help: 'Coulomb friction of colliders and contacts' },
  { key: 'colresp', field: 'colliderResponse', kind: COLLIDER_RESPONSES, help: 'how the colliders act: projection (a push is never taken back) or multiplier (each vertex keeps its push and friction over the substep, and gives back what it no longer needs); auto: multiplier with Anderson acceleration, projection without' },
  { key: 'collisions', field: 'collisions', kind: 'bool', help: 'collisions between and within bodies' },
  { key: 'self', field: 'selfCollision', kind: 'bool', help: 'self-collision' },
  { key: 'recovery', field: 'recovery', kind: 'bool', help: 'recovery mode (section 5.2)' },
  { key: 'inter', field: 'interObject', kind: ['exact', 'euclidean'], help: 'between objects: exact shortest path or Euclidean closest point (Fig. 15)' },
  { key: 'penetration', field: 'penetration', kind: PENETRATION_METHODS, help: 'DCD contact targets: exact shortest path, rest-pose closest point or deformed distance field (Figs. 22-23)' },
  { key: 'collide', field: 'collideEvery', kind: COLLIDE_EVERY, help: 'collision stages once a substep (substep) or after every material iteration (iteration), or detection once and the contacts after every iteration (contacts); auto: iteration in recovery mode' },
  { key: 'escapedtodcd', field: 'escapedToDcd', kind: 'bool', help: 'hybrid: free points that left their CCD box get the DCD test at the substep end' },
  { key: 'ccdeveryround', field: 'ccdEveryRound', kind: 'bool', help: 'collide contacts: CCD again in the rounds that only solve the contacts, on the motion from the substep start' },
  { key: 'pinrelease', field: 'pinRelease', kind: 'bool', help: 'hybrid: a Pin vertex found in no tet at detection goes to CCD, which holds it outside the faces it left through' },
  { key: 'ccdskipinv', field: 'ccdSkipInverted', kind: 'bool', help: "CCD leaves out same-object pairs at a boundary tet inverted at the substep's start, so the material can turn it back (section 3.5's skip, carried over)" },
  { key: 'pinbykind', field: 'pinByKind', kind: 'bool', help: 'hybrid: a Pin point skips in CCD only the pairs of the kind of tet it is inside (own body or another)' },
  { key: 'ccdedgeinterior', field: 'ccdEdgeInterior', kind: 'bool', help: "edge-edge CCD searches the edges' interiors, so edges that turn about a vertex near the other edge still get their contact" },
  { key: 'ccdobstaclegrowth', field: 'ccdObstacleGrowth', kind: 'bool', help: 'CCD same-object boxes of a body that may meet a collider or another body grow along their relative speed' },
  { key: 'ccdlatency', field: 'ccdJobLatency', kind: CCD_JOB_LATENCIES, help: "frames between CCD's broad-phase snapshot and the frame it serves: 1 overlaps the job with a frame (boxes hold two frames' motion), 0 makes the frame wait (one frame's); auto: 0 while frames wait for their jobs anyway" },
  { key: 'ccdworldboxes', field: 'ccdWorldBoxes', kind: CCD_WORLD_BOXES, help: "CCD's world boxes: each vertex's ball of motion clipped to its body's mean path (mean-path), or the ball alone" },
  { key: 'ccdselfframe', field: 'ccdSelfPairFrame', kind: CCD_SELF_PAIR_FRAMES, help: 'CCD same-object pairs joined per object in the frame with the smaller boxes, own or world (adaptive), or always in the own frame' },
  { key: 'invfloor', field: 'inversionFloor', kind: 'nonnegative', help: "recovery mode: tets below this fraction of their rest volume (< 1) are lifted back to it after each round's contacts (outside recovery the slivers, with sliverfloor); 0 = off" },
  { key: 'sliverfloor', field: 'sliverFloor', kind: 'bool', help: 'outside recovery: sliver tets below the inversion floor are lifted back to it once a substep' },
  { key: 'sliverfloorq', field: 'sliverFloorQuality', kind: 'nonnegative', help: "with sliverfloor: the floor also holds tets whose rest quality is below this fraction of their object's median (< 1), though above the slivers; 0 = the slivers only" },
  { key: 'sliverlift', field: 'sliverLift', kind: SLIVER_LIFTS, help: "where the sliver floor lifts in the substep's last round: after-contacts (the floor has the last word; CCD never sees the lift), clipped-to-contacts (the default: after them, no corner moved back against the way the contacts between bodies push it), holding-contacts (after them, the vertices a contact pushed in the substep held still; a sliver whose corners were all pushed lifts with them free) or with-contacts (before the collision stages and each later contact pass, so CCD and the contacts see it)" },
  { key: 'sliverfloorsweeps', field: 'sliverFloorInSweeps', kind: 'bool', help: 'with sliverfloor, outside recovery: the sliver lift also runs after every material sweep, on the positions alone, so the material cannot pull a sliver back inside out between lifts' },
  { key: 'farside', field: 'farSideContacts', kind: FAR_SIDE_CONTACTS, help: 'shortest-path contacts that lead out through the far side of a part the point has crossed: drop (when a shallower contact of the points of that part pushes the same way at the point) or keep; auto: drop in recovery mode' },
  { key: 'contactdispatch', field: 'contactDispatch', kind: CONTACT_DISPATCHES, help: 'contact passes as count / solve / apply dispatches (grid) or swept in one workgroup (workgroup); auto: workgroup up to 512 contacts a substep' },
  { key: 'mode', field: 'collisionMode', kind: COLLISION_MODES, help: 'detection: hybrid, dcd or ccd (Fig. 9), or air (air mesh, paper 004)' },
  { key: 'airIt', field: 'airIterations', kind: 'count', help: 'air mode: air constraint passes per substep' },
  { key: 'airOpt', field: 'airOptimizeFrames', kind: 'int', help: 'air mode: air mesh optimisation every N frames, 0 = off' },
  { key: 'airMesh', field: 'airMesher', kind: AIR_MESHERS, help: 'air mode: air mesher (auto, lattice or general Delaunay)' },
  { key: 'airSolve', field: 'airSolve', kind: AIR_SOLVES, help: 'air mode: order of the air passes: partitioned or coloured Gauss-Seidel, or jacobi (CPU engine only)' },
  { key: 'passes', field: 'contactIterations', kind: 'count', help: 'contact passes per substep' },
  { key: 'bvh', field: 'bvhRebuildFrames', kind: 'int', help: 'frames between BVH rebuilds, 0 = never' },
  { key: 'selfcull', field: 'selfCulling', kind: SELF_CULLING_MODES, help: 'culling of same-object CCD pairs: off, plain or enhanced dual-cone (paper 002)' },
  { key: 'pairskin', field: 'selfPairSkin', kind: 'nonnegative', help: "CCD same-object pairs kept across jobs: skin as a fraction of the object's own margin, 0 = joined afresh every job" },
  { key: 'culling', field: 'culling', kind: 'bool', help: 'infeasible-region culling (section 3.6)' },
  { key: 'epsI', field: 'epsI', kind: 'positive', help: 'eps_i of Alg. 2 (exit-face sign test, relative to h²)' },
  { key: 'epsR', field: 'epsR', kind: 'nonnegative', help: 'eps_r of Alg. 4 (culling, a cosine)' },
  { key: 'offset', field: 'contactOffset', kind: 'lengthOrAuto', help: 'contact thickness: auto or a length >= 0 in world units' },
  { key: 'offsetspeed', field: 'contactOffsetSpeed', kind: 'positiveOrOff', help: 'speed at which contacts open the offset layer where surfaces start nearer than it: a number > 0 in world units per second, or off (at once)' },
  { key: 'depen', field: 'depenetrationSpeed', kind: 'positiveOrOff', help: 'speed at which contacts remove a penetration that existed at the start of a substep: a number > 0 in world units per second, or off (at once)' },
  { key: 'impact', field: 'impactSubsteps', kind: 'intOrAuto', help: 'impact-adaptive substeps: the most a frame may take on impact; auto (twice the substeps, at least 24) or an integer >= 0, 0 = off' },
];

/** Material fields per object: `young.N`, `poisson.N`, `density.N` for object index N. */
export const MATERIAL_KEYS: readonly { key: string; field: keyof Material; kind: Kind; help: string }[] = [
  { key: 'young', field: 'youngsModulus', kind: 'positive', help: "Young's modulus of object N, Pa" },
  { key: 'poisson', field: 'poissonRatio', kind: 'nonnegative', help: 'Poisson ratio of object N, [0, 0.5)' },
  { key: 'density', field: 'density', kind: 'positive', help: 'density of object N, kg/m³' },
];

/** View toggles by hash key. */
export const VIEW_KEYS: readonly { key: string; field: keyof ViewSettings; kind: Kind; help: string }[] = [
  { key: 'tint', field: 'tint', kind: 'bool', help: 'blue tint of intersections' },
  { key: 'shadows', field: 'shadows', kind: 'bool', help: 'shadows on the ground' },
  { key: 'wire', field: 'wireframe', kind: 'bool', help: 'wireframe' },
  { key: 'points', field: 'points', kind: 'bool', help: 'overlay: penetrating points' },
  { key: 'paths', field: 'paths', kind: 'bool', help: 'overlay: their shortest paths' },
  { key: 'ccdview', field: 'ccd', kind: 'bool', help: 'overlay: CCD contacts' },
  { key: 'bvhlevel', field: 'bvhLevel', kind: 'int', help: 'overlay: BVH boxes of this level (absent = off)' },
];

/** Every other key. */
export const OTHER_KEYS: readonly { key: string; help: string }[] = [
  { key: 'scene', help: 'scene name (the Scene menu; "mesh" = generated shape or imported mesh)' },
  { key: 'size', help: "the scene's size (its slider)" },
  { key: 'engine', help: 'auto, gpu or cpu' },
  { key: 'run', help: '1: start running' },
  { key: 'shape', help: 'mesh scene: the generated shape' },
  { key: 'res', help: 'mesh scene: the shape resolution' },
  { key: 'copies', help: 'mesh scene: copies dropped into the box' },
  { key: 'imported', help: 'mesh scene: the name of the file imported (the page asks for the file again)' },
];

function fail(key: string, text: string, what: string): never {
  throw new Error(`URL hash: ${key}=${text} ${what}`);
}

function parseValue(key: string, text: string, kind: Kind): unknown {
  if (Array.isArray(kind)) {
    if (!kind.includes(text)) fail(key, text, `must be one of ${kind.join(', ')}`);
    return text;
  }
  if (kind === 'bool') {
    if (text !== '0' && text !== '1') fail(key, text, 'must be 0 or 1');
    return text === '1';
  }
  if (kind === 'lengthOrAuto' || kind === 'intOrAuto') {
    if (text === 'auto') return 'auto';
    const n = text.trim() === '' ? NaN : Number(text);
    const integer = kind === 'intOrAuto';
    if (!((integer ? Number.isInteger(n) : Number.isFinite(n)) && n >= 0)) fail(key, text, `must be auto or ${integer ? 'an integer' : 'a finite number'} >= 0`);
    return n;
  }
  if (kind === 'positiveOrOff') {
    if (text === 'off') return Infinity;
    const n = text.trim() === '' ? NaN : Number(text);
    if (!(Number.isFinite(n) && n > 0)) fail(key, text, 'must be off or a finite number > 0');
    return n;
  }
  if (kind === 'vec3') {
    const parts = text.split(',').map(Number);
    if (parts.length !== 3 || !parts.every(Number.isFinite)) fail(key, text, 'must be 3 finite numbers x,y,z');
    return parts;
  }
  const n = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(n)) fail(key, text, 'is not a finite number');
  if (kind === 'positive' && !(n > 0)) fail(key, text, 'must be positive');
  if (kind === 'nonnegative' && !(n >= 0)) fail(key, text, 'must be >= 0');
  if ((kind === 'int' || kind === 'count') && !Number.isInteger(n)) fail(key, text, 'must be an integer');
  if (kind === 'count' && n < 1) fail(key, text, 'must be an integer >= 1');
  return n;
}

function formatValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === Infinity) return 'off';
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

/** Reads a hash ('#a=1&b=2', with or without '#'); `fallbackScene` when it names none. Throws naming the first bad key. */
export function decodeHash(hash: string, fallbackScene: string): PageConfig {
  const q = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const config = defaultPageConfig(q.get('scene') ?? fallbackScene);
  const known = new Set<string>();
  const take = (key: string): string | null => {
    known.add(key);
    return q.get(key);
  };
  take('scene');
  const size = take('size');
  if (size !== null) config.size = parseValue('size', size, 'number') as number;
  const engine = take('engine');
  if (engine !== null) config.engine = parseValue('engine', engine, ENGINE_CHOICES) as PageConfig['engine'];
  const run = take('run');
  if (run !== null) config.run = parseValue('run', run, 'bool') as boolean;
  for (const p of PARAM_KEYS) {
    const text = take(p.key);
    if (text !== null) (config.params as Record<string, unknown>)[p.field] = parseValue(p.key, text, p.kind);
  }
  // Outside it the Jacobi passes amplify or leave the material unresolved (params.ts MAX_JACOBI_RELAXATION).
  const relax = (config.params as Partial<SolverParams>).jacobiRelaxation;
  if (relax !== undefined && !(relax >= MIN_JACOBI_RELAXATION && relax <= MAX_JACOBI_RELAXATION)) fail('relax', String(relax), `must be in [${MIN_JACOBI_RELAXATION}, ${MAX_JACOBI_RELAXATION}]`);
  for (const v of VIEW_KEYS) {
    const text = take(v.key);
    if (text !== null) (config.view as unknown as Record<string, unknown>)[v.field] = parseValue(v.key, text, v.kind);
  }
  const shape = take('shape');
  if (shape !== null) config.mesh.shape = shape;
  const res = take('res');
  if (res !== null) config.mesh.resolution = parseValue('res', res, 'count') as number;
  const copies = take('copies');
  if (copies !== null) config.mesh.copies = parseValue('copies', copies, 'count') as number;
  const imported = take('imported');
  if (imported !== null) config.mesh.imported = imported;
  for (const [key, text] of q) {
    const dot = key.indexOf('.');
    const m = dot > 0 ? MATERIAL_KEYS.find((x) => x.key === key.slice(0, dot)) : undefined;
    if (m) {
      const index = Number(key.slice(dot + 1));
      if (!Number.isInteger(index) || index < 0) fail(key, text, 'names no object index (use e.g. young.0)');
      const value = parseValue(key, text, m.kind) as number;
      if (m.field === 'poissonRatio' && !(value < 0.5)) fail(key, text, 'must be below 0.5');
      (config.materials[index] ??= {})[m.field] = value;
    } else if (!known.has(key)) {
      throw new Error(`URL hash: unknown key "${key}" (the README's "Page URL" lists the keys)`);
    }
  }
  return config;
}

/** The hash (with '#') for a configuration; defaults are left out. */
export function encodeHash(config: PageConfig): string {
  const q = new URLSearchParams();
  q.set('scene', config.scene);
  if (config.size !== undefined) q.set('size', formatValue(config.size));
  if (config.engine !== 'auto') q.set('engine', config.engine);
  if (config.run) q.set('run', '1');
  for (const p of PARAM_KEYS) {
    const value = config.params[p.field];
    if (value !== undefined) q.set(p.key, formatValue(value));
  }
  for (const index of Object.keys(config.materials).map(Number).sort((a, b) => a - b)) {
    for (const m of MATERIAL_KEYS) {
      const value = config.materials[index]![m.field];
      if (value !== undefined) q.set(`${m.key}.${index}`, formatValue(value));
    }
  }
  for (const v of VIEW_KEYS) {
    const value = config.view[v.field];
    if (value !== DEFAULT_VIEW[v.field]) q.set(v.key, formatValue(value));
  }
  if (config.mesh.shape !== undefined) q.set('shape', config.mesh.shape);
  if (config.mesh.resolution !== undefined) q.set('res', formatValue(config.mesh.resolution));
  if (config.mesh.copies !== 1) q.set('copies', formatValue(config.mesh.copies));
  if (config.mesh.imported !== undefined) q.set('imported', config.mesh.imported);
  return `#${q.toString()}`;
}
