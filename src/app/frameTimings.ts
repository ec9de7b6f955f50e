/**
 * Rolling averages of the simulation time per frame, per phase, for the live readout.
 * A fixed ring of the last `window` frames (typed arrays, one row per phase) so the numbers
 * are steady enough to read while still following a parameter change within a second.
 */
import type { FrameReport, TimingSource } from './simulationEngine';

export interface TimingSummary {
  /** Mean of the last frames, ms. */
  meanMs: number;
  /** The newest frame, ms. */
  lastMs: number;
  /** Mean wall-clock time per frame on the page's thread, ms. */
  meanWallMs: number;
  /** Mean per phase over the frames that reported it, ms, in first-seen order. */
  phases: [string, number][];
  source: TimingSource | undefined;
  frames: number;
}

export class FrameTimings {
  private readonly totals: Float64Array;
  private readonly walls: Float64Array;
  private readonly phaseRows = new Map<string, Float64Array>();
  private count = 0;
  private next = 0;
  private source: TimingSource | undefined;
  private last = 0;

  constructor(private readonly window = 30) {
    if (!(Number.isInteger(window) && window > 0)) throw new RangeError(`FrameTimings: window must be a positive integer, got ${window}`);
    this.totals = new Float64Array(window);
    this.walls = new Float64Array(window);
  }

  add(report: FrameReport): void {
    const slot = this.next;
    this.totals[slot] = report.totalMs;
    this.walls[slot] = report.wallMs;
    for (const row of this.phaseRows.values()) row[slot] = NaN;
    for (const [name, ms] of Object.entries(report.phases)) {
      let row = this.phaseRows.get(name);
      if (!row) {
        row = new Float64Array(this.window).fill(NaN);
        this.phaseRows.set(name, row);
      }
      row[slot] = ms;
    }
    this.next = (slot + 1) % this.window;
    this.count = Math.min(this.count + 1, this.window);
    this.source = report.source;
    this.last = report.totalMs;
  }

  clear(): void {
    this.count = 0;
    this.next = 0;
    this.phaseRows.clear();
    this.source = undefined;
    this.last = 0;
  }

  summary(): TimingSummary {
    let sum = 0;
    let wall = 0;
    for (let i = 0; i < this.count; i++) {
      sum += this.totals[i]!;
      wall += this.walls[i]!;
    }
    const phases: [string, number][] = [];
    for (const [name, row] of this.phaseRows) {
      let s = 0;
      let n = 0;
      for (let i = 0; i < this.count; i++) {
        if (!Number.isNaN(row[i]!)) {
          s += row[i]!;
          n++;
        }
      }
      if (n > 0) phases.push([name, s / n]);
    }
    const n = Math.max(1, this.count);
    return { meanMs: sum / n, lastMs: this.last, meanWallMs: wall / n, phases, source: this.source, frames: this.count };
  }
}
