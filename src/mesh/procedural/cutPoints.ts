/**
 * Cut points of isosurface stuffing (Labelle & Shewchuk 2007, Sec. 3.1-3.2): where the SDF
 * changes sign strictly along a lattice edge, its root on that edge; and the warp decision: a
 * cut closer to an endpoint than alpha times the edge length violates that endpoint, which
 * moves to its closest violating cut point.
 */
import type { BccLattice } from './bccLattice';
import { GrowableFloat64, GrowableInt32 } from './growableArrays';
import { IntHashMap } from './intHashMap';
import type { Sdf } from './sdf';

/** The paper's warping thresholds: dihedral angles in [10.7, 164.8] degrees (its Table 1). */
export const ALPHA_LONG = 0.24999;
export const ALPHA_SHORT = 0.41189;

/** Cut points on lattice edges, keyed by edge, with the warp decision per lattice vertex. */
export class CutTable {
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
