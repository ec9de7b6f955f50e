/**
 * Tets turned inside out on purpose, and their shape quality written out here (not the solver's
 * mesh/tetQuality.ts), for the sliver floor's tests on a real mesh.
 */
import { det } from './tetOracle';

/** 6 V of tet t at x (3 per vertex), by tetOracle's determinant. */
export function signedVolume6(x: ArrayLike<number>, tets: ArrayLike<number>, t: number): number {
  return det(x, tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]);
}

/**
 * Each tet's shape quality 6 sqrt(2) V / (longest edge)^3 over the median of all of them (one
 * object): the relative quality the sliver thresholds are fractions of.
 */
export function relativeQualityOracle(x: ArrayLike<number>, tets: ArrayLike<number>): number[] {
  const count = tets.length / 4;
  const q: number[] = [];
  for (let t = 0; t < count; t++) {
    let longest = 0;
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        let s = 0;
        for (let j = 0; j < 3; j++) s += (x[3 * tets[4 * t + a] + j] - x[3 * tets[4 * t + b] + j]) ** 2;
        longest = Math.max(longest, Math.sqrt(s));
      }
    }
    q.push((Math.SQRT2 * Math.abs(signedVolume6(x, tets, t))) / longest ** 3);
  }
  const sorted = [...q].sort((a, b) => a - b);
  const h = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[h] : 0.5 * (sorted[h - 1] + sorted[h]);
  return q.map((v) => v / median);
}

/**
 * `rest` with corner 3 of each of `candidates` reflected through the plane of its other three
 * corners, taking only tets that share no corner with one already taken: those tets are then
 * inside out (volume -V_rest) and no two of them move the same vertex.
 */
export function reflectCorners(rest: ArrayLike<number>, tets: ArrayLike<number>, candidates: readonly number[]): { x: Float64Array; inverted: number[] } {
  const x = Float64Array.from(rest);
  const used = new Set<number>();
  const inverted: number[] = [];
  for (const t of candidates) {
    const ids = [0, 1, 2, 3].map((k) => tets[4 * t + k]);
    if (ids.some((v) => used.has(v))) continue;
    ids.forEach((v) => used.add(v));
    const p = (v: number) => [0, 1, 2].map((j) => x[3 * v + j]);
    const [a, b, c, d] = ids.map(p);
    const e = b.map((q, j) => q - a[j]), f = c.map((q, j) => q - a[j]);
    const n = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
    const nn = Math.hypot(...n);
    const h = ((d[0] - a[0]) * n[0] + (d[1] - a[1]) * n[1] + (d[2] - a[2]) * n[2]) / nn;
    for (let j = 0; j < 3; j++) x[3 * ids[3] + j] -= (2 * h * n[j]) / nn;
    inverted.push(t);
  }
  return { x, inverted };
}
