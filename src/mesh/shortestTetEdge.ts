/** Shortest edge of the tets (4 vertex ids each) at positions (xyz per vertex); zero-length edges skipped. */
export function shortestTetEdge(positions: ArrayLike<number>, tets: ArrayLike<number>): number {
  let best = Infinity;
  for (let t = 0; t < tets.length; t += 4) {
    for (let a = 0; a < 3; a++) for (let b = a + 1; b < 4; b++) {
      const i = 3 * tets[t + a], j = 3 * tets[t + b];
      const d = (positions[i] - positions[j]) ** 2 + (positions[i + 1] - positions[j + 1]) ** 2 + (positions[i + 2] - positions[j + 2]) ** 2;
      if (d > 0 && d < best) best = d;
    }
  }
  return Math.sqrt(best);
}
