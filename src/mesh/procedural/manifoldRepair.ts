/**
 * Makes the boundary of a stuffed mesh a closed 2-manifold. Where the shape is thinner than
 * the lattice resolves (tentacle tips, two arms almost touching), isosurface stuffing can
 * leave tets that meet only along an edge or at a vertex; the shortest-path traversal and
 * buildTetMesh need every boundary edge to have exactly two boundary triangles. Around each
 * boundary vertex (and each edge at it), the incident tets must form one group connected
 * through faces containing that vertex (edge); otherwise the incident tets of every group but
 * the largest are removed. A vertex whose tets form one group but whose boundary link has
 * several cycles (two sheets of a too-thin wall through one vertex) loses all its tets. Repeat
 * until none is left, then keep the largest face-connected component, drop unused vertices.
 */
import { TET_FACES } from '../types';
import { faceNeighbors } from './faceNeighbors';

export interface RepairResult {
  positions: Float32Array;
  tets: Uint32Array;
  removedTets: number;
}

const MAX_ROUNDS = 100;

export function repairManifold(positions: Float32Array, tets: Uint32Array): RepairResult {
  const T = tets.length / 4;
  const alive = new Uint8Array(T).fill(1);
  let removed = 0;
  let nb = faceNeighbors(tets, alive);
  for (let iter = 0; ; iter++) {
    const kill = findNonManifoldStars(positions.length / 3, tets, alive, nb);
    if (kill.length === 0) break;
    // Each round removes at least one tet, and in practice the cascade ends in a few rounds.
    if (iter === MAX_ROUNDS) {
      throw new Error(`manifold repair: still ${kill.length} tets at non-manifold vertices or edges after ${MAX_ROUNDS} rounds; the shape is far thinner than the lattice (raise the resolution)`);
    }
    for (const t of kill) {
      if (alive[t]) {
        alive[t] = 0;
        removed++;
      }
    }
    nb = faceNeighbors(tets, alive);
  }
  removed += keepLargestComponent(T, alive, nb);
  const compact = compactMesh(positions, tets, alive);
  return { ...compact, removedTets: removed };
}

/** Tets to remove around non-manifold boundary vertices and edges. */
function findNonManifoldStars(V: number, tets: Uint32Array, alive: Uint8Array, nb: Int32Array): number[] {
  const T = tets.length / 4;
  // Boundary triangles give the boundary vertices and, sorted by edge key, the edges with
  // more than two boundary triangles.
  const onBoundary = new Uint8Array(V);
  let boundaryFaces = 0;
  for (let f = 0; f < 4 * T; f++) if (nb[f] < 0 && alive[f >> 2]) boundaryFaces++;
  const edgeKeys = new Float64Array(3 * boundaryFaces);
  let e = 0;
  for (let t = 0; t < T; t++) {
    if (!alive[t]) continue;
    for (let i = 0; i < 4; i++) {
      if (nb[4 * t + i] >= 0) continue;
      const f = TET_FACES[i];
      for (let k = 0; k < 3; k++) {
        const u = tets[4 * t + f[k]], w = tets[4 * t + f[(k + 1) % 3]];
        onBoundary[u] = 1;
        edgeKeys[e++] = u < w ? u * V + w : w * V + u;
      }
    }
  }
  edgeKeys.sort();
  const badEdges: number[] = [];
  for (let i = 0; i < e; ) {
    let j = i + 1;
    while (j < e && edgeKeys[j] === edgeKeys[i]) j++;
    if (j - i > 2) badEdges.push(edgeKeys[i]);
    i = j;
  }

  // Vertex -> alive tets (CSR).
  const offsets = new Int32Array(V + 1);
  for (let t = 0; t < T; t++) if (alive[t]) for (let k = 0; k < 4; k++) offsets[tets[4 * t + k] + 1]++;
  for (let v = 0; v < V; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, V);
  const star = new Int32Array(offsets[V]);
  for (let t = 0; t < T; t++) if (alive[t]) for (let k = 0; k < 4; k++) star[fill[tets[4 * t + k]]++] = t;

  const grouper = new StarGrouper(T, tets, nb);
  const kill: number[] = [];
  const local: number[] = [];
  for (let v = 0; v < V; v++) {
    if (!onBoundary[v]) continue;
    local.length = 0;
    for (let s = offsets[v]; s < offsets[v + 1]; s++) local.push(star[s]);
    if (grouper.groupAndKill(local, v, -1, kill)) continue;
    // One group of tets, but the boundary around v may still be two sheets meeting at v (a
    // wall thinner than the lattice, both of its faces through v): the link of v in the
    // boundary then has several cycles. No group is "the other side" there, so the whole star
    // goes (a hole where the wall was thinner than the lattice resolves).
    if (grouper.boundaryLinkCycles(local, v) > 1) for (const t of local) kill.push(t);
  }
  for (const key of badEdges) {
    const v = Math.floor(key / V), w = key - v * V;
    local.length = 0;
    for (let s = offsets[v]; s < offsets[v + 1]; s++) {
      const t = star[s];
      if (tets[4 * t] === w || tets[4 * t + 1] === w || tets[4 * t + 2] === w || tets[4 * t + 3] === w) local.push(t);
    }
    grouper.groupAndKill(local, v, w, kill);
  }
  return kill;
}

/** Union-find over the tets around a vertex or an edge, joined across faces containing it. */
class StarGrouper {
  private readonly localIndex: Int32Array;
  private parent = new Int32Array(64);
  private size = new Int32Array(64);

  constructor(T: number, private readonly tets: Uint32Array, private readonly nb: Int32Array) {
    this.localIndex = new Int32Array(T).fill(-1);
  }

  /** Room for n union-find entries (keeps the entries already there). */
  private ensure(n: number): void {
    if (n <= this.parent.length) return;
    const parent = new Int32Array(2 * n);
    parent.set(this.parent);
    this.parent = parent;
    this.size = new Int32Array(2 * n);
  }

  private find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) x = p[x] = p[p[x]];
    return x;
  }

  /**
   * Groups `local` (the tets containing v, and w when w >= 0); if there is more than one
   * group, pushes the tets of all but the largest onto kill.
   */
  groupAndKill(local: number[], v: number, w: number, kill: number[]): boolean {
    const n = local.length;
    this.ensure(n);
    const { parent, localIndex, tets, nb } = this;
    for (let a = 0; a < n; a++) {
      parent[a] = a;
      localIndex[local[a]] = a;
    }
    for (let a = 0; a < n; a++) {
      const t = local[a];
      for (let i = 0; i < 4; i++) {
        const opposite = tets[4 * t + i];
        if (opposite === v || opposite === w) continue; // face i lacks v or w
        const u = nb[4 * t + i];
        if (u < 0) continue;
        const b = localIndex[u];
        if (b >= 0) parent[this.find(a)] = this.find(b);
      }
    }
    const size = this.size;
    size.fill(0, 0, n);
    for (let a = 0; a < n; a++) size[this.find(a)]++;
    let best = -1, groups = 0;
    for (let a = 0; a < n; a++) {
      if (size[a] === 0) continue;
      groups++;
      if (best < 0 || size[a] > size[best]) best = a;
    }
    if (groups > 1) for (let a = 0; a < n; a++) if (this.find(a) !== best) kill.push(local[a]);
    for (let a = 0; a < n; a++) localIndex[local[a]] = -1;
    return groups > 1;
  }

  /** Connected components of the link of v in the boundary (edges opposite v in its boundary triangles). */
  boundaryLinkCycles(local: number[], v: number): number {
    const { tets, nb } = this;
    const ids: number[] = []; // link vertices, with union-find parents in this.parent
    const indexOf = (x: number): number => {
      let i = ids.indexOf(x);
      if (i < 0) {
        i = ids.length;
        ids.push(x);
        this.ensure(i + 1);
        this.parent[i] = i;
      }
      return i;
    };
    for (const t of local) {
      for (let i = 0; i < 4; i++) {
        if (nb[4 * t + i] >= 0 || tets[4 * t + i] === v) continue; // not a boundary face through v
        const f = TET_FACES[i];
        let x = -1, y = -1;
        for (let k = 0; k < 3; k++) {
          const u = tets[4 * t + f[k]];
          if (u === v) continue;
          if (x < 0) x = u;
          else y = u;
        }
        const a = indexOf(x), b = indexOf(y);
        this.parent[this.find(a)] = this.find(b);
      }
    }
    let components = 0;
    for (let i = 0; i < ids.length; i++) if (this.find(i) === i) components++;
    return components;
  }
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
