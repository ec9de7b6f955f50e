/**
 * The simulation readout (#sim-status, top left): frame, running state, lowest point and the
 * simulation time per frame (per phase when the solver reports phases). The figures are also
 * data-* attributes (data-frame, data-running, data-min-y, data-min-y-frame, data-ground-y,
 * data-start-min-y, data-frame-ms, data-wall-ms, data-engine, data-timing, data-scene, data-vertices, data-tets, data-objects) so tests read numbers, not formatted text.
 */
import type { TimingSummary } from './frameTimings';

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
  timings: TimingSummary;
}

const TIMING_LABEL = { 'gpu-timestamps': 'GPU timestamps', 'cpu-clock': 'CPU clock' } as const;

export class SimStatusView {
  readonly root: HTMLDivElement;

  constructor(parent: HTMLElement = document.body) {
    this.root = document.createElement('div');
    this.root.id = 'sim-status';
    this.root.dataset.state = 'idle';
    this.root.dataset.running = 'false';
    this.root.dataset.frame = '0';
    this.root.hidden = true;
    parent.appendChild(this.root);
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
    d.frameMs = s.timings.meanMs.toFixed(3);
    d.wallMs = s.timings.meanWallMs.toFixed(3);
    d.timing = s.timings.source ?? '';
    const lines = [
      `${s.running ? 'running' : 'paused'} · frame ${s.frame}`,
      `${s.scene}: ${s.objects} object${s.objects === 1 ? '' : 's'}, ${s.vertices.toLocaleString('en')} vertices, ${s.tets.toLocaleString('en')} tets`,
      s.engine,
      `lowest point ${(s.minY - s.groundY).toPrecision(3)} above ground`,
    ];
    if (s.timings.frames > 0) {
      const source = s.timings.source ? TIMING_LABEL[s.timings.source] : '';
      lines.push(`simulation ${s.timings.meanMs.toFixed(2)} ms/frame (${source}, mean of ${s.timings.frames})`);
      if (s.timings.phases.length > 1) for (const [name, ms] of s.timings.phases) lines.push(`  ${name.padEnd(12)} ${ms.toFixed(2)} ms`);
      lines.push(`frame wall time ${s.timings.meanWallMs.toFixed(2)} ms (page thread)`);
    }
    this.root.textContent = lines.join('\n');
    this.root.hidden = false;
  }

  /** No simulation for the object on screen (a new mesh replaced it). */
  clear(): void {
    this.root.dataset.state = 'idle';
    this.root.dataset.running = 'false';
    this.root.dataset.frame = '0';
    this.root.textContent = '';
    this.root.hidden = true;
  }
}
