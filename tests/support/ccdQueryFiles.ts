/**
 * Reader for the public CCD benchmark queries of Wang et al. 2021 in ../shared/ccd-queries (made by others;
 * ground truth computed in exact rational arithmetic). Layout and format: that folder's README.md.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CCD_QUERIES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/ccd-queries');

export type CcdQueryKind = 'vertex-face' | 'edge-edge';

/** Exact rational -> double. Benchmark values are doubles written as n / 2^k, so the division is exact. */
function rationalToNumber(num: string, den: string, where: string): number {
  const n = BigInt(num);
  const d = BigInt(den);
  const absN = n < 0n ? -n : n;
  if (absN > 2n ** 53n || d <= 0n || d > 2n ** 1000n) throw new Error(`${where}: rational ${num}/${den} outside the exact-conversion range`);
  return Number(n) / Number(d);
}

/** The query sets present (sub-folders), sorted. */
export function ccdQuerySets(): string[] {
  if (!existsSync(CCD_QUERIES_DIR)) return [];
  return readdirSync(CCD_QUERIES_DIR)
    .filter((s) => statSync(join(CCD_QUERIES_DIR, s)).isDirectory())
    .sort();
}

export interface CcdQuerySet {
  /** 24 numbers per query: 4 points at t0, then the same at t1. */
  queries: Float64Array;
  /** Exact ground truth per query: 1 = contact at some t in [0, 1]. */
  truth: Uint8Array;
  /** "file#index" per query, for messages. */
  names: string[];
}

/** Every query of SET/KIND, in file order. */
export function readCcdQueries(set: string, kind: CcdQueryKind): CcdQuerySet {
  const dir = join(CCD_QUERIES_DIR, set, kind);
  const values: number[] = [];
  const truth: number[] = [];
  const names: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv')).sort()) {
    const rows = readFileSync(join(dir, file), 'utf8').split(/\r?\n/).filter((l) => l.trim().length > 0);
    if (rows.length % 8 !== 0) throw new Error(`${set}/${kind}/${file}: ${rows.length} rows, not a multiple of 8`);
    for (let s = 0; s < rows.length; s += 8) {
      let t = -1;
      for (let r = 0; r < 8; r++) {
        const where = `${set}/${kind}/${file} row ${s + r + 1}`;
        const c = rows[s + r].split(',').map((x) => x.trim());
        if (c.length !== 7) throw new Error(`${where}: ${c.length} columns, expected 7`);
        for (let k = 0; k < 3; k++) values.push(rationalToNumber(c[2 * k], c[2 * k + 1], where));
        const rowTruth = c[6] === '1' ? 1 : c[6] === '0' ? 0 : -1;
        if (rowTruth < 0 || (t >= 0 && rowTruth !== t)) throw new Error(`${where}: ground truth ${c[6]} (expected 0/1, equal on all 8 rows)`);
        t = rowTruth;
      }
      truth.push(t);
      names.push(`${file}#${s / 8}`);
    }
  }
  return { queries: Float64Array.from(values), truth: Uint8Array.from(truth), names };
}
