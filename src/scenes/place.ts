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
