/**
 * Broad phase of the CPU detection: a uniform grid over the tets' bounding boxes, rebuilt every
 * substep (linear in the scene: counting sort of (cell, tet) pairs into CSR). The cell is the
 * mean tet box extent, enlarged when the scene's box would need more than CELLS_PER_TET cells
 * per tet (a flung object would otherwise blow the grid up).
 */

const CELLS_PER_TET = 4;

function clamp(v: number, n: number): number {
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

export class TetGrid {
  /** 6 per tet: min xyz, max xyz (current positions). */
  boxes = new Float64Array(0);
  cellStart = new Uint32Array(0);
  cellTets = new Uint32Array(0);
  private cursor = new Uint32Array(0);
  origin = [0, 0, 0];
  dims = [0, 0, 0];
  cellSize = 1;

  build(x: Float64Array, tets: Uint32Array): void {
    const tetCount = tets.length / 4;
    if (this.boxes.length !== 6 * tetCount) this.boxes = new Float64Array(6 * tetCount);
    const boxes = this.boxes;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let extent = 0;
    for (let t = 0; t < tetCount; t++) {
      let e = 0;
      for (let k = 0; k < 3; k++) {
        let mn = Infinity, mx = -Infinity;
        for (let c = 0; c < 4; c++) {
          const v = x[3 * tets[4 * t + c] + k];
          if (v < mn) mn = v;
          if (v > mx) mx = v;
        }
        boxes[6 * t + k] = mn;
        boxes[6 * t + 3 + k] = mx;
        if (mn < lo[k]) lo[k] = mn;
        if (mx > hi[k]) hi[k] = mx;
        e = Math.max(e, mx - mn);
      }
      extent += e;
    }
    if (tetCount === 0) { this.dims = [0, 0, 0]; return; }
    let h = Math.max(extent / tetCount, 1e-12);
    const cells = (s: number): number => [0, 1, 2].reduce((n, k) => n * (Math.floor((hi[k] - lo[k]) / s) + 1), 1);
    const limit = CELLS_PER_TET * tetCount + 64;
    while (cells(h) > limit) h *= Math.cbrt(cells(h) / limit) * 1.01;
    this.cellSize = h;
    this.origin = lo;
    this.dims = [0, 1, 2].map((k) => Math.floor((hi[k] - lo[k]) / h) + 1);
    const cellCount = this.dims[0] * this.dims[1] * this.dims[2];
    if (this.cellStart.length !== cellCount + 1) this.cellStart = new Uint32Array(cellCount + 1);
    const start = this.cellStart;
    start.fill(0);
    // Two passes over the (cell, tet) pairs: count, then place.
    let pairs = 0;
    const r = this.cells;
    for (let t = 0; t < tetCount; t++) {
      this.tetCells(t);
      for (let k = r[4]; k <= r[5]; k++) for (let j = r[2]; j <= r[3]; j++) for (let i = r[0]; i <= r[1]; i++) { start[this.cellIndex(i, j, k) + 1]++; pairs++; }
    }
    for (let c = 0; c < cellCount; c++) start[c + 1] += start[c];
    if (this.cellTets.length < pairs) this.cellTets = new Uint32Array(pairs);
    if (this.cursor.length < cellCount) this.cursor = new Uint32Array(cellCount);
    const cursor = this.cursor;
    cursor.set(start.subarray(0, cellCount));
    for (let t = 0; t < tetCount; t++) {
      this.tetCells(t);
      for (let k = r[4]; k <= r[5]; k++) for (let j = r[2]; j <= r[3]; j++) for (let i = r[0]; i <= r[1]; i++) this.cellTets[cursor[this.cellIndex(i, j, k)]++] = t;
    }
  }

  /** Cell ranges of the last boxCells/tetCells call: i0, i1, j0, j1, k0, k1 (inclusive). */
  readonly cells = new Int32Array(6);

  cellIndex(i: number, j: number, k: number): number {
    return (k * this.dims[1] + j) * this.dims[0] + i;
  }

  /** Cell ranges (into `cells`) the box [lo, hi] overlaps, clamped to the grid; false for an empty grid. */
  boxCells(lx: number, ly: number, lz: number, hx: number, hy: number, hz: number): boolean {
    if (this.dims[0] === 0) return false;
    const h = this.cellSize, o = this.origin, d = this.dims, r = this.cells;
    r[0] = clamp(Math.floor((lx - o[0]) / h), d[0]);
    r[1] = clamp(Math.floor((hx - o[0]) / h), d[0]);
    r[2] = clamp(Math.floor((ly - o[1]) / h), d[1]);
    r[3] = clamp(Math.floor((hy - o[1]) / h), d[1]);
    r[4] = clamp(Math.floor((lz - o[2]) / h), d[2]);
    r[5] = clamp(Math.floor((hz - o[2]) / h), d[2]);
    return true;
  }

  private tetCells(t: number): void {
    const b = this.boxes;
    this.boxCells(b[6 * t], b[6 * t + 1], b[6 * t + 2], b[6 * t + 3], b[6 * t + 4], b[6 * t + 5]);
  }

  /** Cell holding point p, or -1 outside the grid (then no tet contains p). */
  cellOf(px: number, py: number, pz: number): number {
    if (this.dims[0] === 0) return -1;
    const h = this.cellSize;
    const i = Math.floor((px - this.origin[0]) / h), j = Math.floor((py - this.origin[1]) / h), k = Math.floor((pz - this.origin[2]) / h);
    if (i < 0 || j < 0 || k < 0 || i >= this.dims[0] || j >= this.dims[1] || k >= this.dims[2]) return -1;
    return (k * this.dims[1] + j) * this.dims[0] + i;
  }
}
