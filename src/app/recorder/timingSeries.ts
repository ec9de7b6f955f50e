/**
 * The last frames' times per phase group (src/runner/phaseGroups.ts) for the live chart: a fixed
 * ring (typed arrays, one row per group) read back in frame order, stacked as the chart draws
 * them (each frame's stack adds up to its wall time). The frame rate is not computed here: the
 * page's readouts take it from one summary (src/app/frameTimings.ts).
 */
import { groupFrame, PHASE_GROUPS, type TimedFrame } from '../../runner/phaseGroups';

const G = PHASE_GROUPS.length;

export class TimingSeries {
  private readonly frameNo: Float64Array;
  private readonly rows: Float64Array[];
  private readonly totals: Float64Array;
  private readonly scratch = new Float64Array(G);
  private count = 0;
  private next = 0;

  constructor(readonly capacity = 300) {
    if (!(Number.isInteger(capacity) && capacity >= 2)) throw new RangeError(`TimingSeries: capacity must be an integer >= 2, got ${capacity}`);
    this.frameNo = new Float64Array(capacity);
    this.rows = PHASE_GROUPS.map(() => new Float64Array(capacity));
    this.totals = new Float64Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** Adds a frame; the oldest drops out when full. */
  push(f: TimedFrame & { frame: number }): void {
    const s = this.next;
    this.totals[s] = groupFrame(f, this.scratch);
    for (let g = 0; g < G; g++) this.rows[g]![s] = this.scratch[g]!;
    this.frameNo[s] = f.frame;
    this.next = (s + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  clear(): void {
    this.count = 0;
    this.next = 0;
  }

  /** Ring slot of the i-th frame in arrival order (0 = oldest kept). */
  private slot(i: number): number {
    return (this.next - this.count + i + this.capacity) % this.capacity;
  }

  /** ms of group `g` (index in PHASE_GROUPS) in the i-th frame, oldest first. */
  value(g: number, i: number): number {
    return this.rows[g]![this.slot(i)]!;
  }

  /** Sum of the groups of the i-th frame, oldest first (its wall time, see groupFrame). */
  total(i: number): number {
    return this.totals[this.slot(i)]!;
  }

  /**
   * Chart data, oldest frame first: [frame numbers, then for k = 0 .. G-1 the sum of groups
   * 0 .. G-1-k]. The first curve is the frame's total and each next one drops the top group, so
   * filling every curve down to zero, in this order, paints the stacked bands of Fig. 21.
   */
  stacked(): Float64Array[] {
    const n = this.count;
    const x = new Float64Array(n);
    const out = PHASE_GROUPS.map(() => new Float64Array(n));
    for (let i = 0; i < n; i++) {
      const s = this.slot(i);
      x[i] = this.frameNo[s]!;
      let acc = 0;
      for (let g = 0; g < G; g++) {
        acc += this.rows[g]![s]!;
        out[G - 1 - g]![i] = acc;
      }
    }
    return [x, ...out];
  }
}
