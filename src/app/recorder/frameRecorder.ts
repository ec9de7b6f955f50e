/**
 * Records the page's next N frames (or until stopped) in the runner's per-frame format
 * (src/runner/report.ts FrameEntry, plus the page's renderMs) and builds the runner-format
 * report (src/runner/reportDocument.ts) with the page's header: scene, parameters, adapter,
 * browser, build, counts, materials. The JSON passes the runner's reader
 * (src/runner/reportReader.ts); the CSV has the runner's --csv columns. No DOM here: downloads
 * are recorderPanel.ts's job.
 *
 * Frames must arrive in order (frame = previous + 1): a jump (a reset, a new scene) ends the
 * recording with the frames so far, and says so in `state.ended`.
 */
import { framesToCsv } from '../../runner/reportCsv';
import type { BuildInfo, MaterialEntry, RecordedFrame, ReportCounts, RunReport } from '../../runner/reportDocument';
import { table1Row } from '../../runner/table1';
import { paramsJsonReplacer, type SolverParams } from '../../contract/params';
import { buildInfo } from './buildInfo';

/** What the page knows about the run when recording starts. */
export interface RecordingHeader {
  scene: string;
  mesh?: string | null;
  /** The GPU adapter's description, or the CPU engine's. */
  adapter: string;
  /** How phasesMs are measured ('timestamp-query', 'cpu-wall', ...). */
  timing?: string;
  /** Parameters of the first recorded frame. */
  params: SolverParams;
  materials: MaterialEntry[];
  colliders?: string[];
  counts: ReportCounts;
}

export interface RecorderState {
  recording: boolean;
  /** Frames recorded by the current (or last) recording. */
  recorded: number;
  /** Frames asked for; 0: until stopped. */
  target: number;
  /** Why the last recording ended ('done', 'stopped', or what interrupted it); null while recording or before any. */
  ended: string | null;
}

export interface FrameRecorderOptions {
  /** Default: navigator.userAgent. */
  browser?: string;
  /** Default: buildInfo() (vite.config.ts's __BUILD__). */
  build?: BuildInfo;
  /** After every change of state (start, each frame, end). */
  onChange?: (state: RecorderState) => void;
  /** Once per recording that ended with at least one frame. */
  onFinish?: (recorder: FrameRecorder) => void;
}

/** Fields of `next` whose values differ from `prev` (compared as JSON, so vectors compare by value). */
function changedParams(prev: SolverParams, next: SolverParams): Partial<SolverParams> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const k of Object.keys(next) as (keyof SolverParams)[]) {
    if (JSON.stringify(prev[k]) !== JSON.stringify(next[k])) {
      out[k] = structuredClone(next[k]);
      any = true;
    }
  }
  return any ? (out as Partial<SolverParams>) : undefined;
}

export class FrameRecorder {
  private header: RecordingHeader | undefined;
  private frames: RecordedFrame[] = [];
  private params: SolverParams | undefined;
  private target = 0;
  private recording = false;
  private ended: string | null = null;
  private readonly browser: string;
  private readonly build: BuildInfo;

  constructor(private readonly options: FrameRecorderOptions = {}) {
    this.browser = options.browser ?? globalThis.navigator?.userAgent ?? 'unknown';
    this.build = options.build ?? buildInfo();
  }

  get state(): RecorderState {
    return { recording: this.recording, recorded: this.frames.length, target: this.target, ended: this.ended };
  }

  /** True when a finished recording holds frames (report(), json(), csv() work). */
  get hasRecording(): boolean {
    return !this.recording && this.frames.length > 0;
  }

  /** Starts a recording of the next `frames` frames (0: until stop()), dropping any earlier one. */
  start(header: RecordingHeader, frames = 0): void {
    if (!(Number.isInteger(frames) && frames >= 0)) throw new RangeError(`FrameRecorder.start: frames must be an integer >= 0 (0: until stopped), got ${frames}`);
    this.header = structuredClone(header);
    this.params = structuredClone(header.params);
    this.frames = [];
    this.target = frames;
    this.recording = true;
    this.ended = null;
    this.options.onChange?.(this.state);
  }

  /**
   * Offers the page's newest frame; recorded when a recording is running. `params`, the
   * parameters the frame ran with, adds paramsChanged to the entry when they differ from the
   * previous frame's (unless the entry has its own). Returns whether the frame was recorded.
   */
  add(frame: RecordedFrame, params?: SolverParams): boolean {
    if (!this.recording) return false;
    const last = this.frames[this.frames.length - 1];
    if (last && frame.frame !== last.frame + 1) {
      this.finish(`frame counter went from ${last.frame} to ${frame.frame} (a reset or a skipped frame); ${this.frames.length} frames kept`);
      return false;
    }
    const entry = structuredClone(frame);
    if (params && this.params) {
      const change = changedParams(this.params, params);
      if (change && !entry.paramsChanged) entry.paramsChanged = change;
      this.params = structuredClone(params);
    }
    this.frames.push(entry);
    if (this.target > 0 && this.frames.length >= this.target) this.finish('done');
    else this.options.onChange?.(this.state);
    return true;
  }

  /** Ends the running recording (keeps its frames); nothing when none runs. */
  stop(): void {
    if (this.recording) this.finish('stopped');
  }

  private finish(reason: string): void {
    this.recording = false;
    this.ended = reason;
    this.options.onChange?.(this.state);
    if (this.frames.length > 0) this.options.onFinish?.(this);
  }

  /** The runner-format report of the recorded frames (while recording: those so far). */
  report(): RunReport {
    const h = this.header;
    if (!h || this.frames.length === 0) throw new Error('FrameRecorder: no frames recorded yet');
    const frames = structuredClone(this.frames);
    const report: RunReport = {
      source: 'page',
      scene: h.scene,
      mesh: h.mesh ?? null,
      adapter: h.adapter,
      browser: this.browser,
      build: this.build,
      params: structuredClone(h.params),
      materials: structuredClone(h.materials),
      counts: { ...h.counts },
      frames,
      table1: table1Row({ frames, counts: h.counts, params: h.params }),
    };
    if (h.timing !== undefined) report.timing = h.timing;
    if (h.colliders !== undefined) report.colliders = [...h.colliders];
    return report;
  }

  json(): string {
    return JSON.stringify(this.report(), paramsJsonReplacer, 2);
  }

  csv(): string {
    if (this.frames.length === 0) throw new Error('FrameRecorder: no frames recorded yet');
    return framesToCsv(this.frames);
  }
}
