/**
 * Which same-object candidate pairs are one tet (broadPhase.ts ccdCandidates, sortedSelfJoin.ts):
 * a vertex crossing the opposite face of its own tet, or two opposite edges of a tet crossing, is
 * that element inverting or unfolding, which the material solve handles, not a collision. Tables
 * per topology, built once.
 */
import type { CcdTopology } from './broadPhase';

const NO_TET = 0xffffffff;
const SEVERAL_TETS = 0xfffffffe;
const oppositeCache = new WeakMap<CcdTopology, Uint32Array>();

/**
 * Per boundary triangle, the fourth corner of the tet it is a face of: a vertex-face pair is one
 * tet exactly when the vertex is that corner, an O(1) test instead of a scan of the vertex's tets
 * (the scan was a fifth of the broad phase's time on a pile of octopi). A boundary face has one
 * tet; NO_TET when none (no element topology, or a triangle that is no tet's face), SEVERAL_TETS
 * when more than one (a malformed boundary: oneTet scans as before).
 */
export function triangleOpposites(topo: CcdTopology): Uint32Array {
  let out = oppositeCache.get(topo);
  if (out) return out;
  const tri = topo.triangles, m = tri.length / 3;
  out = new Uint32Array(m).fill(NO_TET);
  const { tets, vertexTetOffsets: off, vertexTets: list } = topo;
  if (tets && off && list) {
    for (let t = 0; t < m; t++) {
      const a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
      for (let j = off[a]; j < off[a + 1]; j++) {
        const o = 4 * list[j];
        let found = 0, other = NO_TET;
        for (let k = 0; k < 4; k++) {
          const v = tets[o + k];
          if (v === b || v === c) found++;
          else if (v !== a) other = v;
        }
        if (found === 2) out[t] = out[t] === NO_TET ? other : SEVERAL_TETS;
      }
    }
  }
  oppositeCache.set(topo, out);
  return out;
}

/** Whether boundary vertex v and boundary triangle t are the four corners of one tet. */
export function vertexFaceOneTet(topo: CcdTopology, opposite: Uint32Array, v: number, t: number): boolean {
  const o = opposite[t];
  if (o === SEVERAL_TETS) return oneTet(topo, v, topo.triangles[3 * t], topo.triangles[3 * t + 1], topo.triangles[3 * t + 2]);
  return o === v;
}

/** Per boundary edge, the opposite edges of the tets around it (edgeOpposites). */
export interface EdgeOpposites {
  offsets: Uint32Array;
  pairs: Uint32Array;
}

const edgeOppositeCache = new WeakMap<CcdTopology, EdgeOpposites>();

/**
 * Per boundary edge, the opposite edges of the tets around it (CSR: offsets per edge, then two
 * vertex ids per tet, lower first): two edges are one tet's opposite edges exactly when the other
 * edge is listed, a scan of the few tets around the edge instead of all of a vertex's.
 */
export function edgeOpposites(topo: CcdTopology): EdgeOpposites {
  let out = edgeOppositeCache.get(topo);
  if (out) return out;
  const edges = topo.edges, m = edges.length / 2;
  const offsets = new Uint32Array(m + 1);
  const pairs: number[] = [];
  const { tets, vertexTetOffsets: off, vertexTets: list } = topo;
  for (let e = 0; e < m; e++) {
    if (tets && off && list) {
      const a = edges[2 * e], b = edges[2 * e + 1];
      for (let j = off[a]; j < off[a + 1]; j++) {
        const o = 4 * list[j];
        let hasB = false, c = NO_TET, d = NO_TET;
        for (let k = 0; k < 4; k++) {
          const v = tets[o + k];
          if (v === b) hasB = true;
          else if (v !== a) {
            if (c === NO_TET) c = v;
            else d = v;
          }
        }
        if (hasB && d !== NO_TET) pairs.push(Math.min(c, d), Math.max(c, d));
      }
    }
    offsets[e + 1] = pairs.length / 2;
  }
  out = { offsets, pairs: Uint32Array.from(pairs) };
  edgeOppositeCache.set(topo, out);
  return out;
}

/** Whether boundary edges ea and eb (no shared vertex) are opposite edges of one tet. */
export function edgeEdgeOneTet(opp: EdgeOpposites, ea: number, b0: number, b1: number): boolean {
  const lo = Math.min(b0, b1), hi = Math.max(b0, b1);
  for (let j = opp.offsets[ea]; j < opp.offsets[ea + 1]; j++) if (opp.pairs[2 * j] === lo && opp.pairs[2 * j + 1] === hi) return true;
  return false;
}

/** Whether a, b, c, d (distinct) are the four corners of one tet of the topology (false without element topology). */
function oneTet(topo: CcdTopology, a: number, b: number, c: number, d: number): boolean {
  const { tets, vertexTetOffsets: off, vertexTets: list } = topo;
  if (!tets || !off || !list) return false;
  for (let j = off[a]; j < off[a + 1]; j++) {
    const o = 4 * list[j];
    let found = 0;
    for (let k = 0; k < 4; k++) {
      const v = tets[o + k];
      if (v === b || v === c || v === d) found++;
    }
    if (found === 3) return true;
  }
  return false;
}
