/**
 * The status line (#sim-status, top left, shown from the first load on): what the page is doing
 * (building, running, pausing, stepping, resetting, paused, or nothing built yet), with a busy
 * indicator and the seconds the current frame has taken while one is under way; the scene's
 * objects, vertices and tets; the engine; the lowest point; and the frame time, frames per
 * second and the solver's own phase times from the same summary the timing panel shows
 * (frameTimings.ts). The figures are also data-* attributes (data-activity, data-busy,
 * data-frame, data-running, data-min-y, data-min-y-frame, data-ground-y, data-start-min-y,
 * data-frame-ms, data-wall-ms, data-fps, data-phases-ms, data-engine, data-timing, data-scene,
 * data-vertices, data-tets, data-objects, data-frames-in-flight) so tests read numbers, not text.
 */
import { formatMs, type TimingSummary } from './frameTimings';
import type { Activity } from './simulationController';

export interface SimStatus {
  engine: string;
  engineKind: 'gpu' | 'cpu';
  scene: string;
  vertices: number;
  tets: number;
  objects: number;
  frame: number;
  running: boolean;
  minY: number;
  /** The frame whose state minY was measured on (a GPU readback may lag). */
  minYFrame: number;
  groundY: number;
  startMinY: number;
  /** Whether the scene has a ground plane (else the lowest point is said as a height). */
  hasGround: boolean;
  timings: TimingSummary;
  activity: Activity;
  /** performance.now() when the frame under way started, if one is. */
  underWaySince: number | undefined;
  framesInFlightLimit: number;
}

const TIMING_LABEL = { 'gpu-timestamps': 'GPU timestamps', 'cpu-clock': 'CPU clock' } as const;

const ACTIVITY_TEXT: Record<Activity, string> = {
  idle: 'not built yet: Run or Step builds it',
  building: 'building the scene',
  running: 'running',
  pausing: 'pausing: the frame under way finishes',
  stepping: 'stepping one frame',
  resetting: 'resetting',
  paused: 'paused',
};

export class SimStatusView {
  readonly root: HTMLDivElement;
  private readonly activityLine: HTMLDivElement;
  private readonly spinner: HTMLSpanElement;
  private readonly activityText: HTMLSpanElement;
  private readonly body: HTMLDivElement;
  private underWaySince: number | undefined;
  private activityBase = '';
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(parent: HTMLElement = document.body) {
    this.root = document.createElement('div');
    this.root.id = 'sim-status';
    this.root.dataset.state = 'idle';
    this.root.dataset.activity = 'idle';
    this.root.dataset.busy = 'false';
    this.root.dataset.running = 'false';
    this.root.dataset.frame = '0';
    this.activityLine = document.createElement('div');
    this.activityLine.className = 'activity';
    this.spinner = document.createElement('span');
    this.spinner.className = 'busy-indicator';
    this.spinner.setAttribute('aria-hidden', 'true');
    this.activityText = document.createElement('span');
    this.activityLine.append(this.spinner, this.activityText);
    this.body = document.createElement('div');
    this.body.className = 'status-body';
    this.root.append(this.activityLine, this.body);
    this.root.setAttribute('role', 'status');
    parent.prepend(this.root);
  }

  /** No simulation yet for the scene on screen (the mesh scene is built by Run or Step). */
  showUnbuilt(s: { scene: string; activity: Activity }): void {
    const d = this.root.dataset;
    d.state = 'idle';
    d.scene = s.scene;
    d.running = 'false';
    d.frame = '0';
    this.setActivity(s.activity, undefined, s.activity === 'building' ? 'building the scene (the first build on a page compiles the GPU kernels)' : ACTIVITY_TEXT[s.activity]);
    this.body.textContent = `${s.scene === 'mesh' ? 'mesh scene (shape or imported mesh)' : s.scene}`;
  }

  show(s: SimStatus): void {
    const d = this.root.dataset;
    d.state = 'ready';
    d.engine = s.engineKind;
    d.scene = s.scene;
    d.vertices = String(s.vertices);
    d.tets = String(s.tets);
    d.objects = String(s.objects);
    d.frame = String(s.frame);
    d.running = String(s.running);
    d.minY = s.minY.toPrecision(7);
    d.minYFrame = String(s.minYFrame);
    d.groundY = s.groundY.toPrecision(7);
    d.startMinY = s.startMinY.toPrecision(7);
    d.frameMs = s.timings.frameMs.toFixed(3);
    d.wallMs = s.timings.frameMs.toFixed(3);
    d.fps = s.timings.fps.toFixed(3);
    d.phasesMs = s.timings.phasesMs.toFixed(3);
    d.timing = s.timings.source ?? '';
    d.framesInFlight = String(s.framesInFlightLimit);
    this.setActivity(s.activity, s.underWaySince, `${ACTIVITY_TEXT[s.activity]} · frame ${s.frame}`);
    const lowest = s.hasGround ? `lowest point ${formatLength(s.minY - s.groundY)} above the ground` : `lowest point y = ${formatLength(s.minY)} (no ground)`;
    const lines = [
      `${s.scene === 'mesh' ? 'mesh scene' : s.scene}: ${s.objects} object${s.objects === 1 ? '' : 's'}, ${s.vertices.toLocaleString('en')} vertices, ${s.tets.toLocaleString('en')} tets`,
      s.engine,
      lowest,
    ];
    const t = s.timings;
    if (t.frames > 0) {
      lines.push(`frame time ${formatMs(t.frameMs)} (${formatFps(t.fps)} fps, last ${t.frames} frame${t.frames === 1 ? '' : 's'})`);
      const source = t.source ? TIMING_LABEL[t.source] : '';
      const parts = t.phases.map(([name, ms]) => `${name} ${formatMs(ms)}`).join(', ');
      lines.push(`solver ${formatMs(t.phasesMs)} by ${source}: ${parts}`);
    } else {
      lines.push('frame time: no frames yet');
    }
    this.body.textContent = lines.join('\n');
  }

  private setActivity(activity: Activity, underWaySince: number | undefined, text: string): void {
    const d = this.root.dataset;
    d.activity = activity;
    const busy = activity === 'building' || activity === 'resetting' || underWaySince !== undefined;
    d.busy = String(busy);
    this.spinner.hidden = !busy;
    this.activityBase = text;
    this.underWaySince = underWaySince;
    this.renderActivity();
    // While a frame is under way the seconds count up (a frame takes seconds on a software adapter).
    if (underWaySince !== undefined && this.ticker === undefined) this.ticker = setInterval(() => this.renderActivity(), 250);
    if (underWaySince === undefined && this.ticker !== undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private renderActivity(): void {
    const since = this.underWaySince;
    const elapsed = since === undefined ? '' : ` · next frame under way ${((performance.now() - since) / 1000).toFixed(1)} s`;
    this.activityText.textContent = this.activityBase + elapsed;
  }
}

function formatFps(fps: number): string {
  return fps >= 10 ? fps.toFixed(0) : fps.toPrecision(2);
}

function formatLength(m: number): string {
  return `${Number(m.toPrecision(3))} m`;
}
