/**
 * Test oracle: squared distance from a point to a triangle, written independently of
 * src/geometry (plane projection + inside test, else the nearest of the three edges).
 */
function segment2(px: number, py: number, pz: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const ex = bx - ax, ey = by - ay, ez = bz - az;
  const len2 = ex * ex + ey * ey + ez * ez;
  let t = len2 > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / len2 : 0;
  t = Math.min(1, Math.max(0, t));
  const dx = ax + t * ex - px, dy = ay + t * ey - py, dz = az + t * ez - pz;
  return dx * dx + dy * dy + dz * dz;
}

export function pointTriangleDistance2(positions: ArrayLike<number>, tris: ArrayLike<number>, t: number, px: number, py: number, pz: number): number {
  const a = 3 * tris[3 * t], b = 3 * tris[3 * t + 1], c = 3 * tris[3 * t + 2];
  const ax = positions[a], ay = positions[a + 1], az = positions[a + 2];
  const bx = positions[b], by = positions[b + 1], bz = positions[b + 2];
  const cx = positions[c], cy = positions[c + 1], cz = positions[c + 2];
  const e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const n2 = nx * nx + ny * ny + nz * nz;
  const scale = Math.max(e1x * e1x + e1y * e1y + e1z * e1z, e2x * e2x + e2y * e2y + e2z * e2z);
  if (n2 > 1e-12 * scale * scale) {
    const wx = px - ax, wy = py - ay, wz = pz - az;
    // Barycentrics of p's projection via signed sub-areas (normal-weighted).
    const cross = (ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): number =>
      (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz;
    const u = cross(wx, wy, wz, e2x, e2y, e2z) / n2; // weight of b (sign convention checked below)
    const v = cross(e1x, e1y, e1z, wx, wy, wz) / n2; // weight of c
    if (u >= 0 && v >= 0 && u + v <= 1) {
      const d = wx * nx + wy * ny + wz * nz;
      return (d * d) / n2;
    }
  }
  return Math.min(
    segment2(px, py, pz, ax, ay, az, bx, by, bz),
    segment2(px, py, pz, bx, by, bz, cx, cy, cz),
    segment2(px, py, pz, cx, cy, cz, ax, ay, az),
  );
}
