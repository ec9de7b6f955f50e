/**
 * The page's recorder: records exactly the next N frames (or until stopped), ends on a jump of
 * the frame counter, marks parameter changes, and its JSON passes the runner's reader with the
 * page's header; its CSV has one row per frame. The live chart's series: stacked sums and the
 * frame rate, against hand-worked numbers.
 */
import { describe, expect, it } from 'vitest';
import { FrameRecorder, type RecordingHeader } from '../../../src/app/recorder/frameRecorder';
import { TimingSeries } from '../../../src/app/recorder/timingSeries';
import { counterLines } from '../../../src/app/recorder/countersText';
import { recordingBaseName } from '../../../src/app/recorder/download';
import { PHASE_GROUPS } from '../../../src/runner/phaseGroups';
import { readReport } from '../../../src/runner/reportReader';
import type { RecordedFrame } from '../../../src/runner/reportDocument';
import { defaultParams } from '../../../src/contract/params';
import { sampleReport } from './support/sampleRun';

function header(): RecordingHeader {
  return {
    scene: 'octopus-drop',
    adapter: 'test adapter',
    timing: 'timestamp-query',
    params: defaultParams(),
    materials: [{ object: 'octopus', youngsModulus: 1e5, poissonRatio: 0.4, density: 1000 }],
    counts: { vertices: 100, tets: 234 },
  };
}

/** The page's frame n (frames completed): the sample run's entries cycled, renumbered, with a render time. */
function pageFrame(n: number): RecordedFrame {
  const base = sampleReport().frames[(n - 1) % 3]!;
  const { state: _s, paramsChanged: _p, ...rest } = base;
  void _s;
  void _p;
  return { ...rest, frame: n, time: n / 60, renderMs: 0.5 + n / 100 };
}

describe('frame recorder', () => {
  it('records the next N frames, then stops by itself; its JSON passes the reader', () => {
    const ends: number[] = [];
    const r = new FrameRecorder({ browser: 'test browser', build: { commit: 'abc1234', date: '2026-11-22' }, onFinish: (x) => ends.push(x.state.recorded) });
    expect(r.add(pageFrame(1))).toBe(false); // not recording yet
    r.start(header(), 5);
    for (let n = 10; n < 20; n++) r.add(pageFrame(n));
    expect(r.state).toEqual({ recording: false, recorded: 5, target: 5, ended: 'done' });
    expect(ends).toEqual([5]);
    const report = readReport(r.json());
    expect(report.source).toBe('page');
    expect(report.browser).toBe('test browser');
    expect(report.build).toEqual({ commit: 'abc1234', date: '2026-11-22' });
    expect(report.frames.map((f) => f.frame)).toEqual([10, 11, 12, 13, 14]);
    expect(report.frames[0]!.renderMs).toBe(0.6);
    expect(report.table1!.frames).toBe(5);
    const lines = r.csv().trimEnd().split('\n');
    expect(lines.length).toBe(1 + 5);
    expect(lines[0]!.split(',').slice(0, 4)).toEqual(['frame', 'time', 'wallMs', 'renderMs']);
  });

  it('N = 0 records until stopped; a jump of the frame counter ends the recording', () => {
    const r = new FrameRecorder({ browser: 'b' });
    r.start(header(), 0);
    for (let n = 1; n <= 7; n++) r.add(pageFrame(n));
    expect(r.state.recording).toBe(true);
    expect(r.hasRecording).toBe(false);
    r.stop();
    expect(r.state).toEqual({ recording: false, recorded: 7, target: 0, ended: 'stopped' });
    expect(readReport(r.json()).frames.length).toBe(7);

    r.start(header(), 100);
    r.add(pageFrame(40));
    r.add(pageFrame(41));
    expect(r.add(pageFrame(1))).toBe(false);
    expect(r.state.recording).toBe(false);
    expect(r.state.ended).toMatch(/frame counter went from 41 to 1.*2 frames kept/);
    expect(readReport(r.json()).frames.length).toBe(2);
  });

  it('marks the first frame run with changed parameters', () => {
    const r = new FrameRecorder({ browser: 'b' });
    r.start(header(), 3);
    const p = defaultParams();
    r.add(pageFrame(1), p);
    r.add(pageFrame(2), { ...p, substeps: p.substeps + 1, gravity: [0, -1, 0] });
    r.add(pageFrame(3), { ...p, substeps: p.substeps + 1, gravity: [0, -1, 0] });
    const frames = readReport(r.json()).frames;
    expect(frames[0]!.paramsChanged).toBeUndefined();
    expect(frames[1]!.paramsChanged).toEqual({ substeps: p.substeps + 1, gravity: [0, -1, 0] });
    expect(frames[2]!.paramsChanged).toBeUndefined();
  });

  it('refuses a bad N and has nothing to give before a recording', () => {
    const r = new FrameRecorder({ browser: 'b' });
    expect(() => r.start(header(), 2.5)).toThrow(/frames must be an integer >= 0/);
    expect(() => r.json()).toThrow(/no frames recorded/);
    expect(recordingBaseName('octopus drop/1', new Date(2026, 10, 22, 7, 5, 9))).toBe('octopus_drop_1-2026-11-22T07-05-09');
  });
});

describe('live chart series', () => {
  const f = (frame: number, wallMs: number, phasesMs: Record<string, number>, renderMs?: number): RecordedFrame => ({
    frame, time: frame / 60, wallMs, phasesMs, renderMs, counters: { dispatches: 0, constraintIterations: 0, readbacks: 0 },
  });

  it('keeps the last frames in order and stacks the groups from the top', () => {
    const s = new TimingSeries(2);
    s.push(f(1, 9, { material: 1 }));
    s.push(f(2, 10, { material: 4, detect: 2, spb: 1 }, 2));
    s.push(f(3, 6, { predict: 1, ccd: 3, bvh: 1 }, 1));
    expect(s.length).toBe(2);
    const [x, ...curves] = s.stacked();
    expect([...x!]).toEqual([2, 3]);
    // Frame 2 groups: material 4, detect 2, shortest path 1, CCD 0, BVH 0, sync 3, render 0, other 0 (total 10: the wall time).
    // Frame 3: material 1, CCD 3, BVH 1, sync 6 - 5 = 1 (total 6). Their renderMs are drawn inside the wall time, not stacked.
    const g2 = [4, 2, 1, 0, 0, 3, 0, 0];
    const g3 = [1, 0, 0, 3, 1, 1, 0, 0];
    const G = PHASE_GROUPS.length;
    for (let k = 0; k < G; k++) {
      const upTo = G - 1 - k;
      expect(curves[k]![0], `curve ${k}`).toBeCloseTo(g2.slice(0, upTo + 1).reduce((a, b) => a + b, 0), 12);
      expect(curves[k]![1], `curve ${k}`).toBeCloseTo(g3.slice(0, upTo + 1).reduce((a, b) => a + b, 0), 12);
    }
    expect(s.value(PHASE_GROUPS.indexOf('CCD'), 1)).toBe(3);
    expect(s.total(0)).toBe(10);
  });


  it('counter lines show Q / Tr / Tet per query and the overflows', () => {
    const frame = sampleReport().frames[0]!;
    const c = frame.collisions!;
    const lines = counterLines(frame).join('\n');
    expect(lines).toContain(`Q ${(c.bvhCandidates / c.spbQueries).toFixed(1)}`);
    expect(lines).toContain(`stack ${c.spbOverflows}`);
    expect(lines).toContain(`DCD ${c.contacts}, CCD ${c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge}`);
  });
});
