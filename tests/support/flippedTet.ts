/**
 * A boundary tet of a resting mesh turned inside out (bench/heldInversion.ts's state, for the
 * tests): corner `corner` of tet t moved through the plane of the other three, 1.2 x its distance
 * to it, so the tet's volume goes from V to -0.2 V (it is linear in the corner). Writes the new
 * corner to both x and x0 (the substep's start), so no velocity comes of it.
 */
export function flipTetCorner(tets: Uint32Array, x: Float64Array | Float32Array, x0: Float64Array | Float32Array, t: number, corner = 0, stride = 3): void {
  const ids = Array.from(tets.subarray(4 * t, 4 * t + 4));
  const p = ids[corner]!, o = ids.filter((_, k) => k !== corner);
  const at = (v: number, k: number): number => x[stride * v + k]!;
  const e1 = [0, 1, 2].map((k) => at(o[1]!, k) - at(o[0]!, k)), e2 = [0, 1, 2].map((k) => at(o[2]!, k) - at(o[0]!, k));
  const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  const nl = Math.hypot(n[0]!, n[1]!, n[2]!);
  const dist = [0, 1, 2].reduce((sum, k) => sum + ((at(p, k) - at(o[0]!, k)) * n[k]!) / nl, 0);
  for (let k = 0; k < 3; k++) {
    x[stride * p + k] = at(p, k) - (1.2 * dist * n[k]!) / nl;
    x0[stride * p + k] = x[stride * p + k]!;
  }
}

/** 6 x the signed volume of tet t (xyz at `stride` floats a vertex). */
export function tetVolume6Of(tets: Uint32Array, x: ArrayLike<number>, t: number, stride = 3): number {
  const i = (k: number) => tets[4 * t + k]!;
  const d = (a: number, b: number) => [0, 1, 2].map((k) => x[stride * b + k]! - x[stride * a + k]!);
  const [u, v, w] = [d(i(0), i(1)), d(i(0), i(2)), d(i(0), i(3))];
  return u[0]! * (v[1]! * w[2]! - v[2]! * w[1]!) - u[1]! * (v[0]! * w[2]! - v[2]! * w[0]!) + u[2]! * (v[0]! * w[1]! - v[1]! * w[0]!);
}
