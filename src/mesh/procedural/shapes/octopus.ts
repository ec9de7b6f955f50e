/**
 * Octopus: an egg-shaped head with eight tapered arms that leave its underside outward and
 * downward and curl up toward their tips (planar curves of increasing curvature), blended
 * into the head with a smooth minimum.
 */
import { boundedUnion, groupParts, len, smoothMin, taperedPolylineParts, type BoundedPart } from '../sdf';
import type { ShapeDefinition } from './shapeTypes';

const ARMS = 8;
const ARM_SEGMENTS = 20;

/** Centre line of arm i: ARM_SEGMENTS + 1 points. */
export function octopusArm(i: number, headRadius: number, armLength: number, curl: number): Float64Array {
  const theta = (2 * Math.PI * i) / ARMS + Math.PI / ARMS;
  const ux = Math.cos(theta), uz = Math.sin(theta);
  // Arms differ a little so the pose does not look mechanical (deterministic, golden ratio).
  const c = curl * (0.8 + 0.4 * ((i * 0.6180339887) % 1));
  const pts = new Float64Array(3 * (ARM_SEGMENTS + 1));
  let r = 0.45 * headRadius, y = -0.55 * headRadius;
  const step = armLength / ARM_SEGMENTS;
  for (let m = 0; m <= ARM_SEGMENTS; m++) {
    pts[3 * m] = r * ux;
    pts[3 * m + 1] = y;
    pts[3 * m + 2] = r * uz;
    const s = (m + 0.5) / ARM_SEGMENTS;
    const beta = -1.1 + 2.6 * c * s * s; // direction in the (radial, up) plane
    r += step * Math.cos(beta);
    y += step * Math.sin(beta);
  }
  return pts;
}

export const octopusShape: ShapeDefinition = {
  name: 'octopus',
  description: 'Head with eight tapered, curling arms.',
  container: false,
  params: [
    { name: 'headRadius', description: 'horizontal radius of the head (height is 1.25x)', min: 0.02, max: 5, default: 0.3 },
    { name: 'armLength', description: 'arm length', min: 0.02, max: 20, default: 1 },
    { name: 'armBaseRadius', description: 'arm radius at the head', min: 0.005, max: 2, default: 0.1 },
    { name: 'armTipRadius', description: 'arm radius at the tip', min: 0.002, max: 2, default: 0.05 },
    { name: 'curl', description: 'how far the arms curl up (0: straight)', min: 0, max: 2, default: 1 },
  ],
  defaultResolution: 35,
  build: ({ headRadius: a, armLength, armBaseRadius: r0, armTipRadius: r1, curl }) => {
    const b = 1.25 * a;
    // Ellipsoid bound: (|q| - 1) * a with q = (x/a, y/b, z/a) has gradient norm <= 1 (a < b).
    const head = (x: number, y: number, z: number): number => (len(x / a, y / b, z / a) - 1) * a;
    const parts: BoundedPart[] = [];
    const radii = new Float64Array(ARM_SEGMENTS + 1);
    for (let m = 0; m <= ARM_SEGMENTS; m++) radii[m] = r0 + ((r1 - r0) * m) / ARM_SEGMENTS;
    const min = [-a, -b, -a], max = [a, b, a];
    const arms: Float64Array[] = [];
    for (let i = 0; i < ARMS; i++) {
      const pts = octopusArm(i, a, armLength, curl);
      arms.push(pts);
      parts.push(...groupParts(taperedPolylineParts(pts, radii), 5));
      for (let m = 0; m <= ARM_SEGMENTS; m++) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], pts[3 * m + k] - radii[m]);
          max[k] = Math.max(max[k], pts[3 * m + k] + radii[m]);
        }
      }
    }
    const limbs = boundedUnion(parts);
    const k = 0.8 * r0;
    const sdf = (x: number, y: number, z: number): number => smoothMin(head(x, y, z), limbs(x, y, z), k);
    // Probe across arm 0 near its tip (90 % along), along the normal of the arm's plane.
    const m = ARM_SEGMENTS - 2;
    const p = arms[0];
    const theta = Math.PI / ARMS;
    const wx = -Math.sin(theta), wz = Math.cos(theta);
    const rm = radii[m], e = 1.3 * rm;
    return {
      sdf,
      bounds: { min: [min[0], min[1], min[2]], max: [max[0], max[1], max[2]] },
      thinnest: 2 * r1,
      probes: [
        {
          a: [p[3 * m] - e * wx, p[3 * m + 1], p[3 * m + 2] - e * wz],
          b: [p[3 * m] + e * wx, p[3 * m + 1], p[3 * m + 2] + e * wz],
          thickness: 2 * rm,
          label: 'arm 0 near the tip',
        },
      ],
    };
  },
};
