/**
 * A mutable tetrahedralization with face adjacency, for the general air mesher
 * (generalAirMesh.ts): Bowyer-Watson point insertion (Delaunay, or constrained by protected
 * faces), and the replacement of a set of tets by another filling the same region (every flip,
 * cavity and cone goes through `replace`, which rebuilds the adjacency from face keys and checks
 * that the new tets close up with the old region's boundary).
 *
 * Orientation and in-sphere decisions use Shewchuk's adaptive exact predicates
 * (robust-predicates): a point on a circumsphere or a face plane is decided exactly, so the
 * degenerate configurations of lattice-meshed objects (many co-spherical points) cannot make
 * the insertion loop or produce an inverted tet. Every live tet is positively oriented
 * (det[b - a, c - a, d - a] > 0, airMesh.ts orient6).
 *
 * Face k of a tet is the one opposite its vertex k; `nb[4t + k]` is the tet across it (-1 on
 * the hull).
 */
import { insphere, orient3d } from 'robust-predicates';
import { triangulateEdgeRing } from './edgeRingTriangulation';

/** Numeric key of an unordered vertex triple when base^3 fits a double, else a string. */
export type FaceKey = number | string;

export class Tetrahedralization {
  /** xyz per point. */
  xyz: Float64Array;
  pointCount = 0;
  /** 4 vertex ids per tet slot (-1 in the first entry: a dead slot). */
  tv: Int32Array;
  /** The tet across face k of tet t (-1: hull). */
  nb: Int32Array;
  tetSlots = 0;
  private readonly freeSlots: number[] = [];
  /** Per point, a live tet that has it (or -1); refreshed by every replace. */
  vertexTet: Int32Array;
  /** Faces that no operation may remove (the objects' boundary triangles once recovered). */
  readonly protectedFaces = new Set<FaceKey>();
  private readonly keyBase: number;
  /** The last tet created: where point location starts. */
  private lastTet = 0;
  private rng = 0x2545f491;

  constructor(maxPoints: number) {
    this.keyBase = maxPoints;
    this.xyz = new Float64Array(3 * Math.max(16, maxPoints));
    this.vertexTet = new Int32Array(Math.max(16, maxPoints)).fill(-1);
    const cap = Math.max(64, 8 * maxPoints);
    this.tv = new Int32Array(4 * cap);
    this.nb = new Int32Array(4 * cap);
  }

  /** Adds a point (not yet in any tet); returns its id. */
  addPoint(x: number, y: number, z: number): number {
    const id = this.pointCount++;
    if (id >= this.keyBase) throw new RangeError(`tetrahedralization: more than ${this.keyBase} points`);
    this.xyz[3 * id] = x; this.xyz[3 * id + 1] = y; this.xyz[3 * id + 2] = z;
    return id;
  }

  faceKey(a: number, b: number, c: number): FaceKey {
    if (a > b) [a, b] = [b, a];
    if (b > c) [b, c] = [c, b];
    if (a > b) [a, b] = [b, a];
    const n = this.keyBase;
    return n * n * n < Number.MAX_SAFE_INTEGER ? (a * n + b) * n + c : `${a},${b},${c}`;
  }

  alive(t: number): boolean {
    return t >= 0 && t < this.tetSlots && this.tv[4 * t] >= 0;
  }

  /** det[b - a, c - a, d - a] sign, exactly: > 0 when (a, b, c, d) is positively oriented. */
  orient(a: number, b: number, c: number, d: number): number {
    const p = this.xyz;
    return -orient3d(p[3 * a], p[3 * a + 1], p[3 * a + 2], p[3 * b], p[3 * b + 1], p[3 * b + 2], p[3 * c], p[3 * c + 1], p[3 * c + 2], p[3 * d], p[3 * d + 1], p[3 * d + 2]);
  }

  /** The same for a point given by coordinates in place of d. */
  orientAt(a: number, b: number, c: number, x: number, y: number, z: number): number {
    const p = this.xyz;
    return -orient3d(p[3 * a], p[3 * a + 1], p[3 * a + 2], p[3 * b], p[3 * b + 1], p[3 * b + 2], p[3 * c], p[3 * c + 1], p[3 * c + 2], x, y, z);
  }

  /** > 0 when point e lies strictly inside the circumsphere of the positive tet t. */
  inSphere(t: number, e: number): number {
    const p = this.xyz, v = this.tv, o = 4 * t;
    const a = 3 * v[o], b = 3 * v[o + 1], c = 3 * v[o + 2], d = 3 * v[o + 3], q = 3 * e;
    return insphere(p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2], p[d], p[d + 1], p[d + 2], p[q], p[q + 1], p[q + 2]);
  }

  /** The 4 vertex ids of tet t. */
  ids(t: number): [number, number, number, number] {
    const o = 4 * t;
    return [this.tv[o], this.tv[o + 1], this.tv[o + 2], this.tv[o + 3]];
  }

  /** Live tet ids. */
  liveTets(): number[] {
    const out: number[] = [];
    for (let t = 0; t < this.tetSlots; t++) if (this.tv[4 * t] >= 0) out.push(t);
    return out;
  }

  private random(n: number): number {
    // xorshift32: point location's random face order (a deterministic walk can cycle).
    let x = this.rng;
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    this.rng = x >>> 0;
    return this.rng % n;
  }

  /** Starts the tetrahedralization with the given tets (positively oriented), adjacency from shared faces. */
  initialize(tets: number[][]): void {
    this.replace([], tets);
  }

  /**
   * Replaces the tets `removed` by `added` (4 ids each, every one positively oriented), which must
   * fill the same region: each boundary face of the removed set that has a tet outside is matched
   * by exactly one new tet's face; new faces matched by nothing become hull faces (an insertion on
   * the hull). Returns the new tet ids. Throws on a mismatch (a bug, never bad input).
   */
  replace(removed: number[], added: number[][]): number[] {
    // Boundary faces of the removed region: key -> [outside tet, its face index].
    const outside = new Map<FaceKey, [number, number]>();
    const gone = new Set(removed);
    for (const t of removed) {
      const o = 4 * t;
      for (let k = 0; k < 4; k++) {
        const n = this.nb[o + k];
        if (n >= 0 && gone.has(n)) continue;
        if (n < 0) continue;
        const f = FACE_OF[k];
        const key = this.faceKey(this.tv[o + f[0]], this.tv[o + f[1]], this.tv[o + f[2]]);
        outside.set(key, [n, this.nb.subarray(4 * n, 4 * n + 4).indexOf(t)]);
      }
    }
    for (const t of removed) {
      for (let k = 0; k < 4; k++) { const v = this.tv[4 * t + k]; if (this.vertexTet[v] === t) this.vertexTet[v] = -1; }
      this.tv[4 * t] = -1;
      this.freeSlots.push(t);
    }
    const created: number[] = [];
    const inner = new Map<FaceKey, [number, number]>();
    for (const ids of added) {
      const t = this.newSlot();
      created.push(t);
      const o = 4 * t;
      for (let k = 0; k < 4; k++) { this.tv[o + k] = ids[k]; this.nb[o + k] = -1; this.vertexTet[ids[k]] = t; }
      for (let k = 0; k < 4; k++) {
        const f = FACE_OF[k];
        const key = this.faceKey(ids[f[0]], ids[f[1]], ids[f[2]]);
        const out = outside.get(key);
        if (out) {
          this.nb[o + k] = out[0];
          this.nb[4 * out[0] + out[1]] = t;
          outside.delete(key);
          continue;
        }
        const other = inner.get(key);
        if (other) {
          this.nb[o + k] = other[0];
          this.nb[4 * other[0] + other[1]] = t;
          inner.delete(key);
        } else inner.set(key, [t, k]);
      }
    }
    if (outside.size > 0) throw new Error(`tetrahedralization: ${outside.size} boundary faces of the replaced region are not closed by the new tets`);
    if (created.length > 0) this.lastTet = created[created.length - 1];
    // A removed tet may have been some vertex's only record.
    for (const t of removed) {
      for (let k = 0; k < 4; k++) {
        const v = this.tv[4 * t + k];
        if (v >= 0 && this.vertexTet[v] < 0) this.vertexTet[v] = -2;
      }
    }
    return created;
  }

  private newSlot(): number {
    const t = this.freeSlots.pop();
    if (t !== undefined) return t;
    if (4 * (this.tetSlots + 1) > this.tv.length) {
      const tv = new Int32Array(2 * this.tv.length); tv.set(this.tv); this.tv = tv;
      const nb = new Int32Array(2 * this.nb.length); nb.set(this.nb); this.nb = nb;
    }
    return this.tetSlots++;
  }

  /** A live tet that has vertex v (-1 when none). */
  tetOf(v: number): number {
    const t = this.vertexTet[v];
    if (t >= 0 && this.tv[4 * t] >= 0 && this.has(t, v)) return t;
    for (let s = 0; s < this.tetSlots; s++) if (this.tv[4 * s] >= 0 && this.has(s, v)) { this.vertexTet[v] = s; return s; }
    return -1;
  }

  has(t: number, v: number): boolean {
    const o = 4 * t, tv = this.tv;
    return tv[o] === v || tv[o + 1] === v || tv[o + 2] === v || tv[o + 3] === v;
  }

  /** The tets around vertex v (its star), by walking across the faces that contain v. */
  star(v: number): number[] {
    const t0 = this.tetOf(v);
    if (t0 < 0) return [];
    if (this.stamp.length < this.tetSlots) { const s = new Uint32Array(2 * this.tetSlots); s.set(this.stamp); this.stamp = s; }
    const mark = ++this.stampNow;
    const out = [t0];
    this.stamp[t0] = mark;
    for (let i = 0; i < out.length; i++) {
      const t = out[i];
      for (let k = 0; k < 4; k++) {
        if (this.tv[4 * t + k] === v) continue;
        const n = this.nb[4 * t + k];
        if (n >= 0 && this.stamp[n] !== mark) { this.stamp[n] = mark; out.push(n); }
      }
    }
    return out;
  }

  /** Visit marks of star(): a tet is seen in this walk when its stamp is the walk's. */
  private stamp = new Uint32Array(0);
  private stampNow = 0;

  /** The tets that have both a and b (the edge's ring; empty when the edge does not exist). */
  edgeTets(a: number, b: number): number[] {
    return this.star(a).filter((t) => this.has(t, b));
  }

  /** The live tet and local face index of face (a, b, c), or null. */
  findFace(a: number, b: number, c: number): [number, number] | null {
    for (const t of this.star(a)) {
      if (!this.has(t, b) || !this.has(t, c)) continue;
      for (let k = 0; k < 4; k++) { const v = this.tv[4 * t + k]; if (v !== a && v !== b && v !== c) return [t, k]; }
    }
    return null;
  }

  /**
   * The live tet whose closure holds point q (by coordinates): a visibility walk with a random
   * face order from `start` (default the last tet created). Null when q is outside the hull.
   */
  locate(x: number, y: number, z: number, start = this.lastTet): number | null {
    let t = this.alive(start) ? start : this.liveTets()[0];
    for (let steps = 0; steps < 1_000_000; steps++) {
      const o = 4 * t;
      const r = this.random(4);
      let moved = false;
      for (let i = 0; i < 4; i++) {
        const k = (r + i) & 3;
        const f = FACE_OF[k];
        // Face k seen from the opposite vertex is positive; q beyond it when negative.
        const a = this.tv[o + f[0]], b = this.tv[o + f[1]], c = this.tv[o + f[2]];
        const s = FACE_SIGN[k] * this.orientAt(a, b, c, x, y, z);
        if (s < 0) {
          const n = this.nb[o + k];
          if (n < 0) return null;
          t = n;
          moved = true;
          break;
        }
      }
      if (!moved) return t;
    }
    throw new Error('tetrahedralization: point location did not terminate');
  }

  /**
   * Inserts point p (already added) by Bowyer-Watson: the cavity of tets whose circumsphere holds
   * p strictly, never crossing a protected face, grown where a boundary face cannot see p (not
   * across a protected face: there the cavity shrinks instead), cone of the cavity's boundary
   * faces to p. Hull faces coplanar with p (p on the hull) get no tet. Returns false when p
   * coincides with a vertex, lies outside the hull, or no valid cavity exists.
   */
  insert(p: number, start?: number): boolean {
    const px = this.xyz[3 * p], py = this.xyz[3 * p + 1], pz = this.xyz[3 * p + 2];
    const t0 = this.locate(px, py, pz, start);
    if (t0 === null) return false;
    for (let k = 0; k < 4; k++) {
      const v = this.tv[4 * t0 + k];
      if (this.xyz[3 * v] === px && this.xyz[3 * v + 1] === py && this.xyz[3 * v + 2] === pz) return false;
    }
    const inCavity = new Set<number>([t0]);
    const list = [t0];
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      for (let k = 0; k < 4; k++) {
        const n = this.nb[4 * t + k];
        if (n < 0 || inCavity.has(n) || this.isProtected(t, k)) continue;
        if (this.inSphere(n, p) > 0) { inCavity.add(n); list.push(n); }
      }
    }
    // Star-shapedness: every boundary face (a protected face counts as one even between two
    // cavity tets) must see p strictly, or be a hull face p lies on. A face that does not is
    // grown across, or, when protected or its tet was taken out before, its own tet is taken out.
    const banned = new Set<number>();
    let kept = inCavity;
    for (let pass = 0; pass < 100; pass++) {
      for (let round = 0; round < 10_000; round++) {
        let changed = false;
        for (const t of [...inCavity]) {
          if (!inCavity.has(t)) continue;
          for (let k = 0; k < 4; k++) {
            const n = this.nb[4 * t + k];
            const prot = this.isProtected(t, k);
            if (n >= 0 && inCavity.has(n) && !prot) continue;
            const f = FACE_OF[k];
            const o = 4 * t;
            const s = FACE_SIGN[k] * this.orient(this.tv[o + f[0]], this.tv[o + f[1]], this.tv[o + f[2]], p);
            if (s > 0) continue;
            if (n < 0 && s === 0) continue;
            if (n < 0) return false;
            if (!prot && !banned.has(n)) { inCavity.add(n); changed = true; continue; }
            if (t === t0) return false;
            inCavity.delete(t);
            banned.add(t);
            changed = true;
            break;
          }
        }
        if (!changed) break;
      }
      if (!inCavity.has(t0)) return false;
      // Shrinking may have cut the cavity in pieces: keep the part connected to t0, and check again.
      kept = new Set<number>([t0]);
      const queue = [t0];
      while (queue.length > 0) {
        const t = queue.pop()!;
        for (let k = 0; k < 4; k++) { const n = this.nb[4 * t + k]; if (n >= 0 && inCavity.has(n) && !kept.has(n) && !this.isProtected(t, k)) { kept.add(n); queue.push(n); } }
      }
      if (kept.size === inCavity.size) break;
      for (const t of inCavity) if (!kept.has(t)) banned.add(t);
      inCavity.clear();
      for (const t of kept) inCavity.add(t);
    }
    const added: number[][] = [];
    for (const t of kept) {
      const o = 4 * t;
      for (let k = 0; k < 4; k++) {
        const n = this.nb[o + k];
        if (n >= 0 && kept.has(n) && !this.isProtected(t, k)) continue;
        const ids = [this.tv[o], this.tv[o + 1], this.tv[o + 2], this.tv[o + 3]];
        ids[k] = p;
        const s = this.orient(ids[0], ids[1], ids[2], ids[3]);
        if (s > 0) { added.push(ids); continue; }
        if (n < 0 && s === 0) continue;
        // A piece cut off by shrinking can leave such a face: no valid cavity.
        return false;
      }
    }
    this.replace([...kept], added);
    return true;
  }

  /** Whether face k of tet t is protected. */
  isProtected(t: number, k: number): boolean {
    if (this.protectedFaces.size === 0) return false;
    const f = FACE_OF[k], o = 4 * t;
    return this.protectedFaces.has(this.faceKey(this.tv[o + f[0]], this.tv[o + f[1]], this.tv[o + f[2]]));
  }

  /** Whether any face shared by two of the tets `set` is protected (a move removing them would remove it). */
  removesProtected(set: number[]): boolean {
    if (this.protectedFaces.size === 0) return false;
    const s = new Set(set);
    for (const t of set) for (let k = 0; k < 4; k++) { const n = this.nb[4 * t + k]; if (n >= 0 && s.has(n) && this.isProtected(t, k)) return true; }
    return false;
  }

  /** Protected edges (an object's boundary edges once recovered): no edge removal takes them. */
  readonly protectedEdges = new Set<number | string>();

  edgeKey(a: number, b: number): number | string {
    if (a > b) [a, b] = [b, a];
    const n = this.keyBase;
    return n * n < Number.MAX_SAFE_INTEGER ? a * n + b : `${a},${b}`;
  }

  /**
   * The 2-3 flip of the two tets sharing face k of tet t: the face is removed and the edge
   * between the two apexes made, when all three new tets are positive and the face is not
   * protected. Returns whether it was done.
   */
  flip23(t: number, k: number): boolean {
    const n = this.nb[4 * t + k];
    if (n < 0 || this.isProtected(t, k)) return false;
    const d = this.tv[4 * t + k];
    const back = this.nb.subarray(4 * n, 4 * n + 4).indexOf(t);
    const e = this.tv[4 * n + back];
    const f = FACE_OF[k];
    const x = this.tv[4 * t + f[0]], y = this.tv[4 * t + f[1]], z = this.tv[4 * t + f[2]];
    // (x, y, z, d) has t's orientation up to FACE_SIGN[k]; the new tets replace one face vertex by e.
    const base = FACE_SIGN[k] > 0 ? [x, y, z] : [x, z, y];
    const added: number[][] = [];
    for (let i = 0; i < 3; i++) {
      const tri = [...base];
      tri[i] = e;
      const ids = [tri[0], tri[1], tri[2], d];
      if (!(this.orient(ids[0], ids[1], ids[2], ids[3]) > 0)) return false;
      added.push(ids);
    }
    this.replace([t, n], added);
    return true;
  }

  /**
   * The ring of edge ab: its tets in order around it and the ring vertices r_i (tet i is
   * (a, b, r_i, r_{i+1}) up to orientation). Null when the edge is on the hull (open ring) or
   * does not exist.
   */
  edgeRing(a: number, b: number): { tets: number[]; ring: number[] } | null {
    const around = this.edgeTets(a, b);
    if (around.length < 3) return null;
    const next = new Map<number, [number, number]>();
    for (const t of around) {
      const ids = this.ids(t);
      const rest = ids.filter((v) => v !== a && v !== b);
      // Oriented so that (a, b, c, d) is positive: d follows c around ab.
      const [c, d] = this.orient(a, b, rest[0], rest[1]) > 0 ? [rest[0], rest[1]] : [rest[1], rest[0]];
      if (next.has(c)) return null;
      next.set(c, [d, t]);
    }
    const ring: number[] = [];
    const tets: number[] = [];
    let v = next.keys().next().value as number;
    for (let i = 0; i < around.length; i++) {
      const step = next.get(v);
      if (!step) return null;
      ring.push(v);
      tets.push(step[1]);
      v = step[0];
    }
    if (v !== ring[0]) return null;
    return { tets, ring };
  }

  /**
   * Edge removal of ab (Shewchuk 2002; 3-2 is its m = 3 case): its m ring tets replaced by
   * 2(m - 2) tets over a triangulation of the ring polygon, the one with the best worst
   * `score` (default eq. 4 quality by exact-sign orientation; every new tet must be positive).
   * `avoid` may veto a triangle of the ring (a chord that would cross what is being recovered).
   * Refused for protected edges, protected faces around the edge, open rings or m > maxRing.
   */
  removeEdge(a: number, b: number, maxRing = 10, avoid?: (x: number, y: number, z: number) => boolean): boolean {
    if (this.protectedEdges.has(this.edgeKey(a, b))) return false;
    const r = this.edgeRing(a, b);
    if (!r || r.ring.length > maxRing) return false;
    if (this.removesProtected(r.tets)) return false;
    const ring = r.ring;
    const best = triangulateEdgeRing(a, b, ring, 0, (i, k, j) => {
      const x = ring[i], y = ring[k], z = ring[j];
      if (avoid && avoid(x, y, z)) return -Infinity;
      // With (a, b, r_i, r_{i+1}) positive, (a, x, y, z) and (b, x, z, y) are the new tets.
      if (!(this.orient(a, x, y, z) > 0) || !(this.orient(b, x, z, y) > 0)) return -Infinity;
      return Math.min(this.quality(a, x, y, z), this.quality(b, x, z, y));
    });
    if (!best) return false;
    const added = best.tets;
    this.replace(r.tets, added);
    return true;
  }

  /** Eq. 4 quality of (a, b, c, d) (float; sign not exact: callers check orient first). */
  quality(a: number, b: number, c: number, d: number): number {
    const p = this.xyz;
    const l = (u: number, v: number) => (p[3 * u] - p[3 * v]) ** 2 + (p[3 * u + 1] - p[3 * v + 1]) ** 2 + (p[3 * u + 2] - p[3 * v + 2]) ** 2;
    const rms = Math.sqrt((l(a, b) + l(a, c) + l(a, d) + l(b, c) + l(b, d) + l(c, d)) / 6);
    const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
    const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
    const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
    const wx = p[3 * d] - ax, wy = p[3 * d + 1] - ay, wz = p[3 * d + 2] - az;
    const det = ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
    return rms > 0 ? Math.max(1e-300, (Math.SQRT2 * Math.abs(det)) / (rms * rms * rms)) : 0;
  }

  /** Checks adjacency and orientation of every live tet (tests and debugging). */
  validate(): void {
    for (let t = 0; t < this.tetSlots; t++) {
      if (this.tv[4 * t] < 0) continue;
      const [a, b, c, d] = this.ids(t);
      if (!(this.orient(a, b, c, d) > 0)) throw new Error(`tetrahedralization: tet ${t} (${a}, ${b}, ${c}, ${d}) is not positively oriented`);
      for (let k = 0; k < 4; k++) {
        const n = this.nb[4 * t + k];
        if (n < 0) continue;
        if (this.tv[4 * n] < 0) throw new Error(`tetrahedralization: tet ${t} face ${k} points at dead tet ${n}`);
        const back = this.nb.subarray(4 * n, 4 * n + 4).indexOf(t);
        if (back < 0) throw new Error(`tetrahedralization: tets ${t} and ${n} disagree on adjacency`);
        const f = FACE_OF[k], g = FACE_OF[back];
        const k1 = this.faceKey(this.tv[4 * t + f[0]], this.tv[4 * t + f[1]], this.tv[4 * t + f[2]]);
        const k2 = this.faceKey(this.tv[4 * n + g[0]], this.tv[4 * n + g[1]], this.tv[4 * n + g[2]]);
        if (k1 !== k2) throw new Error(`tetrahedralization: tets ${t} and ${n} are neighbours across different faces`);
      }
    }
  }
}

/** Face k: the other three vertices. */
export const FACE_OF = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]] as const;
/**
 * Sign of orient(face k's vertices in FACE_OF order, the opposite vertex) for a positive tet:
 * replacing vertex k by a point keeps orientation iff this sign times orient(face, point) > 0.
 */
export const FACE_SIGN = [-1, 1, -1, 1] as const;
