/**
 * The report's frames as CSV (RFC 4180): one row per frame, one column per field, nested fields
 * named by their path ("collisions.dcdHits.vertexSelf", "state.energy.total"). Columns:
 *   frame, time, wallMs, renderMs      always, in this order (renderMs empty in the runner's files)
 *   phasesMs.<phase>                   the solver's phases, in the order they first appear
 *   counters.*, collisions.*, paramsChanged.*, state.*   likewise, when some frame has them
 * Numeric arrays (vectors) take one column per component ("state.centreOfMass.0"); string arrays
 * (collisions.warnings) one cell, joined with " | " (empty when none). A frame without a field leaves its cell
 * empty. Numbers are written by String(x), which reads back to the same double.
 */
import type { RecordedFrame } from './reportDocument';

const LEADING = ['frame', 'time', 'wallMs', 'renderMs'] as const;
const SECTIONS = ['phasesMs', 'counters', 'collisions', 'paramsChanged', 'state'] as const;

type Cell = string | number | boolean;

function flatten(prefix: string, value: unknown, out: Map<string, Cell>): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    out.set(prefix, value);
  } else if (Array.isArray(value)) {
    if (value.length > 0 && value.every((x) => typeof x === 'number')) value.forEach((x, i) => out.set(`${prefix}.${i}`, x as number));
    else out.set(prefix, value.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' | '));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(`${prefix}.${k}`, v, out);
  } else {
    throw new TypeError(`reportCsv: ${prefix} has a value of type ${typeof value}, which has no CSV form`);
  }
}

/** Each frame's cells by column name. */
function cellsOf(f: RecordedFrame): Map<string, Cell> {
  const m = new Map<string, Cell>();
  for (const k of LEADING) if (f[k] !== undefined) m.set(k, f[k]);
  for (const s of SECTIONS) flatten(s, f[s], m);
  return m;
}

/** Column names of these frames (see the file comment for the order). */
export function csvColumns(frames: readonly RecordedFrame[]): string[] {
  return columnsOf(frames.map(cellsOf));
}

function columnsOf(rows: readonly Map<string, Cell>[]): string[] {
  const bySection = new Map<string, Set<string>>(SECTIONS.map((s) => [s, new Set<string>()]));
  for (const row of rows) {
    for (const key of row.keys()) {
      const section = key.slice(0, key.indexOf('.'));
      bySection.get(section)?.add(key);
    }
  }
  return [...LEADING, ...SECTIONS.flatMap((s) => [...bySection.get(s)!])];
}

function quote(cell: Cell | undefined): string {
  if (cell === undefined) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function framesToCsv(frames: readonly RecordedFrame[]): string {
  const rows = frames.map(cellsOf);
  const columns = columnsOf(rows);
  const lines = [columns.map(quote).join(',')];
  for (const row of rows) lines.push(columns.map((c) => quote(row.get(c))).join(','));
  return `${lines.join('\n')}\n`;
}
