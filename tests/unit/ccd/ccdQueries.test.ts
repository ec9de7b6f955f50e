/**
 * CCD against the public benchmark queries of Wang et al. 2021 (../shared/ccd-queries, ground truth computed
 * by others in exact rational arithmetic) and against analytic motions with known contact times.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SOLVER_OPTIONS, edgeEdgeCcd, vertexFaceCcd } from '../../../src/collision/ccd';

const QUERIES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../shared/ccd-queries');

/** Exact rational -> double. Benchmark values are doubles written as n / 2^k, so the division is exact. */
function rationalToNumber(num: string, den: string): number {
  const n = BigInt(num);
  const d = BigInt(den);
  const lim = 2n ** 53n;
  const absN = n < 0n ? -n : n;
  if (absN > lim || d > 2n ** 1000n) throw new Error(`rational ${num}/${den} outside the exact-conversion range`);
  return Number(n) / Number(d);
}

interface Query {
  q: Float64Array;
  truth: boolean;
  file: string;
  index: number;
}

function readQueries(set: string, kind: 'vertex-face' | 'edge-edge'): Query[] {
  const dir = join(QUERIES_DIR, set, kind);
  const out: Query[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv')).sort()) {
    const rows = readFileSync(join(dir, file), 'utf8').split(/\r?\n/).filter((l) => l.trim().length > 0);
    if (rows.length % 8 !== 0) throw new Error(`${file}: ${rows.length} rows, not a multiple of 8`);
    for (let s = 0; s < rows.length; s += 8) {
      const q = new Float64Array(24);
      let truth = false;
      for (let r = 0; r < 8; r++) {
        const c = rows[s + r].split(',').map((x) => x.trim());
        if (c.length !== 7) throw new Error(`${file} row ${s + r}: ${c.length} columns`);
        for (let k = 0; k < 3; k++) q[3 * r + k] = rationalToNumber(c[2 * k], c[2 * k + 1]);
        truth = c[6] === '1';
      }
      out.push({ q, truth, file, index: s / 8 });
    }
  }
  return out;
}

describe('CCD on the Wang et al. 2021 benchmark queries (exact ground truth)', () => {
  it('finds the shared query folder', () => {
    expect(existsSync(QUERIES_DIR), `expected ${QUERIES_DIR} (shared/ beside the project root)`).toBe(true);
    // The README lists 7 sets: unit-tests and six erleben-* sets.
    expect(sets).toContain('unit-tests');
    expect(sets.filter((s) => s.startsWith('erleben-')).length).toBe(6);
  });

  const sets = existsSync(QUERIES_DIR) ? readdirSync(QUERIES_DIR).filter((s) => statSync(join(QUERIES_DIR, s)).isDirectory()).sort() : [];
  for (const set of sets) {
    for (const kind of ['vertex-face', 'edge-edge'] as const) {
      it(`${set} ${kind}: zero false negatives`, () => {
        const queries = readQueries(set, kind);
        expect(queries.length).toBeGreaterThan(0);
        const ccd = kind === 'vertex-face' ? vertexFaceCcd : edgeEdgeCcd;
        let fn = 0, fp = 0, pos = 0, neg = 0;
        const misses: string[] = [];
        const start = performance.now();
        for (const query of queries) {
          const r = ccd(query.q);
          expect(r.toi).toBeGreaterThanOrEqual(0);
          expect(r.toi).toBeLessThanOrEqual(1);
          if (query.truth) {
            pos++;
            if (!r.hit) {
              fn++;
              misses.push(`${query.file}#${query.index}`);
            }
          } else {
            neg++;
            if (r.hit) fp++;
          }
        }
        const us = ((performance.now() - start) * 1000) / queries.length;
        console.log(
          `[ccd] ${set} ${kind}: ${queries.length} queries (${pos} positive), false negatives ${fn}, ` +
            `false positives ${fp}/${neg} = ${neg ? ((100 * fp) / neg).toFixed(1) : '0.0'}%, ${us.toFixed(1)} us/query`,
        );
        expect(misses).toEqual([]);
        // A CCD that always answers "hit" would pass the line above; it must also separate most non-contacts.
        expect(fp).toBeLessThan(0.6 * neg);
      });
    }
  }
});

/** Vertex-face query layout helper: v, f0, f1, f2 at t0 then at t1. */
function pack(points: number[][]): Float64Array {
  return Float64Array.from(points.flat());
}

describe('CCD giving up early', () => {
  it('a search cut short after a few boxes still reports every contact, no later than the full search', () => {
    if (!existsSync(QUERIES_DIR)) throw new Error(`missing ${QUERIES_DIR}`);
    const cut = { ...DEFAULT_SOLVER_OPTIONS, maxChecks: 5 };
    for (const [kind, ccd] of [
      ['vertex-face', vertexFaceCcd],
      ['edge-edge', edgeEdgeCcd],
    ] as const) {
      const positives = readQueries('unit-tests', kind).filter((x) => x.truth);
      expect(positives.length).toBeGreaterThan(0);
      for (const query of positives) {
        const short = ccd(query.q, cut);
        expect(short.hit, `${kind} ${query.file}#${query.index}`).toBe(true);
        expect(short.toi).toBeLessThanOrEqual(ccd(query.q).toi);
      }
    }
  });
});

describe('CCD analytic cases', () => {
  const tri = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
  ];

  it('vertex falling straight through a static triangle: toi within 1e-6 and not after the exact time', () => {
    // v(t) = (0.2, 0.3, z0 + t (z1 - z0)) crosses z = 0 at t* = z0 / (z0 - z1).
    for (const [z0, z1] of [
      [0.37, -0.63],
      [1, -2],
      [0.001, -0.999],
      [0.5, 0],
    ]) {
      const exact = z0 / (z0 - z1);
      const r = vertexFaceCcd(pack([[0.2, 0.3, z0], ...tri, [0.2, 0.3, z1], ...tri]));
      expect(r.hit).toBe(true);
      expect(r.toi).toBeLessThanOrEqual(exact);
      expect(exact - r.toi).toBeLessThan(1e-6);
    }
  });

  it('vertex passing beside the triangle (outside u + w <= 1): no hit', () => {
    const r = vertexFaceCcd(pack([[0.6, 0.6, 1], ...tri, [0.6, 0.6, -1], ...tri]));
    expect(r.hit).toBe(false);
  });

  it('moving triangle hitting a resting vertex: toi not after the exact time', () => {
    // Triangle translates up by 2 in z from z = -1.5; the vertex rests at z = 0 -> t* = 0.75.
    const lo = tri.map(([x, y]) => [x, y, -1.5]);
    const hi = tri.map(([x, y]) => [x, y, 0.5]);
    const r = vertexFaceCcd(pack([[0.25, 0.25, 0], ...lo, [0.25, 0.25, 0], ...hi]));
    expect(r.hit).toBe(true);
    expect(r.toi).toBeLessThanOrEqual(0.75);
    expect(0.75 - r.toi).toBeLessThan(1e-6);
  });

  it('crossing edges: toi not after the exact time', () => {
    // Edge a along x at height z(t) = 1 - 4t; edge b along y at z = 0: they meet at t* = 0.25.
    const q = pack([
      [-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0],
      [-1, 0, -3], [1, 0, -3], [0, -1, 0], [0, 1, 0],
    ]);
    const r = edgeEdgeCcd(q);
    expect(r.hit).toBe(true);
    expect(r.toi).toBeLessThanOrEqual(0.25);
    expect(0.25 - r.toi).toBeLessThan(1e-6);
  });

  it('parallel edges that never touch: no hit', () => {
    // Both along x, 0.1 apart in y, sliding along x together.
    const q = pack([
      [0, 0, 0], [1, 0, 0], [0, 0.1, 0], [1, 0.1, 0],
      [0.5, 0, 0], [1.5, 0, 0], [0.3, 0.1, 0], [1.3, 0.1, 0],
    ]);
    expect(edgeEdgeCcd(q).hit).toBe(false);
  });

  it('bad input throws a RangeError naming the problem', () => {
    expect(() => vertexFaceCcd(new Float64Array(23))).toThrow(RangeError);
    expect(() => vertexFaceCcd(new Float64Array(23))).toThrow(/24 numbers/);
    const q = new Float64Array(24);
    q[7] = Number.NaN;
    expect(() => edgeEdgeCcd(q)).toThrow(/coordinate 7/);
    q[7] = Infinity;
    expect(() => vertexFaceCcd(q)).toThrow(/not finite/);
  });
});
