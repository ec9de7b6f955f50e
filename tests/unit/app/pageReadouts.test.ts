/**
 * The page's readouts without a browser: the rolling frame-time summary (frames per second is
 * 1000 / frame time, the phases' means, the window), the time axis's ticks and labels, the
 * clamp messages of number controls (lil-gui's own snapping and clamping rule, restated here),
 * the keys, and the help text against the counters the page prints.
 * Truths: hand-computed means; lil-gui's NumberController _snap/_clamp (offset from min, then
 * clamp) applied by hand; the counter lines of a real recorded frame.
 */
import { describe, expect, it } from 'vitest';
import { clampMessage, controlValue } from '../../../src/app/clampNotices';
import { FrameTimings, formatMs } from '../../../src/app/frameTimings';
import { HELP } from '../../../src/app/helpOverlay';
import { actionOfKey } from '../../../src/app/keyboard';
import { counterLines } from '../../../src/app/recorder/countersText';
import { shortMs, timeAxisSplits } from '../../../src/app/recorder/timeAxis';
import { emptyCollisionCounters } from '../../../src/collision/counters';

describe('frame timings summary', () => {
  it('frame time is the mean wall time, fps is 1000 / frame time, phases are their own means', () => {
    const t = new FrameTimings(3);
    expect(t.summary()).toMatchObject({ frames: 0, frameMs: 0, fps: 0, phasesMs: 0 });
    t.add({ wallMs: 400, phases: { material: 100, detect: 50 }, source: 'gpu-timestamps' });
    t.add({ wallMs: 600, phases: { material: 300 }, source: 'gpu-timestamps' });
    const s = t.summary();
    expect(s.frames).toBe(2);
    expect(s.frameMs).toBe(500);
    expect(s.fps).toBe(2);
    expect(s.lastFrameMs).toBe(600);
    // Phase sums 150 and 300: mean 225. Each phase's mean over the frames that had it.
    expect(s.phasesMs).toBe(225);
    expect(s.phases).toEqual([['material', 200], ['detect', 50]]);
  });

  it('keeps only the last `window` frames', () => {
    const t = new FrameTimings(2);
    for (const wall of [1000, 10, 30]) t.add({ wallMs: wall, phases: { step: wall }, source: 'cpu-clock' });
    const s = t.summary();
    expect(s.frames).toBe(2);
    expect(s.frameMs).toBe(20);
    expect(s.fps).toBe(50);
    expect(() => t.add({ wallMs: NaN, phases: {}, source: 'cpu-clock' })).toThrow(/wallMs/);
  });

  it('formats milliseconds as the readouts print them', () => {
    expect(formatMs(4.37)).toBe('4.37 ms');
    expect(formatMs(436.1)).toBe('436 ms');
    expect(formatMs(43613)).toBe('43.6 s');
  });
});

describe('the timing chart time axis', () => {
  it('2 to 5 ticks from 0 on 1-2-5 steps, never just "0", for any top', () => {
    for (const max of [0.7, 1, 2.2, 5.1, 9.99, 10.5, 16.7, 99, 1234, 10500, 45000, 91000]) {
      const ticks = timeAxisSplits(max);
      expect(ticks[0]).toBe(0);
      expect(ticks.length, `${max}: ${ticks}`).toBeGreaterThanOrEqual(2);
      expect(ticks.length, `${max}: ${ticks}`).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)!).toBeLessThanOrEqual(max * (1 + 1e-9));
      const step = ticks[1]!;
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
      expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `${max}: step ${step}`).toBe(true);
    }
    expect(timeAxisSplits(0)).toEqual([0]);
  });

  it('labels in ms below a second, in s from a second on', () => {
    expect(shortMs(0)).toBe('0');
    expect(shortMs(500)).toBe('500 ms');
    expect(shortMs(2.5)).toBe('2.5 ms');
    expect(shortMs(10000)).toBe('10 s');
    expect(shortMs(1500)).toBe('1.5 s');
  });
});

describe('clamp messages of number controls', () => {
  it('gravity typed as -40 on a [-30, 30] control: clamped to -30, and said', () => {
    const range = { min: -30, max: 30, step: 0.01 };
    expect(controlValue(-40, range)).toBe(-30);
    expect(clampMessage('Gravity y (m/s²)', -40, range)).toBe("Gravity y (m/s²): -40 is outside the control's range [-30, 30]; -30 is used instead.");
    expect(clampMessage('Gravity y (m/s²)', -9.81, range)).toBeUndefined();
  });

  it('snaps from the minimum, as lil-gui does, and says so', () => {
    // Substeps: [1, 100] step 1. 2.5 -> 1 + round(1.5) = 3.
    expect(controlValue(2.5, { min: 1, max: 100, step: 1 })).toBe(3);
    expect(clampMessage('Substeps', 2.5, { min: 1, max: 100, step: 1 })).toBe("Substeps: 2.5 is not a multiple of the control's step 1; 3 is used instead.");
    // Steps counted from min: [0.5, 10] step 1 takes 1.5, not 2.
    expect(controlValue(1.5, { min: 0.5, max: 10, step: 1 })).toBe(1.5);
    expect(clampMessage('x', 1.5, { min: 0.5, max: 10, step: 1 })).toBeUndefined();
  });

  it('one-sided ranges and controls without a step', () => {
    expect(clampMessage('Frames to record (0: until Stop)', -3, { min: 0 })).toBe("Frames to record (0: until Stop): -3 is outside the control's range [0, ∞]; 0 is used instead.");
    expect(clampMessage('dt', 0.0001, { min: 1 / 480, max: 1 / 20 })).toMatch(/outside the control's range/);
    expect(clampMessage('free', 123.456, {})).toBeUndefined();
  });
});

describe('keys', () => {
  const none = { ctrl: false, meta: false, alt: false };
  it('Space runs or pauses, . steps, R resets, F frames, H or ? helps, Esc closes', () => {
    expect(actionOfKey(' ', none)).toBe('toggleRun');
    expect(actionOfKey('.', none)).toBe('step');
    expect(actionOfKey('r', none)).toBe('reset');
    expect(actionOfKey('F', none)).toBe('frameView');
    expect(actionOfKey('?', none)).toBe('toggleHelp');
    expect(actionOfKey('h', none)).toBe('toggleHelp');
    expect(actionOfKey('Escape', none)).toBe('closeHelp');
    expect(actionOfKey('x', none)).toBeUndefined();
  });

  it('leaves the browser\'s shortcuts alone', () => {
    expect(actionOfKey('r', { ctrl: true, meta: false, alt: false })).toBeUndefined();
    expect(actionOfKey('f', { ctrl: false, meta: true, alt: false })).toBeUndefined();
  });
});

describe('the help overlay', () => {
  it('says what each counter the timing panel prints means', () => {
    const c = emptyCollisionCounters();
    c.spbQueries = 4;
    const printed = counterLines({ frame: 1, time: 0, wallMs: 1, phasesMs: {}, counters: { dispatches: 0, constraintIterations: 0, readbacks: 0 }, collisions: c }).join('\n');
    const explained = HELP.flatMap((s) => s.rows.map(([what]) => what)).join('\n');
    // Every counter name the readout prints has a row in the help.
    for (const name of ['contacts', 'DCD hits', 'per query', 'Q', 'Tr', 'Tet', 'stack', 'contacts dropped', 'CCD dropped', 'escaped boxes', 'no path', 'skipped']) {
      expect(printed, name).toContain(name);
      expect(explained, name).toContain(name);
    }
    // And the keys it lists are the keys the page acts on.
    const keys = HELP.find((s) => s.title === 'Keys')!.rows.map(([k]) => k).join(' ');
    for (const key of ['Space', '.', 'R', 'F', 'H', '?', 'Esc']) expect(keys).toContain(key);
  });
});
