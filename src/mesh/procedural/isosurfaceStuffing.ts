/**
 * Isosurface stuffing (Labelle & Shewchuk, "Isosurface Stuffing: Fast Tetrahedral Meshes with
 * Good Dihedral Angles", SIGGRAPH 2007), uniform-lattice version:
 *  1. sample the signed distance function (negative inside) at every BCC lattice vertex;
 *  2. cut points: where the sign changes strictly along a lattice edge, the root of the SDF
 *     on that edge (found by the Illinois variant of regula falsi on the true SDF);
 *  3. warp: a cut point closer to an endpoint than alpha times the edge length "violates" that
 *     endpoint; each violated vertex moves to its closest violating cut point and becomes a
 *     surface (0) vertex, which discards the cut points on its edges (paper Sec. 3.2). With
 *     alpha_long = 0.24999 (black edges) and alpha_short = 0.41189 (red edges) the paper proves
 *     every output dihedral angle lies in [10.7, 164.8] degrees (Table 1) for smooth surfaces
 *     sampled finely enough;
 *  4. stencils: every BCC tet with no outside vertex (and at least one inside) is kept
 *     whole, every cut tet is filled by its stencil (stencils.ts), every tet with no inside
 *     vertex is dropped.
 * Memory: per lattice vertex one float and a few ints in typed arrays; cut points live in an
 * int hash keyed by lattice edge; no per-tet objects.
 */
import { BccLattice } from './bccLattice';
import { GrowableFloat64, GrowableInt32 } from './growableArrays';
import { IntHashMap } from './intHashMap';
import type { Bounds, Sdf } from './sdf';
import { fillCutTet, type StencilContext } from './stencils';

export const ALPHA_LONG = 0.24999;
export const ALPHA_SHORT = 0.41189;

export interface StuffingInput {
  sdf: Sdf;
  /** Box containing every point where sdf <= 0. */
  bounds: Bounds;
  /** Lattice spacing h (cube edge, the length of black edges). */
  spacing: number;
  /** Called with a fraction in [0, 1] as the phases advance. */
  onProgress?: (fraction: number) => void;
  /**
   * Skip SDF evaluation in lattice blocks far from the surface (default true). The output is
   * identical either way for an SDF whose gradient norm is at most LIPSCHITZ; false is for
   * tests and for SDFs that are not distance bounds.
   */
  skipFarBlocks?: boolean;
}

export interface StuffingOutput {
  positions: Float32Array;
  tets: Uint32Array;
  /** Lattice size, for reports. */
  latticeVertices: number;
  cutPoints: number;
  warpedVertices: number;
}

/**
 * A lattice block of BLOCK^3 cubes whose centre value exceeds LIPSCHITZ * (block radius + h)
 * in magnitude cannot contain a cut edge if |grad sdf| <= LIPSCHITZ, so its vertices get a
 * value of the right sign without evaluating the SDF (thin shapes in large boxes: noodles).
 */
const BLOCK = 4;
const LIPSCHITZ = 1.5;

export function stuffIsosurface(input: StuffingInput): StuffingOutput {
  const { sdf, bounds, spacing: h } = input;
  const progress = input.onProgress ?? (() => {});
  for (let a = 0; a < 3; a++) {
    if (!(bounds.max[a] > bounds.min[a])) throw new Error(`isosurface stuffing: empty bounds on axis ${'xyz'[a]} (${bounds.min[a]}..${bounds.max[a]})`);
  }
  if (!(h > 0)) throw new Error(`isosurface stuffing: lattice spacing ${h} must be positive`);

  // A margin of 2h keeps every cut edge and every kept tet away from the lattice border.
  const n: number[] = [];
  const lo: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const ext = bounds.max[a] - bounds.min[a];
    n[a] = Math.ceil(ext / h) + 4;
    lo[a] = (bounds.min[a] + bounds.max[a]) / 2 - (n[a] * h) / 2;
  }
  const L = new BccLattice(lo, h, n[0], n[1], n[2]);
  const N = L.vertexCount;

  // 1. Sample the SDF.
  const f = sampleLattice(L, sdf, input.skipFarBlocks ?? true, (x) => progress(0.5 * x));

  // 2. Cut points and violations.
  const cuts = new CutTable(L, sdf, f);
  cuts.findAll((x) => progress(0.5 + 0.15 * x));

  // 3. Warp violated vertices to their closest violating cut point.
  const warpCut = cuts.warpCut;
  let warped = 0;
  for (let v = 0; v < N; v++) {
    if (warpCut[v] >= 0) {
      f[v] = 0;
      warped++;
    }
  }

  // 4. Stencils over every BCC tet.
  const out = new MeshBuilder(L, cuts);
  emitTets(L, f, out, (x) => progress(0.65 + 0.35 * x));
  progress(1);
  return { ...out.finish(), latticeVertices: N, cutPoints: cuts.count, warpedVertices: warped };
}

/** The SDF at a point; NaN (a broken SDF) is an error naming the point. */
function sample(sdf: Sdf, x: number, y: number, z: number): number {
  const v = sdf(x, y, z);
  if (v !== v) throw new Error(`isosurface stuffing: the SDF returned NaN at (${x}, ${y}, ${z})`);
  return v;
}

/** SDF values at every lattice vertex (Float32: only signs and rough magnitudes are kept). */
function sampleLattice(L: BccLattice, sdf: Sdf, skipFar: boolean, progress: (x: number) => void): Float32Array {
  const f = new Float32Array(L.vertexCount);
  const { nx, ny, nz, h, lo } = L;
  const bxCount = Math.ceil((nx + 1) / BLOCK), byCount = Math.ceil((ny + 1) / BLOCK), bzCount = Math.ceil((nz + 1) / BLOCK);
  const radius = (BLOCK * h * Math.sqrt(3)) / 2;
  for (let bk = 0; bk < bzCount; bk++) {
    progress(bk / bzCount);
    for (let bj = 0; bj < byCount; bj++) {
      for (let bi = 0; bi < bxCount; bi++) {
        const i0 = bi * BLOCK, j0 = bj * BLOCK, k0 = bk * BLOCK;
        const fc = sample(sdf, lo[0] + (i0 + BLOCK / 2) * h, lo[1] + (j0 + BLOCK / 2) * h, lo[2] + (k0 + BLOCK / 2) * h);
        const far = skipFar && Math.abs(fc) > LIPSCHITZ * (radius + h);
        // Far value: a lower bound of |f| with the right sign (>= h in magnitude).
        const farValue = Math.sign(fc) * (Math.abs(fc) / LIPSCHITZ - radius);
        const i1 = Math.min(i0 + BLOCK, nx + 1), j1 = Math.min(j0 + BLOCK, ny + 1), k1 = Math.min(k0 + BLOCK, nz + 1);
        for (let k = k0; k < k1; k++) {
          for (let j = j0; j < j1; j++) {
            for (let i = i0; i < i1; i++) {
              const a = L.idA(i, j, k);
              f[a] = far ? farValue : sample(sdf, lo[0] + i * h, lo[1] + j * h, lo[2] + k * h);
              if (i < nx && j < ny && k < nz) {
                const b = L.idB(i, j, k);
                f[b] = far ? farValue : sample(sdf, lo[0] + (i + 0.5) * h, lo[1] + (j + 0.5) * h, lo[2] + (k + 0.5) * h);
              }
            }
          }
        }
      }
    }
  }
  return f;
}

/** Cut points on lattice edges, keyed by edge, with the warp decision per lattice vertex. */
class CutTable {
  readonly map = new IntHashMap(4096);
  readonly u = new GrowableInt32();
  readonly v = new GrowableInt32();
  readonly t = new GrowableFloat64();
  readonly pos = new GrowableFloat64();
  /** Per lattice vertex: the cut it warps to, or -1. */
  readonly warpCut: Int32Array;
  private readonly pu = new Float64Array(3);
  private readonly pv = new Float64Array(3);

  constructor(
    private readonly L: BccLattice,
    private readonly sdf: Sdf,
    private readonly f: Float32Array,
  ) {
    this.warpCut = new Int32Array(L.vertexCount).fill(-1);
  }

  get count(): number {
    return this.u.length;
  }

  /** Index of the cut on edge u-w, or -1. */
  find(u: number, w: number): number {
    return this.map.get(this.L.edgeKey(u, w));
  }

  findAll(progress: (x: number) => void): void {
    const L = this.L, f = this.f;
    const { nx, ny, nz } = L;
    for (let k = 0; k <= nz; k++) {
      progress(k / (nz + 1));
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const a = L.idA(i, j, k);
          const fa = f[a];
          if (i < nx) this.consider(a, L.idA(i + 1, j, k), fa);
          if (j < ny) this.consider(a, L.idA(i, j + 1, k), fa);
          if (k < nz) this.consider(a, L.idA(i, j, k + 1), fa);
          if (i === nx || j === ny || k === nz) continue;
          const b = L.idB(i, j, k);
          const fb = f[b];
          if (i + 1 < nx) this.consider(b, L.idB(i + 1, j, k), fb);
          if (j + 1 < ny) this.consider(b, L.idB(i, j + 1, k), fb);
          if (k + 1 < nz) this.consider(b, L.idB(i, j, k + 1), fb);
          for (let c = 0; c < 8; c++) this.consider(b, L.idA(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1)), fb);
        }
      }
    }
  }

  private consider(u: number, w: number, fu: number): void {
    const fw = this.f[w];
    if (!((fu < 0 && fw > 0) || (fu > 0 && fw < 0))) return;
    const L = this.L;
    const pu = this.pu, pv = this.pv;
    L.position(u, pu, 0);
    L.position(w, pv, 0);
    const t = this.root(pu, pv, fu, fw);
    const c = this.u.length;
    this.u.push(u);
    this.v.push(w);
    this.t.push(t);
    this.pos.push3(pu[0] + t * (pv[0] - pu[0]), pu[1] + t * (pv[1] - pu[1]), pu[2] + t * (pv[2] - pu[2]));
    this.map.set(L.edgeKey(u, w), c);
    // Sec. 3.2: the cut violates an endpoint closer than alpha * |edge|; keep the closest.
    const black = L.isBlack(u, w);
    const alpha = black ? ALPHA_LONG : ALPHA_SHORT;
    if (t < alpha) this.offer(u, c, t * (black ? 1 : 0.8660254037844386));
    else if (1 - t < alpha) this.offer(w, c, (1 - t) * (black ? 1 : 0.8660254037844386));
  }

  private offer(vertex: number, cut: number, dist: number): void {
    const old = this.warpCut[vertex];
    if (old >= 0) {
      const black = this.L.isBlack(this.u.data[old], this.v.data[old]);
      const tOld = this.t.data[old];
      const dOld = (this.u.data[old] === vertex ? tOld : 1 - tOld) * (black ? 1 : 0.8660254037844386);
      if (dOld <= dist) return;
    }
    this.warpCut[vertex] = cut;
  }

  /** Root of the SDF on segment pu-pv (signs differ at the ends), as a parameter in (0, 1). */
  private root(pu: Float64Array, pv: Float64Array, fu: number, fw: number): number {
    const sdf = this.sdf;
    const at = (t: number): number =>
      sdf(pu[0] + t * (pv[0] - pu[0]), pu[1] + t * (pv[1] - pu[1]), pu[2] + t * (pv[2] - pu[2]));
    // The stored samples bracket the root (they are the SDF at the endpoints, in float32).
    let a = 0, b = 1, fa = fu, fb = fw;
    let side = 0;
    let t = 0.5;
    // Stop at 1e-7 of the edge: below the float32 resolution of the output positions.
    const tol = 1e-7 * this.L.h;
    for (let it = 0; it < 40 && b - a > 1e-7; it++) {
      t = a - (fa * (b - a)) / (fb - fa);
      if (!(t > a && t < b)) t = 0.5 * (a + b);
      const ft = at(t);
      if (ft === 0) return t;
      if (ft < 0 === fa < 0) {
        a = t;
        fa = ft;
        if (side === -1) fb *= 0.5;
        side = -1;
      } else {
        b = t;
        fb = ft;
        if (side === 1) fa *= 0.5;
        side = 1;
      }
      if (Math.abs(ft) < tol) return t;
    }
    return t;
  }
}

/** Output vertices and tets: lattice vertices and cut points get output ids on first use. */
class MeshBuilder implements StencilContext {
  private readonly outId: Int32Array;
  private readonly cutOut: Int32Array;
  private readonly positions = new GrowableFloat64(1 << 16);
  private readonly tets = new GrowableInt32(1 << 16);
  private readonly p = new Float64Array(12);
  private readonly q = new Float64Array(6);
  degenerate = 0;

  constructor(
    private readonly L: BccLattice,
    private readonly cuts: CutTable,
  ) {
    this.outId = new Int32Array(L.vertexCount).fill(-1);
    this.cutOut = new Int32Array(cuts.count).fill(-1);
  }

  cut(u: number, w: number): number {
    const c = this.cuts.find(u, w);
    if (c < 0) throw new Error(`isosurface stuffing: no cut point on lattice edge ${u}-${w}`);
    return -1 - c;
  }

  /** Rest (unwarped) position of a point code: lattice position or cut point. */
  private restPosition(code: number, out: Float64Array, o: number): void {
    if (code >= 0) this.L.position(code, out, o);
    else {
      const c = -1 - code, d = this.cuts.pos.data;
      out[o] = d[3 * c];
      out[o + 1] = d[3 * c + 1];
      out[o + 2] = d[3 * c + 2];
    }
  }

  /** Final position: a warped lattice vertex sits on its cut point. */
  private finalPosition(code: number, out: Float64Array, o: number): void {
    if (code >= 0 && this.cuts.warpCut[code] >= 0) this.restPosition(-1 - this.cuts.warpCut[code], out, o);
    else this.restPosition(code, out, o);
  }

  dist2(a: number, b: number): number {
    const q = this.q;
    this.finalPosition(a, q, 0);
    this.finalPosition(b, q, 3);
    return (q[0] - q[3]) ** 2 + (q[1] - q[4]) ** 2 + (q[2] - q[5]) ** 2;
  }

  /**
   * Diagonal of a quad on BCC face (u, w, o), u and w inside. A black inside edge (u, w in
   * one grid): the shorter diagonal (ties: smaller id), which depends only on the shared face.
   * A red inside edge: one of u, w is the other end of the face's black edge (the one in o's
   * grid); the diagonal starts there. Either way the rule depends on the face alone, and the
   * (3,0,1) prism always has a vertex that starts both of its diagonals (stencils.ts).
   */
  uWins(u: number, w: number, o: number): boolean {
    const L = this.L;
    if (L.isBlack(u, w)) {
      const du = this.dist2(u, this.cut(w, o)), dw = this.dist2(w, this.cut(u, o));
      return du !== dw ? du < dw : u < w;
    }
    return L.isBlack(u, o);
  }

  private id(code: number): number {
    if (code >= 0) {
      let id = this.outId[code];
      if (id < 0) {
        id = this.outId[code] = this.positions.length / 3;
        this.finalPosition(code, this.q, 0);
        this.positions.push3(this.q[0], this.q[1], this.q[2]);
      }
      return id;
    }
    const c = -1 - code;
    let id = this.cutOut[c];
    if (id < 0) {
      id = this.cutOut[c] = this.positions.length / 3;
      const d = this.cuts.pos.data;
      this.positions.push3(d[3 * c], d[3 * c + 1], d[3 * c + 2]);
    }
    return id;
  }

  /**
   * Orientation from the rest (unwarped) geometry, where every stencil tet is non-degenerate:
   * this is the combinatorial orientation, so a tet that warping inverted stays inverted
   * (and is caught by the quality check) instead of being silently flipped.
   */
  emit(a: number, b: number, c: number, d: number): void {
    const p = this.p;
    this.restPosition(a, p, 0);
    this.restPosition(b, p, 3);
    this.restPosition(c, p, 6);
    this.restPosition(d, p, 9);
    const det = orient(p);
    if (det === 0) this.degenerate++;
    if (det < 0) this.tets.push4(this.id(a), this.id(b), this.id(d), this.id(c));
    else this.tets.push4(this.id(a), this.id(b), this.id(c), this.id(d));
  }

  finish(): { positions: Float32Array; tets: Uint32Array } {
    if (this.degenerate > 0) throw new Error(`isosurface stuffing: ${this.degenerate} stencil tets were degenerate in the lattice (bug)`);
    return {
      positions: Float32Array.from(this.positions.data.subarray(0, this.positions.length)),
      tets: new Uint32Array(this.tets.data.buffer.slice(0, this.tets.length * 4)),
    };
  }
}

function orient(p: Float64Array): number {
  const ax = p[3] - p[0], ay = p[4] - p[1], az = p[5] - p[2];
  const bx = p[6] - p[0], by = p[7] - p[1], bz = p[8] - p[2];
  const cx = p[9] - p[0], cy = p[10] - p[1], cz = p[11] - p[2];
  return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
}

/** Visits every BCC tet (two adjacent B vertices + one edge of the A square between them). */
function emitTets(L: BccLattice, f: Float32Array, out: MeshBuilder, progress: (x: number) => void): void {
  const { nx, ny, nz } = L;
  const v = new Int32Array(4);
  const s = new Int8Array(4);
  const sq = new Int32Array(4);
  const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);
  for (let k = 0; k < nz; k++) {
    progress(k / nz);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c1 = L.idB(i, j, k);
        for (let axis = 0; axis < 3; axis++) {
          const ni = i + (axis === 0 ? 1 : 0), nj = j + (axis === 1 ? 1 : 0), nk = k + (axis === 2 ? 1 : 0);
          if (ni >= nx || nj >= ny || nk >= nz) continue;
          const c2 = L.idB(ni, nj, nk);
          // The square of A vertices between the two cubes, in cyclic order.
          for (let q = 0; q < 4; q++) {
            const db = q === 1 || q === 2 ? 1 : 0, dc = q >= 2 ? 1 : 0;
            if (axis === 0) sq[q] = L.idA(i + 1, j + db, k + dc);
            else if (axis === 1) sq[q] = L.idA(i + dc, j + 1, k + db);
            else sq[q] = L.idA(i + db, j + dc, k + 1);
          }
          const f1 = f[c1], f2 = f[c2];
          if (f1 > 0 && f2 > 0 && f[sq[0]] > 0 && f[sq[1]] > 0 && f[sq[2]] > 0 && f[sq[3]] > 0) continue;
          for (let q = 0; q < 4; q++) {
            v[0] = c1;
            v[1] = c2;
            v[2] = sq[q];
            v[3] = sq[(q + 1) & 3];
            let nNeg = 0, nPos = 0;
            for (let m = 0; m < 4; m++) {
              s[m] = sign(f[v[m]]);
              if (s[m] < 0) nNeg++;
              else if (s[m] > 0) nPos++;
            }
            // No inside vertex: dropped, including the all-zero tet. Its four vertices lie on
            // the isosurface, so where the surface is locally flat (the regime of the paper's
            // angle guarantee) it is a sliver of vanishing volume.
            if (nNeg === 0) continue;
            if (nPos === 0) out.emit(v[0], v[1], v[2], v[3]);
            else fillCutTet(out, v, s);
          }
        }
      }
    }
  }
}
