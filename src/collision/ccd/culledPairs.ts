/**
 * Which same-object candidate pairs lie within one culled node of self-collision culling (paper
 * 002, collision/selfCulling/): the rule the culling's filter applies, given the culled nodes as
 * one id per triangle. Kept here, beside the broad phase, so that the join can drop those pairs as
 * it finds them (ownPairCache.ts) instead of a second pass over its output.
 *
 * A vertex-triangle pair (v, t) lies within culled node C when t and some triangle at v are in C;
 * an edge-edge pair when each edge has a triangle in C. Culled nodes are disjoint (the traversal
 * stops at the first), so each triangle has at most one, and each test is a few lookups.
 */
import type { CcdCandidates } from './broadPhase';

/** The culled nodes of one cull (SelfCulling.culledNodes), and the surface lookups the rule needs. */
export interface CulledNodes {
  /** Per boundary triangle: the culled node it lies in (a scene-wide id), or -1. */
  culledBy: Int32Array;
  /** Per vertex, its boundary triangles (CSR). */
  vertexTriangleOffsets: Uint32Array;
  vertexTriangles: Uint32Array;
  /** Per boundary edge (the topology's index), its two triangles (-1: none). */
  edgeTriangles: Int32Array;
}

/** Whether vertex v and triangle t lie in one culled node. */
export function culledVertexFace(c: CulledNodes, v: number, t: number): boolean {
  const by = c.culledBy, node = by[t];
  if (node < 0) return false;
  const list = c.vertexTriangles;
  for (let j = c.vertexTriangleOffsets[v], end = c.vertexTriangleOffsets[v + 1]; j < end; j++) if (by[list[j]] === node) return true;
  return false;
}

/** Whether edges a and b (indices into the topology's edges) lie in one culled node. */
export function culledEdgeEdge(c: CulledNodes, a: number, b: number): boolean {
  const a0 = edgeCulledNode(c, a, 0), a1 = edgeCulledNode(c, a, 1);
  if (a0 < 0 && a1 < 0) return false;
  return culledEdgeNodes(a0, a1, edgeCulledNode(c, b, 0), edgeCulledNode(c, b, 1));
}

/**
 * The culled nodes of vertex v's triangles for a run of pairs (v, t), at most two, into out[0..1]
 * (-1: none): (v, t) is then culled exactly when culledBy[t] is one of them. Returns MIXED when
 * they lie in more than two (culledVertexFace decides), else 0.
 */
export const MIXED = -2;
export function vertexCulledNodes(c: CulledNodes, v: number, out: Int32Array): number {
  const by = c.culledBy, list = c.vertexTriangles;
  let n0 = -1, n1 = -1;
  for (let j = c.vertexTriangleOffsets[v], end = c.vertexTriangleOffsets[v + 1]; j < end; j++) {
    const n = by[list[j]];
    if (n < 0 || n === n0 || n === n1) continue;
    if (n0 < 0) n0 = n;
    else if (n1 < 0) n1 = n;
    else return MIXED;
  }
  out[0] = n0;
  out[1] = n1;
  return 0;
}

/** The culled node of edge e's triangle `side` (0 or 1), or -1 (none, or not culled). */
export function edgeCulledNode(c: CulledNodes, e: number, side: number): number {
  const t = c.edgeTriangles[2 * e + side];
  return t >= 0 ? c.culledBy[t] : -1;
}

/** culledEdgeEdge from the four culled nodes of the two edges' triangles (edgeCulledNode). */
export function culledEdgeNodes(a0: number, a1: number, b0: number, b1: number): boolean {
  return (a0 >= 0 && (a0 === b0 || a0 === b1)) || (a1 >= 0 && (a1 === b0 || a1 === b1));
}

/** The pairs of `pairs` not within one culled node, in order, appended to `out` from `at`; returns the new length. */
export function keepUnculled(c: CulledNodes, kind: 'vertexFace' | 'edgeEdge', pairs: Uint32Array, out: Uint32Array, at: number): number {
  const vf = kind === 'vertexFace';
  for (let q = 0; q < pairs.length; q += 2) {
    const i = pairs[q], j = pairs[q + 1];
    if (vf ? culledVertexFace(c, i, j) : culledEdgeEdge(c, i, j)) continue;
    out[at++] = i;
    out[at++] = j;
  }
  return at;
}

/** The pairs of `cand` that do not lie within one culled node, as new arrays. */
export function dropCulled(c: CulledNodes, cand: CcdCandidates): CcdCandidates {
  const vf = new Uint32Array(cand.vertexFace.length), ee = new Uint32Array(cand.edgeEdge.length);
  const n = keepUnculled(c, 'vertexFace', cand.vertexFace, vf, 0);
  const m = keepUnculled(c, 'edgeEdge', cand.edgeEdge, ee, 0);
  return { vertexFace: vf.slice(0, n), edgeEdge: ee.slice(0, m) };
}
