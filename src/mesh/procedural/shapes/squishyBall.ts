/**
 * Squishy ball: a hollow rubber ball (a spherical shell, like the real toys, which also keeps
 * the tet count low at the fine lattice the tentacles need) with tentacles radiating out along
 * a Fibonacci-sphere set of directions, each a capsule ending in a round knob.
 */
import { boundedUnion, shell, smoothMin, sphere, spherePart, taperedSegmentPart, type BoundedPart } from '../sdf';
import { centredBounds, type ShapeDefinition, type ThinProbe } from './shapeTypes';

/** n nearly uniform unit directions (golden-angle spiral). */
export function fibonacciDirections(n: number): Float64Array {
  const out = new Float64Array(3 * n);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - y * y);
    out[3 * i] = r * Math.cos(golden * i);
    out[3 * i + 1] = y;
    out[3 * i + 2] = r * Math.sin(golden * i);
  }
  return out;
}

export const squishyBallShape: ShapeDefinition = {
  name: 'squishyBall',
  description: 'Hollow ball with many thin tentacles, each ending in a knob.',
  container: false,
  params: [
    { name: 'radius', description: 'outer radius of the ball', min: 0.05, max: 5, default: 0.38 },
    { name: 'shellThickness', description: 'wall thickness of the hollow ball', min: 0.01, max: 5, default: 0.1 },
    { name: 'tentacles', description: 'number of tentacles', min: 1, max: 500, default: 24, integer: true },
    { name: 'tentacleLength', description: 'tentacle length from the ball surface to the knob centre', min: 0.01, max: 10, default: 0.38 },
    { name: 'tentacleRadius', description: 'tentacle radius', min: 0.002, max: 1, default: 0.05 },
    { name: 'knobRadius', description: 'radius of the knob at each tip', min: 0.002, max: 1, default: 0.08 },
  ],
  defaultResolution: 34,
  build: ({ radius: R, shellThickness: th, tentacles, tentacleLength: L, tentacleRadius: rt, knobRadius: rk }) => {
    if (th >= R) throw new Error(`squishyBall: shellThickness ${th} must be below radius ${R}`);
    if (rt >= th) throw new Error(`squishyBall: tentacleRadius ${rt} must be below shellThickness ${th} (the tentacle root would break into the cavity)`);
    const core = shell(sphere(0, 0, 0, R - th / 2), th);
    const dirs = fibonacciDirections(tentacles);
    const parts: BoundedPart[] = [];
    for (let i = 0; i < tentacles; i++) {
      const dx = dirs[3 * i], dy = dirs[3 * i + 1], dz = dirs[3 * i + 2];
      // The capsule starts on the outer surface: its round root lies inside the wall (rt < th).
      // Tentacle and knob blended (a sharp concave crease would cost dihedral angles).
      const stem = taperedSegmentPart(R * dx, R * dy, R * dz, rt, (R + L) * dx, (R + L) * dy, (R + L) * dz, rt);
      const knob = spherePart((R + L) * dx, (R + L) * dy, (R + L) * dz, rk);
      const kk = 0.5 * rt;
      parts.push({
        sdf: (x, y, z) => smoothMin(stem.sdf(x, y, z), knob.sdf(x, y, z), kk),
        cx: stem.cx, cy: stem.cy, cz: stem.cz,
        // smoothMin lowers the value by at most k/4, so widen the sphere by that much.
        radius: Math.max(stem.radius, Math.hypot(knob.cx - stem.cx, knob.cy - stem.cy, knob.cz - stem.cz) + rk) + kk / 4,
      });
    }
    // Flat bounded union: nearest tentacle first, the rest culled by their spheres (grouping
    // tentacles by direction measured slower: cluster spheres overlap near the ball).
    const limbs = boundedUnion(parts);
    // Fillet at the roots (blend radius below the tentacle radius keeps knobs and tips exact).
    const k = 0.6 * rt;
    const sdf = (x: number, y: number, z: number): number => smoothMin(core(x, y, z), limbs(x, y, z), k);
    const e = R + L + Math.max(rk, rt);
    // Probe across the middle of tentacle 0, perpendicular to it.
    const d0 = [dirs[0], dirs[1], dirs[2]];
    const side = normalize(cross(d0, Math.abs(d0[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0]));
    const mid = R + L / 2;
    const w = farthestDirection(dirs);
    const probes: ThinProbe[] = [
      {
        a: [mid * d0[0] - 1.3 * rt * side[0], mid * d0[1] - 1.3 * rt * side[1], mid * d0[2] - 1.3 * rt * side[2]],
        b: [mid * d0[0] + 1.3 * rt * side[0], mid * d0[1] + 1.3 * rt * side[1], mid * d0[2] + 1.3 * rt * side[2]],
        thickness: 2 * rt,
        label: 'tentacle 0 diameter',
      },
      {
        // Radially through the wall where it is farthest from every tentacle root.
        a: [(R + 0.3 * th) * w[0], (R + 0.3 * th) * w[1], (R + 0.3 * th) * w[2]],
        b: [(R - 1.3 * th) * w[0], (R - 1.3 * th) * w[1], (R - 1.3 * th) * w[2]],
        thickness: th,
        label: 'shell wall',
      },
    ];
    return { sdf, bounds: centredBounds(e, e, e), thinnest: Math.min(2 * rt, th), probes };
  },
};

function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function normalize(a: number[]): number[] {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
}

/** Of 256 spread directions, the one whose nearest direction in dirs is farthest away. */
function farthestDirection(dirs: Float64Array): number[] {
  const cand = fibonacciDirections(256);
  let best = 0, bestDot = Infinity;
  for (let c = 0; c < 256; c++) {
    let maxDot = -Infinity;
    for (let i = 0; i < dirs.length; i += 3) {
      maxDot = Math.max(maxDot, cand[3 * c] * dirs[i] + cand[3 * c + 1] * dirs[i + 1] + cand[3 * c + 2] * dirs[i + 2]);
    }
    if (maxDot < bestDot) {
      bestDot = maxDot;
      best = c;
    }
  }
  return [cand[3 * best], cand[3 * best + 1], cand[3 * best + 2]];
}
