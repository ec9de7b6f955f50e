import { describe, expect, it } from 'vitest';
import { triangulateEdgeRing } from '../../../src/collision/air/edgeRingTriangulation';

type Triangle = [number, number, number];

/** Every triangulation of the convex polygon 0..m-1 (brute force: the apex of side (lo, hi), recursively). */
function allTriangulations(lo: number, hi: number): Triangle[][] {
  if (hi - lo < 2) return [[]];
  const out: Triangle[][] = [];
  for (let k = lo + 1; k < hi; k++) {
    for (const left of allTriangulations(lo, k)) for (const right of allTriangulations(k, hi)) out.push([[lo, k, hi], ...left, ...right]);
  }
  return out;
}

const diagonals = (t: Triangle[], m: number): Array<[number, number]> =>
  t.flatMap(([i, k, j]) => [[i, k], [k, j], [i, j]] as Array<[number, number]>).filter(([x, y]) => y - x > 1 && !(x === 0 && y === m - 1));

describe('triangulateEdgeRing (edge removal, Klincsek)', () => {
  it('finds the triangulation whose worst triangle is best, as enumerating them all does, with vetoed diagonals', () => {
    let seed = 3;
    const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32; };
    for (let m = 3; m <= 8; m++) {
      for (let trial = 0; trial < 20; trial++) {
        const table = new Map<string, number>();
        const score = (i: number, k: number, j: number) => {
          const key = `${i},${k},${j}`;
          if (!table.has(key)) table.set(key, rand() < 0.1 ? -Infinity : rand() * 2 - 0.5);
          return table.get(key)!;
        };
        const vetoed = new Set<string>();
        for (let i = 0; i < m; i++) for (let j = i + 2; j < m; j++) if (!(i === 0 && j === m - 1) && rand() < 0.15) vetoed.add(`${i},${j}`);
        const floor = trial % 2 === 0 ? 0 : -0.2;
        // The oracle: the best worst score over every triangulation that uses no vetoed diagonal.
        let best = -Infinity;
        for (const t of allTriangulations(0, m - 1)) {
          if (diagonals(t, m).some(([x, y]) => vetoed.has(`${x},${y}`))) continue;
          best = Math.max(best, Math.min(...t.map(([i, k, j]) => score(i, k, j))));
        }
        const ring = Array.from({ length: m }, (_, i) => 10 + i);
        const got = triangulateEdgeRing(100, 200, ring, floor, score, (i, j) => !vetoed.has(`${i},${j}`));
        if (!(best > floor)) { expect(got).toBeNull(); continue; }
        expect(got).not.toBeNull();
        expect(got!.quality).toBe(best);
        // Its tets: 2 (m - 2), a pair per triangle (a, r_i, r_k, r_j) and (b, r_i, r_j, r_k), each triangle scoring at least the worst.
        expect(got!.tets.length).toBe(2 * (m - 2));
        for (let n = 0; n < got!.tets.length; n += 2) {
          const [a, x, y, z] = got!.tets[n];
          expect(a).toBe(100);
          expect(got!.tets[n + 1]).toEqual([200, x, z, y]);
          expect(score(x - 10, y - 10, z - 10)).toBeGreaterThanOrEqual(best);
          expect(vetoed.has(`${x - 10},${z - 10}`)).toBe(false);
        }
      }
    }
  });
});
