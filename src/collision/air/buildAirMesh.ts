/**
 * Air mesh generation (paper 004 section 3.1): the container is filled with a Kuhn lattice
 * (every cube of spacing `cell` split into six tets around its main diagonal, as
 * mesh/procedural/hexGridBox.ts meshes a box, so neighbouring cubes conform), the lattice tets
 * inside an object are cut out, and what is left is the air. Objects meshed on the same lattice
 * (grid boxes of that spacing, placed on lattice points) then conform with the air by
 * construction: each boundary face of an object is a face of an air tet, or lies on the
 * container's wall. That is checked face by face, and a mismatch is an error naming the object
 * and its triangle (air mode needs such objects; a constrained Delaunay mesher such as TetGen,
 * which the paper names, would lift that limit).
 *
 * The paper's air vertices are the objects' own (section 2.4): a lattice vertex in free air
 * belongs to no object and would need a mass of its own. Each one is removed by collapsing it
 * onto a neighbour, chosen so that every tet that remains stays positively oriented with the
 * best worst quality (eq. 4); the container's wall vertices coarsen the same way within their
 * walls and stay as fixed points. Where a free point cannot go (its star touches several object
 * planes so that every neighbour would flatten a tet; a few in a scene of many boxes), it stays
 * as an air particle: inverse mass AIR_PARTICLE_MASS_RATIO x the objects' largest, no gravity,
 * moved only by the air constraints (the paper's future work names such particles). Tets whose
 * four vertices are all fixed points stay: they never act, but the optimisation may flip them
 * into tets that objects can enter (a region of them is closed to the objects until then).
 */
import type { SceneArrays } from '../../contract/sceneArrays';
import { airTetCount, orient6, type AirMesh, type AirMeshStats, type AirSpec } from './airMesh';
import { AirMeshEditor } from './optimizeAirMesh';
import { AirMeshError, describeVertex, formatNumber as fmt } from './airMeshError';

/** Kuhn's six tets of a cube: paths from corner 0 to corner 7 (corner bits x = 1, y = 2, z = 4), as hexGridBox.ts. */
const KUHN = [
  [0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7],
] as const;
const FACES = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]] as const;
/** A lattice coordinate is a lattice point when within this many cells of an integer. */
const ON_LATTICE = 1e-5;
/** An air particle's inverse mass over the objects' largest vertex inverse mass: light, so it yields to the objects. */
export const AIR_PARTICLE_MASS_RATIO = 10;
/** A collapse is taken only when every remaining tet keeps at least this quality (eq. 4). */
const MIN_COLLAPSE_QUALITY = 0.15;

export interface BuiltAirMesh {
  mesh: AirMesh;
  stats: AirMeshStats;
}

/** What the generator reads of the model (a structured clone of it reaches a worker). */
export type AirModel = Pick<SceneArrays, 'vertexCount' | 'tetCount' | 'restPositions' | 'tets' | 'tetObject' | 'vertexObject' | 'objectNames' | 'objectVertexOffsets' | 'objectTetOffsets' | 'invMass'>;

export function airModelOf(m: AirModel): AirModel {
  return {
    vertexCount: m.vertexCount, tetCount: m.tetCount, restPositions: m.restPositions, tets: m.tets, tetObject: m.tetObject, vertexObject: m.vertexObject,
    objectNames: [...m.objectNames], objectVertexOffsets: m.objectVertexOffsets, objectTetOffsets: m.objectTetOffsets, invMass: m.invMass,
  };
}

export function buildAirMesh(model: AirModel, spec: AirSpec): BuiltAirMesh {
  const t0 = performance.now();
  const { n, cell, lo } = latticeOf(spec);
  const [nx, ny, nz] = n;
  const gid = (i: number, j: number, k: number) => i + (nx + 1) * (j + (ny + 1) * k);
  const latticeVertices = (nx + 1) * (ny + 1) * (nz + 1);
  const lp = new Float64Array(3 * latticeVertices);
  const onHull = new Uint8Array(latticeVertices);
  for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) {
    const g = gid(i, j, k);
    lp[3 * g] = lo[0] + i * cell; lp[3 * g + 1] = lo[1] + j * cell; lp[3 * g + 2] = lo[2] + k * cell;
    // Bits of the hull planes the point lies on: x-, x+, y-, y+, z-, z+.
    onHull[g] = (i === 0 ? 1 : 0) | (i === nx ? 2 : 0) | (j === 0 ? 4 : 0) | (j === ny ? 8 : 0) | (k === 0 ? 16 : 0) | (k === nz ? 32 : 0);
  }
  const x = model.restPositions;
  const where = (v: number) => describeVertex(model, v);
  // Every model vertex inside the container.
  for (let v = 0; v < model.vertexCount; v++) {
    for (let a = 0; a < 3; a++) {
      const c = (x[3 * v + a] - lo[a]) / cell;
      if (!(c >= -ON_LATTICE && c <= n[a] + ON_LATTICE)) throw new AirMeshError(`air mesh: ${where(v)} is outside the air container [${spec.min.join(', ')}] - [${spec.max.join(', ')}]`);
    }
  }
  // The objects' boundary faces, and their vertices on lattice points.
  const modelFaces = boundaryFaces(model.tets, model.vertexCount);
  const latticeOfModel = new Int32Array(model.vertexCount).fill(-1);
  const modelOfLattice = new Int32Array(latticeVertices).fill(-1);
  for (const f of modelFaces.values()) {
    for (const v of f.vertices) {
      if (latticeOfModel[v] >= 0) continue;
      const c = [0, 0, 0];
      for (let a = 0; a < 3; a++) {
        const r = (x[3 * v + a] - lo[a]) / cell;
        c[a] = Math.round(r);
        if (Math.abs(r - c[a]) > ON_LATTICE) {
          throw new AirMeshError(`air mesh: ${where(v)} is a boundary vertex off the air lattice (spacing ${cell} from [${spec.min.join(', ')}]); air mode needs objects meshed on that lattice (grid boxes of the same spacing)`);
        }
      }
      const g = gid(c[0], c[1], c[2]);
      if (modelOfLattice[g] >= 0) throw new AirMeshError(`air mesh: ${where(v)} and ${where(modelOfLattice[g])} are at the same lattice point: objects may not touch in the rest state`);
      modelOfLattice[g] = v;
      latticeOfModel[v] = g;
    }
  }
  // Lattice tets whose centroid lies inside an object are the object's; the rest is air.
  const inside = objectLocator(model, lo, cell, n);
  const air: number[] = [];
  let latticeTets = 0;
  let objectTets = 0;
  const corner = new Array<number>(8);
  const centroid = [0, 0, 0];
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    for (let c = 0; c < 8; c++) corner[c] = gid(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
    for (const path of KUHN) {
      latticeTets++;
      let [a, b, c, d] = path.map((q) => corner[q]);
      for (let ax = 0; ax < 3; ax++) centroid[ax] = (lp[3 * a + ax] + lp[3 * b + ax] + lp[3 * c + ax] + lp[3 * d + ax]) / 4;
      if (inside(centroid[0], centroid[1], centroid[2])) { objectTets++; continue; }
      if (orient6(lp, a, b, c, d) < 0) [c, d] = [d, c];
      air.push(a, b, c, d);
    }
  }
  checkConformity(model, modelFaces, air, modelOfLattice, latticeOfModel, onHull, lp, where);
  // Free lattice vertices (neither an object's nor on the wall) are collapsed away.
  const free = new Uint8Array(latticeVertices);
  for (const g of air) if (modelOfLattice[g] < 0 && onHull[g] === 0) free[g] = 1;
  const collapsed = collapseFreeVertices(air, free, onHull, modelOfLattice, lp);
  // Renumber: model vertices keep their ids, wall points follow; all-fixed tets are dropped.
  const pointId = new Int32Array(latticeVertices).fill(-1);
  const points: number[] = [];
  const pointInvMass: number[] = [];
  let wMax = 0;
  for (let v = 0; v < model.vertexCount; v++) wMax = Math.max(wMax, model.invMass[v]);
  const tets: number[] = [];
  for (let t = 0; t < air.length; t += 4) {
    if (air[t] < 0) continue;
    for (let q = 0; q < 4; q++) {
      const g = air[t + q];
      const m = modelOfLattice[g];
      if (m >= 0) { tets.push(m); continue; }
      if (pointId[g] < 0) {
        pointId[g] = points.length / 3;
        points.push(lp[3 * g], lp[3 * g + 1], lp[3 * g + 2]);
        pointInvMass.push(free[g] ? AIR_PARTICLE_MASS_RATIO * wMax : 0);
      }
      tets.push(model.vertexCount + pointId[g]);
    }
  }
  const mesh: AirMesh = { modelVertexCount: model.vertexCount, points: Float64Array.from(points), pointInvMass: Float64Array.from(pointInvMass), tets: Uint32Array.from(tets) };
  const particles = pointInvMass.filter((w) => w > 0).length;
  let objectVertices = 0;
  for (let v = 0; v < model.vertexCount; v++) if (latticeOfModel[v] >= 0) objectVertices++;
  return {
    mesh,
    stats: {
      airTets: airTetCount(mesh),
      objectTets,
      objectVertices,
      fixedPoints: points.length / 3 - particles,
      particles,
      latticeTets,
      collapsed,
      buildMs: performance.now() - t0,
    },
  };
}

function latticeOf(spec: AirSpec): { n: [number, number, number]; cell: number; lo: readonly [number, number, number] } {
  const cell = spec.cell;
  if (!(cell > 0) || !Number.isFinite(cell)) throw new AirMeshError(`air mesh: cell (lattice spacing) must be a finite number > 0, got ${cell}`);
  const n: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const r = (spec.max[a] - spec.min[a]) / cell;
    n[a] = Math.round(r);
    if (!(n[a] >= 1) || Math.abs(r - n[a]) > ON_LATTICE) throw new AirMeshError(`air mesh: container side ${'xyz'[a]} (${fmt(spec.min[a])} to ${fmt(spec.max[a])}) is not a whole number (>= 1) of cells of ${cell}`);
  }
  if ((n[0] + 1) * (n[1] + 1) * (n[2] + 1) > 1 << 24) throw new AirMeshError(`air mesh: lattice of ${n.join(' x ')} cells is too large (at most 2^24 lattice points); use a larger cell`);
  return { n, cell, lo: spec.min };
}

interface Face {
  vertices: [number, number, number];
  tet: number;
}

/** Key of an unordered vertex triple (numeric while it fits in a double, else a string). */
export function faceKey(a: number, b: number, c: number, n: number): number | string {
  if (a > b) [a, b] = [b, a];
  if (b > c) [b, c] = [c, b];
  if (a > b) [a, b] = [b, a];
  return n * n * n < Number.MAX_SAFE_INTEGER ? (a * n + b) * n + c : `${a},${b},${c}`;
}

/** Faces used by exactly one tet, by key. */
function boundaryFaces(tets: ArrayLike<number>, vertexCount: number): Map<number | string, Face> {
  const seen = new Map<number | string, Face | null>();
  for (let t = 0; t < tets.length / 4; t++) {
    for (const f of FACES) {
      const v: [number, number, number] = [tets[4 * t + f[0]], tets[4 * t + f[1]], tets[4 * t + f[2]]];
      const key = faceKey(v[0], v[1], v[2], vertexCount);
      seen.set(key, seen.has(key) ? null : { vertices: v, tet: t });
    }
  }
  const out = new Map<number | string, Face>();
  for (const [k, f] of seen) if (f) out.set(k, f);
  return out;
}

/**
 * inside(x, y, z): the point lies in some tet of some object (barycentric test with a relative
 * tolerance), through a bin per lattice cube of the tets whose boxes touch it.
 */
function objectLocator(model: AirModel, lo: readonly number[], cell: number, n: readonly number[]): (x: number, y: number, z: number) => boolean {
  const bins = new Map<number, number[]>();
  const p = model.restPositions;
  const key = (i: number, j: number, k: number) => i + (n[0] + 1) * (j + (n[1] + 1) * k);
  for (let t = 0; t < model.tetCount; t++) {
    const mn = [Infinity, Infinity, Infinity], mx = [-Infinity, -Infinity, -Infinity];
    for (let q = 0; q < 4; q++) {
      const v = model.tets[4 * t + q];
      for (let a = 0; a < 3; a++) { mn[a] = Math.min(mn[a], p[3 * v + a]); mx[a] = Math.max(mx[a], p[3 * v + a]); }
    }
    const c0 = mn.map((m, a) => Math.max(0, Math.floor((m - lo[a]) / cell - ON_LATTICE)));
    const c1 = mx.map((m, a) => Math.min(n[a] - 1, Math.floor((m - lo[a]) / cell + ON_LATTICE)));
    for (let k = c0[2]; k <= c1[2]; k++) for (let j = c0[1]; j <= c1[1]; j++) for (let i = c0[0]; i <= c1[0]; i++) {
      const b = key(i, j, k);
      let list = bins.get(b);
      if (!list) bins.set(b, (list = []));
      list.push(t);
    }
  }
  const q = new Float64Array(15);
  return (x, y, z) => {
    const i = Math.min(n[0] - 1, Math.floor((x - lo[0]) / cell)), j = Math.min(n[1] - 1, Math.floor((y - lo[1]) / cell)), k = Math.min(n[2] - 1, Math.floor((z - lo[2]) / cell));
    const list = bins.get(key(i, j, k));
    if (!list) return false;
    for (const t of list) {
      for (let c = 0; c < 4; c++) {
        const v = model.tets[4 * t + c];
        q[3 * c] = p[3 * v]; q[3 * c + 1] = p[3 * v + 1]; q[3 * c + 2] = p[3 * v + 2];
      }
      q[12] = x; q[13] = y; q[14] = z;
      const vol = orient6(q, 0, 1, 2, 3);
      const tol = -1e-9 * Math.abs(vol);
      if (orient6(q, 4, 1, 2, 3) >= tol && orient6(q, 0, 4, 2, 3) >= tol && orient6(q, 0, 1, 4, 3) >= tol && orient6(q, 0, 1, 2, 4) >= tol) return true;
    }
    return false;
  };
}

/**
 * Objects and air form one conforming mesh: every boundary face of the air (outside the
 * container's wall) is an object's boundary triangle, and every object boundary triangle is a
 * face of the air or lies on the wall.
 */
function checkConformity(
  model: AirModel, modelFaces: Map<number | string, Face>, air: number[], modelOfLattice: Int32Array, latticeOfModel: Int32Array, onHull: Uint8Array, lp: Float64Array, where: (v: number) => string,
): void {
  const airFaces = boundaryFaces(air, onHull.length);
  const matched = new Set<number | string>();
  for (const f of airFaces.values()) {
    const [a, b, c] = f.vertices;
    if ((onHull[a] & onHull[b] & onHull[c]) !== 0) continue;
    const ma = modelOfLattice[a], mb = modelOfLattice[b], mc = modelOfLattice[c];
    const key = ma >= 0 && mb >= 0 && mc >= 0 ? faceKey(ma, mb, mc, model.vertexCount) : undefined;
    if (key === undefined || !modelFaces.has(key)) {
      const cx = (lp[3 * a] + lp[3 * b] + lp[3 * c]) / 3, cy = (lp[3 * a + 1] + lp[3 * b + 1] + lp[3 * c + 1]) / 3, cz = (lp[3 * a + 2] + lp[3 * b + 2] + lp[3 * c + 2]) / 3;
      throw new AirMeshError(`air mesh: the air's face centred at (${fmt(cx)}, ${fmt(cy)}, ${fmt(cz)}) is no object's boundary triangle: the objects are not meshed on the air lattice (grid boxes of its spacing on its points)`);
    }
    matched.add(key);
  }
  for (const [key, f] of modelFaces) {
    if (matched.has(key)) continue;
    const [a, b, c] = f.vertices.map((v) => latticeOfModel[v]);
    if (a >= 0 && b >= 0 && c >= 0 && (onHull[a] & onHull[b] & onHull[c]) !== 0) continue;
    const o = model.tetObject[f.tet];
    throw new AirMeshError(`air mesh: object ${o} (${model.objectNames[o]}) boundary triangle of tet ${f.tet - model.objectTetOffsets[o]} (${where(f.vertices[0])}) is not a face of the air: the object is not meshed on the air lattice`);
  }
}

/**
 * Collapses every free vertex onto the neighbour that leaves the best worst quality among the
 * tets that remain (those not containing both), all of them positively oriented, deepest in
 * the air first. The container's wall points collapse too, each onto a neighbour on every wall
 * plane it lies on (the walls keep their shape, the corners stay): a free point beside a finely
 * triangulated wall cannot go onto one wall point while wall triangles without that point are
 * in its star. When nothing can go, a round of flips (optimizeAirMesh.ts) improves the tets and
 * the collapses are tried again. `air` is replaced by the result; `free` keeps 1 for the free
 * points left. Returns the number of free points collapsed.
 */
function collapseFreeVertices(air: number[], free: Uint8Array, onHull: Uint8Array, modelOfLattice: Int32Array, lp: Float64Array): number {
  const editor = new AirMeshEditor(air, free.length, lp);
  // Distance in tet hops from a vertex that stays.
  const hops = new Int32Array(free.length).fill(-1);
  let front: number[] = [];
  const used = [...new Set(air)];
  for (const v of used) if (!free[v]) { hops[v] = 0; front.push(v); }
  while (front.length > 0) {
    const next: number[] = [];
    for (const v of front) for (const u of editor.neighbours(v)) if (hops[u] < 0) { hops[u] = hops[v] + 1; next.push(u); }
    front = next;
  }
  const corner = (v: number) => bitCount(onHull[v]) >= 3;
  // Wall points go too (not the corners, nor an object's vertex on a wall).
  let pending = used.filter((v) => free[v] || (onHull[v] !== 0 && !corner(v) && modelOfLattice[v] < 0)).sort((a, b) => hops[b] - hops[a]);
  let freeLeft = pending.filter((v) => free[v]).length;
  let collapsed = 0;
  const stays = (u: number) => !free[u] && onHull[u] === 0;
  let stalled = 0;
  for (let round = 0; round < 32 && freeLeft > 0 && stalled < 3; round++) {
    const left: number[] = [];
    const freeBefore = freeLeft;
    for (const v of pending) {
      const h = onHull[v];
      const move = editor.collapse(v, (u) => (onHull[u] & h) === h, stays, MIN_COLLAPSE_QUALITY);
      if (!move) { left.push(v); continue; }
      editor.apply(move);
      if (free[v]) { free[v] = 0; collapsed++; freeLeft--; }
    }
    pending = left;
    if (freeLeft < freeBefore) { stalled = 0; continue; }
    // No free point could go: flips among the tets near the free points left, then again.
    stalled++;
    const near = new Set<number>();
    for (const v of left) if (free[v]) for (const u of [v, ...editor.neighbours(v)]) for (const t of editor.tetsOf(u)) near.add(t);
    for (const t of near) {
      if (!editor.alive(t)) continue;
      const m = editor.bestMoveAt(t);
      if (m) editor.apply(m);
    }
  }
  air.length = 0;
  air.push(...editor.compact());
  return collapsed;
}

function bitCount(b: number): number {
  let n = 0;
  for (; b; b &= b - 1) n++;
  return n;
}
