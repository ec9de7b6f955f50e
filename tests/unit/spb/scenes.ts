/**
 * Query scenes shared by the shortest-path tests and bench/spbCpu.ts: random interior points,
 * an octopus pushed into a copy of itself (inter-object DCD hits), and a squishy ball whose
 * tentacles are bent into each other (self-intersection DCD hits, some tets inverted).
 */
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { fibonacciDirections } from '../../../src/mesh/procedural/shapes/squishyBall';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';
import { pushedCopies } from '../../support/pushedCopies';
import { randomInteriorPoint, rng } from '../../support/random';

export interface Queries {
  points: Float64Array;
  tets: Int32Array;
  exclude: Int32Array;
}

export function knotQueriesOf(mesh: TetMesh, n: number): Queries {
  const r = rng(2023);
  const q: Queries = { points: new Float64Array(3 * n), tets: new Int32Array(n), exclude: new Int32Array(n).fill(-1) };
  for (let i = 0; i < n; i++) {
    const t = Math.floor(r() * mesh.tetCount);
    q.points.set(randomInteriorPoint(mesh.positions, mesh.tets, t, r), 3 * i);
    q.tets[i] = t;
  }
  return q;
}

/** Tet containing p (strict barycentric test) among tets [t0, t1), via a uniform grid of tet boxes. */
export class TetLocator {
  private readonly cells = new Map<number, number[]>();
  private readonly lo: number[];
  private readonly size: number;
  constructor(private readonly mesh: TetMesh, t0: number, t1: number) {
    const x = mesh.positions;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let edge = 0;
    for (let t = t0; t < t1; t++) {
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) {
        const v = x[3 * mesh.tets[4 * t + k] + c];
        lo[c] = Math.min(lo[c], v);
        hi[c] = Math.max(hi[c], v);
      }
      edge += Math.abs(x[3 * mesh.tets[4 * t]] - x[3 * mesh.tets[4 * t + 1]]);
    }
    this.lo = lo;
    this.size = Math.max((3 * edge) / (t1 - t0), 1e-9);
    for (let t = t0; t < t1; t++) {
      const blo = [Infinity, Infinity, Infinity], bhi = [-Infinity, -Infinity, -Infinity];
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) {
        const v = x[3 * mesh.tets[4 * t + k] + c];
        blo[c] = Math.min(blo[c], v);
        bhi[c] = Math.max(bhi[c], v);
      }
      const a = blo.map((v, c) => Math.floor((v - lo[c]) / this.size));
      const b = bhi.map((v, c) => Math.floor((v - lo[c]) / this.size));
      for (let i = a[0]; i <= b[0]; i++) for (let j = a[1]; j <= b[1]; j++) for (let k = a[2]; k <= b[2]; k++) {
        const key = (i * 1024 + j) * 1024 + k;
        const list = this.cells.get(key);
        if (list) list.push(t);
        else this.cells.set(key, [t]);
      }
    }
  }
  /** A tet strictly containing p, skipping those `skip` rejects; -1 if none. */
  locate(px: number, py: number, pz: number, skip?: (t: number) => boolean): number {
    const c = [px, py, pz].map((v, i) => Math.floor((v - this.lo[i]) / this.size));
    const list = this.cells.get((c[0] * 1024 + c[1]) * 1024 + c[2]);
    if (!list) return -1;
    for (const t of list) if (!(skip && skip(t)) && this.strictlyInside(t, px, py, pz)) return t;
    return -1;
  }

  /** All four barycentric volumes (p in place of each vertex) have the sign of the tet's volume. */
  private strictlyInside(t: number, px: number, py: number, pz: number): boolean {
    const x = this.mesh.positions;
    const v = [0, 1, 2, 3].map((k) => 3 * this.mesh.tets[4 * t + k]);
    const orient = (a: number[], b: number[], c: number[], d: number[]): number => {
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], e3 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
      return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
    };
    const P = v.map((i) => [x[i], x[i + 1], x[i + 2]]);
    const p = [px, py, pz];
    const vol = orient(P[0], P[1], P[2], P[3]);
    const w = [orient(p, P[1], P[2], P[3]), orient(P[0], p, P[2], P[3]), orient(P[0], P[1], p, P[3]), orient(P[0], P[1], P[2], p)];
    return vol !== 0 && w.every((wi) => wi / vol > 0);
  }
}

/** Two copies of a shared octopus, the second moved `push` along +x: its boundary vertices inside the first. */
export function octopusPairQueries(name: string, push: number): { mesh: TetMesh; queries: Queries } {
  // The second copy is the first moved `push` units along +x: its boundary vertices on the
  // -x side of every arm lie inside the first copy, up to `push` deep.
  const { mesh, firstTetCount } = pushedCopies(name, push);
  const locator = new TetLocator(mesh, 0, firstTetCount);
  const pts: number[] = [], tets: number[] = [], excl: number[] = [];
  for (const v of mesh.boundaryVertices) {
    if (mesh.vertexObject[v] !== 1) continue;
    const x = mesh.positions[3 * v], y = mesh.positions[3 * v + 1], z = mesh.positions[3 * v + 2];
    const t = locator.locate(x, y, z);
    if (t < 0) continue;
    pts.push(x, y, z);
    tets.push(t);
    excl.push(v);
  }
  return { mesh, queries: { points: Float64Array.from(pts), tets: Int32Array.from(tets), exclude: Int32Array.from(excl) } };
}

/** Part of each vertex of the generated squishy ball: its tentacle (nearest direction) outside the ball radius, else -1 (the shell). */
function tentacleParts(x: ArrayLike<number>, dirs: Float64Array, R: number): Int32Array {
  const count = dirs.length / 3;
  const n = x.length / 3;
  const part = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
    if (Math.hypot(px, py, pz) <= R) continue;
    let best = 0;
    for (let i = 1; i < count; i++) {
      if (px * dirs[3 * i] + py * dirs[3 * i + 1] + pz * dirs[3 * i + 2] > px * dirs[3 * best] + py * dirs[3 * best + 1] + pz * dirs[3 * best + 2]) best = i;
    }
    part[v] = best;
  }
  return part;
}

/**
 * DCD hits of a deformed squishy ball: boundary vertices of a tentacle strictly inside a tet of
 * another tentacle or of the shell (uniform-grid point location), each excluding itself.
 * Topology from the rest shape (validation rejects inverted input tets), then the posed positions.
 */
function squishyBallHits(rest: Float32Array, tets: Uint32Array, posed: Float32Array, part: Int32Array): { mesh: TetMesh; queries: Queries } {
  const mesh = { ...buildTetMesh({ positions: rest, tets }, { source: 'squishyBall' }).mesh, positions: posed };
  const tetPart = (t: number): number => {
    for (let k = 0; k < 4; k++) if (part[mesh.tets[4 * t + k]] >= 0) return part[mesh.tets[4 * t + k]];
    return -1;
  };
  const locator = new TetLocator(mesh, 0, mesh.tetCount);
  const pts: number[] = [], tetIds: number[] = [], excl: number[] = [];
  for (const v of mesh.boundaryVertices) {
    if (part[v] < 0) continue;
    const px = posed[3 * v], py = posed[3 * v + 1], pz = posed[3 * v + 2];
    const t = locator.locate(px, py, pz, (u) => tetPart(u) === part[v]);
    if (t < 0) continue;
    pts.push(px, py, pz);
    tetIds.push(t);
    excl.push(v);
  }
  return { mesh, queries: { points: Float64Array.from(pts), tets: Int32Array.from(tetIds), exclude: Int32Array.from(excl) } };
}

/**
 * A self-intersecting squishy ball (paper Figs. 11-12 flatten the toy between planes, which
 * presses tentacles into each other): the generated ball's tentacles are paired with their
 * nearest free neighbour, and one of each pair is bent rigidly about the ball centre onto the
 * other (the full angle between them, ramped in over the first 0.2 of its length), so its knob
 * lands on the partner's knob. Queries: DCD hits, i.e. boundary vertices of a tentacle strictly
 * inside a tet of another tentacle or of the shell, excluding the vertex itself.
 */
export function squishyBallQueries(): { mesh: TetMesh; queries: Queries } {
  const R = 0.38, count = 24;
  const g = generateShape('squishyBall');
  const dirs = fibonacciDirections(count);
  const dot3 = (i: number, j: number): number => dirs[3 * i] * dirs[3 * j] + dirs[3 * i + 1] * dirs[3 * j + 1] + dirs[3 * i + 2] * dirs[3 * j + 2];
  // Greedy pairing by angle; `bendTo[i]` = partner that tentacle i bends onto, or -1.
  const pairs: [number, number][] = [];
  for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) pairs.push([i, j]);
  pairs.sort((a, b) => dot3(b[0], b[1]) - dot3(a[0], a[1]));
  const used = new Uint8Array(count);
  const bendTo = new Int32Array(count).fill(-1);
  for (const [i, j] of pairs) {
    if (used[i] || used[j]) continue;
    used[i] = used[j] = 1;
    bendTo[i] = j;
  }
  const x = g.positions;
  const n = x.length / 3;
  const part = tentacleParts(x, dirs, R);
  const out = Float32Array.from(x);
  for (let v = 0; v < n; v++) {
    const best = part[v];
    if (best < 0) continue;
    const j = bendTo[best];
    if (j < 0) continue;
    const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
    const r = Math.hypot(px, py, pz);
    // Rotation about the unit axis d_i x d_j by the angle between them (Rodrigues).
    const di = [dirs[3 * best], dirs[3 * best + 1], dirs[3 * best + 2]], dj = [dirs[3 * j], dirs[3 * j + 1], dirs[3 * j + 2]];
    const axis = [di[1] * dj[2] - di[2] * dj[1], di[2] * dj[0] - di[0] * dj[2], di[0] * dj[1] - di[1] * dj[0]];
    const al = Math.hypot(axis[0], axis[1], axis[2]);
    const [ax, ay, az] = axis.map((c) => c / al);
    const t = Math.min(1, Math.max(0, (r - R) / 0.2));
    const angle = Math.acos(Math.min(1, dot3(best, j))) * t * t * (3 - 2 * t);
    const c = Math.cos(angle), s = Math.sin(angle);
    const d = ax * px + ay * py + az * pz;
    const cx = ay * pz - az * py, cy = az * px - ax * pz, cz = ax * py - ay * px;
    out[3 * v] = px * c + cx * s + ax * d * (1 - c);
    out[3 * v + 1] = py * c + cy * s + ay * d * (1 - c);
    out[3 * v + 2] = pz * c + cz * s + az * d * (1 - c);
  }
  return squishyBallHits(x, g.tets, out, part);
}

/** Rotates (x, y, z) in place about the unit axis (ax, ay, az) by `angle` (Rodrigues). */
function rotate(p: number[], ax: number, ay: number, az: number, angle: number): void {
  const c = Math.cos(angle), s = Math.sin(angle);
  const [px, py, pz] = p;
  const d = ax * px + ay * py + az * pz;
  const cx = ay * pz - az * py, cy = az * px - ax * pz, cz = ax * py - ay * px;
  p[0] = px * c + cx * s + ax * d * (1 - c);
  p[1] = py * c + cy * s + ay * d * (1 - c);
  p[2] = pz * c + cz * s + az * d * (1 - c);
}

/**
 * The squishy ball squeezed between two plates along y, as in the paper's Figs. 11-12, by a
 * smooth analytic map instead of a simulation. Each tentacle, at latitude lat of its axis, is
 * swung rigidly down to the equator (by lat) and twisted about y by 1.2 lat (pressed flat, it
 * bends sideways), both ramped in smoothly from the ball's surface to a tentacle length out; then
 * everything is flattened along y by 0.5. The tentacles end up crowded around the equator,
 * pressed through each other's stems and knobs: deep inter-tentacle interpenetration, the case
 * where the paper's culling gave 10-30x. The twist inverts a few tets at the roots (10), so the
 * ball's queries run in the inversion mode (section 3.5), as a squeezed ball's would.
 */
export function squeezedSquishyBallQueries(): { mesh: TetMesh; queries: Queries } {
  const R = 0.38, L = 0.38, count = 24;
  const g = generateShape('squishyBall');
  const dirs = fibonacciDirections(count);
  const x = g.positions;
  const n = x.length / 3;
  const part = tentacleParts(x, dirs, R);
  const out = new Float32Array(3 * n);
  const p = [0, 0, 0];
  for (let v = 0; v < n; v++) {
    p[0] = x[3 * v];
    p[1] = x[3 * v + 1];
    p[2] = x[3 * v + 2];
    const i = part[v];
    if (i >= 0) {
      const t = Math.min(1, Math.max(0, (Math.hypot(p[0], p[1], p[2]) - R) / L));
      const s = t * t * (3 - 2 * t);
      const dx = dirs[3 * i], dy = dirs[3 * i + 1], dz = dirs[3 * i + 2];
      const lat = Math.asin(dy);
      // Toward the equator: about the horizontal axis d x y (rotating by +angle raises latitude).
      const h = Math.hypot(dz, dx);
      rotate(p, -dz / h, 0, dx / h, -lat * s);
      rotate(p, 0, 1, 0, 1.2 * lat * s);
    }
    out[3 * v] = p[0];
    out[3 * v + 1] = 0.5 * p[1];
    out[3 * v + 2] = p[2];
  }
  return squishyBallHits(x, g.tets, out, part);
}
