/**
 * The sorted same-object join that sets apart the pairs within one culled node as it finds them
 * (src/collision/ccd/sortedSelfJoin.ts JoinCulling / culledOut), and the kept list it leaves
 * (ownPairCache.ts: its answer as it stands, made whole again by mergePairs.ts before a later job
 * reads it), against the brute-force oracle (tests/support/ccdPairOracle.ts: its own union boxes,
 * overlap test and vertex / edge -> triangle maps; no code shared with the join).
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates, type CcdTopology, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import type { CulledNodes } from '../../../src/collision/ccd/culledPairs';
import { sortedSelfPairs } from '../../../src/collision/ccd/sortedSelfJoin';
import { bruteForce, landingOctopi, ownKeys } from '../../support/ccdPairOracle';

/**
 * Culled nodes made up here: the triangles whose centroid lies in one cell of a `cell` grid form
 * a node, every third cell none. Nodes are then small and local, as the culling's are, so that
 * many vertices have triangles in three or more of them. The surface lookups the rule reads are
 * built here from the triangle list.
 */
function madeUpCulledNodes(topo: CcdTopology, positions: Float32Array, cell: number): CulledNodes {
  const T = topo.triangles, E = topo.edges, nt = T.length / 3, n = topo.vertexCount;
  const culledBy = new Int32Array(nt);
  const ids = new Map<string, number>();
  for (let t = 0; t < nt; t++) {
    const key = [0, 1, 2].map((k) => Math.floor((positions[4 * T[3 * t] + k] + positions[4 * T[3 * t + 1] + k] + positions[4 * T[3 * t + 2] + k]) / (3 * cell))).join(',');
    if (!ids.has(key)) ids.set(key, ids.size);
    const id = ids.get(key)!;
    culledBy[t] = id % 3 === 2 ? -1 : 7 + 2 * id;
  }
  const around: number[][] = Array.from({ length: n }, () => []);
  for (let t = 0; t < nt; t++) for (let c = 0; c < 3; c++) around[T[3 * t + c]].push(t);
  const vertexTriangleOffsets = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) vertexTriangleOffsets[v + 1] = vertexTriangleOffsets[v] + around[v].length;
  const vertexTriangles = Uint32Array.from(around.flat());
  const edgeTriangles = new Int32Array(E.length).fill(-1);
  for (let e = 0; e < E.length / 2; e++) {
    const shared = around[E[2 * e]].filter((t) => around[E[2 * e + 1]].includes(t));
    shared.slice(0, 2).forEach((t, side) => (edgeTriangles[2 * e + side] = t));
  }
  return { culledBy, vertexTriangleOffsets, vertexTriangles, edgeTriangles };
}

/** Per edge its two triangles' culled nodes (-1: none), as the kept lists pass them to the join. */
function edgeNodesOf(nodes: CulledNodes): Int32Array {
  return Int32Array.from(nodes.edgeTriangles, (t) => (t >= 0 ? nodes.culledBy[t] : -1));
}

/** Keys (first * count + second) in their order, and whether they increase. */
const keys = (pairs: Uint32Array, count: number): number[] => Array.from({ length: pairs.length / 2 }, (_, q) => pairs[2 * q] * count + pairs[2 * q + 1]);
const increasing = (a: number[]): boolean => a.every((x, i) => i === 0 || x > a[i - 1]);
const minus = (all: number[], some: number[]): number[] => {
  const drop = new Set(some);
  return all.filter((k) => !drop.has(k));
};

describe('sorted join with culled pairs set apart', () => {
  it('per object and slice: the pairs outside culled nodes and those within one are the brute force\'s, each sorted', () => {
    const { scene, velocities, bound } = landingOctopi();
    const boxes = ownFrameBoxes(scene, scene.rest, velocities, bound);
    const nodes = madeUpCulledNodes(scene, scene.rest, 0.05);
    const culling = { nodes, edgeNodes: edgeNodesOf(nodes) };
    const want = bruteForce(scene, boxes, nodes.culledBy);
    const all = bruteForce(scene, boxes, new Int32Array(nodes.culledBy.length).fill(-1));
    const wantOut = { vf: minus(all.vf, want.vf), ee: minus(all.ee, want.ee) };
    expect(wantOut.vf.length + wantOut.ee.length, 'pairs within one culled node').toBeGreaterThan(5000);
    // Vertices whose triangles lie in three or more nodes (the rule's general case) occur.
    let spread = 0;
    for (const v of scene.boundaryVertices) {
      const at = new Set<number>();
      for (let j = nodes.vertexTriangleOffsets[v]; j < nodes.vertexTriangleOffsets[v + 1]; j++) if (nodes.culledBy[nodes.vertexTriangles[j]] >= 0) at.add(nodes.culledBy[nodes.vertexTriangles[j]]);
      spread += +(at.size >= 3);
    }
    expect(spread).toBeGreaterThan(100);
    const nt = scene.triangles.length / 3, ne = scene.edges.length / 2;
    for (const K of [1, 2]) {
      const got = { vf: [] as number[], ee: [] as number[], outVf: [] as number[], outEe: [] as number[] };
      for (let o = 0; o < 2; o++) {
        for (let k = 0; k < K; k++) {
          const c = sortedSelfPairs(scene, boxes, o, K > 1 ? [k, K] : undefined, null, culling);
          const parts = [keys(c.vertexFace, nt), keys(c.edgeEdge, ne), keys(c.culledOut!.vertexFace, nt), keys(c.culledOut!.edgeEdge, ne)];
          parts.forEach((p, i) => expect(increasing(p), `object ${o}, slice ${k} of ${K}, list ${i}: not sorted`).toBe(true));
          got.vf.push(...parts[0]);
          got.ee.push(...parts[1]);
          got.outVf.push(...parts[2]);
          got.outEe.push(...parts[3]);
        }
      }
      const sorted = (a: number[]): number[] => a.sort((x, y) => x - y);
      expect(sorted(got.vf), `${K} slices: vertex-face outside culled nodes`).toEqual(want.vf);
      expect(sorted(got.ee), `${K} slices: edge-edge outside culled nodes`).toEqual(want.ee);
      expect(sorted(got.outVf), `${K} slices: vertex-face within one`).toEqual(wantOut.vf);
      expect(sorted(got.outEe), `${K} slices: edge-edge within one`).toEqual(wantOut.ee);
    }
  });

  it('a list joined with culled pairs set apart, read again by a later job, holds every pair', () => {
    const { scene, velocities, bound } = landingOctopi();
    const topo: CcdTopology = { ...scene };
    const skinned: MotionBound = { ...bound, selfPairSkin: 0.5 };
    const moved = scene.rest.slice();
    for (let i = 0; i < moved.length; i += 4) moved[i + 1] += velocities[i + 1] / 60;
    const nodes = madeUpCulledNodes(scene, moved, 0.05);
    // Job 1 joins skinned lists; job 2 (the squash a frame on) outgrows them and joins on its
    // boxes as they are, with culled nodes, setting their pairs apart.
    sweptCandidates(topo, scene.rest, velocities, skinned, true);
    const second = sweptCandidates(topo, moved, velocities, skinned, true, () => nodes);
    expect(second.keptPairs!.rebuilt).toBe(2);
    const boxes = ownFrameBoxes(scene, moved, velocities, bound);
    const culledWant = bruteForce(scene, boxes, nodes.culledBy);
    expect(ownKeys(scene, second.vertexFace, 'vf')).toEqual(culledWant.vf);
    expect(ownKeys(scene, second.edgeEdge, 'ee')).toEqual(culledWant.ee);
    expect(second.selfPairs!.before).toBe(culledWant.before);
    // Job 3: the margin a little smaller, so every box lies inside its kept one (a list joined on
    // the boxes as they were is kept shrunk by a rounding slack) and both lists are reused; without
    // culling every pair whose boxes overlap is the answer, those set apart in job 2 included.
    const narrower: MotionBound = { ...skinned, margin: 0.007 };
    const third = sweptCandidates(topo, moved, velocities, narrower, true);
    expect(third.keptPairs!.reused).toBe(2);
    const want = bruteForce(scene, ownFrameBoxes(scene, moved, velocities, narrower), new Int32Array(nodes.culledBy.length).fill(-1));
    expect(want.vf.length).toBeGreaterThan(culledWant.vf.length);
    expect(ownKeys(scene, third.vertexFace, 'vf')).toEqual(want.vf);
    expect(ownKeys(scene, third.edgeEdge, 'ee')).toEqual(want.ee);
    // In the kept lists' order, as a fresh join gives them: by (first, second).
    const obj = scene.vertexObject, T = scene.triangles, E = scene.edges;
    const inOrder = (pairs: Uint32Array, count: number, same: (i: number, j: number) => boolean): number[] =>
      keys(pairs, count).filter((key) => same(Math.floor(key / count), key % count));
    expect(increasing(inOrder(third.vertexFace, T.length / 3, (v, t) => obj[v] === obj[T[3 * t]]))).toBe(true);
    expect(increasing(inOrder(third.edgeEdge, E.length / 2, (a, b) => obj[E[2 * a]] === obj[E[2 * b]]))).toBe(true);
  });
});
