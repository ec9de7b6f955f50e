/**
 * The live frame-timing view: the frame time (wall time per simulated frame) and frames per
 * second, the solver's own phase times and the page's render time per draw, all from the one
 * summary the status line shows too (src/app/frameTimings.ts); the collision counters
 * (countersText.ts); and a stacked bar chart (uPlot) of each frame's wall time split into the
 * phase groups over the last frames, like the paper's Fig. 21, with axis labels and a legend
 * that shows the newest frame's values unless the pointer is over a bar. Redraws at most once
 * per animation frame however often frames arrive. The readout also carries data-* attributes
 * (data-fps, data-frame-ms, data-frames) so tests read numbers, not text.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './recorder.css';
import { PHASE_GROUPS } from '../../runner/phaseGroups';
import type { RecordedFrame } from '../../runner/reportDocument';
import { formatMs, type TimingSummary } from '../frameTimings';
import { counterLines } from './countersText';
import { shortMs, timeAxisSplits } from './timeAxis';
import { TimingSeries } from './timingSeries';

/** One colour per group (PHASE_GROUPS order). */
const GROUP_COLOURS = ['#e8845a', '#d8434e', '#cc58b4', '#2fb592', '#e8c33a', '#8a8f98', '#5dbb46', '#d0d0d0'];
const G = PHASE_GROUPS.length;

export interface TimingChartOptions {
  /** Frames shown (default 300). */
  frames?: number;
  width?: number;
  height?: number;
}

export class TimingChart {
  readonly element: HTMLElement;
  private readonly series: TimingSeries;
  private readonly readout: HTMLElement;
  private readonly plot: uPlot;
  private last: RecordedFrame | undefined;
  private summary: TimingSummary | undefined;
  private renderMs = 0;
  private pending = 0;

  constructor(container: HTMLElement, options: TimingChartOptions = {}) {
    this.series = new TimingSeries(options.frames ?? 300);
    this.element = document.createElement('div');
    this.element.className = 'timing-chart';
    this.readout = document.createElement('pre');
    this.readout.className = 'timing-readout';
    this.readout.textContent = 'no frames yet';
    const plotHost = document.createElement('div');
    this.element.append(this.readout, plotHost);
    container.append(this.element);

    // Curve k is the sum of groups 0 .. G-1-k (TimingSeries.stacked): the top group comes first.
    const bands: uPlot.Series[] = [];
    for (let k = 0; k < G; k++) {
      const g = G - 1 - k;
      bands.push({
        label: PHASE_GROUPS[g],
        stroke: GROUP_COLOURS[g],
        fill: GROUP_COLOURS[g],
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars!({ size: [1, Infinity], gap: 0 }),
        // The legend shows the group's own ms, not the stacked height.
        value: (_u, _v, _si, idx) => (idx === null || idx >= this.series.length ? '--' : shortMs(this.series.value(g, idx))),
      });
    }
    const axisFont = '11px ui-monospace, SFMono-Regular, Menlo, monospace';
    this.plot = new uPlot(
      {
        width: options.width ?? 420,
        height: options.height ?? 200,
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } },
        axes: [
          { label: 'frame', stroke: '#c8ccd2', font: axisFont, labelFont: axisFont, labelSize: 16, size: 28, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
          {
            label: 'wall time per frame',
            stroke: '#c8ccd2',
            font: axisFont,
            labelFont: axisFont,
            labelSize: 16,
            size: 58,
            splits: (u) => timeAxisSplits(u.scales.y!.max ?? 0),
            values: (_u, splits) => splits.map(shortMs),
          },
        ],
        series: [{ label: 'frame', value: (_u, v) => (v === null || v === undefined ? '--' : String(v)) }, ...bands],
        legend: { live: true },
        hooks: {
          // Off the chart the legend shows the newest frame, not "--".
          setCursor: [(u) => {
            if (u.cursor.idx == null && this.series.length > 0) u.setLegend({ idx: this.series.length - 1 }, false);
          }],
        },
      },
      this.series.stacked() as uPlot.AlignedData,
      plotHost,
    );
  }

  /** Adds the page's newest frame; `summary` is the page's rolling timing summary after it, `renderMs` the last draw's time. */
  push(frame: RecordedFrame, summary: TimingSummary, renderMs = frame.renderMs ?? 0): void {
    this.series.push(frame);
    this.last = frame;
    this.summary = summary;
    this.renderMs = renderMs;
    if (this.pending === 0) this.pending = requestAnimationFrame(() => this.draw());
  }

  /** Forgets the frames shown (a reset or a new scene). */
  clear(): void {
    this.series.clear();
    this.last = undefined;
    this.summary = undefined;
    this.readout.textContent = 'no frames yet';
    delete this.readout.dataset.fps;
    delete this.readout.dataset.frameMs;
    this.readout.dataset.frames = '0';
    this.plot.setData(this.series.stacked() as uPlot.AlignedData);
  }

  resize(width: number, height: number): void {
    this.plot.setSize({ width, height });
  }

  dispose(): void {
    if (this.pending !== 0) cancelAnimationFrame(this.pending);
    this.plot.destroy();
    this.element.remove();
  }

  private draw(): void {
    this.pending = 0;
    const f = this.last;
    const t = this.summary;
    if (!f || !t) return;
    const n = this.series.length;
    const fps = t.fps >= 10 ? t.fps.toFixed(0) : t.fps.toPrecision(2);
    const phases = t.phases.map(([name, ms]) => `${name} ${formatMs(ms)}`).join(', ');
    const source = t.source === 'gpu-timestamps' ? 'GPU timestamps' : 'CPU clock';
    this.readout.textContent = [
      `frame ${f.frame}: ${formatMs(t.frameMs)} per frame, ${fps} fps (wall time, last ${t.frames} frames)`,
      `solver by ${source}: ${formatMs(t.phasesMs)}${phases ? ` (${phases})` : ''}`,
      `render: ${formatMs(this.renderMs)} per draw (drawn on the page's thread while the solver runs)`,
      ...counterLines(f),
    ].join('\n');
    const d = this.readout.dataset;
    d.fps = t.fps.toFixed(3);
    d.frameMs = t.frameMs.toFixed(3);
    d.frames = String(n);
    this.plot.setData(this.series.stacked() as uPlot.AlignedData);
    if (n > 0 && this.plot.cursor.idx == null) this.plot.setLegend({ idx: n - 1 }, false);
  }
}
