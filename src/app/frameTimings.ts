/**
 * Rolling figures of the last frames for the page's readouts (the status line and the timing
 * panel read the same summary, so they cannot disagree). A fixed ring of the last `window`
 * frames (typed arrays, one row per phase) so the numbers are steady enough to read while still
 * following a parameter change within a second.
 *
 * Frame time is the wall time per simulated frame (FrameReport.wallMs: while running, the time
 * between two frames landing; for a single step, from its submission to its results), so
 * frames per second = 1000 / frame time, exactly. The phases are the solver's own measurement
 * (GPU timestamps, or the CPU clock of the CPU engine); their sum may be less than the frame
 * time (submission, readbacks, the page's work between frames) but is never part of it twice.
 */
import type { FrameReport, TimingSource } from './simulationEngine';

export interface TimingSummary {
  /** Frames in the window (0 before the first). */
  frames: number;
  /** Mean wall time per simulated frame over the window, ms (0 without frames). */
  frameMs: number;
  /** The newest frame's wall time, ms. */
  lastFrameMs: number;
  /** Simulated frames per second over the window: 1000 / frameMs (0 without frames). */
  fps: number;
  /** Mean of the phases' sum over the window, ms (the GPU's busy time with timestamps). */
  phasesMs: number;
  /** Mean per phase over the frames that reported it, ms, in first-seen order. */
  phases: [string, number][];
  source: TimingSource | undefined;
}

export class FrameTimings {
  private readonly walls: Float64Array;
  private readonly totals: Float64Array;
  private readonly phaseRows = new Map<string, Float64Array>();
  private count = 0;
  private next = 0;
  private source: TimingSource | undefined;
  private last = 0;

  constructor(private readonly window = 30) {
    if (!(Number.isInteger(window) && window > 0)) throw new RangeError(`FrameTimings: window must be a positive integer, got ${window}`);
    this.walls = new Float64Array(window);
    this.totals = new Float64Array(window);
  }

  add(report: Pick<FrameReport, 'wallMs' | 'phases' | 'source'>): void {
    if (!(report.wallMs >= 0) || !Number.isFinite(report.wallMs)) throw new RangeError(`FrameTimings.add: wallMs ${report.wallMs} must be a finite number >= 0`);
    const slot = this.next;
    this.walls[slot] = report.wallMs;
    let total = 0;
    for (const row of this.phaseRows.values()) row[slot] = NaN;
    for (const [name, ms] of Object.entries(report.phases)) {
      let row = this.phaseRows.get(name);
      if (!row) {
        row = new Float64Array(this.window).fill(NaN);
        this.phaseRows.set(name, row);
      }
      row[slot] = ms;
      total += ms;
    }
    this.totals[slot] = total;
    this.next = (slot + 1) % this.window;
    this.count = Math.min(this.count + 1, this.window);
    this.source = report.source;
    this.last = report.wallMs;
  }

  clear(): void {
    this.count = 0;
    this.next = 0;
    this.phaseRows.clear();
    this.source = undefined;
    this.last = 0;
  }

  summary(): TimingSummary {
    let wall = 0;
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      wall += this.walls[i]!;
      total += this.totals[i]!;
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
    const n = this.count;
    const frameMs = n > 0 ? wall / n : 0;
    return {
      frames: n,
      frameMs,
      lastFrameMs: this.last,
      fps: frameMs > 0 ? 1000 / frameMs : 0,
      phasesMs: n > 0 ? total / n : 0,
      phases,
      source: this.source,
    };
  }
}

/** "1.23 s" from 1000 ms on, else "12.3 ms" (three significant digits). */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (Math.abs(ms) >= 1000) return `${(ms / 1000).toPrecision(3)} s`;
  if (Math.abs(ms) >= 100) return `${ms.toFixed(0)} ms`;
  return `${ms.toPrecision(3)} ms`;
}
