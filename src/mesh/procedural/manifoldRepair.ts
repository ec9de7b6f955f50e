/**
 * Makes the boundary of a stuffed mesh a closed 2-manifold. Where the shape is thinner than
 * the lattice resolves (tentacle tips, two arms almost touching), isosurface stuffing can
 * leave tets that meet only along an edge or at a vertex; the shortest-path traversal and
 * buildTetMesh need every boundary edge to have exactly two boundary triangles. Around each
 * boundary vertex (and each edge at it), the incident tets must form one group connected
 * through faces containing that vertex (edge); otherwise the incident tets of every group but
 * the largest are removed. Repeat until none is left, then keep the largest face-connected
 * component and drop unused vertices.
 */
import { TET_FACES } from '../types';

export interface RepairResult {
  positions: Float32Array;
  tets: Uint32Array;
  removedTets: number;
}

export function repairManifold(positions: Float32Array, tets: Uint32Array): RepairResult {
  const T = tets.length / 4;
  const alive = new Uint8Array(T).fill(1);
  let removed = 0;
  for (let iter = 0; iter < 100; iter++) {
    const nb = faceNeighbors(tets, alive);
    const kill = findNonManifoldStars(positions.length / 3, tets, alive, nb);
    if (kill.length === 0) break;
    for (const t of kill) {
      if (alive[t]) {
        alive[t] = 0;
        removed++;
      }
    }
  }
  const nb = faceNeighbors(tets, alive);
  removed += keepLargestComponent(T, alive, nb);
  const compact = compactMesh(positions, tets, alive);
  return { ...compact, removedTets: removed };
}

/** Tet across each local face among alive tets, -1 on the boundary (sorted-triple hashing). */
export function faceNeighbors(tets: Uint32Array, alive: Uint8Array): Int32Array {
  const T = tets.length / 4;
  const nb = new Int32Array(4 * T).fill(-1);
  let size = 16;
  while (size < 8 * T) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1); // face id 4t + i
  const key = new Int32Array(3);
  const other = new Int32Array(3);
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let i = 0; i < 4; i++) {
      sortedFace(tets, t, i, key);
      let s = (Math.imul(key[0], 0x9e3779b1) ^ Math.imul(key[1], 0x85ebca77) ^ Math.imul(key[2], 0xc2b2ae3d)) >>> 0;
      s = ((s ^ (s >>> 15)) >>> 0) & mask;
      for (;;) {
        const f = table[s];
        if (f < 0) {
          table[s] = 4 * t + i;
          break;
        }
        sortedFace(tets, f >> 2, f & 3, other);
        if (other[0] === key[0] && other[1] === key[1] && other[2] === key[2]) {
          nb[4 * t + i] = f >> 2;
          nb[f] = t;
          break;
        }
        s = (s + 1) & mask;
      }
    }
  }
  return nb;
}

function sortedFace(tets: Uint32Array, t: number, i: number, out: Int32Array): void {
  const f = TET_FACES[i];
  let a = tets[4 * t + f[0]], b = tets[4 * t + f[1]], c = tets[4 * t + f[2]], x: number;
  if (a > b) { x = a; a = b; b = x; }
  if (b > c) { x = b; b = c; c = x; }
  if (a > b) { x = a; a = b; b = x; }
  out[0] = a;
  out[1] = b;
  out[2] = c;
}

/** Tets to remove around non-manifold boundary vertices and edges. */
function findNonManifoldStars(V: number, tets: Uint32Array, alive: Uint8Array, nb: Int32Array): number[] {
  const T = tets.length / 4;
  const onBoundary = new Uint8Array(V);
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let i = 0; i < 4; i++) {
      if (nb[4 * t + i] >= 0) continue;
      for (const k of TET_FACES[i]) onBoundary[tets[4 * t + k]] = 1;
    }
  }
  // Vertex -> alive tets (CSR).
  const offsets = new Int32Array(V + 1);
  for (let t = 0; t < T; t++) if (alive[t]) for (let k = 0; k < 4; k++) offsets[tets[4 * t + k] + 1]++;
  for (let v = 0; v < V; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, V);
  const star = new Int32Array(offsets[V]);
  for (let t = 0; t < T; t++) if (alive[t]) for (let k = 0; k < 4; k++) star[fill[tets[4 * t + k]]++] = t;

  const kill: number[] = [];
  const parent = new Int32Array(64);
  const local: number[] = [];
  for (let v = 0; v < V; v++) {
    if (!onBoundary[v]) continue;
    const s0 = offsets[v], s1 = offsets[v + 1];
    // Vertex star: connected through faces containing v (face i contains v unless v is vertex i).
    local.length = 0;
    for (let s = s0; s < s1; s++) local.push(star[s]);
    if (groupAndKill(local, parent, kill, (t, i) => tets[4 * t + i] !== v, nb)) continue;
    // Edge stars v-w (w > v): connected through faces containing both v and w.
    for (let s = s0; s < s1; s++) {
      const t = star[s];
      for (let k = 0; k < 4; k++) {
        const w = tets[4 * t + k];
        if (w <= v) continue;
        // Handle each edge once: only from the first tet of the star that contains w.
        let first = true;
        for (let r = s0; r < s && first; r++) {
          const u = star[r];
          if (tets[4 * u] === w || tets[4 * u + 1] === w || tets[4 * u + 2] === w || tets[4 * u + 3] === w) first = false;
        }
        if (!first) continue;
        local.length = 0;
        for (let r = s; r < s1; r++) {
          const u = star[r];
          if (tets[4 * u] === w || tets[4 * u + 1] === w || tets[4 * u + 2] === w || tets[4 * u + 3] === w) local.push(u);
        }
        const vv = v, ww = w;
        groupAndKill(local, parent, kill, (u, i) => tets[4 * u + i] !== vv && tets[4 * u + i] !== ww, nb);
      }
    }
  }
  return kill;
}

/**
 * Union-find over `local` tets joined across faces accepted by `contains`; if there is more
 * than one group, pushes the tets of all but the largest onto kill and returns true.
 */
function groupAndKill(
  local: number[], parent: Int32Array, kill: number[],
  contains: (t: number, face: number) => boolean, nb: Int32Array,
): boolean {
  const n = local.length;
  if (n > parent.length) throw new Error(`manifold repair: ${n} tets around one vertex`);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let a = 0; a < n; a++) parent[a] = a;
  for (let a = 0; a < n; a++) {
    const t = local[a];
    for (let i = 0; i < 4; i++) {
      if (!contains(t, i)) continue;
      const u = nb[4 * t + i];
      if (u < 0) continue;
      const b = local.indexOf(u);
      if (b >= 0) parent[find(a)] = find(b);
    }
  }
  const size = new Int32Array(n);
  for (let a = 0; a < n; a++) size[find(a)]++;
  let best = -1, groups = 0;
  for (let a = 0; a < n; a++) {
    if (size[a] === 0) continue;
    groups++;
    if (best < 0 || size[a] > size[best]) best = a;
  }
  if (groups <= 1) return false;
  for (let a = 0; a < n; a++) if (find(a) !== best) kill.push(local[a]);
  return true;
}

/** Keeps the largest face-connected set of alive tets; returns how many it removed. */
function keepLargestComponent(T: number, alive: Uint8Array, nb: Int32Array): number {
  const comp = new Int32Array(T).fill(-1);
  const stack = new Int32Array(T);
  let bestComp = -1, bestSize = 0, c = 0;
  for (let t0 = 0; t0 < T; t0++) {
    if (!alive[t0] || comp[t0] >= 0) continue;
    let top = 0, size = 0;
    stack[top++] = t0;
    comp[t0] = c;
    while (top > 0) {
      const t = stack[--top];
      size++;
      for (let i = 0; i < 4; i++) {
        const u = nb[4 * t + i];
        if (u >= 0 && comp[u] < 0) {
          comp[u] = c;
          stack[top++] = u;
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      bestComp = c;
    }
    c++;
  }
  let removed = 0;
  for (let t = 0; t < T; t++) {
    if (alive[t] && comp[t] !== bestComp) {
      alive[t] = 0;
      removed++;
    }
  }
  return removed;
}

function compactMesh(positions: Float32Array, tets: Uint32Array, alive: Uint8Array): { positions: Float32Array; tets: Uint32Array } {
  const V = positions.length / 3, T = tets.length / 4;
  const used = new Uint8Array(V);
  let nt = 0;
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    nt++;
    for (let k = 0; k < 4; k++) used[tets[4 * t + k]] = 1;
  }
  // Keep the generator's vertex order (first use) for cache locality.
  const order = new Int32Array(V).fill(-1);
  let nv = 0;
  for (let v = 0; v < V; v++) if (used[v]) order[v] = nv++;
  const outP = new Float32Array(3 * nv);
  for (let v = 0; v < V; v++) {
    const o = order[v];
    if (o < 0) continue;
    outP[3 * o] = positions[3 * v];
    outP[3 * o + 1] = positions[3 * v + 1];
    outP[3 * o + 2] = positions[3 * v + 2];
  }
  const outT = new Uint32Array(4 * nt);
  let w = 0;
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let k = 0; k < 4; k++) outT[w++] = order[tets[4 * t + k]];
  }
  return { positions: outP, tets: outT };
}
