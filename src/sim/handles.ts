/**
 * Kinematic handles: scripted affine motions of pinned vertex groups. A vertex on handle h
 * sits at A(t) * rest + b(t). Encoded per substep as 16 numbers: 3 columns of A (vec4 each,
 * w = 0) and b (vec4, w = 0), read the same way by the CPU reference and the GPU.
 */
import type { Vec3 } from './colliders';

export type HandleScript = (time: number) => { matrix: ArrayLike<number>; translation: Vec3 };
export const HANDLE_STRIDE = 16;

/** A pinned region that never moves. */
export const fixedHandle: HandleScript = () => ({ matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] });

/** Moves at a constant velocity. */
export function translatingHandle(velocity: Vec3): HandleScript {
  return (t) => ({ matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [velocity[0] * t, velocity[1] * t, velocity[2] * t] });
}

/** Rotates about the axis through `point` along `axis` at `radiansPerSecond` (Rodrigues' formula). */
export function twistingHandle(point: Vec3, axis: Vec3, radiansPerSecond: number): HandleScript {
  const len = Math.hypot(axis[0], axis[1], axis[2]);
  if (!(len > 0)) throw new RangeError('twisting handle: axis must be non-zero');
  const [ux, uy, uz] = [axis[0] / len, axis[1] / len, axis[2] / len];
  return (t) => {
    const a = radiansPerSecond * t;
    const c = Math.cos(a), s = Math.sin(a), k = 1 - c;
    // Column-major rotation matrix.
    const m = [
      c + ux * ux * k, uy * ux * k + uz * s, uz * ux * k - uy * s,
      ux * uy * k - uz * s, c + uy * uy * k, uz * uy * k + ux * s,
      ux * uz * k + uy * s, uy * uz * k - ux * s, c + uz * uz * k,
    ];
    // b = point - R point keeps the axis fixed.
    const tr: Vec3 = [
      point[0] - (m[0] * point[0] + m[3] * point[1] + m[6] * point[2]),
      point[1] - (m[1] * point[0] + m[4] * point[1] + m[7] * point[2]),
      point[2] - (m[2] * point[0] + m[5] * point[1] + m[8] * point[2]),
    ];
    return { matrix: m, translation: tr };
  };
}

export function encodeHandle(h: HandleScript, time: number, out: Float64Array | Float32Array, offset: number): void {
  const { matrix, translation } = h(time);
  out.fill(0, offset, offset + HANDLE_STRIDE);
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) out[offset + 4 * j + i] = matrix[3 * j + i];
  for (let i = 0; i < 3; i++) out[offset + 12 + i] = translation[i];
}
