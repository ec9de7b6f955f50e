/**
 * The live frame-timing view: frames per second and frame time, the last frame's ms per phase
 * group, the collision counters (countersText.ts), and a stacked bar chart (uPlot) of each
 * group's ms over the last frames, like the paper's Fig. 21. Redraws at most once per animation
 * frame however often frames arrive. The readout also carries data-* attributes (data-fps,
 * data-frame-ms, data-frames) so tests read numbers, not text.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './recorder.css';
import { PHASE_GROUPS } from '../../runner/phaseGroups';
import type { RecordedFrame } from '../../runner/reportDocument';
import { counterLines, frameTimeLine } from './countersText';
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
        value: (_u, _v, _si, idx) => (idx === null || idx >= this.series.length ? '--' : this.series.value(g, idx).toFixed(2)),
      });
    }
    this.plot = new uPlot(
      {
        width: options.width ?? 420,
        height: options.height ?? 200,
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } },
        axes: [{ label: 'frame', stroke: '#c8ccd2' }, { label: 'ms', stroke: '#c8ccd2' }],
        series: [{ label: 'frame' }, ...bands],
        legend: { live: true },
      },
      this.series.stacked() as uPlot.AlignedData,
      plotHost,
    );
  }

  /** Adds the page's newest frame, arrived at `nowMs` (performance.now() by default). */
  push(frame: RecordedFrame, nowMs = performance.now()): void {
    this.series.push(frame, nowMs);
    this.last = frame;
    if (this.pending === 0) this.pending = requestAnimationFrame(() => this.draw());
  }

  /** Forgets the frames shown (a reset or a new scene). */
  clear(): void {
    this.series.clear();
    this.last = undefined;
    this.readout.textContent = 'no frames yet';
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
    if (!f) return;
    const n = this.series.length;
    const fps = this.series.fps(performance.now());
    const phases = PHASE_GROUPS.map((g, i) => [g, this.series.value(i, n - 1)] as const)
      .filter(([, ms]) => ms > 0)
      .map(([g, ms]) => `${g} ${ms.toFixed(2)}`)
      .join(', ');
    this.readout.textContent = [frameTimeLine(f, fps), `phases (ms): ${phases || 'none reported'}`, ...counterLines(f)].join('\n');
    const d = this.readout.dataset;
    d.fps = fps.toFixed(2);
    d.frameMs = (f.wallMs + (f.renderMs ?? 0)).toFixed(3);
    d.frames = String(n);
    this.plot.setData(this.series.stacked() as uPlot.AlignedData);
  }
}
