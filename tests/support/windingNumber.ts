/**
 * The winding number of a closed triangle surface at a point (sum of the triangles' signed solid
 * angles over 4 pi; Van Oosterom and Strackee 1983): 1 inside a positively oriented closed surface,
 * 0 outside, whatever the tets inside it do. Shares no code with src/ (the tests' oracle for "is
 * this point inside that body's surface").
 */

/** Faces used by exactly one of `tets` (4 ids each), oriented outward by the tets at `rest` (xyz). */
export function outwardBoundary(tets: ArrayLike<number>, rest: ArrayLike<number>): [number, number, number][] {
  const faces = new Map<string, [number, number, number]>();
  for (let t = 0; t < tets.length / 4; t++) {
    const c = [tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]];
    for (let skip = 0; skip < 4; skip++) {
      const f = c.filter((_, j) => j !== skip) as [number, number, number];
      const key = [...f].sort((a, b) => a - b).join(',');
      if (faces.has(key)) {
        faces.delete(key);
        continue;
      }
      // Outward: the opposite corner behind the face's plane.
      const d = c[skip];
      const e1 = [0, 1, 2].map((k) => rest[3 * f[1] + k] - rest[3 * f[0] + k]);
      const e2 = [0, 1, 2].map((k) => rest[3 * f[2] + k] - rest[3 * f[0] + k]);
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const side = [0, 1, 2].reduce((s, k) => s + n[k] * (rest[3 * d + k] - rest[3 * f[0] + k]), 0);
      faces.set(key, side < 0 ? f : [f[0], f[2], f[1]]);
    }
  }
  return [...faces.values()];
}

/** The winding number at p of the triangles `faces` at positions x (xyz). */
export function windingNumber(faces: readonly (readonly [number, number, number])[], x: ArrayLike<number>, p: readonly number[]): number {
  let sum = 0;
  for (const [i, j, k] of faces) {
    const a = [0, 1, 2].map((c) => x[3 * i + c] - p[c]);
    const b = [0, 1, 2].map((c) => x[3 * j + c] - p[c]);
    const c3 = [0, 1, 2].map((c) => x[3 * k + c] - p[c]);
    const la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]), lc = Math.hypot(c3[0], c3[1], c3[2]);
    const det = a[0] * (b[1] * c3[2] - b[2] * c3[1]) - a[1] * (b[0] * c3[2] - b[2] * c3[0]) + a[2] * (b[0] * c3[1] - b[1] * c3[0]);
    const dots = la * lb * lc + (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) * lc + (b[0] * c3[0] + b[1] * c3[1] + b[2] * c3[2]) * la + (c3[0] * a[0] + c3[1] * a[1] + c3[2] * a[2]) * lb;
    sum += 2 * Math.atan2(det, dots);
  }
  return sum / (4 * Math.PI);
}
