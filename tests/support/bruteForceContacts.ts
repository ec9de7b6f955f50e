/**
 * The exhaustive self-contact search the culling tests check against (no code shared with the
 * culling or the broad phase): every pair of triangles of one object that share no vertex, their
 * 6 vertex-triangle and 9 edge-edge elementary pairs, each through the exact CCD of the public
 * entry point (src/collision/ccd) over the linear motion from `start` to `end` (xyz per vertex).
 * The only shortcuts are exact too: a triangle pair (vertex-triangle pair, edge pair) whose boxes
 * over the motion (the hull of their corners' positions at both ends) do not overlap cannot touch,
 * so its CCD is skipped.
 *
 * Returns the elementary pairs that touch, as keys "vf:v,t" (vertex, triangle index) and
 * "ee:a,b" (edge indices a < b into the topology's edge list).
 */
import { edgeEdgeCcd, vertexFaceCcd } from '../../src/collision/ccd';
import type { CcdTopology } from '../../src/collision/ccd/broadPhase';

export function bruteForceContacts(topo: CcdTopology, start: ArrayLike<number>, end: ArrayLike<number>, isOneTet: (ids: number[]) => boolean = () => false): Set<string> {
  const T = topo.triangles, nt = T.length / 3, obj = topo.vertexObject;
  const edgeId = new Map<string, number>();
  for (let e = 0; e < topo.edges.length / 2; e++) {
    const a = topo.edges[2 * e], b = topo.edges[2 * e + 1];
    edgeId.set(a < b ? `${a},${b}` : `${b},${a}`, e);
  }
  const box = new Float64Array(6 * nt);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let c = 0; c < 3; c++) {
        const v = T[3 * t + c];
        lo = Math.min(lo, start[3 * v + k], end[3 * v + k]);
        hi = Math.max(hi, start[3 * v + k], end[3 * v + k]);
      }
      box[6 * t + k] = lo;
      box[6 * t + 3 + k] = hi;
    }
  }
  /** Whether the boxes over the motion of two point sets meet. */
  const meets = (a: number[], b: number[]): boolean => {
    for (let k = 0; k < 3; k++) {
      let alo = Infinity, ahi = -Infinity, blo = Infinity, bhi = -Infinity;
      for (const v of a) {
        alo = Math.min(alo, start[3 * v + k], end[3 * v + k]);
        ahi = Math.max(ahi, start[3 * v + k], end[3 * v + k]);
      }
      for (const v of b) {
        blo = Math.min(blo, start[3 * v + k], end[3 * v + k]);
        bhi = Math.max(bhi, start[3 * v + k], end[3 * v + k]);
      }
      if (alo > bhi || blo > ahi) return false;
    }
    return true;
  };
  const q = new Float64Array(24);
  const put = (ids: number[]): Float64Array => {
    ids.forEach((id, j) => {
      for (let k = 0; k < 3; k++) {
        q[3 * j + k] = start[3 * id + k];
        q[12 + 3 * j + k] = end[3 * id + k];
      }
    });
    return q;
  };
  const hits = new Set<string>();
  for (let s = 0; s < nt; s++) {
    const s0 = T[3 * s], s1 = T[3 * s + 1], s2 = T[3 * s + 2];
    for (let t = s + 1; t < nt; t++) {
      // Boxes first (no allocation in this loop of nt^2 / 2 pairs).
      if (box[6 * s] > box[6 * t + 3] || box[6 * t] > box[6 * s + 3] || box[6 * s + 1] > box[6 * t + 4] || box[6 * t + 1] > box[6 * s + 4] || box[6 * s + 2] > box[6 * t + 5] || box[6 * t + 2] > box[6 * s + 5]) continue;
      const t0 = T[3 * t], t1 = T[3 * t + 1], t2 = T[3 * t + 2];
      if (obj[s0] !== obj[t0] || s0 === t0 || s0 === t1 || s0 === t2 || s1 === t0 || s1 === t1 || s1 === t2 || s2 === t0 || s2 === t1 || s2 === t2) continue;
      const a = [s0, s1, s2], b = [t0, t1, t2];
      for (const [v, tri, corners] of [[a, t, b], [b, s, a]] as [number[], number, number[]][]) {
        for (const p of v) {
          const key = `vf:${p},${tri}`;
          if (hits.has(key) || isOneTet([p, ...corners]) || !meets([p], corners)) continue;
          if (vertexFaceCcd(put([p, ...corners])).hit) hits.add(key);
        }
      }
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const e0 = [a[i], a[(i + 1) % 3]], e1 = [b[j], b[(j + 1) % 3]];
          const ea = edgeId.get(e0[0] < e0[1] ? `${e0[0]},${e0[1]}` : `${e0[1]},${e0[0]}`)!;
          const eb = edgeId.get(e1[0] < e1[1] ? `${e1[0]},${e1[1]}` : `${e1[1]},${e1[0]}`)!;
          const key = `ee:${Math.min(ea, eb)},${Math.max(ea, eb)}`;
          if (hits.has(key) || isOneTet([...e0, ...e1]) || !meets(e0, e1)) continue;
          if (edgeEdgeCcd(put([...e0, ...e1])).hit) hits.add(key);
        }
      }
    }
  }
  return hits;
}

/** The keys of candidate pairs (vertexFace: v, t; edgeEdge: a, b), as bruteForceContacts writes them. */
export function candidateKeys(c: { vertexFace: Uint32Array; edgeEdge: Uint32Array }): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < c.vertexFace.length; i += 2) out.add(`vf:${c.vertexFace[i]},${c.vertexFace[i + 1]}`);
  for (let i = 0; i < c.edgeEdge.length; i += 2) out.add(`ee:${Math.min(c.edgeEdge[i], c.edgeEdge[i + 1])},${Math.max(c.edgeEdge[i], c.edgeEdge[i + 1])}`);
  return out;
}
