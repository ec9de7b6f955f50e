/**
 * Where the camera goes to show a whole box: looking at the box's centre along a fixed
 * direction, from the nearest distance at which all eight corners project inside the part of
 * the canvas nothing covers (the panel on the right is left out), with a margin. Exact for a
 * perspective camera: a corner at offset p from the centre, seen from distance d along the view
 * direction w, lies at depth d - p.w and must satisfy |p.u| <= (d - p.w) tan(half fov x) and
 * |p.v| <= (d - p.w) tan(half fov y), u and v the camera's right and up. Plain math (no three.js)
 * for the unit tests; renderer.ts applies it.
 */

export type Vec3 = readonly [number, number, number];

export interface FrameRequest {
  /** Box corners min and max (world). */
  min: Vec3;
  max: Vec3;
  /** From the target toward the camera (need not be unit). */
  direction: Vec3;
  /** World up (the camera's roll: up projected off the direction). */
  up?: Vec3;
  /** Vertical field of view, degrees. */
  fovYDeg: number;
  /** Width / height of the uncovered part of the canvas. */
  aspect: number;
  /** Fraction of each half-extent left empty around the box (default 0.1). */
  margin?: number;
}

export interface Framing {
  target: [number, number, number];
  /** Camera position. */
  position: [number, number, number];
  /** Distance from the target. */
  distance: number;
  /** The box's bounding-sphere radius, for near / far planes. */
  radius: number;
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  if (!(l > 0)) throw new RangeError('framing: a zero direction');
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The camera's orthonormal frame: right u, up v, and w toward the camera. */
export function cameraBasis(direction: Vec3, up: Vec3 = [0, 1, 0]): { u: Vec3; v: Vec3; w: Vec3 } {
  const w = unit(direction);
  const u = unit(cross(up, w));
  const v = cross(w, u);
  return { u, v, w };
}

export function frameBox(r: FrameRequest): Framing {
  for (const k of [0, 1, 2]) {
    if (!(Number.isFinite(r.min[k]) && Number.isFinite(r.max[k]) && r.min[k]! <= r.max[k]!)) {
      throw new RangeError(`frameBox: the box [${r.min.join(', ')}] - [${r.max.join(', ')}] is empty or not finite`);
    }
  }
  if (!(r.fovYDeg > 0 && r.fovYDeg < 180)) throw new RangeError(`frameBox: fovYDeg ${r.fovYDeg} must be in (0, 180)`);
  if (!(r.aspect > 0) || !Number.isFinite(r.aspect)) throw new RangeError(`frameBox: aspect ${r.aspect} must be a finite number > 0`);
  const margin = r.margin ?? 0.1;
  if (!(margin >= 0 && margin < 1)) throw new RangeError(`frameBox: margin ${margin} must be in [0, 1)`);
  const { u, v, w } = cameraBasis(r.direction, r.up);
  const centre: Vec3 = [(r.min[0] + r.max[0]) / 2, (r.min[1] + r.max[1]) / 2, (r.min[2] + r.max[2]) / 2];
  const half: Vec3 = [(r.max[0] - r.min[0]) / 2, (r.max[1] - r.min[1]) / 2, (r.max[2] - r.min[2]) / 2];
  const radius = Math.max(Math.hypot(half[0], half[1], half[2]), 1e-6);
  const tanY = Math.tan((r.fovYDeg * Math.PI) / 360) * (1 - margin);
  const tanX = Math.tan((r.fovYDeg * Math.PI) / 360) * r.aspect * (1 - margin);
  let distance = 0;
  for (let c = 0; c < 8; c++) {
    const p: Vec3 = [c & 1 ? half[0] : -half[0], c & 2 ? half[1] : -half[1], c & 4 ? half[2] : -half[2]];
    const depthOffset = dot(p, w);
    distance = Math.max(distance, depthOffset + Math.abs(dot(p, u)) / tanX, depthOffset + Math.abs(dot(p, v)) / tanY);
  }
  // Never inside the box's bounding sphere (a flat box seen edge-on would otherwise put the camera in it).
  distance = Math.max(distance, 1.05 * radius);
  const position: [number, number, number] = [centre[0] + distance * w[0], centre[1] + distance * w[1], centre[2] + distance * w[2]];
  return { target: [centre[0], centre[1], centre[2]], position, distance, radius };
}
