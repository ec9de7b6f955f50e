/**
 * The frames' CSV read back by an independent RFC 4180 parser (written here, character by
 * character): one row per frame, the header names every field of the JSON frames by its path,
 * and every cell reads back to the JSON value (numbers exactly).
 */
import { describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/runner/args';
import { csvColumns, framesToCsv } from '../../../src/runner/reportCsv';
import { sampleReport } from './support/sampleRun';

/** RFC 4180: fields split by commas, records by newlines, quoted fields with "" for a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV does not end with a newline');
  return rows;
}

/** Every leaf of a JSON value by dotted path, numeric arrays by index, string arrays joined. */
function leaves(prefix: string, v: unknown, out: Map<string, unknown>): void {
  if (v === undefined) return;
  if (Array.isArray(v) && v.length > 0 && typeof v[0] === 'number') v.forEach((x, i) => out.set(`${prefix}.${i}`, x));
  else if (Array.isArray(v)) out.set(prefix, v.join(' | '));
  else if (typeof v === 'object' && v !== null) for (const k of Object.keys(v)) leaves(prefix ? `${prefix}.${k}` : k, (v as Record<string, unknown>)[k], out);
  else out.set(prefix, v);
}

describe('runner CSV', () => {
  const report = sampleReport();
  const rows = parseCsv(framesToCsv(report.frames));
  const [header, ...body] = rows;

  it('has one row per frame and a header of every frame field', () => {
    expect(body.length).toBe(report.frames.length);
    for (const r of body) expect(r.length).toBe(header!.length);
    expect(header!.slice(0, 4)).toEqual(['frame', 'time', 'wallMs', 'renderMs']);
    expect(header).toEqual(csvColumns(report.frames));
    expect(new Set(header).size).toBe(header!.length);
    // Phases in the order they first appear (bvh only in the third frame), before the counters.
    expect(header!.filter((h) => h.startsWith('phasesMs.'))).toEqual(
      ['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'finalize', 'bvh'].map((p) => `phasesMs.${p}`),
    );
    expect(header!.indexOf('phasesMs.bvh')).toBeLessThan(header!.indexOf('counters.dispatches'));
    for (const name of ['collisions.dcdHits.vertexSelf', 'collisions.ccd.hitsEdgeEdge', 'collisions.bvhCandidates', 'collisions.warnings', 'state.energy.total', 'state.centreOfMass.2', 'paramsChanged.selfCollision']) {
      expect(header).toContain(name);
    }
  });

  it('every cell reads back to the JSON value, and absent fields are empty', () => {
    body.forEach((r, i) => {
      const want = new Map<string, unknown>();
      leaves('', JSON.parse(JSON.stringify(report.frames[i])), want);
      for (const [path, value] of want) {
        const cell = r[header!.indexOf(path)];
        expect(header, path).toContain(path);
        if (typeof value === 'number') expect(Number(cell), `frame ${i} ${path}`).toBe(value);
        else expect(cell, `frame ${i} ${path}`).toBe(String(value));
      }
      header!.forEach((h, k) => {
        if (!want.has(h)) expect(r[k], `frame ${i} ${h}`).toBe('');
      });
    });
    // Spot checks against the source objects.
    expect(Number(body[1]![header!.indexOf('wallMs')])).toBe(6.25);
    expect(Number(body[0]![header!.indexOf('time')])).toBe(1 / 60);
    expect(body[1]![header!.indexOf('collisions.warnings')]).toBe('broad phase failed: "boom", retried');
    expect(body[0]![header!.indexOf('state.energy.total')]).toBe('');
    expect(body[2]![header!.indexOf('phasesMs.detect')]).toBe('');
  });

  it('renderMs (the page) fills its column', () => {
    const frames = report.frames.map((f, i) => ({ ...f, renderMs: 1.5 * (i + 1) }));
    const [h, ...b] = parseCsv(framesToCsv(frames));
    expect(b.map((r) => Number(r[h!.indexOf('renderMs')]))).toEqual([1.5, 3, 4.5]);
  });

  it('the runner takes --csv FILE', () => {
    const cmd = parseRunArgs(['--scene', 'drop', '--csv', 'out/frames.csv']);
    expect(cmd.kind === 'run' && cmd.options.csv).toBe('out/frames.csv');
    expect(() => parseRunArgs(['--scene', 'drop', '--csv'])).toThrow(/--csv needs a value/);
  });
});
