/**
 * The runner's files as a user gets them: `npm run sim -- ... --out F.json --csv F.csv` on a
 * small collision scene. The runner's reader accepts the JSON; the CSV has one row per JSON
 * frame and every cell equals the JSON value (read by a plain split: the run has no warnings, so
 * no quoted cell); the report's table1 is the row recomputed from its own frames; the Table-1
 * line is printed on stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readReport } from '../../src/runner/reportReader';
import { table1Row } from '../../src/runner/table1';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'runner-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function leaf(o: unknown, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split('.')) v = v === undefined || v === null ? undefined : (v as Record<string, unknown>)[k];
  return v;
}

describe('runner JSON and CSV files', () => {
  it('the reader accepts the JSON; the CSV has the same frames; table1 matches the frames', () => {
    const json = join(dir, 'drop.json');
    const csv = join(dir, 'drop.csv');
    const r = spawnSync('npm', ['run', '-s', 'sim', '--', '--scene', 'drop', '--mesh', '../shared/meshes/Cube.t', '--frames', '3', '--out', json, '--csv', csv], {
      cwd: root,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Table 1 \(paper 000\), 3 frames:\n\s*Vert\.\s+Tet\./);

    const report = readReport(readFileSync(json, 'utf8'));
    expect(report.source).toBe('runner');
    expect(report.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    expect(report.frames[0]!.collisions).toBeDefined();

    const [head, ...rows] = readFileSync(csv, 'utf8').trimEnd().split('\n');
    const columns = head!.split(',');
    expect(rows.length).toBe(report.frames.length);
    expect(columns.slice(0, 4)).toEqual(['frame', 'time', 'wallMs', 'renderMs']);
    const phases = Object.keys(report.frames[0]!.phasesMs);
    for (const p of phases) expect(columns).toContain(`phasesMs.${p}`);
    rows.forEach((line, i) => {
      const cells = line.split(',');
      expect(cells.length).toBe(columns.length);
      columns.forEach((c, k) => {
        if (c === 'collisions.warnings') return expect(cells[k]).toBe('');
        const key = c.replace(/\.(\d+)$/, '[$1]');
        const m = /^(.*)\[(\d+)\]$/.exec(key);
        const v = m ? (leaf(report.frames[i], m[1]!) as unknown[] | undefined)?.[Number(m[2])] : leaf(report.frames[i], c);
        if (v === undefined || v === null) expect(cells[k], `${i} ${c}`).toBe('');
        else if (typeof v === 'number') expect(Number(cells[k]), `${i} ${c}`).toBe(v);
        else expect(cells[k], `${i} ${c}`).toBe(String(v));
      });
    });

    expect(report.table1).toEqual(table1Row({ frames: report.frames, counts: report.counts, params: report.params }));
  });
});
