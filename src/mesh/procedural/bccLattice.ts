/**
 * The body-centred cubic lattice of isosurface stuffing (Labelle & Shewchuk 2007, Sec. 3):
 * two interlocking cubic grids of spacing h, the A grid at the cube corners lo + (i, j, k) h
 * and the B grid at the cube centres lo + (i + 1/2, j + 1/2, k + 1/2) h.
 * Edges joining two vertices of the same grid are the paper's "black" (long, length h) edges;
 * edges joining the grids are "red" (short, length h sqrt(3)/2). Every BCC tet has two black
 * edges (one per grid, skew and orthogonal) and four red ones: two adjacent B vertices plus
 * one edge of the square of A vertices that separates their cubes.
 *
 * Vertex ids: A vertices first (i + (nx+1)(j + (ny+1)k)), then B vertices
 * (NA + i + nx(j + ny k)). Edge keys (for the cut-point hash): black A edge a*3 + axis,
 * black B edge 3NA + b*3 + axis, red edge 3NA + 3NB + b*8 + corner, corner = dx + 2dy + 4dz
 * of the A vertex relative to the B vertex's cube.
 */
export class BccLattice {
  /** Cube counts along x, y, z (the A grid has one more vertex per axis). */
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  readonly h: number;
  readonly lo: [number, number, number];
  readonly countA: number;
  readonly countB: number;
  readonly vertexCount: number;
  private readonly ax: number; // A strides
  private readonly ay: number;
  private readonly bx: number; // B strides
  private readonly by: number;

  constructor(lo: [number, number, number], h: number, nx: number, ny: number, nz: number) {
    if (!(h > 0) || !Number.isFinite(h)) throw new Error(`BCC lattice: spacing ${h} must be a positive finite number`);
    if (nx < 1 || ny < 1 || nz < 1) throw new Error(`BCC lattice: ${nx} x ${ny} x ${nz} cubes (need >= 1 each)`);
    this.lo = lo;
    this.h = h;
    this.nx = nx;
    this.ny = ny;
    this.nz = nz;
    this.ax = nx + 1;
    this.ay = (nx + 1) * (ny + 1);
    this.bx = nx;
    this.by = nx * ny;
    this.countA = (nx + 1) * (ny + 1) * (nz + 1);
    this.countB = nx * ny * nz;
    this.vertexCount = this.countA + this.countB;
    const maxKey = 3 * this.countA + 11 * this.countB;
    if (maxKey > 0x7fffffff) {
      throw new Error(`BCC lattice of ${nx} x ${ny} x ${nz} cubes is too large (edge keys exceed int32); lower the resolution`);
    }
  }

  idA(i: number, j: number, k: number): number {
    return i + this.ax * j + this.ay * k;
  }

  idB(i: number, j: number, k: number): number {
    return this.countA + i + this.bx * j + this.by * k;
  }

  isB(v: number): boolean {
    return v >= this.countA;
  }

  /** Integer coordinates of a vertex; for B vertices those of its cube (centre at +1/2). */
  coords(v: number, out: Int32Array): void {
    if (v < this.countA) {
      out[0] = v % this.ax;
      out[1] = Math.floor(v / this.ax) % (this.ny + 1);
      out[2] = Math.floor(v / this.ay);
    } else {
      const b = v - this.countA;
      out[0] = b % this.bx;
      out[1] = Math.floor(b / this.bx) % this.ny;
      out[2] = Math.floor(b / this.by);
    }
  }

  /** Rest position of lattice vertex v into out[o..o+2]. */
  position(v: number, out: Float64Array, o: number): void {
    const c = this.scratch;
    this.coords(v, c);
    const s = v < this.countA ? 0 : 0.5;
    out[o] = this.lo[0] + (c[0] + s) * this.h;
    out[o + 1] = this.lo[1] + (c[1] + s) * this.h;
    out[o + 2] = this.lo[2] + (c[2] + s) * this.h;
  }
  private readonly scratch = new Int32Array(3);
  private readonly scratch2 = new Int32Array(3);

  /** True when u-v is a black (same-grid, long) edge. */
  isBlack(u: number, v: number): boolean {
    return u < this.countA === v < this.countA;
  }

  /** The hash key of lattice edge u-v (u, v adjacent in the lattice). */
  edgeKey(u: number, v: number): number {
    const uA = u < this.countA, vA = v < this.countA;
    if (uA && vA) {
      const lo = u < v ? u : v, d = u < v ? v - u : u - v;
      return lo * 3 + (d === 1 ? 0 : d === this.ax ? 1 : 2);
    }
    if (!uA && !vA) {
      const lo = u < v ? u : v, d = u < v ? v - u : u - v;
      return 3 * this.countA + (lo - this.countA) * 3 + (d === 1 ? 0 : d === this.bx ? 1 : 2);
    }
    const b = uA ? v : u, a = uA ? u : v;
    const cb = this.scratch, ca = this.scratch2;
    this.coords(b, cb);
    this.coords(a, ca);
    const corner = ca[0] - cb[0] + 2 * (ca[1] - cb[1]) + 4 * (ca[2] - cb[2]);
    return 3 * this.countA + 3 * this.countB + (b - this.countA) * 8 + corner;
  }
}
