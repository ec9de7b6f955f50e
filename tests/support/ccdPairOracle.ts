/**
 * Scenes and a brute-force oracle for the CCD broad phase's unit tests
 * (tests/unit/ccd/culledJoin.test.ts, pairGaps.test.ts, broadPhase.test.ts). The oracle shares no
 * code with src/collision/ccd: all pairs, its own union boxes and overlap test, its own maps.
 */
import { ccdTopologyOf, type CcdTopology, type MotionBound } from '../../src/collision/ccd/broadPhase';
import { buildTetMesh } from '../../src/mesh/tetMesh';
import { loadSharedTetArrays } from './sharedMeshes';

/** Copies of a shared mesh as one mesh, copy i shifted by offsets[i] and given object id i. */
export function copies(name: string, offsets: [number, number, number][]): CcdTopology & { rest: Float32Array } {
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

/** Sorted keys (first * count + second) of the pairs of `pairs` within one object (`same`) or between two. */
function pairKeys(topo: CcdTopology, pairs: Uint32Array, kind: 'vf' | 'ee', same: boolean): number[] {
  const obj = topo.vertexObject, T = topo.triangles, E = topo.edges;
  const count = kind === 'vf' ? T.length / 3 : E.length / 2;
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const within = kind === 'vf' ? obj[pairs[i]] === obj[T[3 * pairs[i + 1]]] : obj[E[2 * pairs[i]]] === obj[E[2 * pairs[i + 1]]];
    if (within === same) out.push(pairs[i] * count + pairs[i + 1]);
  }
  return out.sort((a, b) => a - b);
}

/** Sorted keys (first * count + second) of the same-object pairs of `pairs`. */
export function ownKeys(topo: CcdTopology, pairs: Uint32Array, kind: 'vf' | 'ee'): number[] {
  return pairKeys(topo, pairs, kind, true);
}

/** Brute force: same-object pairs whose boxes overlap (no shared vertex, not one tet), before and after dropping those within one culled node. */
export function bruteForce(topo: CcdTopology, boxes: Float32Array, culledBy: Int32Array): { vf: number[]; ee: number[]; before: number } {
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

/** xyz of vec4 positions (copies' rest). */
export function xyzOf(rest: Float32Array): Float32Array {
  const out = new Float32Array((rest.length / 4) * 3);
  for (let i = 0; i < rest.length / 4; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = rest[4 * i + k];
  return out;
}

/**
 * Two shared octopi landing (the CCD bench's impact): the lowest 15 cm of each ramping from rest to
 * 2 m/s down, the rest falling at 2 m/s; horizon 1/30 s, margin 7.8 mm. `flung`: boundary vertex
 * slots (indices into boundaryVertices) also thrown sideways at 40 m/s.
 */
export function landingOctopi(flung: number[] = []): { scene: ReturnType<typeof copies>; velocities: Float32Array; bound: MotionBound } {
  const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [0.05, 0.3, 0.02]]);
  const n = scene.vertexCount;
  const low = [Infinity, Infinity];
  for (let v = 0; v < n; v++) low[scene.vertexObject[v]] = Math.min(low[scene.vertexObject[v]], scene.rest[4 * v + 1]);
  const velocities = new Float32Array(4 * n);
  for (let v = 0; v < n; v++) velocities[4 * v + 1] = -2 * Math.min(1, (scene.rest[4 * v + 1] - low[scene.vertexObject[v]]) / 0.15);
  for (const slot of flung) velocities[4 * scene.boundaryVertices[slot]] = 40;
  return { scene, velocities, bound: { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078 } };
}

/**
 * Brute force: the keys (first * count + second) of the pairs of different objects whose boxes
 * overlap, vertex-face (vertex * triangles + triangle) and edge-edge (lower edge first).
 */
export function bruteForceInter(topo: CcdTopology, boxes: Float32Array): { vf: number[]; ee: number[] } {
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject, nt = T.length / 3, ne = E.length / 2;
  const union = (ids: number[]): number[] => {
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (const id of ids) for (let k = 0; k < 3; k++) {
      b[k] = Math.min(b[k], boxes[6 * id + k]);
      b[3 + k] = Math.max(b[3 + k], boxes[6 * id + 3 + k]);
    }
    return b;
  };
  const meets = (a: number[], b: number[]): boolean => [0, 1, 2].every((k) => a[k] <= b[3 + k] && b[k] <= a[3 + k]);
  const tb = Array.from({ length: nt }, (_, t) => union([T[3 * t], T[3 * t + 1], T[3 * t + 2]]));
  const eb = Array.from({ length: ne }, (_, e) => union([E[2 * e], E[2 * e + 1]]));
  const vf: number[] = [], ee: number[] = [];
  for (const v of topo.boundaryVertices) {
    const vb = union([v]);
    for (let t = 0; t < nt; t++) if (obj[v] !== obj[T[3 * t]] && meets(vb, tb[t])) vf.push(v * nt + t);
  }
  for (let a = 0; a < ne; a++) for (let b = a + 1; b < ne; b++) if (obj[E[2 * a]] !== obj[E[2 * b]] && meets(eb[a], eb[b])) ee.push(a * ne + b);
  return { vf: vf.sort((x, y) => x - y), ee: ee.sort((x, y) => x - y) };
}

/** Sorted keys (first * count + second) of the pairs of different objects of `pairs`. */
export function interKeys(topo: CcdTopology, pairs: Uint32Array, kind: 'vf' | 'ee'): number[] {
  return pairKeys(topo, pairs, kind, false);
}
