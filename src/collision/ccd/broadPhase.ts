/**
 * CCD broad phase (CPU): which boundary vertex / boundary triangle pairs and which boundary edge
 * pairs may touch during the coming horizon, for the exact narrow phase (vertexFaceCcd /
 * edgeEdgeCcd, index.ts). Step of the hybrid CCD + DCD time step (paper 000, supplement Alg. 5):
 * a pair whose swept boxes do not overlap cannot collide, so only overlapping pairs are tested.
 *
 * Completeness: each vertex's box contains its whole path over the horizon (sweptVertexBoxes), a
 * triangle's (edge's) box is the union of its corners' boxes, and a triangle (edge) moving with
 * its corners stays inside the convex hull of the corners' paths, hence inside that box. So every
 * pair that can touch has overlapping boxes, and every overlapping pair is reported.
 *
 * Method: a uniform grid stored as a spatial hash (boxHash.ts: counting sort by bucket, typed arrays
 * only), joined per bucket: vertices with triangles, edges with edges. The cell is the mean largest
 * side of the triangles' (edges') boxes, so a typical box covers at most 8 cells; the few boxes that
 * would cover more than OVERSIZED_CELLS cells are tested against everything directly instead. A pair
 * is reported only from the cell that holds the lower corner of the two boxes' intersection, which
 * both boxes cover, so every pair comes out exactly once.
 */

import { unionCornerBoxes } from './cornerBoxes';
import type { TetMesh } from '../../mesh/types';
import { vertexIncidence } from '../../mesh/vertexIncidence';
import { buildBoxHash, cellRanges, crossJoin, gridFrame, selfJoin, tableSize, type CellRanges, type GridFrame, type JoinGroups } from './boxHash';
import { overlap, roundDown, roundUp } from './f32Round';
import { dropCulled, type CulledNodes } from './culledPairs';
import { OwnPairCache, type OwnPairReuse } from './ownPairCache';
import { objectCount, objectMeans } from './objectMeans';
import { clipToMeanPath } from './meanPathBoxes';
import { chooseSelfPairFrames, type SelfPairFrame, type SelfPairFrameReport } from './selfPairFrames';
import { edgeEdgeOneTet, edgeOpposites, triangleOpposites, vertexFaceOneTet } from './tetPairs';
import { sortedJoinFits, sortedSelfPairs, type JoinCulling, type SortedPairs } from './sortedSelfJoin';

export interface CcdTopology {
  vertexCount: number;
  boundaryVertices: Uint32Array;
  /** 3 global vertex ids per boundary triangle. */
  triangles: Uint32Array;
  /** 2 global vertex ids per boundary edge. */
  edges: Uint32Array;
  /** Object id per vertex. */
  vertexObject: Uint32Array;
  /**
   * Optional element topology: 4 vertex ids per tet, and vertex -> tets (CSR). With it, pairs whose
   * four points belong to one tet are no candidates: a vertex crossing the opposite face of its own
   * tet, or two opposite edges of a tet crossing, is that element inverting or unfolding, which the
   * material solve handles, not a collision (DCD likewise skips the tets incident to a point).
   */
  tets?: Uint32Array;
  vertexTetOffsets?: Uint32Array;
  vertexTets?: Uint32Array;
}

/** The CCD view of a tet mesh (e.g. the scene mesh, sceneMesh.ts): its boundary, arrays shared, not copied. */
export function ccdTopologyOf(mesh: TetMesh): CcdTopology {
  const n = mesh.vertexCount, tets = mesh.tets;
  const { offsets: vertexTetOffsets, ids: vertexTets } = vertexIncidence(tets, 4, n);
  return {
    vertexCount: n, boundaryVertices: mesh.boundaryVertices, triangles: mesh.boundaryTriangles, edges: mesh.boundaryEdges, vertexObject: mesh.vertexObject,
    tets, vertexTetOffsets, vertexTets,
  };
}

export interface MotionBound {
  /** Seconds. */
  horizon: number;
  gravity: [number, number, number];
  /** World units. */
  margin: number;
  /**
   * The own-frame boxes' margin (pairs within one object, sweptCandidates / ownFrameBoxes), world
   * units; absent: `margin`. Its own so that escapes from the own-frame boxes (a body landing: its
   * lower part stops while its mean still falls) widen those boxes only, not every world box.
   */
  ownMargin?: number;
  /**
   * Per object (index = object id), the own-frame boxes' margin, world units: overrides
   * `ownMargin`, so that an escape from one body's own-frame boxes (that body landing) widens that
   * body's boxes only (ccdSchedule.ts). At least one entry per object.
   */
  ownMargins?: ArrayLike<number>;
  /**
   * Per vertex, 6 floats (world units, >= 0): its own-frame box also grows by ownGrowth[6 v + k]
   * below and ownGrowth[6 v + 3 + k] above on axis k. The motion a body's own frame cannot predict
   * when the body meets an obstacle: a vertex that stops on it while the frame's reference moves
   * on (or the reference stops while the vertex moves on) is displaced by the relative velocity
   * times the horizon, along that velocity (obstacleGrowth.ts). Absent: none.
   */
  ownGrowth?: ArrayLike<number>;
  /**
   * Per vertex (world units, >= 0): the least margin of that vertex's world and own-frame boxes,
   * over `margin`, `ownMargin` or `ownMargins`. The vertices that escaped their boxes widen their
   * own boxes (ccdSchedule.ts), not every box of the object or the world: on an H100 a few whipping
   * tentacle tips, escaping by tens of millimetres, widened the 4-octopus box's every box to
   * 0.1-0.5 m and the job to seconds (docs/benchmarks.md). Absent: none.
   */
  vertexMargins?: ArrayLike<number>;
  /**
   * Pairs within one object are kept from job to job (ownPairCache.ts) with boxes grown by this
   * fraction of the object's own-frame margin, and reused while its boxes stay inside them; 0
   * joins every object afresh every job. Absent: SELF_PAIR_SKIN. Same pairs either way.
   */
  selfPairSkin?: number;
  /**
   * The frame the pairs within one object are joined in (selfPairFrames.ts): 'own' (absent) its own
   * frame; 'adaptive' per object the frame with the smaller boxes, world or own.
   */
  selfPairFrame?: SelfPairFrame;
  /**
   * The world boxes' prediction (SolverParams.ccdWorldBoxes): 'ball' (absent) each vertex's ball
   * of any motion that does not speed it up (sweptVertexBoxes); 'mean-path' that ball clipped to
   * the vertex's object's mean path plus its own deviation and obstacle growth (meanPathBoxes.ts).
   */
  worldBoxes?: WorldBoxes;
}

/** MotionBound.worldBoxes. */
export type WorldBoxes = 'ball' | 'mean-path';

/** Default MotionBound.selfPairSkin, SolverParams.selfPairSkin's default (docs/benchmarks.md "CCD's broad phase: pairs kept across jobs"). */
export const SELF_PAIR_SKIN = 0.5;

export interface CcdCandidates {
  /** Pairs: vertex id, triangle index. */
  vertexFace: Uint32Array;
  /** Pairs: edge index a < edge index b. */
  edgeEdge: Uint32Array;
}

export { roundDown, roundUp };

/**
 * Per vertex 6 floats (min xyz, max xyz): the hull of x and x + g*H^2/2 (the fall under gravity
 * alone), grown on every side by margin + |v|*H. positions and velocities are vec4 per vertex (xyz
 * used).
 *
 * What it bounds: every path x + g t^2/2 + d(t), t in [0, H], whose motion apart from gravity,
 * d(t) = integral of u with u = velocity - g t, never moves faster than |v| (|u| <= |v|): the
 * ballistic path (u = v), and a rebound or a turn at any time within the horizon that does not
 * speed the vertex up. Then |d(t)| <= |v| t <= |v| H on every axis. The hull used to be that of
 * x and x + v H + g H^2/2: 3 |v| H long along the motion instead of 2 |v| H, and yet short of this
 * bound for a vertex rising against gravity that turns back (its box ended |v| H below x, the turned
 * path falls |v| H + |g| H^2/2). The 8-octopus impact of bench/ccd.ts went from 925,564 candidate
 * pairs to 700,775 (docs/benchmarks.md "Swept boxes: the motion's ball, not its hull"). Corners are rounded outward
 * to float32. Motion outside the bound (a vertex sped up: a body struck, a whipping tentacle tip)
 * escapes; the longer box also held a vertex sped up along its own motion, to about 1.5 |v| over
 * the horizon. The GPU counts and lists each escape (ccdNarrow.wgsl), the escaped vertex's boxes
 * widen (ccdSchedule.ts), and in hybrid mode it gets the DCD test at its substep's end.
 */
export function sweptVertexBoxes(positions: Float32Array, velocities: Float32Array, bound: MotionBound, out?: Float32Array): Float32Array {
  return sweptBoxesOf(positions, velocities, bound, out);
}

/**
 * The world boxes the GPU checks and the pairs between objects are found with: the balls
 * (sweptVertexBoxes; `ball` when the caller has them, left as they are), clipped to each object's
 * mean path with bound.worldBoxes 'mean-path' (meanPathBoxes.ts). `only`: the vertices of those
 * objects (the others' boxes left at 0).
 */
export function worldBoxes(
  topo: CcdTopology, positions: Float32Array, velocities: Float32Array, bound: MotionBound, only?: [number, number], ball?: Float32Array,
): Float32Array {
  const kind = bound.worldBoxes ?? 'ball';
  if (kind !== 'ball' && kind !== 'mean-path') throw new RangeError(`sweptCandidates: bound.worldBoxes must be 'ball' or 'mean-path', got ${String(kind)}`);
  const balls = ball ?? sweptBoxesOf(positions, velocities, bound, undefined, only ? { object: topo.vertexObject, range: only } : undefined);
  if (kind === 'ball') return balls;
  const boxes = ball ? ball.slice() : balls;
  clipToMeanPath(topo, positions, velocities, bound, boxes, only);
  return boxes;
}

/**
 * sweptVertexBoxes for the vertices `only.object` places in `only.range` (a part of a split job,
 * CandidatePart); the others' boxes are left at 0 (never hashed by that part).
 */
function sweptBoxesOf(
  positions: Float32Array, velocities: Float32Array, bound: MotionBound, out?: Float32Array, only?: { object: Uint32Array; range: [number, number] },
  objectMargins?: { object: Uint32Array; margins?: ArrayLike<number>; growth?: ArrayLike<number> },
): Float32Array {
  if (positions.length % 4 !== 0) throw new RangeError(`sweptVertexBoxes: positions has length ${positions.length}, not 4 per vertex (vec4)`);
  const n = positions.length / 4;
  if (velocities.length !== positions.length) throw new RangeError(`sweptVertexBoxes: velocities has length ${velocities.length}, positions ${positions.length} (both vec4 per vertex)`);
  const H = bound.horizon;
  if (!(Number.isFinite(H) && H >= 0)) throw new RangeError(`sweptVertexBoxes: bound.horizon must be a finite number >= 0, got ${H}`);
  if (!(Number.isFinite(bound.margin) && bound.margin >= 0)) throw new RangeError(`sweptVertexBoxes: bound.margin must be a finite number >= 0, got ${bound.margin}`);
  const g = bound.gravity;
  if (!Array.isArray(g) || g.length !== 3 || !g.every((c) => Number.isFinite(c))) throw new RangeError(`sweptVertexBoxes: bound.gravity must be 3 finite numbers, got ${String(g)}`);
  const boxes = out ?? new Float32Array(6 * n);
  if (boxes.length !== 6 * n) throw new RangeError(`sweptVertexBoxes: out has length ${boxes.length}, expected ${6 * n} (6 per vertex for ${n} vertices)`);
  const half = 0.5 * H * H;
  const gx = g[0] * half, gy = g[1] * half, gz = g[2] * half;
  // Per vertex and side, the growth for meeting an obstacle (MotionBound.ownGrowth): 0 without one.
  const growth = objectMargins?.growth;
  const vertexMargins = bound.vertexMargins;
  if (vertexMargins !== undefined) checkVertexMargins(vertexMargins, n);
  for (let i = 0; i < n; i++) {
    if (only && (only.object[i] < only.range[0] || only.object[i] >= only.range[1])) continue;
    const x = positions[4 * i], y = positions[4 * i + 1], z = positions[4 * i + 2];
    const vx = velocities[4 * i], vy = velocities[4 * i + 1], vz = velocities[4 * i + 2];
    const object = objectMargins ? objectMargins.object[i] : 0;
    const margin = objectMargins?.margins ? objectMargins.margins[object] : bound.margin;
    const grow = (vertexMargins !== undefined ? Math.max(margin, vertexMargins[i]) : margin) + Math.sqrt(vx * vx + vy * vy + vz * vz) * H;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z) && Number.isFinite(grow))) {
      throw new RangeError(`sweptVertexBoxes: vertex ${i}: position (${x}, ${y}, ${z}) or velocity (${vx}, ${vy}, ${vz}) is not finite`);
    }
    const ex = x + gx, ey = y + gy, ez = z + gz;
    const o = 6 * i;
    boxes[o] = roundDown(Math.min(x, ex) - grow - (growth ? growth[o] : 0));
    boxes[o + 1] = roundDown(Math.min(y, ey) - grow - (growth ? growth[o + 1] : 0));
    boxes[o + 2] = roundDown(Math.min(z, ez) - grow - (growth ? growth[o + 2] : 0));
    boxes[o + 3] = roundUp(Math.max(x, ex) + grow + (growth ? growth[o + 3] : 0));
    boxes[o + 4] = roundUp(Math.max(y, ey) + grow + (growth ? growth[o + 4] : 0));
    boxes[o + 5] = roundUp(Math.max(z, ez) + grow + (growth ? growth[o + 5] : 0));
  }
  return boxes;
}

/** Throws a RangeError naming the vertex when MotionBound.vertexMargins is not one finite margin >= 0 per vertex. */
function checkVertexMargins(margins: ArrayLike<number>, n: number): void {
  if (margins.length !== n) throw new RangeError(`sweptVertexBoxes: bound.vertexMargins has ${margins.length} entries, expected one per vertex (${n})`);
  for (let v = 0; v < n; v++) {
    if (!(Number.isFinite(margins[v]) && margins[v] >= 0)) throw new RangeError(`sweptVertexBoxes: bound.vertexMargins[${v}] (vertex ${v}) must be a finite number >= 0, got ${margins[v]}`);
  }
}

/** A growable list of u32 pairs. */
class PairList {
  data = new Uint32Array(1024);
  length = 0;
  push(a: number, b: number): void {
    if (this.length + 2 > this.data.length) {
      const grown = new Uint32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }
  result(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** Throws a RangeError naming the array and index when `topo` is malformed (lengths, ids out of range). */
export function checkCcdTopology(topo: CcdTopology, where = 'ccdCandidates'): void {
  const n = topo.vertexCount;
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`${where}: vertexCount must be a non-negative integer, got ${n}`);
  const arrays = ['boundaryVertices', 'triangles', 'edges', 'vertexObject'] as const;
  for (const name of arrays) {
    if (!(topo[name] instanceof Uint32Array)) throw new RangeError(`${where}: ${name} must be a Uint32Array, got ${Object.prototype.toString.call(topo[name])}`);
  }
  if (topo.vertexObject.length !== n) throw new RangeError(`${where}: vertexObject has length ${topo.vertexObject.length}, expected ${n} (one per vertex)`);
  if (topo.triangles.length % 3 !== 0) throw new RangeError(`${where}: triangles has length ${topo.triangles.length}, not 3 per triangle`);
  if (topo.edges.length % 2 !== 0) throw new RangeError(`${where}: edges has length ${topo.edges.length}, not 2 per edge`);
  const ids: [string, Uint32Array, number][] = [['boundaryVertices', topo.boundaryVertices, 1], ['triangles', topo.triangles, 3], ['edges', topo.edges, 2]];
  for (const [name, a, per] of ids) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] >= n) throw new RangeError(`${where}: ${name}[${i}] (${per === 1 ? 'entry' : `element ${Math.floor(i / per)}`}) = vertex ${a[i]}, out of range [0, ${n})`);
    }
  }
}

/** Topologies checkCcdTopology passed (a worker's jobs reuse one topology: checked once, not per job). */
const checkedTopologies = new WeakSet<CcdTopology>();

/** The topology (once) and the boxes of the vertices the call hashes (of objects lo..hi-1 when `objects` is given). */
function checkTopology(topo: CcdTopology, boxes: Float32Array, objects?: [number, number]): void {
  if (!checkedTopologies.has(topo)) {
    checkCcdTopology(topo);
    checkedTopologies.add(topo);
  }
  const n = topo.vertexCount;
  if (boxes.length !== 6 * n) throw new RangeError(`ccdCandidates: boxes has length ${boxes.length}, expected ${6 * n} (6 per vertex for ${n} vertices)`);
  const obj = topo.vertexObject;
  const read = readVertices(topo);
  for (let i = 0; i < read.length; i++) {
    const v = read[i];
    if (!objects || (obj[v] >= objects[0] && obj[v] < objects[1])) checkBox(boxes, v);
  }
}

const readVerticesCache = new WeakMap<CcdTopology, Uint32Array>();

/** Every vertex whose box a join reads (boundary vertices, triangle and edge corners), each once. */
function readVertices(topo: CcdTopology): Uint32Array {
  let out = readVerticesCache.get(topo);
  if (!out) {
    const seen = new Uint8Array(topo.vertexCount);
    for (const ids of [topo.boundaryVertices, topo.triangles, topo.edges]) for (let i = 0; i < ids.length; i++) seen[ids[i]] = 1;
    const list: number[] = [];
    for (let v = 0; v < seen.length; v++) if (seen[v]) list.push(v);
    out = Uint32Array.from(list);
    readVerticesCache.set(topo, out);
  }
  return out;
}

function checkBox(boxes: Float32Array, v: number): void {
  const o = 6 * v;
  for (let k = 0; k < 3; k++) {
    const lo = boxes[o + k], hi = boxes[o + 3 + k];
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) {
      throw new RangeError(`ccdCandidates: boxes of vertex ${v}, axis ${'xyz'[k]}: [${lo}, ${hi}] is not a finite interval with min <= max`);
    }
  }
}

const elementObjectCache = new WeakMap<CcdTopology, { triObject: Uint32Array; edgeObject: Uint32Array }>();

/** The object of each boundary triangle and edge (its first vertex's), once per topology. */
function elementObjects(topo: CcdTopology): { triObject: Uint32Array; edgeObject: Uint32Array } {
  let out = elementObjectCache.get(topo);
  if (!out) {
    const { triangles: tri, edges, vertexObject: obj } = topo;
    const triObject = new Uint32Array(tri.length / 3);
    for (let t = 0; t < triObject.length; t++) triObject[t] = obj[tri[3 * t]];
    const edgeObject = new Uint32Array(edges.length / 2);
    for (let e = 0; e < edgeObject.length; e++) edgeObject[e] = obj[edges[2 * e]];
    out = { triObject, edgeObject };
    elementObjectCache.set(topo, out);
  }
  return out;
}

const elementScratchArrays = new Map<string, Float32Array>();

/** A scratch Float32Array of `length` for one call's element boxes (grow-only, per kind). */
function elementScratch(kind: string, length: number): Float32Array {
  let a = elementScratchArrays.get(kind);
  if (!a || a.length < length) {
    a = new Float32Array(length);
    elementScratchArrays.set(kind, a);
  }
  return a.length === length ? a : a.subarray(0, length);
}

/**
 * Union of the corners' boxes, 6 per element (`per` vertices each). With `only` (the elements'
 * objects and a range of objects), the elements of other objects are left empty (+inf, -inf): a
 * part of a split job (CandidatePart) hashes its own objects' elements only, so it boxes only those.
 */
function elementBoxes(ids: Uint32Array, per: number, boxes: Float32Array, only?: { object: Uint32Array; range: [number, number] }, into?: Float32Array): Float32Array {
  const m = ids.length / per;
  const out = into ?? new Float32Array(6 * m);
  const object = only?.object, lo = only ? only.range[0] : 0, hi = only ? only.range[1] : 0;
  // Runs over every boundary element a few times a job: the corners in locals, one store per float.
  for (let e = 0; e < m; e++) {
    const o = 6 * e;
    if (object && (object[e] < lo || object[e] >= hi)) {
      out[o] = out[o + 1] = out[o + 2] = Infinity;
      out[o + 3] = out[o + 4] = out[o + 5] = -Infinity;
      continue;
    }
    unionCornerBoxes(ids, per, boxes, e, out, o);
  }
  return out;
}

/** The ids of `ids` (0..count-1 where null) in slice k of K (CandidatePart.slice): id % K = k. */
function inSlice(ids: Uint32Array | null, count: number, [k, slices]: [number, number]): Uint32Array {
  const n = ids ? ids.length : count;
  // Room for all n: ids need not spread evenly over the slices, and a typed array drops writes
  // past its end without a word (sized n / K + 1, slice 0 of 2 lost 1,003 of an octopus's 6,410
  // vertex-face pairs when two thirds of its boundary vertices were even: tests/unit/ccd/pairSlices.test.ts).
  const out = new Uint32Array(n);
  let m = 0;
  for (let q = 0; q < n; q++) {
    const id = ids ? ids[q] : q;
    if (id % slices === k) out[m++] = id;
  }
  return out.slice(0, m);
}

/**
 * The edge pairs of a slice (CandidatePart.slice): its edges `mine` joined with every edge `all`
 * (null: all), each pair visited once, from the slice of its lower edge (a pair of two of the
 * slice's edges comes up twice in the join, as (a, b) and (b, a); only a < b is kept). Oversized
 * boxes meet the other side directly, as in the self join.
 */
function sliceEdgeJoin(
  edgeBoxes: Float32Array, mine: Uint32Array, all: Uint32Array | null, frame: GridFrame, addEe: (a: number, b: number) => void, groups: JoinGroups,
): void {
  const lower = (a: number, b: number): void => {
    if (a < b) addEe(a, b);
  };
  const ar = cellRanges(edgeBoxes, mine, frame, 'edgeSlice');
  const br = cellRanges(edgeBoxes, all, frame, 'edges');
  joinAcross(edgeBoxes, ar, 'edgeSlice', edgeBoxes, br, 'edges', lower, groups);
}

/**
 * Every pair (a of set A, b of set B) whose boxes overlap, visited once: the two sets hashed on
 * one frame (their CellRanges) and joined per bucket; boxes that cover too many cells to hash
 * (oversized) meet the other side directly: A's oversized every b, A's other items B's oversized.
 * `bucketSlice` [k, K]: only slice k of the pairs (the hash's entries s % K = k of A, boxHash.ts
 * crossJoin, and the pairs of an oversized box whose id % K = k), the same hash built in every slice.
 */
function joinAcross(
  aBoxes: Float32Array, ar: CellRanges, aName: string, bBoxes: Float32Array, br: CellRanges, bName: string,
  visit: (a: number, b: number) => void, groups?: JoinGroups, bucketSlice?: [number, number],
): void {
  const size = tableSize(Math.max(ar.entries, br.entries));
  crossJoin(buildBoxHash(aBoxes, ar, size, aName), buildBoxHash(bBoxes, br, size, bName), visit, groups, bucketSlice);
  const [k, K] = bucketSlice ?? [0, 1];
  for (let q = 0; q < ar.oversized.length; q++) {
    const a = ar.oversized[q];
    if (a % K !== k) continue;
    for (let r = 0; r < br.items.length; r++) if (overlap(aBoxes, a, bBoxes, br.items[r])) visit(a, br.items[r]);
  }
  if (br.oversized.length > 0) {
    for (let q = 0; q < ar.items.length; q++) {
      if (ar.isOversized[q]) continue;
      const a = ar.items[q];
      for (let r = 0; r < br.oversized.length; r++) if (br.oversized[r] % K === k && overlap(aBoxes, a, bBoxes, br.oversized[r])) visit(a, br.oversized[r]);
    }
  }
}

/** The entries of `lists` (all triangles / edges where null) that belong to objects lo..hi-1. */
function ofObjects(
  [lo, hi]: [number, number], lists: { vertices: Uint32Array; triangles: Uint32Array | null; edges: Uint32Array | null }, obj: Uint32Array, triObject: Uint32Array, edgeObject: Uint32Array,
): { vertices: Uint32Array; triangles: Uint32Array; edges: Uint32Array } {
  const pick = (ids: Uint32Array | null, count: number, object: Uint32Array): Uint32Array => {
    const out: number[] = [];
    const n = ids ? ids.length : count;
    for (let q = 0; q < n; q++) {
      const i = ids ? ids[q] : q;
      if (object[i] >= lo && object[i] < hi) out.push(i);
    }
    return Uint32Array.from(out);
  };
  return {
    vertices: pick(lists.vertices, 0, obj),
    triangles: pick(lists.triangles, triObject.length, triObject),
    edges: pick(lists.edges, edgeObject.length, edgeObject),
  };
}

/**
 * The boundary vertices, triangles and edges whose boxes overlap the box of some object other than
 * their own (an object's box: the union of its elements' boxes). Every pair of different
 * objects whose boxes overlap has both members here: each box lies inside its object's box and
 * overlaps the other's element box, hence the other object's box. Each element is tested only
 * against the objects whose boxes overlap its own object's box.
 */
function nearOtherObjects(
  topo: CcdTopology, boxes: Float32Array, triBoxes: Float32Array, edgeBoxes: Float32Array, triObject: Uint32Array, edgeObject: Uint32Array,
): { vertices: Uint32Array; triangles: Uint32Array; edges: Uint32Array } {
  const bv = topo.boundaryVertices, obj = topo.vertexObject;
  const objects = objectCount(topo);
  const objectBoxes = new Float32Array(6 * objects);
  for (let o = 0; o < objects; o++) for (let k = 0; k < 3; k++) {
    objectBoxes[6 * o + k] = Infinity;
    objectBoxes[6 * o + 3 + k] = -Infinity;
  }
  // Every element counted in (its object: the one the joins' group filter gives it).
  growObjectBoxes(objectBoxes, boxes, bv, bv.length, obj);
  growObjectBoxes(objectBoxes, triBoxes, null, triObject.length, triObject);
  growObjectBoxes(objectBoxes, edgeBoxes, null, edgeObject.length, edgeObject);
  // Per object, the other objects whose boxes overlap its box (CSR).
  const start = new Uint32Array(objects + 1);
  const neighbours = new Uint32Array(objects * Math.max(0, objects - 1));
  let count = 0;
  for (let a = 0; a < objects; a++) {
    for (let b = 0; b < objects; b++) if (b !== a && overlap(objectBoxes, a, objectBoxes, b)) neighbours[count++] = b;
    start[a + 1] = count;
  }
  const near = { start, neighbours, objectBoxes };
  return {
    vertices: selectNear(near, boxes, bv, bv.length, obj),
    triangles: selectNear(near, triBoxes, null, triObject.length, triObject),
    edges: selectNear(near, edgeBoxes, null, edgeObject.length, edgeObject),
  };
}

const cornersShareObjectCache = new WeakMap<CcdTopology, boolean>();

/** Whether every boundary triangle's and edge's corners lie in its object (its first corner's): nearByCorners' condition. */
function cornersShareObject(topo: CcdTopology): boolean {
  let out = cornersShareObjectCache.get(topo);
  if (out === undefined) {
    const { triangles: tri, edges, vertexObject: obj } = topo;
    out = true;
    for (let t = 0; t < tri.length && out; t += 3) out = obj[tri[t + 1]] === obj[tri[t]] && obj[tri[t + 2]] === obj[tri[t]];
    for (let e = 0; e < edges.length && out; e += 2) out = obj[edges[e + 1]] === obj[edges[e]];
    cornersShareObjectCache.set(topo, out);
  }
  return out;
}

/** Per-vertex masks of nearByCorners (grow-only scratch). */
let cornerMasks = new Uint8Array(0);

/**
 * nearOtherObjects without the elements' boxes, the same answer where every element's corners lie
 * in its object (cornersShareObject): an object's box is then the union of its vertices' boxes
 * (an element's box is the union of its corners'; min and max of float32 values are exact in any
 * order). Per vertex and per object whose box overlaps its own's, a mask of the sides on which
 * the vertex's box lies wholly beyond that object's box (bit k: its min on axis k above the box's
 * max; bit 3 + k: its max below the box's min); the two boxes overlap exactly when the mask is 0
 * (overlap's comparisons). An element's box lies beyond on a side exactly when each of its
 * corners' does (its min is the least of theirs, its max the largest), so its mask is the AND of
 * its corners': one byte per corner instead of its box.
 */
function nearByCorners(
  topo: CcdTopology, boxes: Float32Array, triObject: Uint32Array, edgeObject: Uint32Array,
): { vertices: Uint32Array; triangles: Uint32Array; edges: Uint32Array } {
  const bv = topo.boundaryVertices, obj = topo.vertexObject, tri = topo.triangles, edges = topo.edges;
  const objects = objectCount(topo);
  const read = readVertices(topo);
  const objectBoxes = new Float32Array(6 * objects);
  for (let o = 0; o < objects; o++) for (let k = 0; k < 3; k++) {
    objectBoxes[6 * o + k] = Infinity;
    objectBoxes[6 * o + 3 + k] = -Infinity;
  }
  growObjectBoxes(objectBoxes, boxes, read, read.length, obj);
  // Per object, the other objects whose boxes overlap its box (CSR), as nearOtherObjects.
  const start = new Uint32Array(objects + 1);
  const neighbours = new Uint32Array(objects * Math.max(0, objects - 1));
  let count = 0, width = 0;
  for (let a = 0; a < objects; a++) {
    for (let b = 0; b < objects; b++) if (b !== a && overlap(objectBoxes, a, objectBoxes, b)) neighbours[count++] = b;
    start[a + 1] = count;
    width = Math.max(width, count - start[a]);
  }
  if (cornerMasks.length < topo.vertexCount * width) cornerMasks = new Uint8Array(topo.vertexCount * width);
  const masks = cornerMasks;
  for (let q = 0; q < read.length; q++) {
    const v = read[q], p = 6 * v, o = obj[v];
    for (let s = 0, j = start[o]; j < start[o + 1]; s++, j++) {
      const b = 6 * neighbours[j];
      masks[v * width + s] = +(boxes[p] > objectBoxes[b + 3]) | (+(boxes[p + 1] > objectBoxes[b + 4]) << 1) | (+(boxes[p + 2] > objectBoxes[b + 5]) << 2)
        | (+(boxes[p + 3] < objectBoxes[b]) << 3) | (+(boxes[p + 4] < objectBoxes[b + 1]) << 4) | (+(boxes[p + 5] < objectBoxes[b + 2]) << 5);
    }
  }
  const vertices = new Uint32Array(bv.length);
  let nv = 0;
  for (let q = 0; q < bv.length; q++) {
    const v = bv[q], o = obj[v], n = start[o + 1] - start[o];
    for (let s = 0; s < n; s++) {
      if (masks[v * width + s] === 0) {
        vertices[nv++] = v;
        break;
      }
    }
  }
  const triangleCount = tri.length / 3, triangles = new Uint32Array(triangleCount);
  let nt = 0;
  for (let t = 0; t < triangleCount; t++) {
    const o = triObject[t], n = start[o + 1] - start[o];
    const a = tri[3 * t] * width, b = tri[3 * t + 1] * width, c = tri[3 * t + 2] * width;
    for (let s = 0; s < n; s++) {
      if ((masks[a + s] & masks[b + s] & masks[c + s]) === 0) {
        triangles[nt++] = t;
        break;
      }
    }
  }
  const edgeCount = edges.length / 2, nearEdges = new Uint32Array(edgeCount);
  let ne = 0;
  for (let e = 0; e < edgeCount; e++) {
    const o = edgeObject[e], n = start[o + 1] - start[o];
    const a = edges[2 * e] * width, b = edges[2 * e + 1] * width;
    for (let s = 0; s < n; s++) {
      if ((masks[a + s] & masks[b + s]) === 0) {
        nearEdges[ne++] = e;
        break;
      }
    }
  }
  return { vertices: vertices.slice(0, nv), triangles: triangles.slice(0, nt), edges: nearEdges.slice(0, ne) };
}

/** out[element] := the union of its corners' boxes (elementBoxes), for the elements `ids` only. */
function boxesOfElements(corners: Uint32Array, per: number, boxes: Float32Array, ids: Uint32Array, out: Float32Array): void {
  for (let q = 0; q < ids.length; q++) unionCornerBoxes(corners, per, boxes, ids[q], out, 6 * ids[q]);
}

/**
 * objectBoxes[object] grown by the boxes of items q < count: item id ids[q] (q itself when ids is
 * null), its box `box[id]`, its object objectOf[id]. Typed arrays, no closures: this runs over
 * every boundary element each job.
 */
function growObjectBoxes(objectBoxes: Float32Array, box: Float32Array, ids: Uint32Array | null, count: number, objectOf: Uint32Array): void {
  for (let q = 0; q < count; q++) {
    const id = ids ? ids[q] : q;
    const i = 6 * id, o = 6 * objectOf[id];
    for (let k = 0; k < 3; k++) {
      if (box[i + k] < objectBoxes[o + k]) objectBoxes[o + k] = box[i + k];
      if (box[i + 3 + k] > objectBoxes[o + 3 + k]) objectBoxes[o + 3 + k] = box[i + 3 + k];
    }
  }
}

/** The ids (as growObjectBoxes) whose box overlaps the box of an object other than their own that overlaps their own's. */
function selectNear(
  near: { start: Uint32Array; neighbours: Uint32Array; objectBoxes: Float32Array }, box: Float32Array, ids: Uint32Array | null, count: number, objectOf: Uint32Array,
): Uint32Array {
  const { start, neighbours, objectBoxes } = near;
  const out = new Uint32Array(count);
  let n = 0;
  for (let q = 0; q < count; q++) {
    const id = ids ? ids[q] : q;
    const o = objectOf[id];
    for (let j = start[o]; j < start[o + 1]; j++) {
      if (overlap(box, id, objectBoxes, neighbours[j])) {
        out[n++] = id;
        break;
      }
    }
  }
  return out.slice(0, n);
}


/**
 * A part of a broad phase, for splitting one job across workers (workers/ccdJobs.ts): the pairs
 * of different objects or not, and the pairs within each object o with lo <= o < hi. The parts of
 * a split ({inter: true} once, the object ranges covering every object once) give each pair once.
 */
export interface CandidatePart {
  inter: boolean;
  objects: [number, number];
  /**
   * [k, K]: only slice k of K of the pairs within those objects (a scene with fewer objects than
   * workers splits an object's pairs too): the vertex-face pairs of the vertices v with v % K = k,
   * the edge-edge pairs whose lower edge e has e % K = k. The K slices of an object range give
   * each of its pairs once. Absent: all of them.
   */
  slice?: [number, number];
  /**
   * [k, K], with `inter`: only slice k of K of the pairs between objects: those its join's hash
   * finds from entries s with s % K = k (boxHash.ts selfJoin / crossJoin), and those of an
   * oversized box (met directly) whose element id % K = k. Every slice builds the same hash, so the K slices give each pair once, each about
   * 1/K of the join. (Cut as `slice` cuts an object's pairs, every edge slice would join its edges
   * with all edges: 2/K of the edge pairs' work each.) A landed pile's pairs are mostly between
   * bodies (60-81 % of the 4-octopus box's), too many for one worker. Absent: all of them.
   */
  interSlice?: [number, number];
}

/** Throws a RangeError naming the part's problem (object range outside [0, objects]). */
export function checkCandidatePart(part: CandidatePart, objects: number, where: string): void {
  const [lo, hi] = part?.objects ?? [];
  if (typeof part?.inter !== 'boolean' || !Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi < lo || hi > objects) {
    throw new RangeError(`${where}: part must be { inter: boolean, objects: [lo, hi] } with 0 <= lo <= hi <= ${objects} (the objects), got ${JSON.stringify(part)}`);
  }
  if (part.slice !== undefined) checkSlice(part.slice, where);
  if (part.interSlice !== undefined) {
    if (!part.inter) throw new RangeError(`${where}: part.interSlice slices the pairs between objects, but the part has inter: false`);
    checkSlice(part.interSlice, where, 'interSlice');
  }
}

function checkSlice(slice: [number, number], where: string, name = 'slice'): void {
  const [k, count] = Array.isArray(slice) ? slice : [NaN, NaN];
  if (!Number.isInteger(k) || !Number.isInteger(count) || count < 1 || k < 0 || k >= count) {
    throw new RangeError(`${where}: part.${name} must be [k, K] with integers 0 <= k < K, got ${JSON.stringify(slice)}`);
  }
}

/**
 * Self-collision culling of the same-object pairs (sweptCandidates, collision/selfCulling/): called
 * before those pairs are found, with the velocities they are swept with (`relative`, vec4, each
 * object's mean removed); returns the culled nodes (culledPairs.ts), whose pairs the join then
 * never outputs, or null (nothing culled).
 */
export type SelfPairCull = (relative: Float32Array) => CulledNodes | null;

/** Which pairs ccdCandidates reports: all, only pairs of different objects, only pairs within one object. */
export type PairFilter = 'all' | 'inter' | 'self';

/**
 * Every boundary vertex / boundary triangle pair and every boundary edge pair whose boxes overlap
 * (a triangle's box = union of its corners' boxes, an edge's likewise), excluding pairs that share
 * a vertex and (with element topology) pairs whose four points are one tet; `pairs` true or 'all': every such pair; false or 'inter': only pairs of different
 * objects; 'self': only pairs within one object. `slice` [k, K] ('inter' or 'self'): only the
 * pairs of slice k (CandidatePart.slice); the K slices give each pair once.
 *
 * Output order: by hash bucket (deterministic for the same input, otherwise none in particular).
 */
export function ccdCandidates(
  topo: CcdTopology, boxes: Float32Array, pairs: boolean | PairFilter, objects?: [number, number], slice?: [number, number], timing?: { setupMs: number },
): CcdCandidates {
  const t0 = timing ? performance.now() : 0;
  const filter: PairFilter = pairs === true ? 'all' : pairs === false ? 'inter' : pairs;
  if (slice) {
    checkSlice(slice, 'ccdCandidates');
    if (filter === 'all') throw new RangeError(`ccdCandidates: a slice splits the pairs within objects (filter 'self') or between them ('inter'), not filter 'all'`);
  }
  // Pairs within objects lo..hi-1 read those objects' boxes only (pairs between objects read every object's).
  checkTopology(topo, boxes, filter === 'self' ? objects : undefined);
  // keep(same object?): whether a pair passes the filter.
  const keep = (same: boolean): boolean => filter === 'all' || (filter === 'self') === same;
  const { boundaryVertices: bv, triangles: tri, edges, vertexObject: obj } = topo;
  const triangleCount = tri.length / 3, edgeCount = edges.length / 2;
  const opposite = triangleOpposites(topo);
  const edgeOpp = edgeOpposites(topo);
  // Object of each triangle and edge (their first vertex's), for the joins' group filter.
  const { triObject, edgeObject } = elementObjects(topo);
  // A range of objects with no pairs between objects needs its own elements' boxes only. Read only
  // within this call: scratch arrays, not a megabyte of fresh ones a job.
  const ownOnly = objects && filter === 'self';
  let triBoxes: Float32Array, edgeBoxes: Float32Array;
  // Pairs of different objects only: just the elements whose boxes reach another object's box
  // can be in one, so only those are hashed (a pile of separate falling bodies hashes almost nothing).
  let near: { vertices: Uint32Array; triangles: Uint32Array; edges: Uint32Array } | undefined;
  if (filter === 'inter' && cornersShareObject(topo)) {
    // Found from the vertices' boxes, and only those elements boxed (nearByCorners).
    near = nearByCorners(topo, boxes, triObject, edgeObject);
    triBoxes = elementScratch('triangles', 6 * triangleCount);
    edgeBoxes = elementScratch('edges', 6 * edgeCount);
    boxesOfElements(tri, 3, boxes, near.triangles, triBoxes);
    boxesOfElements(edges, 2, boxes, near.edges, edgeBoxes);
  } else {
    triBoxes = elementBoxes(tri, 3, boxes, ownOnly ? { object: triObject, range: objects } : undefined, elementScratch('triangles', 6 * triangleCount));
    edgeBoxes = elementBoxes(edges, 2, boxes, ownOnly ? { object: edgeObject, range: objects } : undefined, elementScratch('edges', 6 * edgeCount));
    if (filter === 'inter') near = nearOtherObjects(topo, boxes, triBoxes, edgeBoxes, triObject, edgeObject);
  }
  if (objects) near = ofObjects(objects, near ?? { vertices: bv, triangles: null, edges: null }, obj, triObject, edgeObject);
  // A slice of the pairs within objects joins its own vertices with every triangle, and its own
  // edges with every edge; a slice of the pairs between objects joins everything, from its share of
  // the hash's entries (each slice building the same hash: cheap next to the millions of pairs a
  // landed pile's join finds, where cutting the edges as above made every slice join 2/K of them).
  const bucketSlice = slice && filter === 'inter' ? slice : undefined;
  const vertices = slice && !bucketSlice ? inSlice(near?.vertices ?? bv, 0, slice) : near?.vertices ?? bv;

  // `timing`: what comes before the joins, which every slice repeats (workers/ccdJobs.ts chooseInterSlices).
  if (timing) timing.setupMs = performance.now() - t0;
  // Vertex-face: boundary vertices and triangles hashed on one frame, joined per bucket.
  const vf = new PairList();
  {
    const addVf = (v: number, t: number): void => {
      const a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
      if (v === a || v === b || v === c) return;
      if (!keep(obj[v] === obj[a])) return;
      if (obj[v] === obj[a] && vertexFaceOneTet(topo, opposite, v, t)) return;
      vf.push(v, t);
    };
    const frame = gridFrame([[triBoxes, near?.triangles ?? null], [boxes, vertices]]);
    const tr = cellRanges(triBoxes, near?.triangles ?? null, frame, 'triangles');
    const vr = cellRanges(boxes, vertices, frame, 'vertices');
    // Oversized boxes meet the other side directly (of the hashed ones: all, or those near another object).
    joinAcross(boxes, vr, 'vertices', triBoxes, tr, 'triangles', addVf, filter === 'all' ? undefined : { a: obj, b: triObject, keep: filter }, bucketSlice);
  }

  // Edge-edge: edges hashed, joined with themselves per bucket.
  const ee = new PairList();
  {
    const addEe = (ea: number, eb: number): void => {
      const a0 = edges[2 * ea], a1 = edges[2 * ea + 1], b0 = edges[2 * eb], b1 = edges[2 * eb + 1];
      if (a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1) return;
      if (!keep(obj[a0] === obj[b0])) return;
      if (obj[a0] === obj[b0] && edgeEdgeOneTet(edgeOpp, ea, b0, b1)) return;
      if (ea < eb) ee.push(ea, eb);
      else ee.push(eb, ea);
    };
    const frame = gridFrame([[edgeBoxes, near?.edges ?? null]]);
    if (slice && !bucketSlice) {
      sliceEdgeJoin(edgeBoxes, inSlice(near?.edges ?? null, edgeCount, slice), near?.edges ?? null, frame, addEe, { a: edgeObject, b: edgeObject, keep: 'self' });
      return { vertexFace: vf.result(), edgeEdge: ee.result() };
    }
    const er = cellRanges(edgeBoxes, near?.edges ?? null, frame, 'edges');
    selfJoin(buildBoxHash(edgeBoxes, er, tableSize(er.entries), 'edges'), addEe, filter === 'all' ? undefined : { a: edgeObject, b: edgeObject, keep: filter }, bucketSlice);
    // Oversized edges meet every other hashed edge directly; two oversized edges meet once (in a
    // bucket slice: the slice of the oversized edge's id).
    const [k, K] = bucketSlice ?? [0, 1];
    for (let q = 0; q < er.oversized.length; q++) {
      const ea = er.oversized[q];
      if (ea % K !== k) continue;
      for (let r = 0; r < er.items.length; r++) {
        const eb = er.items[r];
        if (eb === ea || (er.isOversized[r] && eb < ea)) continue;
        if (overlap(edgeBoxes, ea, edgeBoxes, eb)) addEe(ea, eb);
      }
    }
  }
  return { vertexFace: vf.result(), edgeEdge: ee.result() };
}

/**
 * The frame's candidates with as few pairs as the motion allows: pairs of different objects from
 * the world boxes (sweptVertexBoxes), pairs within one object from boxes swept in that object's
 * own frame, moving with its mean velocity and falling with gravity. Two points of one object meet
 * in the world exactly when they meet in any frame that both share, and in that frame only their
 * motion relative to the object's mean counts: a body that falls or flies without deforming gets
 * boxes of the margin's size instead of boxes |v| H wide (a pile of octopi at 2 m/s had about
 * 1,600 candidate pairs per boundary vertex, nearly all within one octopus). Returns the world
 * boxes too (the GPU checks that the vertices stay in them). `selfCull`, when given, culls the
 * pairs within one object before they are found (SelfPairCull: self-collision culling,
 * collision/selfCulling/); `selfPairs` then counts those pairs before and after it.
 * `part`: only that part of the pairs (a job split across workers; all when absent); a part
 * without the pairs between objects returns no world boxes (length 0: it sweeps none).
 */
export function sweptCandidates(
  topo: CcdTopology, positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean, selfCull?: SelfPairCull,
  part?: CandidatePart,
): CcdCandidates & { boxes: Float32Array; interPairs: number; interMs: number; interSetupMs: number; keptPairs?: OwnPairReuse; selfPairs?: { before: number; after: number }; selfFrames?: SelfPairFrameReport } {
  if (part) checkCandidatePart(part, objectCount(topo), 'sweptCandidates');
  const t0 = performance.now();
  // A part without the pairs between objects needs no world boxes, and own-frame boxes for its own objects only.
  const boxes = !part || part.inter ? worldBoxes(topo, positions, velocities, bound) : new Float32Array(0);
  const timing = { setupMs: 0 };
  const t1 = performance.now();
  const inter = !part || part.inter ? ccdCandidates(topo, boxes, 'inter', undefined, part?.interSlice, timing) : { vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0) };
  // The pairs between objects: how many, their time (the world boxes' sweep included), and the part of it before the joins.
  const interPairs = (inter.vertexFace.length + inter.edgeEdge.length) / 2;
  const interMs = !part || part.inter ? performance.now() - t0 : 0;
  const interSetupMs = !part || part.inter ? t1 - t0 + timing.setupMs : 0;
  const interReport = { interPairs, interMs, interSetupMs };
  if (!selfCollision || (part && part.objects[1] === part.objects[0])) return { ...inter, boxes, ...interReport };
  const relative = ownFrameVelocities(topo, velocities);
  const only = part ? { object: topo.vertexObject, range: part.objects } : undefined;
  const ownBoxes = ownFrameBoxesOf(topo, positions, relative, bound, only);
  const selfPairFrame = bound.selfPairFrame ?? 'own';
  if (selfPairFrame !== 'own' && selfPairFrame !== 'adaptive') throw new RangeError(`sweptCandidates: bound.selfPairFrame must be 'own' or 'adaptive', got ${String(selfPairFrame)}`);
  // Per object the frame with the smaller boxes (selfPairFrames.ts); a part without the pairs between objects sweeps its objects' world boxes for it.
  const frames = selfPairFrame === 'adaptive'
    ? chooseSelfPairFrames(topo, ownBoxes, boxes.length > 0 ? boxes : worldBoxes(topo, positions, velocities, bound, part?.objects), part?.objects ?? [0, objectCount(topo)])
    : null;
  // The frame choice is reported by an object's first slice only (each slice makes the same choice).
  if (frames && part?.slice && part.slice[0] !== 0) frames.report.worldJoined = 0;
  const own = ownPairs(topo, frames ? frames.joinBoxes : ownBoxes, positions, bound, part?.objects, selfCull ? () => selfCull(relative) : undefined, inter, part?.slice);
  const keptPairs = own.keptPairs;
  // own.withBefore: the kept lists' answer already starts with the pairs between objects.
  const vertexFace = own.withBefore ? own.vertexFace : concat(inter.vertexFace, own.vertexFace);
  const edgeEdge = own.withBefore ? own.edgeEdge : concat(inter.edgeEdge, own.edgeEdge);
  const after = (vertexFace.length - inter.vertexFace.length + edgeEdge.length - inter.edgeEdge.length) / 2;
  const selfPairs = selfCull ? { selfPairs: { before: after + own.culled, after } } : {};
  return { vertexFace, edgeEdge, boxes, ...interReport, ...(keptPairs ? { keptPairs } : {}), ...selfPairs, ...(frames ? { selfFrames: frames.report } : {}) };
}

/** Per topology, the kept lists of each slice of the pairs ('all', or 'k/K': CandidatePart.slice). */
const ownPairCaches = new WeakMap<CcdTopology, Map<string, OwnPairCache>>();

/**
 * The pairs within objects lo..hi-1 (all objects when absent) for their own-frame boxes: from the
 * lists kept across jobs (ownPairCache.ts) unless bound.selfPairSkin is 0. The same pairs as
 * ccdCandidates(topo, ownBoxes, 'self', objects), in another order; with `cull` (run once the
 * topology and boxes are checked), less those within one culled node (`culled` counts them).
 * `before`: pairs the answer may start with (`withBefore` says when it does).
 */
function ownPairs(
  topo: CcdTopology, ownBoxes: Float32Array, positions: Float32Array, bound: MotionBound, objects?: [number, number], cull?: () => CulledNodes | null,
  before?: CcdCandidates, slice?: [number, number],
): CcdCandidates & { keptPairs?: OwnPairReuse; culled: number; withBefore?: boolean } {
  const fraction = bound.selfPairSkin ?? SELF_PAIR_SKIN;
  if (!(Number.isFinite(fraction) && fraction >= 0)) throw new RangeError(`sweptCandidates: bound.selfPairSkin must be a finite number >= 0, got ${fraction}`);
  if (fraction === 0) {
    const all = ccdCandidates(topo, ownBoxes, 'self', objects, slice);
    const culled = cull ? cull() : null;
    if (!culled) return { ...all, culled: 0 };
    const kept = dropCulled(culled, all);
    return { ...kept, culled: (all.vertexFace.length + all.edgeEdge.length - kept.vertexFace.length - kept.edgeEdge.length) / 2 };
  }
  const count = objectCount(topo);
  const range: [number, number] = objects ?? [0, count];
  // The join checks the topology and the boxes it reads; the kept lists are read only after it has run once.
  checkTopology(topo, ownBoxes, range);
  let caches = ownPairCaches.get(topo);
  if (!caches) {
    caches = new Map();
    ownPairCaches.set(topo, caches);
  }
  const sliceKey = slice ? `${slice[0]}/${slice[1]}` : 'all';
  let cache = caches.get(sliceKey);
  if (!cache) {
    cache = new OwnPairCache(topo, count);
    caches.set(sliceKey, cache);
  }
  const margin = bound.ownMargin ?? bound.margin;
  const skin = new Float64Array(count);
  for (let o = 0; o < count; o++) skin[o] = fraction * (bound.ownMargins ? bound.ownMargins[o] : margin);
  const culled = cull ? cull() : null;
  // Objects small enough are joined with their pairs already sorted as the kept lists hold them (sortedSelfJoin.ts).
  const sorted = Object.assign(
    (grown: Float32Array, o: number, reuse: SortedPairs | null, culling: JoinCulling | null) => (sortedJoinFits(topo, o) ? sortedSelfPairs(topo, grown, o, slice, reuse, culling) : null),
    { fits: (o: number) => sortedJoinFits(topo, o) },
  );
  const c = cache.candidates(ownBoxes, positions, range, skin, (grown, r) => ccdCandidates(topo, grown, 'self', r, slice), culled, before ?? null, sorted);
  return { ...c, culled: c.keptPairs.culled, withBefore: before !== undefined };
}

/**
 * The boxes pairs within one object are found with (sweptCandidates): each vertex's path in its
 * object's own frame, which moves with the object's mean velocity and falls with gravity, so
 * only the motion relative to the mean counts (velocities minus the object's mean, no gravity).
 * 6 floats per vertex as sweptVertexBoxes, in world coordinates at the snapshot.
 */
export function ownFrameBoxes(topo: CcdTopology, positions: Float32Array, velocities: Float32Array, bound: MotionBound): Float32Array {
  return ownFrameBoxesOf(topo, positions, ownFrameVelocities(topo, velocities), bound);
}

/** The own-frame boxes from the relative velocities, with each object's own margin where the bound gives one per object. */
function ownFrameBoxesOf(
  topo: CcdTopology, positions: Float32Array, relative: Float32Array, bound: MotionBound, only?: { object: Uint32Array; range: [number, number] },
): Float32Array {
  const margins = bound.ownMargins, growth = bound.ownGrowth;
  if (margins !== undefined || growth !== undefined) {
    const objects = objectCount(topo);
    if (margins !== undefined) {
      if (!(margins.length >= objects)) throw new RangeError(`sweptCandidates: bound.ownMargins has ${margins.length} entries, expected one per object (${objects})`);
      for (let o = 0; o < objects; o++) {
        if (!(Number.isFinite(margins[o]) && margins[o] >= 0)) throw new RangeError(`sweptCandidates: bound.ownMargins[${o}] (object ${o}) must be a finite number >= 0, got ${margins[o]}`);
      }
    }
    if (growth !== undefined) {
      const n = topo.vertexCount;
      if (growth.length !== 6 * n) throw new RangeError(`sweptCandidates: bound.ownGrowth has ${growth.length} entries, expected 6 per vertex (${6 * n})`);
      for (let k = 0; k < 6 * n; k++) {
        if (!(Number.isFinite(growth[k]) && growth[k] >= 0)) throw new RangeError(`sweptCandidates: bound.ownGrowth[${k}] (vertex ${Math.floor(k / 6)}, ${k % 6 < 3 ? 'below' : 'above'} on ${'xyz'[k % 3]}) must be a finite number >= 0, got ${growth[k]}`);
      }
    }
  }
  const perObject = margins !== undefined || growth !== undefined
    ? { object: topo.vertexObject, ...(margins !== undefined ? { margins } : {}), ...(growth !== undefined ? { growth } : {}) } : undefined;
  return sweptBoxesOf(positions, relative, ownFrameBound(bound), undefined, only, perObject);
}

/** The bound of the own-frame boxes: no gravity (the frame falls with it), the own-frame margin. */
function ownFrameBound(bound: MotionBound): MotionBound {
  const m = bound.ownMargin;
  if (m !== undefined && !(Number.isFinite(m) && m >= 0)) throw new RangeError(`sweptCandidates: bound.ownMargin must be a finite number >= 0, got ${m}`);
  return { horizon: bound.horizon, gravity: [0, 0, 0], margin: bound.ownMargin ?? bound.margin, ...(bound.vertexMargins ? { vertexMargins: bound.vertexMargins } : {}) };
}

/** Velocities (vec4 per vertex) with each object's mean velocity removed: the motion in the object's own frame. */
function ownFrameVelocities(topo: CcdTopology, velocities: Float32Array): Float32Array {
  const relative = velocities.slice();
  const obj = topo.vertexObject;
  const mean = objectMeans(topo, velocities);
  for (let v = 0; v < topo.vertexCount; v++) {
    const o = obj[v];
    for (let k = 0; k < 3; k++) relative[4 * v + k] -= mean[3 * o + k];
  }
  return relative;
}

/**
 * Per object, the vertex that carries its own frame for the GPU's check of the own-frame boxes
 * (ccdNarrow.wgsl): the vertex nearest the object's mean position at the snapshot, and that
 * position. 4 words per object: vertex id, then x, y, z (f32). Any vertex gives a sound check (a
 * translation common to all of an object's vertices keeps every pair's relative position); one
 * near the middle moves least with a rotation, so false escapes stay rare.
 */
export function ownFrameReferences(topo: CcdTopology, positions: Float32Array): Uint32Array {
  const n = topo.vertexCount;
  const obj = topo.vertexObject;
  const mean = objectMeans(topo, positions);
  const objects = mean.length / 3;
  const best = new Float64Array(objects).fill(Infinity);
  const out = new Uint32Array(4 * objects);
  const f = new Float32Array(out.buffer);
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    let d = 0;
    for (let k = 0; k < 3; k++) d += (positions[4 * v + k] - mean[3 * o + k]) ** 2;
    if (d < best[o]) {
      best[o] = d;
      out[4 * o] = v;
      for (let k = 0; k < 3; k++) f[4 * o + 1 + k] = positions[4 * v + k];
    }
  }
  return out;
}

function concat(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
