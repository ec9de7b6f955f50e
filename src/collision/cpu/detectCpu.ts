/**
 * Discrete collision detection, float64 CPU reference of the GPU detect stage (paper 000
 * section 4; rules in docs/collisions.md, identical on both):
 * - query points: boundary vertices (every vertex in recovery mode, section 5.2), boundary edges
 *   (the centre of the part of the edge inside the tet), tet centroids (recovery mode only);
 * - a point is in tet t when t does not contain it (shares no vertex with its edge / tet), t is
 *   not inverted (6V > 0) and every barycentric sub-volume is > 0 (strictly inside);
 * - t of the point's own object: a self hit, ignored when self-collision is off and, section
 *   3.5, when the point touches an inverted boundary element (a vertex with a boundary triangle
 *   of an inverted tet, an edge with such an end, a centroid of an inverted tet);
 * - one query per point: the containing tet of smallest id; an edge: the crossing whose centre is
 *   closest to the edge's midpoint (section 4), ties to the smallest tet id; as the GPU kernel;
 * - hybrid mode (supplement Alg. 5): markPenetrating at the substep's start flags the points
 *   already inside another tet (Pin), except inside another object's tet and an inverted tet of
 *   that object (a fold), and detection after the material solve tests only those;
 * - inter-object queries carry the euclidean bit when the Fig. 15 switch is on.
 */
import type { TetMesh } from '../../mesh/types';
import { KIND_CENTROID, KIND_EDGE, KIND_SHIFT, KIND_VERTEX, SOURCE_INDEX_MASK, type CpuQueryList } from './queryList';
import { TetGrid } from './tetGrid';
import { PIN_INTER, PIN_SELF } from '../pinMark';
import { clipSegment, strictlyInside, subVolumes, tetVolume6 } from './tetGeometry';
import { markInvertedBoundaryVertices } from './invertedBoundary';

export interface DetectOptions {
  selfCollision: boolean;
  /** Every vertex and every tet centroid is a query point (section 5.2). */
  recovery: boolean;
  /** Inter-object queries take the nearest boundary point of the other object (Fig. 15). */
  euclidean: boolean;
  /**
   * Hybrid (supplement Alg. 5): only the points flagged here are tested: 1 per vertex, then per
   * boundary edge at vertexCount + e (markPenetrating's flags). Absent: every point.
   */
  only?: Uint8Array;
}

export class CpuDetector {
  readonly mesh: TetMesh;
  readonly grid = new TetGrid();
  /** Six times the signed volume per tet (current positions). */
  readonly volume6: Float64Array;
  /** 1 for a vertex with a boundary triangle of an inverted tet (the last detect's positions). */
  readonly invertedVertex: Uint8Array;
  /** invertedVertex as the last markPenetrating found it (the substep's start, where section 3.5 withholds self Pin marks); read by traces. */
  readonly invertedAtMark: Uint8Array;
  private readonly stamps: Uint32Array;
  private stamp = 0;
  private readonly scratch = new Float64Array(8);
  private readonly clip = new Float64Array(2);

  constructor(mesh: TetMesh) {
    this.mesh = mesh;
    this.volume6 = new Float64Array(mesh.tetCount);
    this.invertedVertex = new Uint8Array(mesh.vertexCount);
    this.invertedAtMark = new Uint8Array(mesh.vertexCount);
    this.stamps = new Uint32Array(mesh.tetCount);
  }

  /**
   * A point inside another object's tet that also lies inside an inverted tet of that object (a
   * fold) is not Pin (markPenetrating); true: Pin as any other hit, Alg. 5 as written (tests compare).
   */
  pinInFolds = false;
  /** The last markPenetrating's points left Pout in a fold (counters.pinInFold). */
  pinInFoldCount = 0;

  /**
   * Hybrid, Alg. 5 line 1: flags the boundary vertices (pin[v]) and boundary edges
   * (pin[vertexCount + e]) that are inside another tet at positions x under the detection rules.
   * Returns the number flagged. A hit in another object's tet is not flagged when the point also
   * lies inside an inverted tet of that object. The signed count of an object's tets that hold a
   * point (+1 a positive tet, -1 an inverted one) is the winding number of its surface there, so a
   * point outside the surface that a positive tet holds lies in an inverted one too: an impact
   * pushes boundary tets inside out, and the tets behind them then reach past the surface (traced
   * head-on at 6 m/s: an edge inside such tets over 0.37-0.42 of its length, through no triangle of
   * the other octopus, was Pin, and Pin took every CCD pair of it, so the other's edges passed
   * through it; docs/collisions.md "Pin marks in folds"). Left Pout, the point's pairs stay in CCD,
   * which tests the surface itself. Inside a fold a point may still be inside the surface (two
   * positive tets and one inverted hold it); it is left to CCD as well. The GPU's twin is
   * dcdDetect.wgsl inOthersFold.
   */
  markPenetrating(x: Float64Array, opts: DetectOptions, pin: Uint8Array, scratch: CpuQueryList): number {
    const n = this.mesh.vertexCount;
    this.detect(x, { ...opts, only: undefined }, scratch);
    this.invertedAtMark.set(this.invertedVertex);
    pin.fill(0);
    this.pinInFoldCount = 0;
    for (let i = 0; i < scratch.count; i++) {
      const s = scratch.source[i], kind = (s >>> KIND_SHIFT) & 3, id = s & SOURCE_INDEX_MASK;
      const object = this.mesh.vertexObject[kind === KIND_EDGE ? this.mesh.boundaryEdges[2 * id] : id];
      const mark = this.mesh.tetObject[scratch.tet[i]] === object ? PIN_SELF : PIN_INTER;
      if (mark === PIN_INTER && !this.pinInFolds && this.inInvertedTet(x, scratch.px[i], scratch.py[i], scratch.pz[i], this.mesh.tetObject[scratch.tet[i]])) {
        this.pinInFoldCount++;
        continue;
      }
      if (kind === KIND_VERTEX) pin[id] = mark;
      else if (kind === KIND_EDGE) pin[n + id] = mark;
    }
    return scratch.count - this.pinInFoldCount;
  }

  detect(x: Float64Array, opts: DetectOptions, out: CpuQueryList): void {
    const m = this.mesh;
    if (x.length !== 3 * m.vertexCount) throw new RangeError(`detect: expected ${3 * m.vertexCount} coordinates, got ${x.length}`);
    if (opts.only && opts.only.length !== m.vertexCount + m.boundaryEdges.length / 2) throw new RangeError(`detect: 'only' has ${opts.only.length} flags, expected ${m.vertexCount + m.boundaryEdges.length / 2} (vertices, then boundary edges)`);
    out.clear();
    for (let t = 0; t < m.tetCount; t++) this.volume6[t] = tetVolume6(x, m.tets, t);
    markInvertedBoundaryVertices(m, (t) => this.volume6[t], this.invertedVertex);
    this.grid.build(x, m.tets);
    const only = opts.only;
    if (opts.recovery) for (let v = 0; v < m.vertexCount; v++) this.vertexPoint(x, v, opts, out);
    else for (const v of m.boundaryVertices) if (!only || only[v]) this.vertexPoint(x, v, opts, out);
    for (let e = 0; e < m.boundaryEdges.length / 2; e++) if (!only || only[m.vertexCount + e]) this.edgePoint(x, e, opts, out);
    if (opts.recovery) for (let u = 0; u < m.tetCount; u++) this.centroidPoint(x, u, opts, out);
  }

  /** May tet t answer a point of object `object`? Returns 0 no, 1 self, 2 inter. */
  private pairKind(t: number, object: number, selfAllowed: boolean): number {
    if (!(this.volume6[t] > 0)) return 0;
    if (this.mesh.tetObject[t] === object) return selfAllowed ? 1 : 0;
    return 2;
  }

  /** Whether a tet of `object` inverted at positions x (volume6 of the last detect) holds point p strictly. */
  private inInvertedTet(x: Float64Array, px: number, py: number, pz: number, object: number): boolean {
    const m = this.mesh, g = this.grid, s = this.scratch;
    const cell = g.cellOf(px, py, pz);
    if (cell < 0) return false;
    for (let j = g.cellStart[cell]; j < g.cellStart[cell + 1]; j++) {
      const t = g.cellTets[j];
      if (!(this.volume6[t] < 0) || m.tetObject[t] !== object || !this.inBox(t, px, py, pz)) continue;
      subVolumes(x, m.tets, t, px, py, pz, s, 0);
      if (s[0] < 0 && s[1] < 0 && s[2] < 0 && s[3] < 0) return true;
    }
    return false;
  }

  private hasCorner(t: number, v: number): boolean {
    const tets = this.mesh.tets;
    return tets[4 * t] === v || tets[4 * t + 1] === v || tets[4 * t + 2] === v || tets[4 * t + 3] === v;
  }

  private inBox(t: number, px: number, py: number, pz: number): boolean {
    const b = this.grid.boxes, o = 6 * t;
    return px > b[o] && py > b[o + 1] && pz > b[o + 2] && px < b[o + 3] && py < b[o + 4] && pz < b[o + 5];
  }

  private vertexPoint(x: Float64Array, v: number, opts: DetectOptions, out: CpuQueryList): void {
    const m = this.mesh, g = this.grid;
    const px = x[3 * v], py = x[3 * v + 1], pz = x[3 * v + 2];
    const cell = g.cellOf(px, py, pz);
    if (cell < 0) return;
    const selfAllowed = opts.selfCollision && !this.invertedVertex[v];
    const object = m.vertexObject[v];
    // The containing tet of smallest id (as the GPU kernel: deterministic whatever the order).
    let best = -1, bestKind = 0;
    for (let j = g.cellStart[cell]; j < g.cellStart[cell + 1]; j++) {
      const t = g.cellTets[j];
      if ((best >= 0 && t >= best) || !this.inBox(t, px, py, pz) || this.hasCorner(t, v)) continue;
      const kind = this.pairKind(t, object, selfAllowed);
      if (kind === 0 || !strictlyInside(x, m.tets, t, px, py, pz, this.scratch)) continue;
      best = t;
      bestKind = kind;
    }
    if (best >= 0) out.push(px, py, pz, best, v, -1, KIND_VERTEX, v, bestKind === 2, opts.euclidean, 0);
  }

  private edgePoint(x: Float64Array, e: number, opts: DetectOptions, out: CpuQueryList): void {
    const m = this.mesh, g = this.grid;
    const a = m.boundaryEdges[2 * e], b = m.boundaryEdges[2 * e + 1];
    const ax = x[3 * a], ay = x[3 * a + 1], az = x[3 * a + 2];
    const bx = x[3 * b], by = x[3 * b + 1], bz = x[3 * b + 2];
    const selfAllowed = opts.selfCollision && !this.invertedVertex[a] && !this.invertedVertex[b];
    const object = m.vertexObject[a];
    const stamp = this.nextStamp();
    const lx = Math.min(ax, bx), ly = Math.min(ay, by), lz = Math.min(az, bz);
    const hx = Math.max(ax, bx), hy = Math.max(ay, by), hz = Math.max(az, bz);
    const boxes = g.boxes;
    if (!g.boxCells(lx, ly, lz, hx, hy, hz)) return;
    const r = g.cells;
    // Section 4: of the crossings, the one whose centre is closest to the edge's midpoint (ties:
    // the smallest tet id, as the GPU kernel); each crossed tet gives its own query point (the
    // centre of the edge's part inside it), so "the first found" depended on order, and the
    // smallest id alone pushed one end of the edge.
    let best = -1, bestKind = 0, bestU = 0;
    for (let k = r[4]; k <= r[5]; k++) for (let jj = r[2]; jj <= r[3]; jj++) for (let i = r[0]; i <= r[1]; i++) {
      const cell = g.cellIndex(i, jj, k);
      for (let j = g.cellStart[cell]; j < g.cellStart[cell + 1]; j++) {
        const t = g.cellTets[j];
        if (this.stamps[t] === stamp) continue;
        this.stamps[t] = stamp;
        const o = 6 * t;
        if (hx <= boxes[o] || hy <= boxes[o + 1] || hz <= boxes[o + 2] || lx >= boxes[o + 3] || ly >= boxes[o + 4] || lz >= boxes[o + 5]) continue;
        if (this.hasCorner(t, a) || this.hasCorner(t, b)) continue;
        const kind = this.pairKind(t, object, selfAllowed);
        if (kind === 0) continue;
        if (!(clipSegment(x, m.tets, t, a, b, this.scratch, this.clip) > 0)) continue;
        const u = 0.5 * (this.clip[0] + this.clip[1]);
        if (best >= 0 && !closerToMiddle(u, t, bestU, best)) continue;
        const px = ax + u * (bx - ax), py = ay + u * (by - ay), pz = az + u * (bz - az);
        if (!strictlyInside(x, m.tets, t, px, py, pz, this.scratch)) continue;
        best = t;
        bestKind = kind;
        bestU = u;
      }
    }
    if (best < 0) return;
    out.push(ax + bestU * (bx - ax), ay + bestU * (by - ay), az + bestU * (bz - az), best, a, b, KIND_EDGE, e, bestKind === 2, opts.euclidean, bestU);
  }

  private centroidPoint(x: Float64Array, u: number, opts: DetectOptions, out: CpuQueryList): void {
    const m = this.mesh, g = this.grid, tets = m.tets;
    let px = 0, py = 0, pz = 0;
    for (let c = 0; c < 4; c++) { const v = tets[4 * u + c]; px += x[3 * v]; py += x[3 * v + 1]; pz += x[3 * v + 2]; }
    px *= 0.25; py *= 0.25; pz *= 0.25;
    const cell = g.cellOf(px, py, pz);
    if (cell < 0) return;
    const selfAllowed = opts.selfCollision && this.volume6[u] > 0;
    const object = m.tetObject[u];
    let best = -1, bestKind = 0;
    for (let j = g.cellStart[cell]; j < g.cellStart[cell + 1]; j++) {
      const t = g.cellTets[j];
      if (t === u || (best >= 0 && t >= best) || !this.inBox(t, px, py, pz)) continue;
      if (this.hasCorner(t, tets[4 * u]) || this.hasCorner(t, tets[4 * u + 1]) || this.hasCorner(t, tets[4 * u + 2]) || this.hasCorner(t, tets[4 * u + 3])) continue;
      const kind = this.pairKind(t, object, selfAllowed);
      if (kind === 0 || !strictlyInside(x, tets, t, px, py, pz, this.scratch)) continue;
      best = t;
      bestKind = kind;
    }
    if (best >= 0) out.push(px, py, pz, best, -1, -1, KIND_CENTROID, u, bestKind === 2, opts.euclidean, 0);
  }

  private nextStamp(): number {
    if (++this.stamp === 0xffffffff) { this.stamps.fill(0); this.stamp = 1; }
    return this.stamp;
  }
}

/** Edge points (section 4): crossing centre u of tet t beats (bestU, best) when nearer the edge's midpoint, ties to the smaller id. */
export function closerToMiddle(u: number, t: number, bestU: number, best: number): boolean {
  const d = Math.abs(u - 0.5), db = Math.abs(bestU - 0.5);
  return d < db || (d === db && t < best);
}
