/**
 * The area vector (v1 - v0) x (v2 - v0) of a triangle (twice its area, along its normal by the
 * winding), added to out[o..o+2]: summed over a vertex's triangles it is the area-weighted normal
 * of paper 000 eq. 6's vertex and edge features.
 */
export function addTriangleAreaVector(x: ArrayLike<number>, a: number, b: number, c: number, out: Float64Array, o: number): void {
  const ux = x[3 * b] - x[3 * a], uy = x[3 * b + 1] - x[3 * a + 1], uz = x[3 * b + 2] - x[3 * a + 2];
  const vx = x[3 * c] - x[3 * a], vy = x[3 * c + 1] - x[3 * a + 1], vz = x[3 * c + 2] - x[3 * a + 2];
  out[o] += uy * vz - uz * vy;
  out[o + 1] += uz * vx - ux * vz;
  out[o + 2] += ux * vy - uy * vx;
}
