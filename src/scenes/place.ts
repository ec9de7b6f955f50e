/** Helpers to place generated meshes: bounds, translation so a body rests above a height. */

export function boundsOf(p: ArrayLike<number>): { min: [number, number, number]; max: [number, number, number] } {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      if (p[i + k] < min[k]) min[k] = p[i + k];
      if (p[i + k] > max[k]) max[k] = p[i + k];
    }
  }
  return { min, max };
}

/** Copy of p (float64) translated so its lowest point is at `bottom` and it is centred in x and z. */
export function placeAbove(p: ArrayLike<number>, bottom: number): Float64Array {
  const b = boundsOf(p);
  const cx = (b.min[0] + b.max[0]) / 2;
  const cz = (b.min[2] + b.max[2]) / 2;
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    out[i] = p[i] - cx;
    out[i + 1] = p[i + 1] - b.min[1] + bottom;
    out[i + 2] = p[i + 2] - cz;
  }
  return out;
}

/** Largest horizontal distance of a vertex from the vertical axis through (0, 0): any turn about y stays within it. */
export function radiusAboutY(p: ArrayLike<number>): number {
  let r2 = 0;
  for (let i = 0; i < p.length; i += 3) r2 = Math.max(r2, p[i] * p[i] + p[i + 2] * p[i + 2]);
  return Math.sqrt(r2);
}

/** Copy of p turned by `angle` (radians) about the y axis, then moved by t (a proper rotation: tets keep their orientation). */
export function turnedAboutY(p: ArrayLike<number>, angle: number, t: readonly [number, number, number]): Float64Array {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i], z = p[i + 2];
    out[i] = c * x + s * z + t[0];
    out[i + 1] = p[i + 1] + t[1];
    out[i + 2] = -s * x + c * z + t[2];
  }
  return out;
}

/** Stood on end: a quarter turn about z, (x, y, z) -> (-y, x, z) (proper, so tets keep their orientation). */
export function standUpright(p: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    out[i] = -p[i + 1];
    out[i + 1] = p[i];
    out[i + 2] = p[i + 2];
  }
  return out;
}

/** Handle ids of a rod along x: 0 for the vertices within `fraction` of its length from its left end, 1 at its right end, -1 between. */
export function endHandles(p: ArrayLike<number>, fraction: number): Int32Array {
  const b = boundsOf(p);
  const band = fraction * (b.max[0] - b.min[0]);
  const n = p.length / 3;
  const handleOfVertex = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const x = p[3 * v];
    handleOfVertex[v] = x < b.min[0] + band ? 0 : x > b.max[0] - band ? 1 : -1;
  }
  return handleOfVertex;
}
