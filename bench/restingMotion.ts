/**
 * An object's motion split into its rigid part (v_cm + omega x r: linear momentum, and omega from
 * the angular momentum about the centre of mass and the inertia tensor) and the deformation left
 * over; mass-weighted mean squares of each (bench/restingStack.ts).
 */
export interface MotionSplit {
  centre: [number, number, number];
  /** Mass-weighted mean squared speed: all, rigid part, deformation part (m^2/s^2). */
  total2: number;
  rigid2: number;
  deform2: number;
}

/** Vertices [a, b) of x, v (xyz each) with masses mass[i - a]. */
export function rigidSplit(x: ArrayLike<number>, v: ArrayLike<number>, mass: Float64Array, a: number, b: number): MotionSplit {
  let M = 0;
  const c = [0, 0, 0], p = [0, 0, 0];
  for (let i = a; i < b; i++) {
    const mi = mass[i - a];
    M += mi;
    for (let k = 0; k < 3; k++) { c[k] += mi * x[3 * i + k]; p[k] += mi * v[3 * i + k]; }
  }
  for (let k = 0; k < 3; k++) { c[k] /= M; p[k] /= M; }
  const L = [0, 0, 0];
  const I = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = a; i < b; i++) {
    const mi = mass[i - a];
    const r = [x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]];
    const u = [v[3 * i] - p[0], v[3 * i + 1] - p[1], v[3 * i + 2] - p[2]];
    L[0] += mi * (r[1] * u[2] - r[2] * u[1]);
    L[1] += mi * (r[2] * u[0] - r[0] * u[2]);
    L[2] += mi * (r[0] * u[1] - r[1] * u[0]);
    const r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) I[3 * j + k] += mi * ((j === k ? r2 : 0) - r[j] * r[k]);
  }
  const w = solve3(I, L);
  let total = 0, rigid = 0, deform = 0;
  for (let i = a; i < b; i++) {
    const mi = mass[i - a];
    const r = [x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]];
    const rv = [p[0] + w[1] * r[2] - w[2] * r[1], p[1] + w[2] * r[0] - w[0] * r[2], p[2] + w[0] * r[1] - w[1] * r[0]];
    for (let k = 0; k < 3; k++) {
      const vk = v[3 * i + k];
      total += mi * vk * vk;
      rigid += mi * rv[k] * rv[k];
      deform += mi * (vk - rv[k]) ** 2;
    }
  }
  return { centre: [c[0], c[1], c[2]], total2: total / M, rigid2: rigid / M, deform2: deform / M };
}

/** Solves the symmetric 3x3 system A w = y by Cramer's rule (0 when singular). */
function solve3(A: number[], y: number[]): number[] {
  const det = (m: number[]): number => m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const d = det(A);
  if (!(Math.abs(d) > 0)) return [0, 0, 0];
  const out = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const B = A.slice();
    for (let j = 0; j < 3; j++) B[3 * j + k] = y[j];
    out[k] = det(B) / d;
  }
  return out;
}
