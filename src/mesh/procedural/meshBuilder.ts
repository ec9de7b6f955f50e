/**
 * Output of isosurface stuffing: lattice vertices and cut points get output ids on first use
 * (so no vertex is unused), tets are oriented combinatorially, and the quad-diagonal rule that
 * keeps shared BCC faces conforming lives here (uWins).
 */
import type { BccLattice } from './bccLattice';
import type { CutTable } from './cutPoints';
import { GrowableFloat64, GrowableInt32 } from './growableArrays';
import type { StencilContext } from './stencils';

/** Output vertices and tets: lattice vertices and cut points get output ids on first use. */
export class MeshBuilder implements StencilContext {
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
