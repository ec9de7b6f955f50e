/**
 * The broad-phase job with self-collision culling (culledSweptCandidates) drops the same-object
 * pairs within a culled node as its join finds them (ccd/culledPairs.ts, ccd/ownPairCache.ts).
 * Checked against a brute force written here that shares no code with that path: every
 * same-object pair whose own-frame boxes overlap (its own union boxes and overlap test, all
 * pairs), less the pairs whose members have triangles in one culled node (found from the culling's
 * per-triangle node ids by scanning the triangle list: its own vertex -> triangles and edge ->
 * triangles maps). Over a sequence of jobs (a fall with kept lists, a wobble, a fold that rebuilds
 * a list, no skin, a job split by object), with the report's pair counts.
 */
import { describe, expect, it } from 'vitest';
import { ccdTopologyOf, ownFrameBoxes, type CcdTopology, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { culledSweptCandidates, selfCullingFor } from '../../../src/collision/selfCulling/broadPhaseCulling';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { rng } from '../../support/random';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

/** Copies of a shared mesh as one mesh, copy i shifted by offsets[i] and given object id i. */
function copies(name: string, offsets: [number, number, number][]): CcdTopology & { rest: Float32Array } {
  const m = loadSharedTetArrays(name);
  const n = m.positions.length / 3;
  const positions = new Float32Array(offsets.length * m.positions.length);
  const tets = new Uint32Array(offsets.length * m.tets.length);
  const objectIds = new Uint32Array(offsets.length * (m.tets.length / 4));
  offsets.forEach((off, c) => {
    for (let i = 0; i < m.positions.length; i++) positions[c * m.positions.length + i] = m.positions[i] + off[i % 3];
    for (let i = 0; i < m.tets.length; i++) tets[c * m.tets.length + i] = m.tets[i] + c * n;
    objectIds.fill(c, (c * m.tets.length) / 4, ((c + 1) * m.tets.length) / 4);
  });
  const mesh = buildTetMesh({ positions, tets }, { objectIds }).mesh;
  const rest = new Float32Array(4 * mesh.vertexCount);
  for (let i = 0; i < mesh.vertexCount; i++) for (let k = 0; k < 3; k++) rest[4 * i + k] = mesh.positions[3 * i + k];
  return { ...ccdTopologyOf(mesh), rest };
}

/** Sorted keys (first * count + second) of the same-object pairs of `pairs`. */
function ownKeys(topo: CcdTopology, pairs: Uint32Array, kind: 'vf' | 'ee'): number[] {
  const obj = topo.vertexObject, T = topo.triangles, E = topo.edges;
  const count = kind === 'vf' ? T.length / 3 : E.length / 2;
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const same = kind === 'vf' ? obj[pairs[i]] === obj[T[3 * pairs[i + 1]]] : obj[E[2 * pairs[i]]] === obj[E[2 * pairs[i + 1]]];
    if (same) out.push(pairs[i] * count + pairs[i + 1]);
  }
  return out.sort((a, b) => a - b);
}

/** Brute force: same-object pairs whose boxes overlap (no shared vertex, not one tet), before and after dropping those within one culled node. */
function bruteForce(topo: CcdTopology, boxes: Float32Array, culledBy: Int32Array): { vf: number[]; ee: number[]; before: number } {
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject, nt = T.length / 3, ne = E.length / 2;
  const tetKeys = new Set<string>();
  const tets = topo.tets!;
  for (let i = 0; i < tets.length; i += 4) tetKeys.add([tets[i], tets[i + 1], tets[i + 2], tets[i + 3]].sort((x, y) => x - y).join(','));
  const oneTet = (ids: number[]): boolean => tetKeys.has([...ids].sort((x, y) => x - y).join(','));
  const union = (ids: ArrayLike<number>): number[] => {
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let c = 0; c < ids.length; c++) for (let k = 0; k < 3; k++) {
      b[k] = Math.min(b[k], boxes[6 * ids[c] + k]);
      b[3 + k] = Math.max(b[3 + k], boxes[6 * ids[c] + 3 + k]);
    }
    return b;
  };
  const meets = (a: number[], b: number[]): boolean => [0, 1, 2].every((k) => a[k] <= b[3 + k] && b[k] <= a[3 + k]);
  const tb = Array.from({ length: nt }, (_, t) => union([T[3 * t], T[3 * t + 1], T[3 * t + 2]]));
  const eb = Array.from({ length: ne }, (_, e) => union([E[2 * e], E[2 * e + 1]]));
  // The culled nodes of each vertex's triangles, and each edge's triangles, by scanning the triangle list.
  const nodesAt = new Map<number, Set<number>>();
  const trianglesOf = new Map<string, number[]>();
  for (let t = 0; t < nt; t++) {
    for (let c = 0; c < 3; c++) {
      const v = T[3 * t + c], w = T[3 * t + ((c + 1) % 3)];
      if (!nodesAt.has(v)) nodesAt.set(v, new Set());
      if (culledBy[t] >= 0) nodesAt.get(v)!.add(culledBy[t]);
      const key = `${Math.min(v, w)},${Math.max(v, w)}`;
      trianglesOf.set(key, [...(trianglesOf.get(key) ?? []), t]);
    }
  }
  const edgeNodes = (e: number): number[] => (trianglesOf.get(`${Math.min(E[2 * e], E[2 * e + 1])},${Math.max(E[2 * e], E[2 * e + 1])}`) ?? []).map((t) => culledBy[t]).filter((c) => c >= 0);
  const vf: number[] = [], ee: number[] = [];
  let before = 0;
  for (const v of topo.boundaryVertices) {
    const vb = union([v]);
    for (let t = 0; t < nt; t++) {
      const a = T[3 * t], b = T[3 * t + 1], c = T[3 * t + 2];
      if (obj[v] !== obj[a] || v === a || v === b || v === c || !meets(vb, tb[t]) || oneTet([v, a, b, c])) continue;
      before++;
      if (culledBy[t] >= 0 && nodesAt.get(v)!.has(culledBy[t])) continue;
      vf.push(v * nt + t);
    }
  }
  for (let a = 0; a < ne; a++) {
    const an = edgeNodes(a);
    for (let b = a + 1; b < ne; b++) {
      const a0 = E[2 * a], a1 = E[2 * a + 1], b0 = E[2 * b], b1 = E[2 * b + 1];
      if (obj[a0] !== obj[b0] || a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1 || !meets(eb[a], eb[b]) || oneTet([a0, a1, b0, b1])) continue;
      before++;
      if (an.length > 0 && edgeNodes(b).some((c) => an.includes(c))) continue;
      ee.push(a * ne + b);
    }
  }
  return { vf: vf.sort((x, y) => x - y), ee: ee.sort((x, y) => x - y), before };
}

describe('culledSweptCandidates drops the pairs within a culled node as its join finds them', () => {
  it('over a fall, a wobble, a fold, no skin and a split job: the same-object pairs are the brute force\'s, and the report counts them', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [1.5, 0.2, 0.1]]);
    const n = scene.vertexCount, obj = scene.vertexObject;
    const r = rng(11);
    const velocities = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) velocities[4 * i + k] = (k === 1 ? -2 : 0) + 0.1 * (r() - 0.5);
    const base: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078, selfPairSkin: 0.5 };
    const deviation = new Float32Array(n).fill(0.0005);
    const at = (dy: number, wobble: number, fold?: number): Float32Array => {
      const x = scene.rest.slice();
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[4 * i + k] += (k === 1 ? dy : 0) + wobble * (r() - 0.5);
      if (fold !== undefined) {
        // Object 1's far end folded back over its middle: its list is joined again.
        for (let i = 0; i < n; i++) if (obj[i] === 1 && x[4 * i] > 1.5 + fold) x[4 * i] = 2 * (1.5 + fold) - x[4 * i];
      }
      return x;
    };
    const jobs: { x: Float32Array; bound: MotionBound; split?: boolean }[] = [
      { x: at(0, 0), bound: base },
      { x: at(-0.1, 0.001), bound: base },
      { x: at(-0.2, 0.001), bound: base },
      { x: at(-0.3, 0.001, 0.1), bound: base },
      { x: at(-0.4, 0.001, 0.1), bound: { ...base, selfPairSkin: 0 } },
      { x: at(-0.5, 0.001, 0.1), bound: base, split: true },
    ];
    let culledPairs = 0;
    jobs.forEach(({ x, bound, split }, j) => {
      const parts = split ? [{ inter: true, objects: [0, 1] as [number, number] }, { inter: false, objects: [1, 2] as [number, number] }] : [undefined];
      const got = { vf: [] as number[], ee: [] as number[], before: 0, after: 0 };
      const culledBy = new Int32Array(scene.triangles.length / 3).fill(-1);
      for (const part of parts) {
        const c = culledSweptCandidates(scene, x, velocities, bound, true, { mode: 'enhanced', deviation }, part);
        got.vf.push(...ownKeys(scene, c.vertexFace, 'vf'));
        got.ee.push(...ownKeys(scene, c.edgeEdge, 'ee'));
        got.before += c.selfCulling!.pairsBefore;
        got.after += c.selfCulling!.pairsAfter;
        // A part culls its own objects' trees only: their triangles' node ids are this part's.
        const by = selfCullingFor(scene).culledBy;
        for (let t = 0; t < culledBy.length; t++) if (!part || (obj[scene.triangles[3 * t]] >= part.objects[0] && obj[scene.triangles[3 * t]] < part.objects[1])) culledBy[t] = by[t];
      }
      got.vf.sort((a, b) => a - b);
      got.ee.sort((a, b) => a - b);
      const want = bruteForce(scene, ownFrameBoxes(scene, x, velocities, bound), culledBy);
      expect(got.vf, `job ${j} vertex-face`).toEqual(want.vf);
      expect(got.ee, `job ${j} edge-edge`).toEqual(want.ee);
      expect(got.before, `job ${j} pairs before culling`).toBe(want.before);
      expect(got.after, `job ${j} pairs after culling`).toBe(want.vf.length + want.ee.length);
      culledPairs += want.before - got.after;
    });
    expect(culledPairs, 'pairs culled over the jobs').toBeGreaterThan(10000);
  });
});
