/**
 * The runner's reader accepts what the runner's builders write (the same shape scripts/sim.ts
 * writes), through a JSON round trip, and refuses each kind of damage with a message naming the
 * field by its path, frame index included. Every collision counter is required: deleting any one
 * key of emptyCollisionCounters() is refused with that key named.
 */
import { describe, expect, it } from 'vitest';
import { emptyCcdCounters, emptyCollisionCounters } from '../../../src/collision/counters';
import { checkReport, readReport, ReportFormatError } from '../../../src/runner/reportReader';
import { paramsJsonReplacer } from '../../../src/contract/params';
import { sampleReport } from './support/sampleRun';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

function damaged(edit: (r: Json) => unknown): string {
  const r = JSON.parse(JSON.stringify(sampleReport())) as Json;
  edit(r);
  return JSON.stringify(r);
}

function refusal(edit: (r: Json) => unknown): string {
  try {
    readReport(damaged(edit));
  } catch (e) {
    expect(e).toBeInstanceOf(ReportFormatError);
    return (e as Error).message;
  }
  throw new Error('the reader accepted a damaged report');
}

describe('runner report reader', () => {
  it('accepts a report built by the runner and returns it typed', () => {
    const text = JSON.stringify(sampleReport(), null, 2);
    const r = readReport(text);
    expect(r.scene).toBe('drop');
    expect(r.frames.length).toBe(3);
    expect(r.frames[1]!.collisions!.warnings).toEqual(['broad phase failed: "boom", retried']);
    expect(r.summary!.frames).toBe(3);
  });

  it('accepts a page recording (no summary, no initial state; renderMs, browser and build)', () => {
    const r = JSON.parse(damaged((x) => {
      x.source = 'page';
      delete x.summary;
      delete x.initial;
      delete x.schedule;
      x.browser = 'Mozilla/5.0 test';
      x.build = { commit: 'abc1234', date: '2026-11-22' };
      x.frames.forEach((f: Json, i: number) => (f.renderMs = 0.5 * i));
    }));
    expect(checkReport(r).browser).toBe('Mozilla/5.0 test');
  });

  it('accepts reports from before encodeMs and blockingReadbacks (frames in flight), and keeps them when present', () => {
    const old = readReport(damaged((r) => r.frames.forEach((f: Json) => {
      delete f.counters.encodeMs;
      delete f.counters.blockingReadbacks;
    })));
    expect(old.frames[0]!.counters.encodeMs).toBeUndefined();
    const now = readReport(JSON.stringify(sampleReport()));
    expect(now.frames.map((f) => [f.counters.encodeMs, f.counters.blockingReadbacks])).toEqual([[1.25, 0], [1.75, 1], [2.25, 0]]);
    // Dispatches per phase and compute passes (issue 24): kept when present, optional before.
    expect(now.frames.map((f) => [f.counters.dispatchesByPhase?.material, f.counters.passes])).toEqual([[30, 6], [31, 6], [32, 6]]);
    expect(readReport(damaged((r) => r.frames.forEach((f: Json) => { delete f.counters.dispatchesByPhase; delete f.counters.passes; }))).frames[0]!.counters.passes).toBeUndefined();
  });

  for (const [key, fallback] of [['contactOffsetSpeed', 0.1], ['depenetrationSpeed', 1]] as const) {
    it(`reads ${key} 'off' (Infinity, written by paramsJsonReplacer) and its absence in reports written before it existed as Infinity`, () => {
      const report = sampleReport();
      report.params = { ...report.params, [key]: Infinity };
      const text = JSON.stringify(report, paramsJsonReplacer);
      expect(text).toContain(`"${key}":"off"`);
      expect(readReport(text).params[key]).toBe(Infinity);
      expect(readReport(damaged((r) => delete r.params[key])).params[key]).toBe(Infinity);
      expect(readReport(JSON.stringify(sampleReport())).params[key]).toBe(fallback);
      expect(refusal((r) => (r.params[key] = 0))).toMatch(new RegExp(`params: ${key} must be a number > 0`));
    });
  }

  it('a non-finite state measure arrives as null and is accepted there only', () => {
    expect(() => readReport(damaged((r) => (r.frames[2].state.centreOfMass[1] = null)))).not.toThrow();
    expect(refusal((r) => (r.frames[2].wallMs = null))).toBe('runner report: frames[2].wallMs must be a finite number >= 0, got null');
  });

  const cases: [string, (r: Json) => unknown, RegExp][] = [
    ['scene missing', (r: Json) => delete r.scene, /^runner report: scene must be a string, got nothing/],
    ['adapter a number', (r: Json) => (r.adapter = 3), /^runner report: adapter must be a string, got 3$/],
    ['params.dt zero', (r: Json) => (r.params.dt = 0), /^runner report: params: solver parameter dt must be positive, got 0$/],
    ['bad material', (r: Json) => (r.materials[0].poissonRatio = 0.5), /^runner report: materials\[0\]\.poissonRatio must be in \[0, 0\.5\)/],
    ['no materials', (r: Json) => (r.materials = []), /^runner report: materials must be a non-empty array/],
    ['counts.tets fractional', (r: Json) => (r.counts.tets = 2.5), /^runner report: counts\.tets must be an integer >= 0, got 2\.5$/],
    ['frames empty', (r: Json) => (r.frames = []), /^runner report: frames must be a non-empty array/],
    ['a frame skipped', (r: Json) => (r.frames[2].frame = 5), /^runner report: frames\[2\]\.frame must be 3 \(one after frames\[1\]\.frame/],
    ['negative wall time', (r: Json) => (r.frames[1].wallMs = -1), /^runner report: frames\[1\]\.wallMs must be a finite number >= 0, got -1$/],
    ['phase time a string', (r: Json) => (r.frames[0].phasesMs.spb = '0.5'), /^runner report: frames\[0\]\.phasesMs\.spb must be a finite number >= 0, got "0\.5"$/],
    ['counter missing', (r: Json) => delete r.frames[1].counters.dispatches, /^runner report: frames\[1\]\.counters\.dispatches must be an integer >= 0, got nothing/],
    ['negative encode time', (r: Json) => (r.frames[1].counters.encodeMs = -0.5), /^runner report: frames\[1\]\.counters\.encodeMs must be a finite number >= 0, got -0\.5$/],
    ['phase dispatches fractional', (r: Json) => (r.frames[0].counters.dispatchesByPhase.material = 2.5), /^runner report: frames\[0\]\.counters\.dispatchesByPhase\.material must be an integer >= 0, got 2\.5$/],
    ['fractional blocking readbacks', (r: Json) => (r.frames[2].counters.blockingReadbacks = 0.5), /^runner report: frames\[2\]\.counters\.blockingReadbacks must be an integer >= 0, got 0\.5$/],
    ['ccd hits fractional', (r: Json) => (r.frames[2].collisions.ccd.hitsEdgeEdge = 1.5), /^runner report: frames\[2\]\.collisions\.ccd\.hitsEdgeEdge must be an integer >= 0, got 1\.5$/],
    ['warning not a string', (r: Json) => (r.frames[1].collisions.warnings = [7]), /^runner report: frames\[1\]\.collisions\.warnings\[0\] must be a string, got 7$/],
    ['state energy text', (r: Json) => (r.frames[1].state.energy.total = 'x'), /^runner report: frames\[1\]\.state\.energy\.total must be a finite number, got "x"$/],
    ['bad change', (r: Json) => (r.frames[1].paramsChanged = { substeps: 0 }), /^runner report: frames\[1\]\.paramsChanged \(merged into the parameters before it\): solver parameter substeps must be positive/],
    ['summary frames', (r: Json) => (r.summary.frames = 4), /^runner report: summary\.frames must be the number of entries in frames \(3\), got 4$/],
    ['summary mean', (r: Json) => (r.summary.meanFrameMs += 1), /^runner report: summary\.meanFrameMs must be the mean of frames\[\]\.wallMs/],
    ['source unknown', (r: Json) => (r.source = 'other'), /^runner report: source must be "runner" or "page", got "other"$/],
    ['build commit', (r: Json) => (r.build = { date: 'today' }), /^runner report: build\.commit must be a string, got nothing/],
  ];
  it.each(cases)('names the field and frame index: %s', (_name, edit, message) => {
    expect(refusal(edit)).toMatch(message);
  });

  it('refuses text that is not JSON', () => {
    expect(() => readReport('{"scene": ')).toThrow(/^runner report: not JSON/);
  });

  it('requires every collision counter (each key of emptyCollisionCounters in turn)', () => {
    const c = emptyCollisionCounters();
    const keys = Object.keys(c).filter((k) => k !== 'dcdHits' && k !== 'ccd');
    for (const k of keys) expect(refusal((r) => delete r.frames[0].collisions[k]), k).toContain(`frames[0].collisions.${k} must be`);
    for (const k of Object.keys(c.dcdHits)) expect(refusal((r) => delete r.frames[0].collisions.dcdHits[k]), k).toContain(`frames[0].collisions.dcdHits.${k} must be`);
    for (const k of Object.keys(emptyCcdCounters())) expect(refusal((r) => delete r.frames[1].collisions.ccd[k]), k).toContain(`frames[1].collisions.ccd.${k} must be`);
  });
});
