/**
 * Cones of directions (paper 002 Fig. 2a: a cone (A, theta) is its unit axis A and half its apex
 * angle theta), kept in Float64Array slots of CONE_FLOATS numbers so that a tree's cones are one
 * typed array and nothing is allocated per cone.
 *
 * Every cone used by the culling tests must have theta < pi/2 to pass them, so a cone that would
 * be at least that wide is stored as FULL (theta = pi): merging keeps it FULL (a parent's normals
 * include its child's), and the tests fail on it as they would on the exact cone. Angles are
 * rounded up by ANGLE_SLACK after each operation so the float64 rounding of axes and arccosines
 * never makes a cone narrower than the set it bounds.
 */

/** Floats per cone: axis x, y, z, half-angle theta (radians; FULL_ANGLE for "every direction"). */
export const CONE_FLOATS = 4;
export const FULL_ANGLE = Math.PI;
/** Radians added after every angle computation (axis rounding is ~1e-16 rad). */
export const ANGLE_SLACK = 1e-12;
/** Cones at least this wide are FULL: no test can pass on them. */
const WIDE = Math.PI / 2;

/** Sets cone slot `o` of `c` to FULL. */
export function setFull(c: Float64Array, o: number): void {
  c[o] = 0;
  c[o + 1] = 0;
  c[o + 2] = 1;
  c[o + 3] = FULL_ANGLE;
}

export function isFull(c: Float64Array, o: number): boolean {
  return c[o + 3] >= WIDE;
}

/** The angle between unit vectors a and b, robust near 0 and pi (atan2 of |a x b| and a . b). */
export function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}

/**
 * Cone slot `o` := the smallest cone around direction (x, y, z) containing the ball of radius
 * `radius` centred at (x, y, z): axis (x, y, z) / |.|, theta = asin(radius / |(x, y, z)|).
 * FULL when the ball reaches the origin (or the vector is not finite).
 */
export function setBallCone(c: Float64Array, o: number, x: number, y: number, z: number, radius: number): void {
  const len = Math.sqrt(x * x + y * y + z * z);
  if (!(len > radius * (1 + 1e-9) && len > 0) || !Number.isFinite(len)) {
    setFull(c, o);
    return;
  }
  const theta = Math.asin(radius / len) + ANGLE_SLACK;
  if (theta >= WIDE) {
    setFull(c, o);
    return;
  }
  c[o] = x / len;
  c[o + 1] = y / len;
  c[o + 2] = z / len;
  c[o + 3] = theta;
}

/**
 * Cone slot `o` of `c` := a cone containing it and cone slot `p` of `d` (the merge of paper 002
 * section 5.2.3, the usual smallest enclosing cone of two cones): theta = (phi + theta1 + theta2) / 2
 * with phi the angle between the axes, the axis turned from the first toward the second by
 * theta - theta1 in their common plane. `c` and `d` may be the same array.
 */
export function mergeCone(c: Float64Array, o: number, d: Float64Array, p: number): void {
  const t1 = c[o + 3], t2 = d[p + 3];
  if (t1 >= WIDE || t2 >= WIDE) {
    setFull(c, o);
    return;
  }
  const ax = c[o], ay = c[o + 1], az = c[o + 2];
  const bx = d[p], by = d[p + 1], bz = d[p + 2];
  const phi = angleBetween(ax, ay, az, bx, by, bz);
  if (phi + t2 <= t1) return;
  if (phi + t1 <= t2) {
    c[o] = bx;
    c[o + 1] = by;
    c[o + 2] = bz;
    c[o + 3] = t2;
    return;
  }
  const theta = 0.5 * (phi + t1 + t2) + ANGLE_SLACK;
  if (theta >= WIDE) {
    setFull(c, o);
    return;
  }
  // Unit vector in the axes' plane, perpendicular to the first axis, toward the second
  // (phi > |t1 - t2| >= 0 here, and phi < pi since theta < pi/2).
  const dot = ax * bx + ay * by + az * bz;
  let ux = bx - dot * ax, uy = by - dot * ay, uz = bz - dot * az;
  const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (!(ul > 0)) {
    setFull(c, o);
    return;
  }
  ux /= ul;
  uy /= ul;
  uz /= ul;
  const beta = theta - t1;
  const cb = Math.cos(beta), sb = Math.sin(beta);
  let nx = cb * ax + sb * ux, ny = cb * ay + sb * uy, nz = cb * az + sb * uz;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  nx /= nl;
  ny /= nl;
  nz /= nl;
  c[o] = nx;
  c[o + 1] = ny;
  c[o + 2] = nz;
  c[o + 3] = theta;
}

/** Copies cone slot `p` of `d` into slot `o` of `c`. */
export function copyCone(c: Float64Array, o: number, d: Float64Array, p: number): void {
  c[o] = d[p];
  c[o + 1] = d[p + 1];
  c[o + 2] = d[p + 2];
  c[o + 3] = d[p + 3];
}

/**
 * Merges into slot `o` the cone of the ball B(v, radius) (setBallCone), using `tmp` (CONE_FLOATS
 * scratch) for it; `first` true: slot `o` is set to it instead.
 */
export function mergeBall(c: Float64Array, o: number, x: number, y: number, z: number, radius: number, tmp: Float64Array, first: boolean): void {
  if (first) {
    setBallCone(c, o, x, y, z, radius);
    return;
  }
  if (c[o + 3] >= WIDE) return;
  setBallCone(tmp, 0, x, y, z, radius);
  mergeCone(c, o, tmp, 0);
}
