/**
 * The frame-timing view (bottom left): frames per second, frame time and per-phase times as a
 * stacked chart of the last frames (paper Fig. 21; src/app/recorder/timingChart.ts), the
 * counters, and a table like the paper's Table 1 for the current scene over the frames shown
 * (or a finished recording). #perf-panel; its header button (#perf-toggle, which also gives the
 * frame time and fps) opens it; it starts folded so the scene is in view.
 */
import type { RecordedFrame } from '../runner/reportDocument';
import { table1Row } from '../runner/table1';
import type { SolverParams } from '../contract/params';
import { formatMs, type TimingSummary } from './frameTimings';
import { Table1View } from './recorder/table1View';
import { TimingChart } from './recorder/timingChart';

/** Frames the chart and the live table cover. */
const WINDOW = 300;
/** The live table is recomputed every this many frames (it scans the window). */
const TABLE_EVERY = 15;

export class PerfPanel {
  readonly root: HTMLDivElement;
  private readonly chart: TimingChart;
  private readonly table: Table1View;
  private frames: RecordedFrame[] = [];
  private counts = { vertices: 0, tets: 0 };
  private scene = '';
  private params: Pick<SolverParams, 'dt' | 'substeps' | 'iterations'> | undefined;
  private sinceTable = 0;
  /** A finished recording's table stays until the next scene or reset. */
  private pinned = false;
  private readonly header: HTMLButtonElement;
  private readonly body: HTMLDivElement;
  private headline = 'no frames yet';

  constructor(parent: HTMLElement = document.body) {
    this.root = document.createElement('div');
    this.root.id = 'perf-panel';
    const header = document.createElement('button');
    header.type = 'button';
    header.className = 'perf-toggle';
    header.id = 'perf-toggle';
    const body = document.createElement('div');
    body.className = 'perf-body';
    // Folded at first, so the scene is in view; the header still gives the frame time and fps.
    body.hidden = true;
    this.header = header;
    this.body = body;
    header.addEventListener('click', () => {
      body.hidden = !body.hidden;
      this.showHeader();
    });
    const chartBox = document.createElement('div');
    const tableBox = document.createElement('div');
    tableBox.className = 'perf-table';
    body.append(chartBox, tableBox);
    this.root.append(header, body);
    parent.appendChild(this.root);
    this.chart = new TimingChart(chartBox, { frames: WINDOW, width: 400, height: 170 });
    this.table = new Table1View(tableBox);
    this.showHeader();
  }

  /** Opens or folds the chart and tables. */
  set open(on: boolean) {
    this.body.hidden = !on;
    this.showHeader();
  }

  get open(): boolean {
    return !this.body.hidden;
  }

  private showHeader(): void {
    this.header.textContent = `Frame timings ${this.body.hidden ? '▸' : '▾'} ${this.headline}`;
  }

  /** A new scene (or a reset): start over. */
  reset(scene: string, counts: { vertices: number; tets: number }, params: SolverParams): void {
    this.scene = scene;
    this.counts = counts;
    this.params = { dt: params.dt, substeps: params.substeps, iterations: params.iterations };
    this.frames = [];
    this.sinceTable = 0;
    this.pinned = false;
    this.headline = 'no frames yet';
    this.showHeader();
    this.chart.clear();
    this.table.clear();
  }

  /** The page's newest frame, with the rolling summary the status line shows too. */
  push(frame: RecordedFrame, params: SolverParams, summary: TimingSummary): void {
    this.chart.push(frame, summary);
    this.headline = `· ${formatMs(summary.frameMs)} per frame, ${summary.fps >= 10 ? summary.fps.toFixed(0) : summary.fps.toPrecision(2)} fps`;
    this.showHeader();
    if (this.frames.length > 0 && this.frames[this.frames.length - 1]!.frame + 1 !== frame.frame) this.frames = [];
    if (this.frames.length === 0) this.params = { dt: params.dt, substeps: params.substeps, iterations: params.iterations };
    this.frames.push(frame);
    if (this.frames.length > WINDOW) {
      this.frames.shift();
      this.params = { dt: params.dt, substeps: params.substeps, iterations: params.iterations };
    }
    if (++this.sinceTable >= TABLE_EVERY && !this.pinned) {
      this.sinceTable = 0;
      this.showLive();
    }
  }

  /** Shows a finished recording's Table 1 (kept until the next scene or reset). */
  showRecording(row: Parameters<Table1View['show']>[0], caption: string): void {
    this.pinned = true;
    this.table.show(row, caption);
  }

  private showLive(): void {
    if (!this.params || this.frames.length === 0) return;
    const row = table1Row({ frames: this.frames, counts: this.counts, params: this.params });
    this.table.show(row, `${this.scene}, last ${this.frames.length} frames`);
  }
}
