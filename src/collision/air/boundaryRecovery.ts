/**
 * Boundary recovery for the general air mesher (generalAirMesh.ts): after the Delaunay
 * tetrahedralization of the objects' boundary vertices and the container's points, every object
 * boundary edge and then every boundary triangle is made a face of the tetrahedralization,
 * without moving or splitting any of them (the objects' meshes stay as they are):
 *
 *   1. flips first: the faces and edges of the tetrahedralization that cross a missing edge or
 *      triangle are removed by 2-3 flips and edge removals (3-2 and n-to-2n-4, Shewchuk 2002)
 *      where the new tets are positive, in random order, until the element appears or a round
 *      makes no flip;
 *   2. then Steiner points, never on an object's surface: a missing edge gets a point inside its
 *      object next to it, then points on what crosses it (the middle of a crossing edge, the
 *      centroid of a crossing face), each inserted by Bowyer-Watson within the faces recovered so
 *      far and followed by flips again; every edge, those present from the start too, is
 *      recovered again after later Steiner points took it; a missing triangle's crossing tets are taken out
 *      as one cavity, which the triangle's plane cuts in an upper and a lower part (the triangle's
 *      edges are there), and each part is refilled as a cone: from one of its own vertices when
 *      one sees all its faces, else from a new point in its kernel (Si 2015's cavity approach
 *      reduced to star-shaped parts). Steiner points that land in the air become air particles;
 *      those inside an object vanish with the object's tets.
 *
 * What still cannot be recovered is refused by the caller naming the object, the triangle and
 * the reason (RecoveryFailure).
 */
import { orient3d as orient3dSign } from 'robust-predicates';
import { FACE_OF, FACE_SIGN, Tetrahedralization } from './tetrahedralization';

export interface RecoveryFailure {
  /** The missing triangle (or the triangle of a missing edge), as point ids of the tetrahedralization. */
  face: [number, number, number];
  reason: string;
  /** The input's own geometry refuses it (a point on the edge or triangle, a degenerate surface): another placement of Steiner points cannot help. */
  inputDefect: boolean;
}

export interface RecoveryStats {
  /** Object edges and triangles missing from the Delaunay tetrahedralization. */
  missingEdges: number;
  missingFaces: number;
  flips: number;
  /** Steiner points inserted (in the air or inside objects) and cavities refilled as cones. */
  steinerPoints: number;
  cones: number;
}

const MAX_EDGE_STEINER = 12;
/** Steiner points of a missing edge tried inside its object before those on what crosses it. */
const INSIDE_STEINER_FIRST = 1;
const MAX_ROUNDS = 40;

type Crossing = { kind: 'face'; t: number; k: number } | { kind: 'edge'; u: number; v: number } | { kind: 'vertex'; v: number };

export class BoundaryRecovery {
  readonly stats: RecoveryStats = { missingEdges: 0, missingFaces: 0, flips: 0, steinerPoints: 0, cones: 0 };
  /** Points added here (ids of the tetrahedralization). */
  readonly steiner: number[] = [];

  constructor(
    private readonly tz: Tetrahedralization,
    /** The boundary triangles, 3 point ids each. */
    private readonly faces: [number, number, number][],
    /**
     * Points strictly inside the object next to the edge ab (the centroids of the object's own
     * tets that have both): Steiner points there vanish with the object's tets and untie the
     * coplanar, co-spherical configurations of lattice-meshed surfaces that flips alone cannot.
     */
    private readonly insideNear: (a: number, b: number) => [number, number, number][] = () => [],
    /** Names a point for messages (an object's vertex, a wall point, a Steiner point). */
    private readonly describe: (p: number) => string = (p) => `point ${p}`,
    /** Start of the flips' shuffle: a build does not depend on the builds before it, and a retry can take another order. */
    private readonly shuffleSeed = 0x9e3779b9,
  ) {}

  /** Set where a failure is the input's own geometry (RecoveryFailure.inputDefect). */
  private inputDefect = false;

  /** `reason`, marking the failure as the input's (defect). */
  private defect(reason: string): string {
    this.inputDefect = true;
    return reason;
  }

  /** Recovers every edge, then every triangle; returns the first failure or null. */
  run(): RecoveryFailure | null {
    seed = this.shuffleSeed;
    const tz = this.tz;
    const edgeFace = new Map<number | string, number>();
    for (let f = 0; f < this.faces.length; f++) {
      const [a, b, c] = this.faces[f];
      for (const [u, v] of [[a, b], [b, c], [c, a]]) if (!edgeFace.has(tz.edgeKey(u, v))) edgeFace.set(tz.edgeKey(u, v), f);
    }
    // Faces already there are protected at once: no flip below may take them.
    const missing: number[] = [];
    for (let f = 0; f < this.faces.length; f++) {
      const [a, b, c] = this.faces[f];
      if (tz.findFace(a, b, c)) tz.protectedFaces.add(tz.faceKey(a, b, c));
      else missing.push(f);
    }
    this.stats.missingFaces = missing.length;
    // Every edge, those present from the start too: a Steiner point's Bowyer-Watson cavity stops
    // at protected faces only, so it may take any edge of a face not yet recovered.
    const edges: [number, number, number][] = [];
    for (const [key, f] of edgeFace) {
      const [a, b, c] = this.faces[f];
      for (const [u, v] of [[a, b], [b, c], [c, a]]) {
        if (tz.edgeKey(u, v) !== key) continue;
        if (tz.edgeTets(u, v).length > 0) tz.protectedEdges.add(key);
        else this.stats.missingEdges++;
        edges.push([u, v, f]);
        break;
      }
    }
    // Passes until every edge stays.
    for (let pass = 0; pass < 4; pass++) {
      let lost = 0;
      for (const [u, v, f] of edges) {
        if (tz.edgeTets(u, v).length > 0) continue;
        lost++;
        tz.protectedEdges.delete(tz.edgeKey(u, v));
        const why = this.recoverEdge(u, v);
        if (why) return { face: this.faces[f], reason: `its edge ${this.describe(u)} - ${this.describe(v)} ${why}`, inputDefect: this.inputDefect };
        tz.protectedEdges.add(tz.edgeKey(u, v));
      }
      if (lost === 0) break;
    }
    for (const [u, v, f] of edges) if (tz.edgeTets(u, v).length === 0) return { face: this.faces[f], reason: `its edge ${this.describe(u)} - ${this.describe(v)} was lost again by later Steiner points`, inputDefect: false };
    this.protectPresent(missing);
    for (const f of missing) {
      const [a, b, c] = this.faces[f];
      if (tz.protectedFaces.has(tz.faceKey(a, b, c))) continue;
      const why = this.recoverFace(a, b, c);
      if (why) return { face: this.faces[f], reason: why, inputDefect: this.inputDefect };
      tz.protectedFaces.add(tz.faceKey(a, b, c));
    }
    return null;
  }

  /** Protects the missing triangles that flips made appear on the way. */
  private protectPresent(missing: number[]): void {
    const tz = this.tz;
    for (const f of missing) {
      const [a, b, c] = this.faces[f];
      const key = tz.faceKey(a, b, c);
      if (!tz.protectedFaces.has(key) && tz.findFace(a, b, c)) tz.protectedFaces.add(key);
    }
  }

  // ---------------------------------------------------------------- edges

  /** Makes ab an edge; returns why not, or null. */
  private recoverEdge(a: number, b: number): string | null {
    const tz = this.tz;
    const tried = new Set<string>();
    for (let steiner = 0; ; steiner++) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        if (tz.edgeTets(a, b).length > 0) return null;
        const crossings = this.segmentCrossings(a, b);
        const v = crossings.find((c) => c.kind === 'vertex');
        if (v && v.kind === 'vertex') return this.defect(`passes through ${this.describe(v.v)}`);
        if (!this.flipAway(crossings)) break;
      }
      if (tz.edgeTets(a, b).length > 0) return null;
      // The crossed tets (and a layer or two around them) refilled as a cone from a or b.
      if (this.coneEdge(a, b)) return null;
      if (steiner >= MAX_EDGE_STEINER) return `could not be recovered by flips, cones and ${MAX_EDGE_STEINER} Steiner points`;
      // A Steiner point: the first inside the object next to ab (it vanishes with the object's
      // tets), the later ones on what crosses ab (never on ab itself), falling back on each other.
      // What crosses ab may lie outside the object: two parallel faces a few millimetres apart
      // (the cube stack's) make flat Delaunay tets across the gap, and no point inside the object
      // removes them (cube-stack --copies 2 failed after 12 inside points; a point on a crossing
      // face, in the gap, recovered the edge).
      const placed = steiner < INSIDE_STEINER_FIRST
        ? this.insertInside(a, b, tried) || this.splitCrossing(a, b, this.segmentCrossings(a, b))
        : this.splitCrossing(a, b, this.segmentCrossings(a, b)) || this.insertInside(a, b, tried);
      if (!placed) return 'could not be recovered: no Steiner point could be inserted next to it';
    }
  }

  /** A Steiner point inside the object next to ab, one not tried before; whether one was inserted. */
  private insertInside(a: number, b: number, tried: Set<string>): boolean {
    for (const [x, y, z] of this.insideNear(a, b)) {
      if (tried.has(`${x},${y},${z}`)) continue;
      tried.add(`${x},${y},${z}`);
      if (this.insertSteiner(x, y, z)) return true;
    }
    return false;
  }

  /** One round of flips over the crossing elements (random order); whether any was made. */
  private flipAway(crossings: Crossing[]): boolean {
    const tz = this.tz;
    shuffle(crossings);
    let flips = 0;
    for (const c of crossings) {
      if (c.kind === 'face') {
        if (!tz.alive(c.t)) continue;
        if (tz.flip23(c.t, c.k)) flips++;
      } else if (c.kind === 'edge') {
        if (tz.edgeTets(c.u, c.v).length === 0) continue;
        if (tz.removeEdge(c.u, c.v)) flips++;
      }
    }
    if (flips === 0) {
      // The segment may wind around an edge through a fan of its faces (each face's 2-3 flip is
      // not convex): remove the edges of the crossed faces, those shared by most crossed faces first.
      const count = new Map<number | string, [number, number, number]>();
      for (const c of crossings) {
        if (c.kind !== 'face' || !tz.alive(c.t)) continue;
        const f = FACE_OF[c.k];
        const ids = [tz.tv[4 * c.t + f[0]], tz.tv[4 * c.t + f[1]], tz.tv[4 * c.t + f[2]]];
        for (let i = 0; i < 3; i++) {
          const u = ids[i], v = ids[(i + 1) % 3];
          const key = tz.edgeKey(u, v);
          const e = count.get(key);
          if (e) e[2]++; else count.set(key, [u, v, 1]);
        }
      }
      const edges = [...count.values()].sort((x, y) => y[2] - x[2]);
      for (const [u, v] of edges) {
        if (tz.edgeTets(u, v).length === 0) continue;
        if (tz.removeEdge(u, v, 12)) { flips++; break; }
      }
    }
    this.stats.flips += flips;
    return flips > 0;
  }

  /**
   * Edge recovery by a cavity: the tets the open segment ab meets, grown across every boundary
   * face that does not see the apex (a, then b) strictly until the cavity is star-shaped from
   * it (never across a protected face or the hull), then refilled as the cone from the apex: ab
   * is an edge of that cone. Every protected edge must stay on the cavity's boundary.
   */
  private coneEdge(a: number, b: number): boolean {
    const tz = this.tz;
    const crossings = this.segmentCrossings(a, b);
    if (crossings.some((c) => c.kind === 'vertex')) return false;
    const start = new Set<number>();
    for (const c of crossings) {
      if (c.kind === 'face') { start.add(c.t); const n = tz.nb[4 * c.t + c.k]; if (n >= 0) start.add(n); }
      else if (c.kind === 'edge') for (const t of tz.edgeTets(c.u, c.v)) start.add(t);
    }
    if (start.size === 0) return false;
    for (const apex of [a, b]) {
      const cavity = new Set(start);
      let ok = false;
      for (let round = 0; round < 200 && cavity.size < 4000; round++) {
        let grown = false, blocked = false;
        for (const t of [...cavity]) {
          const o = 4 * t;
          for (let k = 0; k < 4 && !blocked; k++) {
            const n = tz.nb[o + k];
            if (n >= 0 && cavity.has(n)) {
              if (tz.isProtected(t, k)) blocked = true;
              continue;
            }
            const f = FACE_OF[k];
            const x = tz.tv[o + f[0]], y = tz.tv[o + f[1]], z = tz.tv[o + f[2]];
            if (x === apex || y === apex || z === apex) continue;
            if (FACE_SIGN[k] * tz.orient(x, y, z, apex) > 0) continue;
            if (n < 0 || tz.isProtected(t, k)) { blocked = true; break; }
            cavity.add(n);
            grown = true;
          }
          if (blocked) break;
        }
        if (blocked) break;
        if (!grown) { ok = true; break; }
      }
      if (!ok) continue;
      const tets = [...cavity];
      const faces: number[][] = [];
      for (const t of tets) {
        const o = 4 * t;
        for (let k = 0; k < 4; k++) {
          const n = tz.nb[o + k];
          if (n >= 0 && cavity.has(n)) continue;
          const f = FACE_OF[k];
          faces.push(FACE_SIGN[k] > 0 ? [tz.tv[o + f[0]], tz.tv[o + f[1]], tz.tv[o + f[2]]] : [tz.tv[o + f[0]], tz.tv[o + f[2]], tz.tv[o + f[1]]]);
        }
      }
      const boundaryEdges = new Set<number | string>();
      for (const f of faces) for (let i = 0; i < 3; i++) boundaryEdges.add(tz.edgeKey(f[i], f[(i + 1) % 3]));
      let lostEdge = false;
      for (const t of tets) {
        const ids = tz.ids(t);
        for (let i = 0; i < 4 && !lostEdge; i++) for (let j = i + 1; j < 4; j++) {
          const key = tz.edgeKey(ids[i], ids[j]);
          if (tz.protectedEdges.has(key) && !boundaryEdges.has(key)) { lostEdge = true; break; }
        }
      }
      if (lostEdge) continue;
      const cone: number[][] = [];
      for (const f of faces) if (!f.includes(apex)) cone.push([f[0], f[1], f[2], apex]);
      tz.replace(tets, cone);
      this.stats.cones++;
      if (tz.edgeTets(a, b).length > 0) return true;
    }
    return false;
  }

  private splitCrossing(a: number, b: number, crossings: Crossing[]): boolean {
    const tz = this.tz;
    const p = tz.xyz;
    const cands: [number, number, number, number][] = [];
    for (const c of crossings) {
      let x = 0, y = 0, z = 0;
      if (c.kind === 'edge' && tz.orient(a, b, c.u, c.v) === 0) {
        // A crossing edge in ab's plane: its middle may lie on the object's surface, so the
        // points a quarter of its length off the plane on either side instead.
        const mx = (p[3 * c.u] + p[3 * c.v]) / 2, my = (p[3 * c.u + 1] + p[3 * c.v + 1]) / 2, mz = (p[3 * c.u + 2] + p[3 * c.v + 2]) / 2;
        const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
        const fx = p[3 * c.u] - p[3 * a], fy = p[3 * c.u + 1] - p[3 * a + 1], fz = p[3 * c.u + 2] - p[3 * a + 2];
        let nx = ey * fz - ez * fy, ny = ez * fx - ex * fz, nz = ex * fy - ey * fx;
        const nl = Math.hypot(nx, ny, nz);
        if (!(nl > 0)) continue;
        const len = 0.25 * Math.hypot(p[3 * c.u] - p[3 * c.v], p[3 * c.u + 1] - p[3 * c.v + 1], p[3 * c.u + 2] - p[3 * c.v + 2]);
        nx *= len / nl; ny *= len / nl; nz *= len / nl;
        const d = (mx - p[3 * a]) ** 2 + (my - p[3 * a + 1]) ** 2 + (mz - p[3 * a + 2]) ** 2;
        cands.push([d, mx + nx, my + ny, mz + nz], [d, mx - nx, my - ny, mz - nz]);
        continue;
      }
      if (c.kind === 'edge') {
        x = (p[3 * c.u] + p[3 * c.v]) / 2; y = (p[3 * c.u + 1] + p[3 * c.v + 1]) / 2; z = (p[3 * c.u + 2] + p[3 * c.v + 2]) / 2;
      } else if (c.kind === 'face') {
        const f = FACE_OF[c.k];
        const ids = [tz.tv[4 * c.t + f[0]], tz.tv[4 * c.t + f[1]], tz.tv[4 * c.t + f[2]]];
        for (const v of ids) { x += p[3 * v] / 3; y += p[3 * v + 1] / 3; z += p[3 * v + 2] / 3; }
      } else continue;
      const d = (x - p[3 * a]) ** 2 + (y - p[3 * a + 1]) ** 2 + (z - p[3 * a + 2]) ** 2;
      // Never on the object's edge itself (a face's centroid could fall on it).
      const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
      const qx = x - p[3 * a], qy = y - p[3 * a + 1], qz = z - p[3 * a + 2];
      const cross2 = (ey * qz - ez * qy) ** 2 + (ez * qx - ex * qz) ** 2 + (ex * qy - ey * qx) ** 2;
      if (cross2 <= 1e-12 * (ex * ex + ey * ey + ez * ez) * d) continue;
      cands.push([d, x, y, z]);
    }
    cands.sort((u, v) => u[0] - v[0]);
    for (const [, x, y, z] of cands) if (this.insertSteiner(x, y, z)) return true;
    return false;
  }

  private insertSteiner(x: number, y: number, z: number): boolean {
    const tz = this.tz;
    const s = tz.addPoint(x, y, z);
    if (!tz.insert(s)) { tz.pointCount--; return false; }
    this.steiner.push(s);
    this.stats.steinerPoints++;
    return true;
  }

  /**
   * The elements of the tetrahedralization that the open segment ab crosses: faces in their
   * relative interior, edges in theirs, and points on it (a walk over the tets it meets).
   */
  private segmentCrossings(a: number, b: number): Crossing[] {
    const tz = this.tz;
    const out: Crossing[] = [];
    const seenFace = new Set<number | string>();
    const seenEdge = new Set<number | string>();
    const seenTet = new Set<number>();
    const queue = tz.star(a);
    for (const t of queue) seenTet.add(t);
    for (let i = 0; i < queue.length; i++) {
      const t = queue[i];
      const o = 4 * t;
      for (let k = 0; k < 4; k++) {
        const f = FACE_OF[k];
        const x = tz.tv[o + f[0]], y = tz.tv[o + f[1]], z = tz.tv[o + f[2]];
        const hit = this.segmentTriangle(a, b, x, y, z);
        if (hit === null) continue;
        const n = tz.nb[o + k];
        if (hit.kind === 'face') {
          const key = tz.faceKey(x, y, z);
          if (!seenFace.has(key)) { seenFace.add(key); out.push({ kind: 'face', t, k }); }
          if (n >= 0 && !seenTet.has(n)) { seenTet.add(n); queue.push(n); }
        } else if (hit.kind === 'edge') {
          const key = tz.edgeKey(hit.u, hit.v);
          if (!seenEdge.has(key)) {
            seenEdge.add(key);
            out.push(hit);
            for (const s of tz.edgeTets(hit.u, hit.v)) if (!seenTet.has(s)) { seenTet.add(s); queue.push(s); }
          }
        } else {
          out.push(hit);
          return out;
        }
      }
    }
    return out;
  }

  /** How the open segment ab meets the closed triangle xyz (exact): null when not at all (or only at a or b). */
  private segmentTriangle(a: number, b: number, x: number, y: number, z: number): Crossing | null {
    const tz = this.tz;
    if (x === a || y === a || z === a || x === b || y === b || z === b) {
      // Only the coplanar case can cross: the segment runs through the triangle's plane.
      return this.coplanarThrough(a, b, x, y, z);
    }
    const s1 = tz.orient(x, y, z, a), s2 = tz.orient(x, y, z, b);
    if (s1 === 0 && s2 === 0) return this.coplanarThrough(a, b, x, y, z);
    if (!(s1 * s2 < 0)) return null;
    const o1 = Math.sign(tz.orient(a, b, x, y)), o2 = Math.sign(tz.orient(a, b, y, z)), o3 = Math.sign(tz.orient(a, b, z, x));
    if (o1 === o2 && o2 === o3 && o1 !== 0) return { kind: 'face', t: -1, k: -1 };
    const zeros = (o1 === 0 ? 1 : 0) + (o2 === 0 ? 1 : 0) + (o3 === 0 ? 1 : 0);
    const nz = [o1, o2, o3].filter((o) => o !== 0);
    if (nz.length > 0 && nz.some((o) => o !== nz[0])) return null;
    if (zeros === 1) {
      if (o1 === 0) return { kind: 'edge', u: x, v: y };
      if (o2 === 0) return { kind: 'edge', u: y, v: z };
      return { kind: 'edge', u: z, v: x };
    }
    if (zeros === 2) return { kind: 'vertex', v: o1 !== 0 ? z : o2 !== 0 ? x : y };
    return null;
  }

  /**
   * Coplanar case: the segment ab and the triangle xyz in one plane; crossings of the triangle's
   * edges (not at a or b) and points of it on the segment, by 2D orientations against a point
   * off the plane.
   */
  private coplanarThrough(a: number, b: number, x: number, y: number, z: number): Crossing | null {
    const tz = this.tz;
    const tri = [x, y, z];
    // A point off the plane: one of the ids around (a + unit along each axis until off).
    if (tz.orient(a, b, x, y) !== 0 || tz.orient(a, b, y, z) !== 0 || tz.orient(a, b, z, x) !== 0) {
      // Not all four in a plane unless a or b is a triangle vertex; then the triangle is crossed only if coplanar.
      const others = tri.filter((v) => v !== a && v !== b);
      const all = [a, b, ...others];
      if (all.length < 4 || tz.orient(all[0], all[1], all[2], all[3]) !== 0) return null;
    }
    const p = tz.xyz;
    // Side of w from line uv in the common plane.
    const side = (u: number, v: number, w: number, off: [number, number, number]): number => Math.sign(orient3dAt(p, u, v, off, w));
    let off: [number, number, number] | null = null;
    for (let axis = 0; axis < 3 && !off; axis++) {
      const q: [number, number, number] = [p[3 * a], p[3 * a + 1], p[3 * a + 2]];
      q[axis] += 1 + Math.abs(q[axis]);
      if (tz.orientAt(a, b, tri.find((v) => v !== a && v !== b)!, q[0], q[1], q[2]) !== 0) off = q;
    }
    if (!off) return null;
    // Points of the triangle strictly inside segment ab.
    for (const v of tri) {
      if (v === a || v === b) continue;
      if (side(a, b, v, off) !== 0) continue;
      const d = (p[3 * v] - p[3 * a]) * (p[3 * b] - p[3 * a]) + (p[3 * v + 1] - p[3 * a + 1]) * (p[3 * b + 1] - p[3 * a + 1]) + (p[3 * v + 2] - p[3 * a + 2]) * (p[3 * b + 2] - p[3 * a + 2]);
      const l = (p[3 * b] - p[3 * a]) ** 2 + (p[3 * b + 1] - p[3 * a + 1]) ** 2 + (p[3 * b + 2] - p[3 * a + 2]) ** 2;
      if (d > 0 && d < l) return { kind: 'vertex', v };
    }
    for (const [u, v] of [[x, y], [y, z], [z, x]]) {
      if (u === a || u === b || v === a || v === b) continue;
      const s1 = side(a, b, u, off), s2 = side(a, b, v, off);
      const s3 = side(u, v, a, off), s4 = side(u, v, b, off);
      if (s1 * s2 < 0 && s3 * s4 < 0) return { kind: 'edge', u, v };
    }
    return null;
  }

  // ---------------------------------------------------------------- faces

  /** Makes abc a face; returns why not, or null. */
  private recoverFace(a: number, b: number, c: number): string | null {
    const tz = this.tz;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (tz.findFace(a, b, c)) return null;
      const cav = this.faceCavity(a, b, c);
      if (typeof cav === 'string') return cav;
      // Flips: the crossing edges by edge removal, the faces inside the cavity by 2-3 flips.
      let flips = 0;
      const edges = shuffle([...cav.crossingEdges]);
      const crosses = (x: number, y: number): boolean => {
        if (!(tz.orient(a, b, c, x) * tz.orient(a, b, c, y) < 0)) return false;
        const o = [Math.sign(tz.orient(x, y, a, b)), Math.sign(tz.orient(x, y, b, c)), Math.sign(tz.orient(x, y, c, a))].filter((q) => q !== 0);
        return o.every((q) => q === o[0]);
      };
      // Edge removal makes the ring's chords edges: none may cross the triangle, so each removal
      // takes one crossing edge away for good.
      const avoid = (x: number, y: number, z: number) => crosses(x, y) || crosses(y, z) || crosses(z, x);
      for (const [u, v] of edges) if (tz.edgeTets(u, v).length > 0 && tz.removeEdge(u, v, 10, avoid)) flips++;
      this.stats.flips += flips;
      if (flips === 0) break;
    }
    if (tz.findFace(a, b, c)) return null;
    const cav = this.faceCavity(a, b, c);
    if (typeof cav === 'string') return cav;
    return this.coneCavity(a, b, c, cav.tets);
  }

  /**
   * The tets whose interior meets the triangle abc's relative interior, and the edges of the
   * tetrahedralization that cross it (endpoints strictly on both sides, through the interior).
   */
  private faceCavity(a: number, b: number, c: number): { tets: number[]; crossingEdges: [number, number][] } | string {
    const tz = this.tz;
    for (const [u, v] of [[a, b], [b, c], [c, a]]) if (tz.edgeTets(u, v).length === 0) return `its edge ${this.describe(u)} - ${this.describe(v)} is missing`;
    const side = (v: number) => Math.sign(tz.orient(a, b, c, v));
    const inTet = new Set<number>();
    const queue: number[] = [];
    const consider = (t: number): string | null => {
      const m = this.tetMeetsTriangle(t, a, b, c);
      if (m === false) return null;
      if (m !== true) return this.defect(`${this.describe(m.on)} lies on it`);
      inTet.add(t);
      queue.push(t);
      return null;
    };
    for (const t of tz.edgeTets(a, b)) { const why = consider(t); if (why) return why; }
    for (let i = 0; i < queue.length; i++) {
      const t = queue[i];
      for (let k = 0; k < 4; k++) {
        const n = tz.nb[4 * t + k];
        if (n < 0 || inTet.has(n)) continue;
        const why = consider(n);
        if (why) return why;
      }
    }
    if (inTet.size === 0) {
      // Missing, and no tet's interior meets it: a point lies on it and splits it.
      for (const t of tz.star(a)) for (const w of tz.ids(t)) {
        if (w === a || w === b || w === c || tz.orient(a, b, c, w) !== 0) continue;
        const off = tz.ids(t).find((v) => tz.orient(a, b, c, v) !== 0);
        if (off === undefined) continue;
        const inner = (e0: number, e1: number, opp: number) => tz.orient(e0, e1, off, w) * tz.orient(e0, e1, off, opp) >= 0;
        if (inner(a, b, c) && inner(b, c, a) && inner(c, a, b)) return this.defect(`${this.describe(w)} lies on it`);
      }
      return this.defect('no tet meets it although it is missing (its surface is degenerate here)');
    }
    const crossing = new Map<number | string, [number, number]>();
    for (const t of inTet) {
      const ids = tz.ids(t);
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
        const u = ids[i], v = ids[j];
        if (side(u) * side(v) < 0) crossing.set(tz.edgeKey(u, v), [u, v]);
      }
    }
    return { tets: [...inTet], crossingEdges: [...crossing.values()] };
  }

  /**
   * Whether tet t's interior meets triangle abc's relative interior (exact). With abc's edges in
   * the mesh, the tet's cross-section by the triangle's plane lies inside the triangle or meets
   * its interior nowhere, so: a vertex strictly on each side, every crossing edge of the tet
   * passing through the closed triangle, and no vertex of the tet in the plane but a, b or c.
   * A point of the tetrahedralization lying on the triangle is returned (as { on: id }).
   */
  private tetMeetsTriangle(t: number, a: number, b: number, c: number): boolean | { on: number } {
    const tz = this.tz;
    const ids = tz.ids(t);
    const s = ids.map((v) => Math.sign(tz.orient(a, b, c, v)));
    if (!s.includes(1) || !s.includes(-1)) return false;
    const off = ids[s.indexOf(1)];
    for (let i = 0; i < 4; i++) {
      const w = ids[i];
      if (s[i] !== 0 || w === a || w === b || w === c) continue;
      // In-plane: inside the closed triangle when on the inner side of each edge (seen against off).
      const inner = (e0: number, e1: number, opp: number) => tz.orient(e0, e1, off, w) * tz.orient(e0, e1, off, opp) >= 0;
      return inner(a, b, c) && inner(b, c, a) && inner(c, a, b) ? { on: w } : false;
    }
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
      if (!(s[i] * s[j] < 0)) continue;
      const u = ids[i], v = ids[j];
      const o = [Math.sign(tz.orient(u, v, a, b)), Math.sign(tz.orient(u, v, b, c)), Math.sign(tz.orient(u, v, c, a))].filter((x) => x !== 0);
      if (o.some((x) => x !== o[0])) return false;
    }
    return true;
  }

  /**
   * Refills the cavity of triangle abc (its crossing tets) as two cones, one on each side of the
   * triangle, each from a vertex of its part that sees all of that part's faces, else from a new
   * point in the part's kernel.
   */
  private coneCavity(a: number, b: number, c: number, tets: number[]): string | null {
    const tz = this.tz;
    if (tz.removesProtected(tets)) return 'its cavity holds a triangle recovered before (two object surfaces cross or touch here)';
    const inSet = new Set(tets);
    const upper: number[][] = [], lower: number[][] = [];
    for (const t of tets) {
      const o = 4 * t;
      for (let k = 0; k < 4; k++) {
        const n = tz.nb[o + k];
        if (n >= 0 && inSet.has(n)) continue;
        const f = FACE_OF[k];
        // Oriented so that the cavity is on its positive side: (x, y, z, inside) positive.
        const ids = [tz.tv[o], tz.tv[o + 1], tz.tv[o + 2], tz.tv[o + 3]];
        const face = FACE_SIGN[k] > 0 ? [ids[f[0]], ids[f[1]], ids[f[2]]] : [ids[f[0]], ids[f[2]], ids[f[1]]];
        let s = 0;
        for (const v of face) { const o2 = tz.orient(a, b, c, v); if (o2 !== 0) { s = o2; break; } }
        if (s === 0) return this.defect('its cavity has a face in the triangle\'s plane (degenerate surface here)');
        (s > 0 ? upper : lower).push(face);
      }
    }
    // Each part is closed by the triangle, facing into the part.
    const partUpper = [...upper, [a, b, c]];
    const partLower = [...lower, [a, c, b]];
    const cones: NonNullable<ReturnType<BoundaryRecovery['coneOf']>>[] = [];
    for (const [part, name] of [[partUpper, 'above'], [partLower, 'below']] as const) {
      const cone = this.coneOf(part);
      if (!cone) return `the part of its cavity ${name} it is not star-shaped (no point sees all ${part.length} of its faces)`;
      cones.push(cone);
    }
    // Every protected edge of the cavity must survive (it can only lie on the cavity's boundary).
    const kept = new Set<number | string>();
    for (const f of [...upper, ...lower]) for (let i = 0; i < 3; i++) kept.add(tz.edgeKey(f[i], f[(i + 1) % 3]));
    for (const t of tets) {
      const ids = tz.ids(t);
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
        const key = tz.edgeKey(ids[i], ids[j]);
        if (tz.protectedEdges.has(key) && !kept.has(key)) return `its cavity holds the object edge ${this.describe(ids[i])} - ${this.describe(ids[j])} (two object surfaces too close here)`;
      }
    }
    const added: number[][] = [];
    for (const cone of cones) {
      let apex = -1;
      if (cone.apex) {
        apex = tz.addPoint(cone.apex[0], cone.apex[1], cone.apex[2]);
        this.steiner.push(apex);
        this.stats.steinerPoints++;
      }
      for (const ids of cone.tets) added.push(ids.map((v) => (v < 0 ? apex : v)));
    }
    tz.replace(tets, added);
    this.stats.cones++;
    return null;
  }

  /**
   * Tets filling the closed polyhedron `faces` (each with the inside on its positive side) as a
   * cone, or null; `apex` when the cone's apex is a new point (id -1 in the tets).
   */
  private coneOf(faces: number[][]): { tets: number[][]; apex?: [number, number, number] } | null {
    const tz = this.tz;
    const verts = [...new Set(faces.flat())];
    let best: number[][] | null = null, bestQ = 0;
    for (const v of verts) {
      const cone: number[][] = [];
      let q = Infinity;
      for (const f of faces) {
        if (f.includes(v)) continue;
        if (!(tz.orient(f[0], f[1], f[2], v) > 0)) { q = -1; break; }
        q = Math.min(q, tz.quality(f[0], f[1], f[2], v));
        cone.push([f[0], f[1], f[2], v]);
      }
      if (q > bestQ) { bestQ = q; best = cone; }
    }
    if (best) return { tets: best };
    // A point in the kernel: candidates between the faces' centroids and the part's centre.
    const p = tz.xyz;
    const centre = [0, 0, 0];
    for (const v of verts) for (let k = 0; k < 3; k++) centre[k] += p[3 * v + k] / verts.length;
    const candidates: number[][] = [centre];
    for (const f of faces) {
      const fc = [0, 1, 2].map((k) => (p[3 * f[0] + k] + p[3 * f[1] + k] + p[3 * f[2] + k]) / 3);
      for (const s of [0.5, 0.25, 0.75, 0.1]) candidates.push([0, 1, 2].map((k) => fc[k] + s * (centre[k] - fc[k])));
    }
    for (const [x, y, z] of candidates) {
      let ok = true;
      for (const f of faces) if (!(tz.orientAt(f[0], f[1], f[2], x, y, z) > 0)) { ok = false; break; }
      if (!ok) continue;
      // The apex -1 stands for the new point, added once both parts have their cone.
      return { tets: faces.map((f) => [f[0], f[1], f[2], -1]), apex: [x, y, z] };
    }
    return null;
  }

}

/** Sign of det[v - u, off - u, w - u] (exact): the side of w from the plane through u, v and the point off. */
function orient3dAt(p: Float64Array, u: number, v: number, off: [number, number, number], w: number): number {
  return -orient3dSign(p[3 * u], p[3 * u + 1], p[3 * u + 2], p[3 * v], p[3 * v + 1], p[3 * v + 2], off[0], off[1], off[2], p[3 * w], p[3 * w + 1], p[3 * w + 2]);
}


let seed = 0x9e3779b9;
/** Fisher-Yates with a xorshift sequence that each recovery restarts from its shuffleSeed (run). */
function shuffle<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
    const j = seed % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
