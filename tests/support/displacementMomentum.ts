/**
 * The momentum a position correction moves, for the laws of the projections (the inversion and
 * sliver floors): the linear momentum sum m dx and the angular momentum sum (x_before x m dx) of
 * the mass-weighted displacement from `before` to `after`, and its size sum m |dx| to scale them by.
 */
export function displacementMomentum(mass: ArrayLike<number>, before: ArrayLike<number>, after: ArrayLike<number>): { p: number[]; L: number[]; scale: number } {
  const p = [0, 0, 0], L = [0, 0, 0];
  let scale = 0;
  for (let i = 0; i < mass.length; i++) {
    const d = [0, 1, 2].map((k) => mass[i] * (after[3 * i + k] - before[3 * i + k]));
    const q = [0, 1, 2].map((k) => before[3 * i + k]);
    for (let k = 0; k < 3; k++) p[k] += d[k];
    L[0] += q[1] * d[2] - q[2] * d[1];
    L[1] += q[2] * d[0] - q[0] * d[2];
    L[2] += q[0] * d[1] - q[1] * d[0];
    scale += Math.hypot(...d);
  }
  return { p, L, scale };
}
