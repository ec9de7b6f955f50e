/**
 * Best-first inclusion bisection over the parameter box [0,1]^3 (Wang et al. 2021, Sec. 4, Alg. 1, with our
 * own ordering): boxes wait in a binary min-heap keyed by their lower t bound, so the box popped is always the
 * one with the smallest t_lo still alive. A box whose conservative range (contactRange.ts) excludes 0 in any
 * component holds no contact and is dropped; otherwise it is split in half along its widest dimension
 * (t on ties) until it is small (all widths <= domainTol) or its image is small (all components within
 * imageTol), and then reported as a hit at toi = its t_lo.
 *
 * Guarantee: every exact contact (t*, u*, w*) lies in some live box, whose t_lo <= t*; the popped box has the
 * smallest t_lo of all live boxes, so the reported toi <= the first contact time. Dropping only boxes whose
 * rigorous range excludes 0 means no contact is ever lost. If maxChecks boxes were examined without a
 * decision we stop with a conservative hit at the smallest t_lo still alive (never a miss).
 */
import { contactRange, QueryKind, type PreparedQuery } from './contactRange';

export interface SolverOptions {
  domainTol: number; // a box narrower than this in t, u and w is accepted as a contact
  imageTol: number; // a box whose F-range fits within [-imageTol, imageTol]^3 (relative to scale) is accepted
  maxChecks: number; // boxes examined before giving up with a conservative hit
}

export const DEFAULT_SOLVER_OPTIONS: SolverOptions = { domainTol: 1e-6, imageTol: 1e-9, maxChecks: 20_000 };

export interface SolveOutcome {
  hit: boolean;
  toi: number;
  checks: number;
  gaveUp: boolean;
}

const STRIDE = 6; // t0, t1, u0, u1, w0, w1

/** Binary min-heap of boxes keyed by t0, stored flat in a growable Float64Array. */
class BoxHeap {
  data = new Float64Array(STRIDE * 256);
  size = 0;

  push(t0: number, t1: number, u0: number, u1: number, w0: number, w1: number): void {
    if ((this.size + 1) * STRIDE > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const a = this.data;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent * STRIDE] <= t0) break;
      a.copyWithin(i * STRIDE, parent * STRIDE, parent * STRIDE + STRIDE);
      i = parent;
    }
    const o = i * STRIDE;
    a[o] = t0;
    a[o + 1] = t1;
    a[o + 2] = u0;
    a[o + 3] = u1;
    a[o + 4] = w0;
    a[o + 5] = w1;
  }

  /** Removes the root, copying it into out[0..5]. */
  pop(out: Float64Array): void {
    const a = this.data;
    for (let j = 0; j < STRIDE; j++) out[j] = a[j];
    const n = --this.size;
    if (n === 0) return;
    const lastO = n * STRIDE;
    const key = a[lastO];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && a[(c + 1) * STRIDE] < a[c * STRIDE]) c++;
      if (a[c * STRIDE] >= key) break;
      a.copyWithin(i * STRIDE, c * STRIDE, c * STRIDE + STRIDE);
      i = c;
    }
    a.copyWithin(i * STRIDE, lastO, lastO + STRIDE);
  }

  minT(): number {
    return this.data[0];
  }
}

export function solveInclusion(pq: PreparedQuery, opts: SolverOptions = DEFAULT_SOLVER_OPTIONS): SolveOutcome {
  const heap = new BoxHeap();
  const box = new Float64Array(STRIDE);
  const range = new Float64Array(6);
  const vf = pq.kind === QueryKind.VertexFace;
  const imageTol = opts.imageTol * Math.max(1, pq.scale);
  heap.push(0, 1, 0, 1, 0, 1);
  let checks = 0;
  while (heap.size > 0) {
    if (checks >= opts.maxChecks) {
      // Undecided: conservative hit at the earliest time any live box could touch.
      return { hit: true, toi: heap.minT(), checks, gaveUp: true };
    }
    heap.pop(box);
    checks++;
    const t0 = box[0], t1 = box[1], u0 = box[2], u1 = box[3], w0 = box[4], w1 = box[5];
    // Vertex-face domain is the triangle u + w <= 1; a box entirely beyond it holds no valid (u, w).
    // u0 + w0 rounds monotonically and 1 is a double, so this never drops a box that meets the triangle.
    if (vf && u0 + w0 > 1) continue;
    contactRange(pq, t0, t1, u0, u1, w0, w1, range);
    if (range[0] > 0 || range[1] < 0 || range[2] > 0 || range[3] < 0 || range[4] > 0 || range[5] < 0) continue;
    const wt = t1 - t0, wu = u1 - u0, ww = w1 - w0;
    const imageSmall =
      range[1] - range[0] <= imageTol && range[3] - range[2] <= imageTol && range[5] - range[4] <= imageTol;
    if (imageSmall || (wt <= opts.domainTol && wu <= opts.domainTol && ww <= opts.domainTol)) {
      return { hit: true, toi: t0, checks, gaveUp: false };
    }
    // Split the widest dimension, t on ties (earliest time resolved first). Halving a dyadic interval in
    // [0,1] is exact, so boxes tile the domain without gaps.
    if (wt >= wu && wt >= ww) {
      const tm = 0.5 * (t0 + t1);
      heap.push(t0, tm, u0, u1, w0, w1);
      heap.push(tm, t1, u0, u1, w0, w1);
    } else if (wu >= ww) {
      const um = 0.5 * (u0 + u1);
      heap.push(t0, t1, u0, um, w0, w1);
      heap.push(t0, t1, um, u1, w0, w1);
    } else {
      const wm = 0.5 * (w0 + w1);
      heap.push(t0, t1, u0, u1, w0, wm);
      heap.push(t0, t1, u0, u1, wm, w1);
    }
  }
  return { hit: false, toi: 1, checks, gaveUp: false };
}
