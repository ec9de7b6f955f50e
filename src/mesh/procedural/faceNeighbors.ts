import { TET_FACES } from '../types';

/**
 * Tet across each local face among alive tets, -1 on the boundary. Faces are bucketed by their
 * smallest vertex (a counting sort) and matched inside each small bucket, which touches memory
 * almost sequentially (a global hash table of millions of faces is bound by cache misses).
 */
export function faceNeighbors(tets: Uint32Array, alive: Uint8Array): Int32Array {
  const T = tets.length / 4;
  let V = 0;
  for (let i = 0; i < tets.length; i++) if (tets[i] >= V) V = tets[i] + 1;
  const nb = new Int32Array(4 * T).fill(-1);
  // Per face: its two larger vertices (sorted); bucket by the smallest.
  const hi = new Int32Array(8 * T);
  const lo = new Int32Array(4 * T);
  const offsets = new Int32Array(V + 1);
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let i = 0; i < 4; i++) {
      const f = TET_FACES[i];
      let a = tets[4 * t + f[0]], b = tets[4 * t + f[1]], c = tets[4 * t + f[2]], x: number;
      if (a > b) { x = a; a = b; b = x; }
      if (b > c) { x = b; b = c; c = x; }
      if (a > b) { x = a; a = b; b = x; }
      const me = 4 * t + i;
      lo[me] = a;
      hi[2 * me] = b;
      hi[2 * me + 1] = c;
      offsets[a + 1]++;
    }
  }
  for (let v = 0; v < V; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, V);
  const bucket = new Int32Array(offsets[V]);
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let i = 0; i < 4; i++) bucket[fill[lo[4 * t + i]]++] = 4 * t + i;
  }
  for (let v = 0; v < V; v++) {
    const s1 = offsets[v + 1];
    for (let s = offsets[v]; s < s1; s++) {
      const f = bucket[s];
      if (nb[f] >= 0) continue;
      const b = hi[2 * f], c = hi[2 * f + 1];
      for (let r = s + 1; r < s1; r++) {
        const g = bucket[r];
        if (hi[2 * g] === b && hi[2 * g + 1] === c) {
          nb[f] = g >> 2;
          nb[g] = f >> 2;
          break;
        }
      }
    }
  }
  return nb;
}
