/**
 * The "Record frame timings" folder of the lil-gui panel: frames to record (N; 0 records until
 * Stop), Record, Stop, a status line ("recording 12/300", then what ended it) and the downloads
 * of the last recording as runner-format JSON and CSV. When a recording ends with frames, both
 * files download at once (unless autoDownload is false) and onFinish receives the report.
 * Stable ids for tests: #rec-frames (the N input), #rec-record, #rec-stop, #rec-json, #rec-csv,
 * #rec-status (with data-state = idle | recording | ended, data-recorded, data-target).
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { RunReport } from '../../runner/reportDocument';
import { downloadText, recordingBaseName } from './download';
import { FrameRecorder, type RecorderState, type RecordingHeader } from './frameRecorder';

export interface RecorderPanelOptions {
  /** The page's header when Record is pressed; throwing (e.g. no scene yet) shows the message in the status line. */
  header(): RecordingHeader;
  /** Initial N (default 300). */
  frames?: number;
  /** Download JSON and CSV as soon as a recording ends (default true). */
  autoDownload?: boolean;
  /** A recording ended with frames (the page shows report.table1). */
  onFinish?(report: RunReport): void;
  /** Folder title (default "Record frame timings"). */
  title?: string;
}

export interface RecorderPanel {
  /** Give it every frame: recorder.add(frame, params). */
  readonly recorder: FrameRecorder;
  readonly folder: GUI;
  dispose(): void;
}

function tag(c: Controller, id: string): HTMLElement {
  const el = c.domElement.querySelector('button, input') as HTMLElement | null;
  if (!el) throw new Error(`recorderPanel: control for #${id} has no button or input`);
  el.id = id;
  return el;
}

function statusText(s: RecorderState): string {
  if (s.recording) return s.target > 0 ? `recording ${s.recorded}/${s.target}` : `recording ${s.recorded} (until Stop)`;
  if (s.ended === null) return 'idle';
  if (s.recorded === 0) return `${s.ended}: no frames recorded`;
  return s.ended === 'done' || s.ended === 'stopped' ? `${s.ended}: ${s.recorded} frames` : `ended: ${s.ended}`;
}

export function createRecorderPanel(parent: GUI, options: RecorderPanelOptions): RecorderPanel {
  const folder = parent.addFolder(options.title ?? 'Record frame timings');
  let baseName = 'recording';
  let disposed = false;
  const save = (kind: 'json' | 'csv'): void => {
    if (!recorder.hasRecording) return;
    if (kind === 'json') downloadText(`${baseName}.json`, recorder.json(), 'application/json');
    else downloadText(`${baseName}.csv`, recorder.csv(), 'text/csv');
  };
  const state = {
    frames: options.frames ?? 300,
    status: 'idle',
    record: () => {
      // A missing scene (header) or a bad N (start) is said in the status line, not thrown from a click.
      try {
        const header = options.header();
        recorder.start(header, state.frames);
        baseName = recordingBaseName(header.scene, new Date());
      } catch (e) {
        show(`cannot record: ${(e as Error).message}`);
      }
    },
    stop: () => recorder.stop(),
    json: () => save('json'),
    csv: () => save('csv'),
  };

  const recorder = new FrameRecorder({
    onChange: (s) => update(s),
    onFinish: (r) => {
      if (disposed) return;
      if (options.autoDownload ?? true) {
        save('json');
        save('csv');
      }
      options.onFinish?.(r.report());
    },
  });

  tag(folder.add(state, 'frames').min(0).step(1).name('Frames to record (0: until Stop)'), 'rec-frames');
  const recordCtrl = folder.add(state, 'record').name('Record');
  tag(recordCtrl, 'rec-record');
  const stopCtrl = folder.add(state, 'stop').name('Stop');
  tag(stopCtrl, 'rec-stop');
  const statusCtrl = folder.add(state, 'status').name('Status').disable();
  const statusEl = tag(statusCtrl, 'rec-status');
  const jsonCtrl = folder.add(state, 'json').name('Download JSON');
  tag(jsonCtrl, 'rec-json');
  const csvCtrl = folder.add(state, 'csv').name('Download CSV');
  tag(csvCtrl, 'rec-csv');

  function show(text: string): void {
    state.status = text;
    statusCtrl.updateDisplay();
  }

  function update(s: RecorderState): void {
    show(statusText(s));
    const d = statusEl.dataset;
    d.state = s.recording ? 'recording' : s.ended === null ? 'idle' : 'ended';
    d.recorded = String(s.recorded);
    d.target = String(s.target);
    recordCtrl.name(s.recording ? 'Restart recording' : 'Record');
    stopCtrl.enable(s.recording);
    jsonCtrl.enable(recorder.hasRecording);
    csvCtrl.enable(recorder.hasRecording);
  }
  update(recorder.state);

  return {
    recorder,
    folder,
    dispose: () => {
      disposed = true;
      recorder.stop();
      folder.destroy();
    },
  };
}
