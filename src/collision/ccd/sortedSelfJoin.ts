/**
 * The pairs within one object whose boxes overlap, already sorted as the kept lists hold them
 * (ownPairCache.ts: vertex-face by (vertex, triangle), edge-edge by (lower edge, upper edge)), for
 * an object of up to SORTED_JOIN_LIMIT.max triangles and edges. The same set as ccdCandidates(topo,
 * boxes, 'self', [o, o + 1], slice) (broadPhase.ts): every boundary vertex / triangle and edge /
 * edge pair of the object whose boxes overlap (the same float32 boxes and comparisons), less those
 * sharing a vertex or being one tet (tetPairs.ts). The hash join found them in bucket order and
 * the kept lists sorted them (two counting sorts over every pair): at impact, a pile of 8 octopi
 * rebuilt about 1M pairs a job that way.
 *
 * Method: the object's elements on one side (triangles, or edges) are columns, numbered in id
 * order. Two boxes overlap exactly when on each axis a the column's min <= the row's max and the
 * column's max >= the row's min: 6 conditions "value(column) <= bound(row)" (the max conditions
 * negated). For each condition the columns are sorted by their value, and the set of the first
 * k of that order is kept as a bitset over the columns for every k that is a multiple of STEP.
 * A row's set for one condition is then the kept set of the first multiple of STEP at or above the
 * number of columns meeting it: a superset of those columns, by fewer than STEP. The AND of the six
 * supersets, scanned word by word from the lowest column, gives the row's candidates in column
 * order; each is tested against the boxes exactly (overlap), so the superset only costs tests.
 * No pair is visited twice and the output needs no sort: rows in id order, columns in id order.
 *
 * Cost per row: six binary searches and six loads per 32 columns, so it is O(rows x columns / 32):
 * for the objects it accepts (a few thousand elements) that is well under what the hash join paid
 * per pair; a larger object goes to the hash join (ownPairCache.ts falls back).
 */

import { unionCornerBoxes } from './cornerBoxes';
import { vertexIncidence } from '../../mesh/vertexIncidence';
import type { CulledNodes } from './culledPairs';
import { edgeEdgeOneTet, edgeOpposites, triangleOpposites, vertexFaceOneTet } from './tetPairs';
import type { CcdCandidates, CcdTopology } from './broadPhase';

/**
 * Objects with more triangles or edges than `max` are joined by the hash (the bitsets grow as
 * columns^2). Mutable for tests only (the hash's fallback on small meshes; `refuse`: objects
 * sent to the hash whatever their size).
 */
export const SORTED_JOIN_LIMIT: { max: number; refuse: ((object: number) => boolean) | null } = { max: 4096, refuse: null };
/** Columns per bin (on average) of the bitsets' value bins. */
const STEP = 16;

/** Grow-only scratch. */
let columnBoxes = new Float32Array(0);
/** Per condition, the bins' lower end and 1 / width (binOf). */
const binLow = new Float64Array(6), binScale = new Float64Array(6);
/** Per condition and bin b, the bitset over the columns whose bin is below b (b = 0: none). */
let sets = new Int32Array(0);
/** The join's output, and with culling the pairs within one culled node (set apart): grow-only scratch. */
let pairs: Uint32Array = new Uint32Array(1 << 16);
let culledPairs: Uint32Array = new Uint32Array(1 << 12);

/** A copy of scratch `from` with room for at least `length` words (its contents kept). */
function grown(from: Uint32Array, length: number): Uint32Array {
  const out = new Uint32Array(Math.max(length, 2 * from.length));
  out.set(from);
  return out;
}

/**
 * The bitsets of the columns whose boxes are columnBoxes[0 .. 6 n): per condition c (0..2: the min
 * on axis c, 3..5: minus the max on axis c - 3) the columns' values fall in `bins` equal bins over
 * their range, and set b of condition c holds the columns of the bins below b. Returns the words
 * per bitset.
 */
function buildSets(n: number, bins: number): number {
  const words = (n + 31) >>> 5, stride = (bins + 1) * words;
  if (sets.length < 6 * stride) sets = new Int32Array(6 * stride);
  const box = columnBoxes, s = sets;
  s.fill(0, 0, 6 * stride);
  for (let c = 0; c < 6; c++) {
    // Box slot c is the min on axis c (c < 3) or the max on axis c - 3, whose condition is negated.
    const sign = c < 3 ? 1 : -1;
    let lo = Infinity, hi = -Infinity;
    for (let q = 0; q < n; q++) {
      const v = sign * box[6 * q + c];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    let scale = bins / (hi - lo);
    if (!(scale < Infinity)) scale = 0;
    binLow[c] = lo;
    binScale[c] = scale;
    const base = c * stride;
    for (let q = 0; q < n; q++) {
      const b = Math.min(bins - 1, Math.floor((sign * box[6 * q + c] - lo) * scale));
      s[base + (b + 1) * words + (q >>> 5)] |= 1 << (q & 31);
    }
    for (let b = 1; b <= bins; b++) for (let w = base + b * words, end = w + words; w < end; w++) s[w] |= s[w - words];
  }
  return words;
}

/**
 * The offset of the set of condition c that holds every column whose value is <= bound (and fewer
 * than a bin more): the bins up to bound's. The bin is monotone in the value, so a column at or
 * below the bound lies in a bin at or below the bound's.
 */
function setAt(c: number, bins: number, words: number, bound: number): number {
  const lo = binLow[c];
  const b = bound < lo ? 0 : Math.min(bins, Math.floor((bound - lo) * binScale[c]) + 1);
  return (c * (bins + 1) + b) * words;
}

/**
 * The first m words of `from`, in the buffer of `reuse` where it holds them (a list the caller no
 * longer needs: a rebuilt object's old list), else in a new one with room to spare (a megabyte of
 * fresh pairs a job costs page faults and collections; the next job's list then fits).
 */
function copyOut(from: Uint32Array, m: number, reuse: Uint32Array | undefined): Uint32Array {
  const out = reuse && reuse.buffer.byteLength >= 4 * m && reuse.byteOffset === 0 && !(reuse.buffer instanceof SharedArrayBuffer)
    ? new Uint32Array(reuse.buffer, 0, m) : new Uint32Array(new ArrayBuffer(4 * (m + (m >>> 2))), 0, m);
  out.set(from.subarray(0, m));
  return out;
}

/** Ids grouped by key (CSR), ascending within a group. */
function groupBy(keyOf: (i: number) => number, count: number, groups: number): { start: Uint32Array; ids: Uint32Array } {
  const start = new Uint32Array(groups + 1);
  for (let i = 0; i < count; i++) start[keyOf(i) + 1]++;
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  const at = start.slice(0, groups), ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) ids[at[keyOf(i)]++] = i;
  return { start, ids };
}

/** Per topology: each object's rows and columns in id order, and per row the columns it never pairs with. */
interface JoinTables {
  vertices: { start: Uint32Array; ids: Uint32Array };
  triangles: { start: Uint32Array; ids: Uint32Array };
  edges: { start: Uint32Array; ids: Uint32Array };
  /**
   * Per boundary vertex, the column numbers (within its object's triangles, ascending) of the
   * triangles it makes no pair with: those it is a corner of, and those that are one tet with it
   * (tetPairs.ts vertexFaceOneTet). Per edge likewise (within its object's edges): the edges it
   * shares a vertex with, and those that are one tet with it (edgeEdgeOneTet).
   */
  vertexSkip: { start: Uint32Array; ids: Uint32Array };
  edgeSkip: { start: Uint32Array; ids: Uint32Array };
}

const tablesCache = new WeakMap<CcdTopology, JoinTables>();

/**
 * Per id below `count`, the column numbers local[e] of the elements e among its candidates that
 * `skip(id, e)` says it makes no pair with, ascending and each once. `near(id, out)` writes the
 * candidates (repeats allowed) to out and returns how many; it must list every element skip keeps.
 */
function skipLists(
  count: number, elements: number, near: (id: number, out: number[]) => number, skip: (id: number, e: number) => boolean, local: Uint32Array,
): { start: Uint32Array; ids: Uint32Array } {
  const start = new Uint32Array(count + 1);
  const ids: number[] = [], found: number[] = [], candidates: number[] = [];
  // The last id each element was seen for (dedup), + 1.
  const seen = new Uint32Array(elements);
  for (let id = 0; id < count; id++) {
    const m = near(id, candidates);
    found.length = 0;
    for (let q = 0; q < m; q++) {
      const e = candidates[q];
      if (seen[e] === id + 1) continue;
      seen[e] = id + 1;
      if (skip(id, e)) found.push(local[e]);
    }
    found.sort((x, y) => x - y);
    for (let q = 0; q < found.length; q++) ids.push(found[q]);
    start[id + 1] = ids.length;
  }
  return { start, ids: Uint32Array.from(ids) };
}

function joinTables(topo: CcdTopology): JoinTables {
  let t = tablesCache.get(topo);
  if (t) return t;
  const { triangles: tri, edges, vertexObject: obj, boundaryVertices: bv } = topo;
  const n = topo.vertexCount, triangleCount = tri.length / 3, edgeCount = edges.length / 2;
  let objects = 0;
  for (let v = 0; v < n; v++) objects = Math.max(objects, obj[v] + 1);
  const isBoundary = new Uint8Array(n);
  for (let q = 0; q < bv.length; q++) isBoundary[bv[q]] = 1;
  const boundary = Uint32Array.from(bv).sort();
  const vertexGroups = groupBy((q) => obj[boundary[q]], boundary.length, objects);
  const vertices = { start: vertexGroups.start, ids: Uint32Array.from(vertexGroups.ids, (q) => boundary[q]) };
  const triangles = groupBy((i) => obj[tri[3 * i]], triangleCount, objects);
  const edgeGroups = groupBy((i) => obj[edges[2 * i]], edgeCount, objects);
  const triLocal = new Uint32Array(triangleCount), edgeLocal = new Uint32Array(edgeCount);
  for (let o = 0; o < objects; o++) {
    for (let k = triangles.start[o]; k < triangles.start[o + 1]; k++) triLocal[triangles.ids[k]] = k - triangles.start[o];
    for (let k = edgeGroups.start[o]; k < edgeGroups.start[o + 1]; k++) edgeLocal[edgeGroups.ids[k]] = k - edgeGroups.start[o];
  }
  const opposite = triangleOpposites(topo), edgeOpp = edgeOpposites(topo);
  const vertexTriangles = vertexIncidence(tri, 3, n), vertexEdges = vertexIncidence(edges, 2, n);
  const { tets, vertexTetOffsets: off, vertexTets: list } = topo;
  // A vertex's candidates: the triangles at it, and those at one vertex of each face opposite it
  // in its tets (a triangle that is one tet with it is such a face, so it is at each of its corners).
  const vertexSkip = skipLists(n, triangleCount, (v, out) => {
    if (!isBoundary[v]) return 0;
    let m = 0;
    const around = (u: number): void => {
      for (let j = vertexTriangles.offsets[u]; j < vertexTriangles.offsets[u + 1]; j++) out[m++] = vertexTriangles.ids[j];
    };
    around(v);
    if (tets && off && list) {
      for (let j = off[v]; j < off[v + 1]; j++) {
        const u = tets[4 * list[j]] !== v ? tets[4 * list[j]] : tets[4 * list[j] + 1];
        around(u);
      }
    }
    return m;
  }, (v, t) => obj[tri[3 * t]] === obj[v] && (v === tri[3 * t] || v === tri[3 * t + 1] || v === tri[3 * t + 2] || vertexFaceOneTet(topo, opposite, v, t)), triLocal);
  // An edge's candidates: the edges at its ends, and those at one end of each of its tets' opposite edges.
  const edgeSkip = skipLists(edgeCount, edgeCount, (ea, out) => {
    let m = 0;
    const around = (u: number): void => {
      for (let j = vertexEdges.offsets[u]; j < vertexEdges.offsets[u + 1]; j++) out[m++] = vertexEdges.ids[j];
    };
    around(edges[2 * ea]);
    around(edges[2 * ea + 1]);
    for (let j = edgeOpp.offsets[ea]; j < edgeOpp.offsets[ea + 1]; j++) around(edgeOpp.pairs[2 * j]);
    return m;
  }, (ea, eb) => {
    const a0 = edges[2 * ea], a1 = edges[2 * ea + 1], b0 = edges[2 * eb], b1 = edges[2 * eb + 1];
    return obj[b0] === obj[a0] && (a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1 || edgeEdgeOneTet(edgeOpp, ea, b0, b1));
  }, edgeLocal);
  t = { vertices, triangles, edges: edgeGroups, vertexSkip, edgeSkip };
  tablesCache.set(topo, t);
  return t;
}

/** Whether object o can be joined here (at most SORTED_JOIN_LIMIT.max triangles and edges). */
export function sortedJoinFits(topo: CcdTopology, o: number): boolean {
  const t = joinTables(topo);
  const max = SORTED_JOIN_LIMIT.max;
  if (SORTED_JOIN_LIMIT.refuse?.(o)) return false;
  return t.triangles.start[o + 1] - t.triangles.start[o] <= max && t.edges.start[o + 1] - t.edges.start[o] <= max;
}

/**
 * The culled nodes of one job (culledPairs.ts) for a join that sets apart the pairs within one
 * (sortedSelfPairs): `edgeNodes` per edge its two triangles' culled nodes (edgeCulledNode, -1:
 * none), 2 per edge.
 */
export interface JoinCulling {
  nodes: CulledNodes;
  edgeNodes: Int32Array;
}

/**
 * A join's pairs. With JoinCulling, `vertexFace` / `edgeEdge` hold the pairs not within one culled
 * node and `culledOut` those within one, both sorted: the whole list is their merge (mergePairs.ts).
 */
export interface SortedPairs extends CcdCandidates {
  culledOut?: CcdCandidates;
}

/**
 * Object o's vertex-face and edge-edge pairs on `boxes` (6 per vertex, valid for the object's
 * vertices), sorted; the object must fit (sortedJoinFits). `slice` [k, K]: only the vertices v
 * with v % K = k and the pairs whose lower edge e has e % K = k (broadPhase.ts CandidatePart.slice).
 * `reuse`: lists no longer needed whose buffers the answer may fill (copyOut).
 * With `culling`, the pairs within one culled node (culledPairs.ts, the rule ownPairCache.ts's
 * filter applies) are set apart in `culledOut` as they are found: a list joined on the boxes of
 * now is then the job's answer as it stands, with no second pass over a million pairs to drop
 * them. (Writing every pair to two full lists, all and unculled, cost as much as that pass: the
 * second stream of writes, not the test; culled pairs are about a tenth.)
 */
export function sortedSelfPairs(
  topo: CcdTopology, boxes: Float32Array, o: number, slice?: [number, number], reuse?: SortedPairs | null, culling?: JoinCulling | null,
): SortedPairs {
  if (!sortedJoinFits(topo, o)) throw new RangeError(`sortedSelfPairs: object ${o} has more than ${SORTED_JOIN_LIMIT.max} triangles or edges`);
  const tables = joinTables(topo);
  const [k, slices] = slice ?? [0, 1];
  const tri = topo.triangles, edges = topo.edges;
  const rows = tables.vertices.ids.subarray(tables.vertices.start[o], tables.vertices.start[o + 1]);
  const triangleIds = tables.triangles.ids.subarray(tables.triangles.start[o], tables.triangles.start[o + 1]);
  const edgeIds = tables.edges.ids.subarray(tables.edges.start[o], tables.edges.start[o + 1]);
  const cull = culling ?? null;
  // Vertex-face: the triangles are the columns.
  let n = triangleIds.length;
  const most = Math.max(n, edgeIds.length);
  if (columnBoxes.length < 6 * most) {
    columnBoxes = new Float32Array(6 * most);
    columnNodes = new Int32Array(2 * most);
  }
  for (let q = 0; q < n; q++) unionCornerBoxes(tri, 3, boxes, triangleIds[q], columnBoxes, 6 * q);
  if (cull) {
    const by = cull.nodes.culledBy;
    for (let q = 0; q < n; q++) columnNodes[2 * q] = columnNodes[2 * q + 1] = by[triangleIds[q]] + 1;
  }
  const triangleBins = Math.max(1, Math.ceil(n / STEP));
  let words = buildSets(n, triangleBins);
  pairsLength = culledLength = 0;
  for (let r = 0; r < rows.length && n > 0; r++) {
    const v = rows[r];
    if (v % slices !== k) continue;
    if (!cull) {
      scanRow(v, boxes, 6 * v, 0, tables.vertexSkip, triangleIds, triangleBins, words);
      continue;
    }
    // The row's culled nodes: those of its triangles (often more than two).
    const { culledBy, vertexTriangleOffsets: around, vertexTriangles } = cull.nodes;
    const stamp = nextStamp();
    for (let j = around[v]; j < around[v + 1]; j++) markNode(culledBy[vertexTriangles[j]], stamp);
    scanRowCulled(v, boxes, 6 * v, 0, tables.vertexSkip, triangleIds, triangleBins, words, stamp);
  }
  const vertexFace = copyOut(pairs, pairsLength, reuse?.vertexFace);
  const vertexFaceCulled = cull ? copyOut(culledPairs, culledLength, reuse?.culledOut?.vertexFace) : null;
  // Edge-edge: the edges are the columns and the rows; a row meets the columns above it only.
  n = edgeIds.length;
  for (let q = 0; q < n; q++) unionCornerBoxes(edges, 2, boxes, edgeIds[q], columnBoxes, 6 * q);
  if (cull) {
    const en = cull.edgeNodes;
    for (let q = 0; q < n; q++) {
      columnNodes[2 * q] = en[2 * edgeIds[q]] + 1;
      columnNodes[2 * q + 1] = en[2 * edgeIds[q] + 1] + 1;
    }
  }
  const edgeBins = Math.max(1, Math.ceil(n / STEP));
  words = buildSets(n, edgeBins);
  pairsLength = culledLength = 0;
  for (let r = 0; r + 1 < n; r++) {
    const ea = edgeIds[r];
    if (ea % slices !== k) continue;
    if (!cull) {
      scanRow(ea, columnBoxes, 6 * r, r + 1, tables.edgeSkip, edgeIds, edgeBins, words);
      continue;
    }
    // The row's culled nodes: its two triangles'.
    const stamp = nextStamp();
    markNode(cull.edgeNodes[2 * ea], stamp);
    markNode(cull.edgeNodes[2 * ea + 1], stamp);
    scanRowCulled(ea, columnBoxes, 6 * r, r + 1, tables.edgeSkip, edgeIds, edgeBins, words, stamp);
  }
  const edgeEdge = copyOut(pairs, pairsLength, reuse?.edgeEdge);
  if (!cull) return { vertexFace, edgeEdge };
  return { vertexFace, edgeEdge, culledOut: { vertexFace: vertexFaceCulled!, edgeEdge: copyOut(culledPairs, culledLength, reuse?.culledOut?.edgeEdge) } };
}

/** Per column (in column order) its culled nodes + 1 (0: none): a triangle's twice, an edge's two triangles'. */
let columnNodes = new Int32Array(0);
/**
 * Per culled node + 1, the stamp of the last row that lies in it (markNode): a row's pair with a
 * column is within one culled node exactly when one of the column's nodes carries the row's stamp.
 * Slot 0 (no node) is never stamped.
 */
let nodeStamps = new Int32Array(1024);
let lastStamp = 0;

/** A stamp no row has had since nodeStamps was last cleared. */
function nextStamp(): number {
  if (lastStamp === 0x7fffffff) {
    nodeStamps.fill(0);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/** Marks culled node `node` (-1: none) as one of the current row's. */
function markNode(node: number, stamp: number): void {
  if (node < 0) return;
  if (node + 1 >= nodeStamps.length) {
    const more = new Int32Array(Math.max(node + 2, 2 * nodeStamps.length));
    more.set(nodeStamps);
    nodeStamps = more;
  }
  nodeStamps[node + 1] = stamp;
}
/** Words written to `pairs` and to `culledPairs` (scanRow, scanRowCulled). */
let pairsLength = 0, culledLength = 0;
/** A row's candidate columns (rowCandidates), grow-only scratch. */
let candidates = new Int32Array(0);

/**
 * Appends to `pairs` the pairs (row, columnIds[q]) of the columns q >= from whose boxes overlap
 * the row's box (box[p .. p + 6)), in column order: the row's candidates (rowCandidates), each
 * tested exactly. The test does not branch on its answer (nine in ten candidates pass,
 * unpredictably which): the pair is written and kept by advancing past it.
 */
function scanRow(
  row: number, box: Float32Array, p: number, from: number, skip: { start: Uint32Array; ids: Uint32Array },
  columnIds: Uint32Array, bins: number, words: number,
): void {
  const cb = columnBoxes;
  const x0 = box[p], y0 = box[p + 1], z0 = box[p + 2], x1 = box[p + 3], y1 = box[p + 4], z1 = box[p + 5];
  const k = rowCandidates(row, x0, y0, z0, x1, y1, z1, from, skip, bins, words);
  let m = pairsLength;
  if (m + 2 * k > pairs.length) pairs = grown(pairs, m + 2 * k);
  const out = pairs, cand = candidates;
  for (let i = 0; i < k; i++) {
    const q = cand[i], c = 6 * q;
    const keep = +(cb[c] <= x1) & +(x0 <= cb[c + 3]) & +(cb[c + 1] <= y1) & +(y0 <= cb[c + 4]) & +(cb[c + 2] <= z1) & +(z0 <= cb[c + 5]);
    out[m] = row;
    out[m + 1] = columnIds[q];
    m += keep << 1;
  }
  pairsLength = m;
}

/**
 * scanRow, with the pairs within one culled node appended to `culledPairs` instead (a tenth, in
 * runs: the branch is cheap): culledPairs.ts's rule, a pair lies within one when a node of the
 * column (columnNodes) is one of the row's, which carry the row's `stamp` (markNode).
 */
function scanRowCulled(
  row: number, box: Float32Array, p: number, from: number, skip: { start: Uint32Array; ids: Uint32Array },
  columnIds: Uint32Array, bins: number, words: number, stamp: number,
): void {
  const cb = columnBoxes, nodes = columnNodes, stamps = nodeStamps;
  const x0 = box[p], y0 = box[p + 1], z0 = box[p + 2], x1 = box[p + 3], y1 = box[p + 4], z1 = box[p + 5];
  const k = rowCandidates(row, x0, y0, z0, x1, y1, z1, from, skip, bins, words);
  let m = pairsLength, d = culledLength;
  if (m + 2 * k > pairs.length) pairs = grown(pairs, m + 2 * k);
  if (d + 2 * k > culledPairs.length) culledPairs = grown(culledPairs, d + 2 * k);
  const out = pairs, set = culledPairs, cand = candidates;
  for (let i = 0; i < k; i++) {
    const q = cand[i], c = 6 * q, id = columnIds[q];
    const keep = +(cb[c] <= x1) & +(x0 <= cb[c + 3]) & +(cb[c + 1] <= y1) & +(y0 <= cb[c + 4]) & +(cb[c + 2] <= z1) & +(z0 <= cb[c + 5]);
    const drop = +(stamps[nodes[2 * q]] === stamp) | +(stamps[nodes[2 * q + 1]] === stamp);
    out[m] = row;
    out[m + 1] = id;
    m += (keep & (drop ^ 1)) << 1;
    if ((keep & drop) !== 0) {
      set[d] = row;
      set[d + 1] = id;
      d += 2;
    }
  }
  pairsLength = m;
  culledLength = d;
}

/**
 * The columns q >= from that the row's six condition sets (buildSets) all hold, less the row's
 * skip list (ascending column numbers), into `candidates` in column order; returns how many. The
 * sets are ANDed word by word; a nonzero word's lowest four bits are written without branching on
 * how many it has (the writes past its count are overwritten), the rest one by one: a loop per bit
 * mispredicts its exit once per word, which cost more than the tests themselves.
 */
function rowCandidates(
  row: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, from: number, skip: { start: Uint32Array; ids: Uint32Array },
  bins: number, words: number,
): number {
  const s = sets;
  if (candidates.length < 32 * words + 4) candidates = new Int32Array(32 * words + 4);
  const cand = candidates;
  const a0 = setAt(0, bins, words, x1), a1 = setAt(1, bins, words, y1), a2 = setAt(2, bins, words, z1);
  const a3 = setAt(3, bins, words, -x0), a4 = setAt(4, bins, words, -y0), a5 = setAt(5, bins, words, -z0);
  // The columns the row makes no pair with (ascending): x the next at or above `from`, in word xw.
  const skipIds = skip.ids;
  let x = skip.start[row];
  const xEnd = skip.start[row + 1];
  while (x < xEnd && skipIds[x] < from) x++;
  let xw = x < xEnd ? skipIds[x] >>> 5 : words;
  const first = from >>> 5;
  let k = 0;
  for (let w = first; w < words; w++) {
    let bits = s[a0 + w] & s[a1 + w] & s[a2 + w] & s[a3 + w] & s[a4 + w] & s[a5 + w];
    if (w === first) bits &= -1 << (from & 31);
    if (w === xw) {
      while (x < xEnd && skipIds[x] >>> 5 === w) bits &= ~(1 << (skipIds[x++] & 31));
      xw = x < xEnd ? skipIds[x] >>> 5 : words;
    }
    if (bits === 0) continue;
    // Column of the lowest set bit of b: (w << 5) | ctz(b) = last - clz32(b & -b).
    const last = (w << 5) | 31;
    const b1 = bits & (bits - 1), b2 = b1 & (b1 - 1), b3 = b2 & (b2 - 1);
    cand[k] = last - Math.clz32(bits & -bits);
    cand[k + 1] = last - Math.clz32(b1 & -b1);
    cand[k + 2] = last - Math.clz32(b2 & -b2);
    cand[k + 3] = last - Math.clz32(b3 & -b3);
    k += 1 + +(b1 !== 0) + +(b2 !== 0) + +(b3 !== 0);
    for (bits = b3 & (b3 - 1); bits !== 0; bits &= bits - 1) cand[k++] = last - Math.clz32(bits & -bits);
  }
  return k;
}
