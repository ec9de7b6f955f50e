/** Measures of meshes for the solver tests: bounds and total volume. */

/** Axis-aligned bounds of xyz triples. */
export function bounds(p: ArrayLike<number>): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) {
    min[k] = Math.min(min[k], p[i + k]);
    max[k] = Math.max(max[k], p[i + k]);
  }
  return { min, max };
}

/** Total signed volume of the tets at positions x. */
export function totalVolume(x: ArrayLike<number>, tets: ArrayLike<number>): number {
  let v = 0;
  for (let t = 0; t < tets.length; t += 4) {
    const a = 3 * tets[t], b = 3 * tets[t + 1], c = 3 * tets[t + 2], d = 3 * tets[t + 3];
    const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
    const e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
    const e3 = [x[d] - x[a], x[d + 1] - x[a + 1], x[d + 2] - x[a + 2]];
    v += (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) / 6;
  }
  return v;
}
