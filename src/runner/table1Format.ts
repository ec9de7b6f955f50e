/**
 * A Table-1 row as labelled text cells, in the paper's column order (paper 000 Table 1), for the
 * runner's closing line and the page's HTML table alike. "n/a" where the paper writes N/A: no
 * collision counters, or no shortest-path query.
 */
import type { Table1Row } from './table1';

export interface Table1Cell {
  label: string;
  value: string;
}

const fixed = (x: number, digits: number): string => x.toFixed(digits);

/** "3.3e-4 x 3" as in the paper: substep size x constraint iterations per substep. */
export function stepText(row: Table1Row): string {
  const s = row.step;
  return `${s.h.toExponential(1)} x ${s.iterations}${s.varies ? ' (changed during the run)' : ''}`;
}

export function table1Cells(row: Table1Row): Table1Cell[] {
  const c = row.collisions;
  const o = row.operations;
  const cells: Table1Cell[] = [
    { label: 'Vert.', value: String(row.vertices) },
    { label: 'Tet.', value: String(row.tets) },
    { label: 'Collisions CCD', value: c ? fixed(c.ccd, 1) : 'n/a' },
    { label: 'Collisions DCD', value: c ? fixed(c.dcd, 1) : 'n/a' },
    { label: 'Q', value: o ? fixed(o.q, 1) : 'n/a' },
    { label: 'Tr.', value: o ? fixed(o.tr, 1) : 'n/a' },
    { label: 'Tet visited', value: o ? fixed(o.tet, 1) : 'n/a' },
    { label: 'Step x iter.', value: stepText(row) },
    { label: 'Substeps', value: row.step.impact ? `${row.step.substeps} (on impact: mean ${fixed(row.step.impact.meanSubsteps, 1)}, max ${row.step.impact.maxSubsteps})` : String(row.step.substeps) },
    { label: 'Frame avg (ms)', value: fixed(row.frameMs.mean, 2) },
    { label: 'Frame max (ms)', value: fixed(row.frameMs.max, 2) },
  ];
  for (const p of row.phases) cells.push({ label: `${p.group} %`, value: fixed(100 * p.share, 1) });
  return cells;
}

/** Two aligned lines (labels, values) for a terminal. */
export function table1Text(row: Table1Row): string {
  const cells = table1Cells(row);
  const w = cells.map((c) => Math.max(c.label.length, c.value.length));
  const line = (get: (c: Table1Cell) => string): string => cells.map((c, i) => get(c).padStart(w[i]!)).join('  ');
  return `${line((c) => c.label)}\n${line((c) => c.value)}`;
}
