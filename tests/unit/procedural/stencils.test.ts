/**
 * The stencils against a linear field on one tet: for a linear field the cut points are exact,
 * so {field < 0} inside the tet is exactly the polytope the stencil must fill. Random points
 * decide: every inside point lies in exactly one output tet, every outside point in none.
 * Run for all 3^4 sign patterns and every choice of the face-quad diagonals.
 */
import { describe, expect, it } from 'vitest';
import { fillCutTet, type StencilContext } from '../../../src/mesh/procedural/stencils';
import { rng } from '../../support/random';

const EDGES = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];

function edgeIndex(u: number, w: number): number {
  const a = Math.min(u, w), b = Math.max(u, w);
  return EDGES.findIndex(([x, y]) => x === a && y === b);
}

function bary(P: number[][], p: number[]): number[] {
  // Solve p = P0 + l1 (P1-P0) + l2 (P2-P0) + l3 (P3-P0) by Cramer's rule.
  const c = [0, 1, 2].map((k) => [P[1][k] - P[0][k], P[2][k] - P[0][k], P[3][k] - P[0][k]]);
  const det3 = (m: number[][]) =>
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const r = [0, 1, 2].map((k) => p[k] - P[0][k]);
  const d = det3(c);
  const l = [0, 1, 2].map((j) => det3(c.map((row, k) => row.map((x, i) => (i === j ? r[k] : x)))) / d);
  return [1 - l[0] - l[1] - l[2], l[0], l[1], l[2]];
}

describe('isosurface stuffing stencils', () => {
  it('fill exactly the inside of a linear field for every sign pattern and diagonal choice', () => {
    const rand = rng(7);
    const P = [[0, 0, 0], [1, 0.1, 0.2], [0.2, 1.1, 0.1], [0.1, 0.3, 0.9]];
    let cutCases = 0, throwsExpected = 0;
    for (let pattern = 0; pattern < 81; pattern++) {
      const s = [0, 1, 2, 3].map((i) => (Math.floor(pattern / 3 ** i) % 3) - 1);
      if (!s.includes(-1) || !s.includes(1)) continue;
      cutCases++;
      for (let faceBits = 0; faceBits < 16; faceBits++) {
        const phi = s.map((x) => x * (0.2 + rand()));
        const cutPos = (e: number): number[] => {
          const [u, w] = EDGES[e];
          const t = phi[u] / (phi[u] - phi[w]);
          return [0, 1, 2].map((k) => P[u][k] + t * (P[w][k] - P[u][k]));
        };
        const posOf = (code: number): number[] => (code >= 0 ? P[code] : cutPos(-1 - code));
        const out: number[][][] = [];
        // A face is named by its missing vertex; its bit says whether the smaller inside id wins.
        const ctx: StencilContext = {
          cut: (u, w) => {
            expect(phi[u] * phi[w]).toBeLessThan(0);
            return -1 - edgeIndex(u, w);
          },
          uWins: (u, w, o) => {
            const face = 6 - u - w - o;
            return ((faceBits >> face) & 1) === 1 === u < w;
          },
          dist2: (a, b) => {
            const pa = posOf(a), pb = posOf(b);
            return (pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2 + (pa[2] - pb[2]) ** 2;
          },
          emit: (a, b, c, d) => out.push([a, b, c, d].map(posOf)),
        };
        // (3,0,1): the three quad diagonals around the outside vertex may form a cycle; then
        // no split exists and fillCutTet must refuse.
        const inside = [0, 1, 2, 3].filter((i) => s[i] < 0);
        let cyclic = false;
        if (inside.length === 3) {
          const d = s.indexOf(1);
          const wins = [0, 0, 0];
          for (let x = 0; x < 3; x++) for (let y = x + 1; y < 3; y++) {
            if (ctx.uWins(inside[x], inside[y], d)) wins[x]++;
            else wins[y]++;
          }
          cyclic = wins.every((w) => w === 1);
        }
        if (cyclic) {
          throwsExpected++;
          expect(() => fillCutTet(ctx, [0, 1, 2, 3], s)).toThrow(/cycle/);
          continue;
        }
        fillCutTet(ctx, [0, 1, 2, 3], s);
        expect(out.length).toBeGreaterThan(0);
        expect(out.length).toBeLessThanOrEqual(3);
        for (let n = 0; n < 300; n++) {
          // Uniform point in the tet.
          let l = [rand(), rand(), rand(), rand()].map((x) => -Math.log(x + 1e-300));
          const sum = l.reduce((a, b) => a + b);
          l = l.map((x) => x / sum);
          const p = [0, 1, 2].map((k) => l.reduce((acc, li, i) => acc + li * P[i][k], 0));
          const field = l.reduce((acc, li, i) => acc + li * phi[i], 0);
          if (Math.abs(field) < 1e-6) continue;
          let covered = 0, nearFace = false;
          for (const tet of out) {
            const b = bary(tet, p);
            const m = Math.min(...b);
            if (Math.abs(m) < 1e-9) nearFace = true;
            if (m > 0) covered++;
          }
          if (nearFace) continue;
          expect(covered, `pattern ${s} bits ${faceBits}`).toBe(field < 0 ? 1 : 0);
        }
      }
    }
    expect(cutCases).toBe(50);
    // (3,0,1) has 4 patterns; 2 of the 8 diagonal choices on the outside vertex's 3 faces are
    // cyclic, times 2 for the unused fourth face bit: 4 x 4.
    expect(throwsExpected).toBe(16);
  });
});
