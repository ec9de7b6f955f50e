/**
 * A point as the point of its tet in the tet's current shape (Fisher and Lin 2001 eqs. 2 and 4):
 * with the edges a = x1 - x0, b = x2 - x0, c = x3 - x0 (columns of Ds) and their cofactors
 * b x c, c x a, a x b (rows of det(Ds) Ds^-1), the barycentrics are
 *   u1 = (p - x0) . (b x c) / det,  u2 = (p - x0) . (c x a) / det,  u3 = (p - x0) . (a x b) / det,
 *   u0 = 1 - u1 - u2 - u3,
 * and a covector y of the rest frame (a gradient, given as its components along the rest edges
 * Dm^T g) maps to the current frame by F^-T g = Ds^-T (Dm^T g) = (y0 b x c + y1 c x a + y2 a x b) / det.
 * Float64, allocation-free: one TetFrame per caller.
 */

/** Flat or inverted: det(Ds) below this times the cube of the longest edge from x0. */
const FLAT_REL = 1e-12;

export class TetFrame {
  /** Barycentrics of the loaded point (sum 1). */
  readonly u = new Float64Array(4);
  /** b x c, c x a, a x b of the loaded tet. */
  readonly cofactors = new Float64Array(9);
  /** det(Ds) = 6 x the tet's signed volume. */
  det = 0;

  /**
   * Loads tet t at positions x (xyz per vertex) and p's barycentrics in it. Returns false, with
   * nothing usable, when the tet is flat or inverted (no barycentric map; detection never puts a
   * query in such a tet, paper 000 section 3.5).
   */
  load(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, px: number, py: number, pz: number): boolean {
    const o = 3 * tets[4 * t];
    const ax = x[3 * tets[4 * t + 1]] - x[o], ay = x[3 * tets[4 * t + 1] + 1] - x[o + 1], az = x[3 * tets[4 * t + 1] + 2] - x[o + 2];
    const bx = x[3 * tets[4 * t + 2]] - x[o], by = x[3 * tets[4 * t + 2] + 1] - x[o + 1], bz = x[3 * tets[4 * t + 2] + 2] - x[o + 2];
    const cx = x[3 * tets[4 * t + 3]] - x[o], cy = x[3 * tets[4 * t + 3] + 1] - x[o + 1], cz = x[3 * tets[4 * t + 3] + 2] - x[o + 2];
    const k = this.cofactors;
    k[0] = by * cz - bz * cy; k[1] = bz * cx - bx * cz; k[2] = bx * cy - by * cx;
    k[3] = cy * az - cz * ay; k[4] = cz * ax - cx * az; k[5] = cx * ay - cy * ax;
    k[6] = ay * bz - az * by; k[7] = az * bx - ax * bz; k[8] = ax * by - ay * bx;
    const det = ax * k[0] + ay * k[1] + az * k[2];
    const l2 = Math.max(ax * ax + ay * ay + az * az, bx * bx + by * by + bz * bz, cx * cx + cy * cy + cz * cz);
    this.det = det;
    if (!(det > FLAT_REL * l2 * Math.sqrt(l2))) return false;
    const dx = px - x[o], dy = py - x[o + 1], dz = pz - x[o + 2];
    const u = this.u;
    u[1] = (dx * k[0] + dy * k[1] + dz * k[2]) / det;
    u[2] = (dx * k[3] + dy * k[4] + dz * k[5]) / det;
    u[3] = (dx * k[6] + dy * k[7] + dz * k[8]) / det;
    u[0] = 1 - u[1] - u[2] - u[3];
    return true;
  }

  /** det(Ds) F^-T g into out[o..o+2] for the rest-frame components y = Dm^T g (a positive multiple of F^-T g). */
  mapCovector(y0: number, y1: number, y2: number, out: Float64Array, o: number): void {
    const k = this.cofactors;
    out[o] = y0 * k[0] + y1 * k[3] + y2 * k[6];
    out[o + 1] = y0 * k[1] + y1 * k[4] + y2 * k[7];
    out[o + 2] = y0 * k[2] + y1 * k[5] + y2 * k[8];
  }
}
