/**
 * Test oracle: how many tets a straight segment passes through (with a positive length inside
 * each). Brute force over all tets: the segment is clipped by each tet's four face planes.
 */
export function countTetsCrossed(
  positions: ArrayLike<number>,
  tets: ArrayLike<number>,
  a: readonly [number, number, number],
  b: readonly [number, number, number],
  minLength = 1e-9,
): number {
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const segLen = Math.hypot(d[0], d[1], d[2]);
  const P = new Float64Array(12);
  let count = 0;
  const faces = [[1, 2, 3, 0], [0, 3, 2, 1], [0, 1, 3, 2], [0, 2, 1, 3]];
  for (let t = 0; t < tets.length / 4; t++) {
    for (let m = 0; m < 4; m++) {
      const v = tets[4 * t + m];
      P[3 * m] = positions[3 * v];
      P[3 * m + 1] = positions[3 * v + 1];
      P[3 * m + 2] = positions[3 * v + 2];
    }
    let t0 = 0, t1 = 1;
    for (const [i, j, k, opp] of faces) {
      // Plane through face (i, j, k); inside is the side of the opposite vertex.
      const ux = P[3 * j] - P[3 * i], uy = P[3 * j + 1] - P[3 * i + 1], uz = P[3 * j + 2] - P[3 * i + 2];
      const vx = P[3 * k] - P[3 * i], vy = P[3 * k + 1] - P[3 * i + 1], vz = P[3 * k + 2] - P[3 * i + 2];
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const so = nx * (P[3 * opp] - P[3 * i]) + ny * (P[3 * opp + 1] - P[3 * i + 1]) + nz * (P[3 * opp + 2] - P[3 * i + 2]);
      if (so < 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      // Inside: n . (x - Pi) >= 0 with x = a + s d.
      const base = nx * (a[0] - P[3 * i]) + ny * (a[1] - P[3 * i + 1]) + nz * (a[2] - P[3 * i + 2]);
      const rate = nx * d[0] + ny * d[1] + nz * d[2];
      if (rate === 0) {
        if (base < 0) t1 = -1;
      } else if (rate > 0) t0 = Math.max(t0, -base / rate);
      else t1 = Math.min(t1, -base / rate);
      if (t1 <= t0) break;
    }
    if ((t1 - t0) * segLen > minLength) count++;
  }
  return count;
}
