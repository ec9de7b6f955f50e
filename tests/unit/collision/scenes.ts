/**
 * Small procedural scenes for the collision tests: Kuhn-lattice cubes and beams built as one
 * TetMesh at rest (objects by tet), and float64 deformed positions.
 */
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';
import type { Collider } from '../../../src/sim/colliders';
import { buildModel, type Model } from '../../../src/sim/model';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { defaultParams, type SolverParams } from '../../../src/contract/params';
import type { SimSetup } from '../../../src/sim/setup';
import { countIntersections } from '../../support/intersectionCounter';
import { countSurfaceCrossings } from '../../support/surfaceCrossings';
import { totalEnergy } from '../../../src/sim/energy';
import type { CpuCollisionStage } from '../../../src/collision/cpu/cpuCollisionStage';
import { kuhnLattice } from '../../support/kuhnLattice';
import { CONTACT_OFFSET_AUTO_SELF_RATIO, meanBoundaryEdge } from '../../../src/collision/contactOffset';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { meshDrop } from '../../../src/scenes/meshDrop';
import type { PartitionBalance } from '../../../src/contract/params';

export interface Part {
  positions: Float64Array;
  tets: Uint32Array;
}

export function latticePart(n: [number, number, number], map: (u: number, v: number, w: number) => [number, number, number]): Part {
  const l = kuhnLattice(n[0], n[1], n[2], (i, j, k) => [i, j, k]);
  const positions = new Float64Array(l.positions.length);
  for (let i = 0; i < positions.length; i += 3) positions.set(map(l.positions[i], l.positions[i + 1], l.positions[i + 2]), i);
  return { positions, tets: l.tets };
}

/** A cube of side `size` with `cells` cells per side, lowest corner at `at`. */
export function cubePart(cells: number, size: number, at: [number, number, number]): Part {
  return latticePart([cells, cells, cells], (u, v, w) => [at[0] + (u / cells) * size, at[1] + (v / cells) * size, at[2] + (w / cells) * size]);
}

export interface Scene {
  mesh: TetMesh;
  /** Float64 positions (the mesh's own are float32). */
  x: Float64Array;
}

/** Parts concatenated; object id per part (or as given). */
export function sceneOf(parts: Part[], objects: number[] = parts.map((_, i) => i)): Scene {
  const { positions: x, tets } = joinedParts(parts);
  const ids = parts.flatMap((p, i) => new Array<number>(p.tets.length / 4).fill(objects[i]));
  const { mesh } = buildTetMesh({ positions: Float32Array.from(x), tets }, { objectIds: Uint32Array.from(ids) });
  return { mesh, x };
}

/**
 * A beam of nx x 1 x 1 cells, length L, cross-section a x a, bent around the z axis through
 * `turns` x 360 degrees at radius R: more than one turn makes its ends overlap (self-intersection).
 * Rest shape: the straight beam (for the mesh); x: the bent one.
 */
export function bentBeam(nx: number, L: number, a: number, R: number, turns: number): { rest: Part; bent: Float64Array } {
  const straight = latticePart([nx, 1, 1], (u, v, w) => [(u / nx) * L, (v - 0.5) * a, (w - 0.5) * a]);
  const bent = new Float64Array(straight.positions.length);
  for (let i = 0; i < bent.length; i += 3) {
    const s = straight.positions[i] / L, r = R - straight.positions[i + 1]; // R - y keeps the orientation
    const th = 2 * Math.PI * turns * s;
    // A slight rise along z per turn keeps the overlapping layers generic (not coplanar).
    bent[i] = r * Math.cos(th);
    bent[i + 1] = r * Math.sin(th);
    bent[i + 2] = straight.positions[i + 2] + 0.13 * a * s;
  }
  return { rest: straight, bent };
}

export interface BodyDesc {
  part: Part;
  velocity?: [number, number, number];
  youngsModulus?: number;
  density?: number;
}

/** A solver setup of soft bodies (one object each), no colliders unless given. */
export function bodiesSetup(bodies: BodyDesc[], params: Partial<SolverParams>, colliders: Collider[] = []): SimSetup {
  const model = buildModel(
    bodies.map((b, i) => ({
      name: `body${i}`,
      positions: b.part.positions,
      tets: b.part.tets,
      material: { youngsModulus: b.youngsModulus ?? 1e5, poissonRatio: 0.3, density: b.density ?? 1000 },
      velocity: b.velocity,
    })),
  );
  return { model, colliders, handles: [], params: defaultParams(params) };
}

/**
 * Three 20 cm cubes of `cells` lattice cells on a line, no gravity: the first flies at `speed`
 * m/s into the second, at rest 5 cm away, which is knocked into the third, at rest `gap` m
 * beyond it. A body at rest has CCD boxes of its position grown by the margin only, so the
 * knocked cube's vertices leave their boxes (escapes, SolverParams.escapedToDcd).
 */
export function knockedCubes(cells: number, speed: number, gap: number, params: Partial<SolverParams>): SimSetup {
  return bodiesSetup(
    [
      { part: cubePart(cells, 0.2, [-0.25, 0, 0]), velocity: [speed, 0, 0] },
      { part: cubePart(cells, 0.2, [0, 0.02, 0.01]), velocity: [0, 0, 0] },
      { part: cubePart(cells, 0.2, [0.2 + gap, 0.04, 0.02]), velocity: [0, 0, 0] },
    ],
    { gravity: [0, 0, 0], substeps: 4, iterations: 4, damping: 0, friction: 0, collisionMode: 'hybrid', selfCollision: false, ...params },
  );
}

/**
 * A body that the material carries into another during the later material iterations of a substep
 * (SolverParams.ccdEveryRound): cube A (10 cm, 2 cells a side, E 1e5) starts squeezed along x to
 * `squeeze` of its size, at rest, no gravity, one substep of 5 iterations, collideEvery 'contacts'
 * (5 rounds: the first detects). Its +x face springs out; cube B (the same, offset by 13 and 17 mm
 * across) waits at x = `wallAt`. `squeezeA` squeezes a solver's positions (A's vertices come first).
 */
export function springingCube(wallAt: number | null, params: Partial<SolverParams>, squeeze = 0.7, farCube = false): { setup: SimSetup; squeezeA: (x: Float64Array | Float32Array, stride: number) => void } {
  const a = cubePart(2, 0.1, [0, 0, 0]);
  const bodies: BodyDesc[] = [{ part: a }];
  if (wallAt !== null) bodies.push({ part: cubePart(2, 0.1, [wallAt, 0.013, 0.017]) });
  // `farCube`: a third cube 2 cm beside A along y, near enough for the GPU's frame candidates (boxes
  // grown by a quarter of the mean edge, 1.4 cm) and farther than the later rounds can close.
  if (farCube) bodies.push({ part: cubePart(2, 0.1, [-0.03, 0.12, 0.005]) });
  const setup = atDrawnOffset(bodiesSetup(bodies, { gravity: [0, 0, 0], substeps: 1, iterations: 5, damping: 0, friction: 0, collisionMode: 'hybrid', selfCollision: false, collideEvery: 'contacts', ...params }), params);
  const n = a.positions.length / 3;
  return { setup, squeezeA: (x, stride) => { for (let i = 0; i < n; i++) x[stride * i] *= squeeze; } };
}

/** The largest x of springingCube's cube A after one substep of `iterations`, collisions off, no second cube (float64 reference). */
export function springingFaceAfter(iterations: number): number {
  const { setup, squeezeA } = springingCube(null, { iterations, collisions: false });
  const solver = new CpuSolver(setup);
  squeezeA(solver.x, 3);
  solver.stepFrame();
  let most = -Infinity;
  for (let i = 0; i < solver.model.vertexCount; i++) most = Math.max(most, solver.x[3 * i]);
  return most;
}

/** The friction scene's material solve: iterations and the partition's pass rule. */
export interface BlockOnSlabSolve { iterations: number; balance: PartitionBalance }

/**
 * Static friction between two soft bodies (issue 19): a 10 cm block (2 cells a side, E 1e6) on
 * a 1 m x 25 cm x 5 cm slab (E 1e6) whose bottom layer is held (inverse mass 0; its top is free
 * and soft), friction `friction`, no ground, 10 substeps, hybrid, self-collision off. `params`
 * overrides the rest (contact passes, offset, mode). The partition's pass rule is `solve.balance` (SolverParams.partitionBalance).
 * Returns the setup and the block's mass-weighted mean of a per-vertex xyz array.
 */
export function blockOnSlab(solve: BlockOnSlabSolve, friction: number, params: Partial<SolverParams> = {}): { setup: SimSetup; blockMean: (f: ArrayLike<number>, axis: number) => number } {
  const slab = latticePart([8, 1, 2], (u, v, w) => [u / 8 - 0.2, v * 0.05, w / 8 - 0.125]);
  const block = cubePart(2, 0.1, [-0.05, 0.0505, -0.05]);
  const setup = bodiesSetup(
    [{ part: slab, youngsModulus: 1e6 }, { part: block, youngsModulus: 1e6 }],
    { substeps: 10, damping: 2, friction, collisionMode: 'hybrid', selfCollision: false, iterations: solve.iterations, partitionBalance: solve.balance, ...params },
  );
  const m = setup.model;
  for (let v = m.objectVertexOffsets[0]; v < m.objectVertexOffsets[1]; v++) if (m.restPositions[3 * v + 1] === 0) m.invMass[v] = 0;
  const a = m.objectVertexOffsets[1], b = m.objectVertexOffsets[2];
  const blockMean = (f: ArrayLike<number>, axis: number): number => {
    let sum = 0, mass = 0;
    for (let i = a; i < b; i++) { sum += f[3 * i + axis] / m.invMass[i]; mass += 1 / m.invMass[i]; }
    return sum / mass;
  };
  return { setup, blockMean };
}

/** The intersection counter on a solver's current positions. */
export function countOn(model: Model, x: Float64Array): ReturnType<typeof countIntersections> {
  return countIntersections({ positions: x, tets: model.tets, tetObject: model.tetObject });
}

/** Total linear momentum sum m v of the free vertices. */
export function momentum(model: Model, v: Float64Array): [number, number, number] {
  const p: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < model.vertexCount; i++) {
    if (!(model.invMass[i] > 0)) continue;
    for (let k = 0; k < 3; k++) p[k] += v[3 * i + k] / model.invMass[i];
  }
  return p;
}

const smoothstep = (t: number): number => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/**
 * A U-shaped strip (rest shape): a lower arm (z in [-0.05, 0.05], `arm` cells of 2.5 cm along x
 * from 0), a half-circle bend at x < 0 and an upper arm at z in [0.15, 0.25]; 2 x 2 cells across
 * (10 cm thick, 10 cm wide). `sink` lowers the upper arm from x = 5 cm on (a smooth ramp over 15 cm)
 * into the lower arm, with a small sideways shift so that no vertex lands on a lattice face of
 * the other arm: sink 0.15 overlaps half the thickness.
 */
export function uStrip(sink: number, arm = 12, bend = 6): Part {
  const S = 0.1;
  return latticePart([2 * arm + bend, 2, 2], (i, j, k) => {
    const q = -0.5 + j / 2, y = k / 2;
    if (i <= arm) return [(S * (arm - i)) / 4, S * y, S * q];
    if (i <= arm + bend) {
      const phi = (Math.PI * (i - arm)) / bend;
      return [-S * Math.sin(phi) * (1 - q), S * y, S * (1 - Math.cos(phi) * (1 - q))];
    }
    const x = (i - arm - bend) / 4;
    const w = smoothstep((x - 0.5) / 1.5);
    return [S * x + 0.0061 * w, S * y + 0.0043 * w, S * (2 - q) - sink * w];
  });
}

/**
 * The shared GlassBox.t (a 10 m open container, walls 0.11-0.14 m thick) thrown at 30 m/s downward,
 * its lowest point at half its height (the runner's drop default), no damping: the impact crushes
 * its bottom wall thinner than the CCD separation (tests/unit/collision/crushedWallEnergy.test.ts).
 */
export function crushedContainer(mode: SolverParams['collisionMode']): SimSetup {
  const mesh = loadSharedTetArrays('GlassBox.t');
  const setup = meshDrop.build({ mesh: { name: 'GlassBox.t', positions: mesh.positions, tets: mesh.tets } });
  setup.params = { ...setup.params, collisionMode: mode, damping: 0 };
  const v0 = setup.model.initialVelocities as Float64Array;
  for (let i = 0; i < setup.model.vertexCount; i++) v0[3 * i + 1] = -30;
  return setup;
}

/** Parts joined into one part (one object): overlapping parts make a body that intersects itself. */
export function joinedParts(parts: Part[]): Part {
  const positions = new Float64Array(parts.reduce((n, p) => n + p.positions.length, 0));
  const tets = new Uint32Array(parts.reduce((n, p) => n + p.tets.length, 0));
  let at = 0, t = 0;
  for (const p of parts) {
    positions.set(p.positions, at);
    for (let k = 0; k < p.tets.length; k++) tets[t + k] = p.tets[k] + at / 3;
    at += p.positions.length;
    t += p.tets.length;
  }
  return { positions, tets };
}

/**
 * A body that intersects itself flies at a heavy thin slab (SolverParams.pinByKind): two 10 cm
 * cubes (2 cells a side) joined as one object, the second offset by (4, 7.5, 6) cm, so that a
 * corner of each lies strictly inside the other (Pin points of a self hit, none on a lattice
 * face). The slab, 1 cm thick and 1000 times denser, stands 1 cm ahead of the body's front at
 * x = 15-16 cm, across both cubes. No gravity, no damping, no friction, one substep (no impact substeps), hybrid: in
 * the frame the body moves 10 cm, through the slab unless every boundary point meets it.
 */
export function dentedBodyAtSlab(params: Partial<SolverParams>): { setup: SimSetup; slabFarFace: number } {
  const body = joinedParts([cubePart(2, 0.1, [0, 0, 0]), cubePart(2, 0.1, [0.04, 0.075, 0.06])]);
  const slab = latticePart([1, 4, 4], (u, v, w) => [0.15 + 0.01 * u, -0.01 + 0.05 * v, -0.01 + 0.05 * w]);
  const setup = bodiesSetup(
    [{ part: body, velocity: [6, 0, 0] }, { part: slab, density: 1e6 }],
    { dt: 1 / 60, substeps: 1, impactSubsteps: 1, iterations: 2, gravity: [0, 0, 0], damping: 0, friction: 0, collisions: true, selfCollision: true, collisionMode: 'hybrid', ...params },
  );
  return { setup, slabFarFace: 0.16 };
}

/**
 * A 10 cm cube of 2 cells (object 0) whose top face's centre vertex is pushed 7 cm down into it,
 * past the cube's centre: 6 of its tets turn inside out, and the tets around the centre reach
 * past the pit's walls (a fold). Two tets of 2 mm: object 1 in the pit (outside the cube's surface,
 * yet its first corner strictly inside a positive tet of the cube), object 2 inside the cube away
 * from the fold. `rest`: the parts at rest (the cube not dented); `x`: the dented positions, the
 * parts joined in that order (pinInFolds tests).
 */
export function foldedCubeAndProbes(): { rest: Part[]; x: Float64Array } {
  const cube = cubePart(2, 0.1, [0, 0, 0]);
  const probe = (at: [number, number, number]): Part => ({
    positions: Float64Array.from([at, [at[0] + 0.002, at[1], at[2]], [at[0], at[1] + 0.002, at[2]], [at[0], at[1], at[2] + 0.002]].flat()),
    tets: Uint32Array.from([0, 1, 2, 3]),
  });
  const rest = [cube, probe([0.053, 0.045, 0.054]), probe([0.021, 0.012, 0.031])];
  const { positions: x } = joinedParts(rest);
  // The top face's centre vertex (lattice vertex (1, 2, 1)).
  let top = -1;
  for (let v = 0; v < cube.positions.length / 3; v++) {
    if (Math.abs(x[3 * v] - 0.05) < 1e-9 && Math.abs(x[3 * v + 1] - 0.1) < 1e-9 && Math.abs(x[3 * v + 2] - 0.05) < 1e-9) top = v;
  }
  x[3 * top + 1] = 0.03;
  return { rest, x };
}

/** `part` turned by `angle` radians about unit-or-not `axis` through `centre` (Rodrigues). */
export function turnedPart(part: Part, axis: readonly [number, number, number], angle: number, centre: readonly [number, number, number]): Part {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const [x, y, z] = [axis[0] / l, axis[1] / l, axis[2] / l];
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  const r = [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
  const positions = new Float64Array(part.positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const u = part.positions[i] - centre[0], v = part.positions[i + 1] - centre[1], w = part.positions[i + 2] - centre[2];
    for (let k = 0; k < 3; k++) positions[i + k] = centre[k] + r[3 * k] * u + r[3 * k + 1] * v + r[3 * k + 2] * w;
  }
  return { positions, tets: part.tets };
}

/** How turnedCubesHeadOn turns and places its two cubes: axis x, y, z and angle of each, and B's lowest corner before turning. */
export interface HeadOnTurns { a: [number, number, number, number]; b: [number, number, number, number]; bAt: [number, number, number] }

/**
 * Two 10 cm cubes of 2 cells a side, each turned about its centre (`turns`), B's lowest corner at
 * `turns.bAt` before turning (A's at the origin), thrown at each other along x at `speed` m/s each:
 * no gravity, damping or friction; the octopus box's schedule (5 substeps x 5 iterations, contacts
 * after every iteration, CCD in every round), hybrid, E 1e5; `params` overrides the rest.
 */
export function turnedCubesHeadOn(turns: HeadOnTurns, speed: number, params: Partial<SolverParams> = {}): SimSetup {
  const a = turnedPart(cubePart(2, 0.1, [0, 0, 0]), [turns.a[0], turns.a[1], turns.a[2]], turns.a[3], [0.05, 0.05, 0.05]);
  const at = turns.bAt;
  const b = turnedPart(cubePart(2, 0.1, at), [turns.b[0], turns.b[1], turns.b[2]], turns.b[3], [at[0] + 0.05, at[1] + 0.05, at[2] + 0.05]);
  return atDrawnOffset(bodiesSetup([{ part: a, velocity: [speed, 0, 0] }, { part: b, velocity: [-speed, 0, 0] }], {
    gravity: [0, 0, 0], substeps: 5, iterations: 5, damping: 0, friction: 0, collisionMode: 'hybrid', selfCollision: false,
    collideEvery: 'contacts', ccdEveryRound: true, ...params,
  }), params);
}

/**
 * The contact offset that springingCube and turnedCubesHeadOn were drawn at (unless `params` names
 * one): 1 % of the mean boundary edge, 'auto' for every contact before 2026-12-03. Their premise
 * depends on the layer's reach: a face that round 0's CCD does not yet reach, turns where edge
 * points fixed at the time of impact let edges through. At the 3 % that 'auto' keeps between
 * objects now, round 0 reaches the face and the thicker layer keeps the fixed points' edges out,
 * so the checks that can fail would no longer show what they are for (docs/collisions.md
 * "Contact offset by kind").
 */
function atDrawnOffset(setup: SimSetup, params: Partial<SolverParams>): SimSetup {
  if (params.contactOffset === undefined) setup.params = { ...setup.params, contactOffset: CONTACT_OFFSET_AUTO_SELF_RATIO * meanBoundaryEdge(setup.model) };
  return setup;
}

/**
 * Turns of turnedCubesHeadOn, drawn at random, where edge-edge contacts whose points stay at the
 * time of impact's parameters let edges of one cube through the other (edgeContactsFollow tests).
 * The second and fourth were drawn again on 2026-12-06, when CCD's hits were resolved to 2 % of the
 * separation (separationCcd.ts SEPARATION_TOL_REL): the old second no longer crossed with its points
 * fixed, and the old fourth crossed with them following (4 pairs in one substep). Over 160 fresh
 * draws the two tolerances let edges through with the points following in 36 and 37 draws, nearly
 * all the same ones (docs/collisions.md "Edge-edge contacts follow their edges").
 */
export const EDGE_THROUGH_TURNS: HeadOnTurns[] = [
  { a: [-0.04, -0.311, 0.2419, 2.2526], b: [-0.3828, -0.2942, -0.0277, 1.65], bAt: [0.2, 0.0179, 0.0082] },
  { a: [-0.175, -0.3814, -0.3721, 2.0086], b: [0.3016, -0.1972, 0.424, 1.451], bAt: [0.2, 0.0062, -0.0093] },
  { a: [-0.2237, -0.1487, -0.425, 2.2469], b: [0.3466, -0.4149, 0.2177, 0.3256], bAt: [0.2, -0.0015, 0.0115] },
  { a: [0.2497, 0.0818, -0.3614, 1.651], b: [-0.2137, -0.4017, 0.0451, 1.4195], bAt: [0.2, -0.0013, -0.0112] },
  { a: [0.1391, -0.4098, -0.2769, 1.1972], b: [0.3375, 0.3093, -0.1177, 0.4351], bAt: [0.2, 0.0077, 0.0041] },
];

/** What headOnRun measured: crossing pairs between the cubes after every substep, and the laws. */
export interface HeadOnRun {
  crossings: number[];
  /** Largest rise of total energy above its running minimum beyond 1% of what was released (and 1e-6 of the start); <= 0 keeps the law. */
  worstRise: number;
  /** Largest |total momentum| over one cube's momentum at the start. */
  worstMomentum: number;
  /** Vertices inside the other cube, summed over the frame ends. */
  inside: number;
  edgeEdgeHits: number;
  edgeEdgeApart: number;
  released: number;
}

/**
 * turnedCubesHeadOn at 3 m/s, impact substeps off, for 3 frames on the float64 reference, counted
 * by brute force after every substep (tests/support/surfaceCrossings.ts) and every frame (the
 * inside counter, momentum, kinetic + Neo-Hookean energy). `configure` sets the collision stage's
 * switches after each substep: the stage is built in the first, before the cubes are near (no
 * contact before the third).
 */
export function headOnRun(turns: HeadOnTurns, configure: (stage: CpuCollisionStage) => void): HeadOnRun {
  const s = new CpuSolver(turnedCubesHeadOn(turns, 3, { impactSubsteps: 0 }));
  const m = s.model;
  const opts = { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity };
  let bodyMomentum = 0;
  for (let i = m.objectVertexOffsets[0]; i < m.objectVertexOffsets[1]; i++) bodyMomentum += 3 / m.invMass[i];
  const e0 = totalEnergy(m, s.x, s.v, opts).total;
  const crossings: number[] = [];
  s.onSubstep = () => {
    configure(s.collisionStage!);
    crossings.push(countSurfaceCrossings({ positions: s.x, tets: m.tets, tetObject: m.tetObject }).interPairs);
  };
  let low = e0, worstRise = -Infinity, worstMomentum = 0, inside = 0, edgeEdgeHits = 0, edgeEdgeApart = 0;
  for (let f = 0; f < 3; f++) {
    s.stepFrame();
    edgeEdgeHits += s.collisionCounters.ccd.hitsEdgeEdge;
    edgeEdgeApart += s.collisionCounters.ccd.edgeEdgeApart;
    const e = totalEnergy(m, s.x, s.v, opts).total;
    worstRise = Math.max(worstRise, e - low - 0.01 * (e0 - low) - 1e-6 * e0);
    low = Math.min(low, e);
    const p = momentum(m, s.v);
    worstMomentum = Math.max(worstMomentum, Math.hypot(p[0], p[1], p[2]) / bodyMomentum);
    inside += countOn(m, s.x).inter;
  }
  return { crossings, worstRise, worstMomentum, inside, edgeEdgeHits, edgeEdgeApart, released: e0 - low };
}

/** One tet of the 4 points, its corners ordered to a positive volume. */
function orientedTet(p: number[][]): Part {
  const [a, b, c, d] = p;
  const e = (i: number) => [b[i] - a[i], c[i] - a[i], d[i] - a[i]];
  const [x, y, z] = [e(0), e(1), e(2)];
  const vol = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) + x[2] * (y[0] * z[1] - y[1] * z[0]);
  return { positions: Float64Array.from(p.flat()), tets: Uint32Array.from(vol > 0 ? [0, 1, 2, 3] : [0, 2, 1, 3]) };
}

/** The tipping tet of ridgeAndTippingEdge at the edge's angle theta (from +x toward +y) with P at p: P, Q, and two vertices above the edge. */
function tippingTet(p: number[], theta: number): number[][] {
  const L = 0.04, d = [Math.cos(theta), Math.sin(theta), 0], up = [-Math.sin(theta), Math.cos(theta), 0];
  const q = p.map((c, k) => c + L * d[k]);
  const mid = p.map((c, k) => 0.5 * (c + q[k]) + 0.03 * up[k]);
  return [p, q, [mid[0], mid[1], mid[2] + 0.015], [mid[0], mid[1], mid[2] - 0.015]];
}

/** The contact offset of ridgeAndTippingEdge's motion: P starts 0.5 mm from the ridge, within it. */
export const RIDGE_CONTACT_OFFSET = 0.001;

/**
 * A tet whose top edge is a ridge along z (faces y = -|x| beside it, 10 cm long) and a tet whose
 * 4 cm edge PQ starts with P 0.5 mm from the ridge, rising away at 35 degrees, and ends (`end`,
 * the second part's 4 vertices, a rigid motion of its start) slid 1.4 mm and tipped 40 degrees,
 * across the ridge 1.1 mm below its top with P and Q just outside the two slopes
 * (tests/unit/collision/interiorEdges.test.ts).
 */
export function ridgeAndTippingEdge(): { parts: Part[]; end: Float64Array } {
  const ridge = [[0, 0, -0.05], [0, 0, 0.05], [-0.05, -0.05, 0], [0.05, -0.05, 0]];
  const deg = Math.PI / 180;
  const start = orientedTet(tippingTet([-0.0004, 0.0003, 0], 35 * deg));
  const end = orientedTet(tippingTet([-0.0015, -0.001, 0], -5 * deg));
  if (start.tets.join() !== end.tets.join()) throw new Error('ridgeAndTippingEdge: the motion turned the tet inside out');
  return { parts: [orientedTet(ridge), start], end: end.positions };
}
