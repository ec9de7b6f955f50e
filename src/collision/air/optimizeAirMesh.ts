/**
 * Air mesh optimisation against locking (paper 004 section 3.3): edge removal and multi-face
 * removal (Shewchuk 2002, the paper's Fig. 7) among air tets, by the quality of eq. 4. As the
 * objects move the air tets shear; without flips they invert although nothing collides and the
 * objects lock (Fig. 6). A move replaces some air tets by others filling the same region; it is
 * taken only when the worst quality of the new tets beats the worst of the old ones and every new
 * tet is positively oriented.
 *
 * Every air tet is air, so a face a move removes is adjacent to air tets only when it is shared
 * by two air tets: the faces removed here are always of that kind (the faces around an edge whose
 * ring of air tets is closed; faces sandwiched between two air tets), so an object's boundary
 * face, which has air on one side only, is never removed and no object can pass through the air.
 *
 *   edge removal (edge ab, ring r_0..r_{m-1}, m tets)  ->  2(m - 2) tets (a, r_i, r_j, r_k),
 *       (b, r_i, r_k, r_j) over the triangulation of the ring with the best worst quality
 *       (Klincsek's dynamic programme, as Shewchuk); 3 -> 2 is its m = 3 case;
 *   multi-face removal (faces G sandwiched between a and b, a disk whose m = |G| + 2 vertices
 *       all lie on its boundary)  ->  m tets (a, b, r_i, r_{i+1}) around the new edge ab;
 *       2 -> 3 is its |G| = 1 case. G grows face by face across its boundary edges; the best
 *       prefix is taken (a simplification of Shewchuk's optimal subset search).
 *
 * Runs in a worker of the pool every K frames (SolverParams.airOptimizeFrames) on a snapshot of
 * the positions; the result is installed between frames (collision/air/gpuAirCollisions.ts) or
 * at once by the CPU reference.
 */
import { orderAirTets, type AirOrder } from './airConstraintCpu';
import { airVertexCount, orient6, tetQuality, type AirMesh } from './airMesh';
import { triangulateEdgeRing } from './edgeRingTriangulation';

export interface AirOptimizeJob {
  mesh: AirMesh;
  /** xyz of every air vertex (model vertices, then the fixed points), float64. */
  positions: Float64Array;
  /** Per air vertex, 1 when it does not move (fixed points, handles, stopped objects): the colouring's conflicts skip it. */
  fixed: Uint8Array;
  /** Tets of quality below this are worked on (default 0.25). */
  qualityTarget?: number;
  /** Passes over the bad tets (default 3). */
  maxPasses?: number;
}

export interface AirOptimizeStats {
  edgeRemovals: number;
  multiFaceRemovals: number;
  /** Worst air tet quality (eq. 4) at the snapshot before and after. */
  minQualityBefore: number;
  minQualityAfter: number;
  /** Inverted air tets at the snapshot before and after (a flip never inverts). */
  invertedBefore: number;
  invertedAfter: number;
  /** Time of the optimisation and of the new colouring, ms. */
  ms: number;
}

export interface AirOptimizeResult {
  tets: Uint32Array;
  /** The new tets' Gauss-Seidel orders (cells cut at the snapshot's positions). */
  orders: AirOrder;
  stats: AirOptimizeStats;
}

/** Runs one optimisation job (in a worker of the pool, or on this thread). */
export type AirOptimizer = (job: AirOptimizeJob) => Promise<AirOptimizeResult>;

export const inThreadAirOptimizer: AirOptimizer = async (job) => optimizeAirMesh(job);

/** The arrays of a result that can be transferred between threads. */
export function airOptimizeTransferables(r: AirOptimizeResult): ArrayBuffer[] {
  const c = r.orders.colouring, p = r.orders.partition;
  return [r.tets, c.order, c.offsets, p.order, p.cells, p.colourStarts, p.leftoverOffsets].map((a) => a.buffer as ArrayBuffer);
}

const MAX_RING = 8;
const MAX_SANDWICH = 6;
/** A move must raise the worst quality by at least this much. */
const GAIN = 1e-4;

export function optimizeAirMesh(job: AirOptimizeJob): AirOptimizeResult {
  const t0 = performance.now();
  const n = airVertexCount(job.mesh);
  if (job.positions.length !== 3 * n) throw new RangeError(`optimizeAirMesh: positions has ${job.positions.length} numbers for ${n} air vertices (3 each)`);
  if (job.fixed.length !== n) throw new RangeError(`optimizeAirMesh: fixed has ${job.fixed.length} entries for ${n} air vertices`);
  const opt = new AirMeshEditor(job.mesh.tets, n, job.positions);
  const before = opt.summary();
  const target = job.qualityTarget ?? 0.25;
  let edgeRemovals = 0;
  let multiFaceRemovals = 0;
  for (let pass = 0; pass < (job.maxPasses ?? 3); pass++) {
    const bad = opt.tetsBelow(target);
    let moves = 0;
    for (const t of bad) {
      if (!opt.alive(t)) continue;
      const move = opt.bestMoveAt(t);
      if (!move) continue;
      opt.apply(move);
      moves++;
      if (move.kind === 'edge') edgeRemovals++;
      else multiFaceRemovals++;
    }
    if (moves === 0) break;
  }
  const tets = opt.compact();
  const after = opt.summary();
  const orders = orderAirTets(tets, n, job.positions, job.fixed);
  return {
    tets,
    orders,
    stats: {
      edgeRemovals,
      multiFaceRemovals,
      minQualityBefore: before.minQuality,
      minQualityAfter: after.minQuality,
      invertedBefore: before.inverted,
      invertedAfter: after.inverted,
      ms: performance.now() - t0,
    },
  };
}

/** A move: tets removed and tets added (4 ids each, positively oriented), and its worst new quality. */
export interface AirMove {
  kind: 'edge' | 'faces' | 'collapse';
  removed: number[];
  added: number[][];
  quality: number;
}

/** The air tets with their vertex stars, edited by moves (exported for the tests). */
export class AirMeshEditor {
  private readonly tv: number[] = [];
  private readonly live: boolean[] = [];
  private readonly star: Set<number>[];

  constructor(
    tets: ArrayLike<number>,
    vertexCount: number,
    private readonly p: Float64Array,
  ) {
    this.star = Array.from({ length: vertexCount }, () => new Set<number>());
    for (let t = 0; t < tets.length / 4; t++) this.add([tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]]);
  }

  alive(t: number): boolean {
    return this.live[t];
  }

  private add(ids: number[]): number {
    const t = this.live.length;
    this.tv.push(ids[0], ids[1], ids[2], ids[3]);
    this.live.push(true);
    for (const v of ids) this.star[v].add(t);
    return t;
  }

  private remove(t: number): void {
    this.live[t] = false;
    for (let k = 0; k < 4; k++) this.star[this.tv[4 * t + k]].delete(t);
  }

  private ids(t: number): number[] {
    return this.tv.slice(4 * t, 4 * t + 4);
  }

  quality(t: number): number {
    const v = this.tv;
    return tetQuality(this.p, v[4 * t], v[4 * t + 1], v[4 * t + 2], v[4 * t + 3]);
  }

  summary(): { minQuality: number; inverted: number } {
    let minQuality = Infinity, inverted = 0;
    for (let t = 0; t < this.live.length; t++) {
      if (!this.live[t]) continue;
      const q = this.quality(t);
      minQuality = Math.min(minQuality, q);
      if (q < 0) inverted++;
    }
    return { minQuality: minQuality === Infinity ? 1 : minQuality, inverted };
  }

  /** Live tets of quality below `q`, worst first. */
  tetsBelow(q: number): number[] {
    const out: [number, number][] = [];
    for (let t = 0; t < this.live.length; t++) if (this.live[t]) { const qt = this.quality(t); if (qt < q) out.push([qt, t]); }
    return out.sort((x, y) => x[0] - y[0]).map((x) => x[1]);
  }

  /** Tets containing every vertex of `vs`. */
  private common(vs: number[]): number[] {
    let best = this.star[vs[0]];
    for (const v of vs) if (this.star[v].size < best.size) best = this.star[v];
    const out: number[] = [];
    for (const t of best) {
      let all = true;
      for (const v of vs) if (!this.has(t, v)) { all = false; break; }
      if (all) out.push(t);
    }
    return out;
  }

  /** Whether tet t has vertex v. */
  private has(t: number, v: number): boolean {
    const o = 4 * t, tv = this.tv;
    return tv[o] === v || tv[o + 1] === v || tv[o + 2] === v || tv[o + 3] === v;
  }

  /** Whether some tet has both a and b (the edge ab exists). */
  hasEdge(a: number, b: number): boolean {
    const sa = this.star[a], sb = this.star[b];
    const [small, other] = sa.size < sb.size ? [sa, b] : [sb, a];
    for (const t of small) if (this.has(t, other)) return true;
    return false;
  }

  /** (a, b, c, d) with c, d the other two of tet t, ordered so that it keeps t's orientation. */
  private orientedRest(t: number, a: number, b: number): [number, number] {
    const ids = this.ids(t);
    const rest = ids.filter((v) => v !== a && v !== b);
    return parity(ids, [a, b, rest[0], rest[1]]) === 0 ? [rest[0], rest[1]] : [rest[1], rest[0]];
  }

  /** The best improving move among the edges and faces of tet t, or null. */
  bestMoveAt(t: number): AirMove | null {
    const ids = this.ids(t);
    let best: AirMove | null = null;
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) {
        const m = this.edgeRemoval(ids[i], ids[j]);
        if (m && (!best || m.quality > best.quality)) best = m;
      }
    }
    for (let i = 0; i < 4; i++) {
      const m = this.multiFaceRemoval(ids.filter((_, k) => k !== i));
      if (m && (!best || m.quality > best.quality)) best = m;
    }
    return best;
  }

  private worst(tets: number[]): number {
    let q = Infinity;
    for (const t of tets) q = Math.min(q, this.quality(t));
    return q;
  }

  /** Edge removal of edge ab when its ring of air tets is closed (an interior edge of the air). */
  edgeRemoval(a: number, b: number): AirMove | null {
    const around = this.common([a, b]);
    const m = around.length;
    if (m < 3 || m > MAX_RING) return null;
    const next = new Map<number, number>();
    for (const t of around) {
      const [c, d] = this.orientedRest(t, a, b);
      if (next.has(c)) return null;
      next.set(c, d);
    }
    // One closed cycle through all m ring vertices, else the edge is on the air's boundary.
    const ring: number[] = [];
    let v = next.keys().next().value as number;
    for (let k = 0; k < m; k++) {
      ring.push(v);
      const w = next.get(v);
      if (w === undefined) return null;
      v = w;
    }
    if (v !== ring[0] || new Set(ring).size !== m) return null;
    const old = this.worst(around);
    const p = this.p;
    // The ring's best triangulation, no diagonal along an edge the air mesh already has.
    const best = triangulateEdgeRing(
      a, b, ring, old,
      (i, k, j) => Math.min(tetQuality(p, a, ring[i], ring[k], ring[j]), tetQuality(p, b, ring[i], ring[j], ring[k])),
      (i, j) => !this.hasEdge(ring[i], ring[j]),
    );
    if (!best) return null;
    const q = best.quality, added = best.tets;
    if (!(q > 0 && q > old + GAIN)) return null;
    return { kind: 'edge', removed: around, added, quality: q };
  }

  /** Multi-face removal starting at face f (shared by two air tets), the new edge between their apexes. */
  multiFaceRemoval(f: number[]): AirMove | null {
    const pair = this.common(f);
    if (pair.length !== 2) return null;
    const apex = pair.map((t) => this.ids(t).find((v) => !f.includes(v))!);
    const [a, b] = apex;
    if (this.hasEdge(a, b)) return null;
    // Faces oriented so that (a, x, y, z) keeps the orientation of its tet.
    const orientFace = (t: number, face: number[]): number[] => {
      const ids = this.ids(t);
      return parity(ids, [a, ...face]) === 0 ? face : [face[0], face[2], face[1]];
    };
    const faces: number[][] = [orientFace(pair[0], f)];
    const removed = [...pair];
    const verts = new Set(f);
    let best: AirMove | null = null;
    for (let size = 1; size <= MAX_SANDWICH; size++) {
      const move = this.sandwichMove(a, b, faces, removed);
      if (move && (!best || move.quality > best.quality)) best = move;
      if (size === MAX_SANDWICH) break;
      // Grow across a boundary edge (x, y) of G by a face (y, x, z) sandwiched between a and b, z new.
      const grown = this.growSandwich(a, b, faces, verts);
      if (!grown) break;
      faces.push(grown.face);
      removed.push(grown.ta, grown.tb);
      verts.add(grown.z);
    }
    return best;
  }

  private growSandwich(a: number, b: number, faces: number[][], verts: Set<number>): { face: number[]; ta: number; tb: number; z: number } | null {
    for (const [x, y] of boundaryEdges(faces)) {
      for (const ta of this.common([a, x, y])) {
        const z = this.ids(ta).find((v) => v !== a && v !== x && v !== y)!;
        if (verts.has(z) || z === b) continue;
        const tb = this.common([b, x, y, z]);
        if (tb.length !== 1) continue;
        const face = [y, x, z];
        const ids = this.ids(ta);
        if (parity(ids, [a, ...face]) !== 0) continue;
        return { face, ta, tb: tb[0], z };
      }
    }
    return null;
  }

  private sandwichMove(a: number, b: number, faces: number[][], removed: number[]): AirMove | null {
    const edges = boundaryEdges(faces);
    if (edges.length !== faces.length + 2) return null;
    const old = this.worst(removed);
    const added: number[][] = [];
    let q = Infinity;
    for (const [x, y] of edges) {
      const qt = tetQuality(this.p, a, b, x, y);
      q = Math.min(q, qt);
      if (!(q > old + GAIN)) return null;
      added.push([a, b, x, y]);
    }
    if (!(q > 0)) return null;
    return { kind: 'faces', removed: [...removed], added, quality: q };
  }

  /** Vertices that share a tet with v. */
  neighbours(v: number): Set<number> {
    const out = new Set<number>();
    for (const t of this.star[v]) for (let k = 0; k < 4; k++) if (this.tv[4 * t + k] !== v) out.add(this.tv[4 * t + k]);
    return out;
  }

  /** The live tets around v. */
  tetsOf(v: number): number[] {
    return [...this.star[v]];
  }

  /**
   * Collapse of v onto the neighbour u (among those `allowed`) that leaves the best worst quality
   * (at least `minQuality`) among the tets of v's star that remain (those without u), v replaced
   * by u; ties go to a neighbour `preferred`. Null when no neighbour keeps every tet that good.
   */
  collapse(v: number, allowed: (u: number) => boolean, preferred: (u: number) => boolean, minQuality: number): AirMove | null {
    const star = [...this.star[v]];
    let best = -1, bestQ = minQuality;
    const tv = this.tv;
    // The tets that remain must fill v's star exactly (every one positive, the same volume): u in
    // the star's kernel. A u in every tet of the star would leave a hole.
    let volume = 0;
    for (const t of star) volume += orient6(this.p, tv[4 * t], tv[4 * t + 1], tv[4 * t + 2], tv[4 * t + 3]);
    for (const u of this.neighbours(v)) {
      if (!allowed(u)) continue;
      let worst = Infinity, kept = 0;
      for (const t of star) {
        if (this.has(t, u)) continue;
        const o = 4 * t;
        const r0 = tv[o] === v ? u : tv[o], r1 = tv[o + 1] === v ? u : tv[o + 1], r2 = tv[o + 2] === v ? u : tv[o + 2], r3 = tv[o + 3] === v ? u : tv[o + 3];
        worst = Math.min(worst, tetQuality(this.p, r0, r1, r2, r3));
        if (worst < bestQ) break;
        kept += orient6(this.p, r0, r1, r2, r3);
      }
      if (!(worst >= bestQ) || !(Math.abs(kept - volume) <= 1e-9 * volume)) continue;
      if (worst > bestQ || (best >= 0 && !preferred(best) && preferred(u))) { best = u; bestQ = worst; }
    }
    if (best < 0) return null;
    const added: number[][] = [];
    for (const t of star) {
      const ids = this.ids(t);
      if (!ids.includes(best)) added.push(ids.map((w) => (w === v ? best : w)));
    }
    return { kind: 'collapse', removed: star, added, quality: bestQ };
  }

  apply(move: AirMove): void {
    for (const t of move.removed) this.remove(t);
    for (const ids of move.added) this.add(ids);
  }

  /** The live tets, 4 ids each. */
  compact(): Uint32Array {
    const out: number[] = [];
    for (let t = 0; t < this.live.length; t++) if (this.live[t]) out.push(...this.ids(t));
    return Uint32Array.from(out);
  }
}

/** Directed edges used once by the oriented faces (x -> y of a face x, y, z and its rotations). */
function boundaryEdges(faces: number[][]): [number, number][] {
  const count = new Map<string, number>();
  const all: [number, number][] = [];
  for (const f of faces) {
    for (let k = 0; k < 3; k++) {
      const x = f[k], y = f[(k + 1) % 3];
      all.push([x, y]);
      const key = x < y ? `${x},${y}` : `${y},${x}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  return all.filter(([x, y]) => count.get(x < y ? `${x},${y}` : `${y},${x}`) === 1);
}

/** 0 when `to` is an even permutation of `from`, 1 when odd. */
function parity(from: number[], to: number[]): number {
  const perm = to.map((v) => from.indexOf(v));
  let swaps = 0;
  for (let i = 0; i < perm.length; i++) {
    while (perm[i] !== i) {
      const j = perm[i];
      [perm[i], perm[j]] = [perm[j], perm[i]];
      swaps++;
    }
  }
  return swaps & 1;
}
