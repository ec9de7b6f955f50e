/**
 * A rod tied in a loose open overhand knot (the paper's Fig. 14 starts from one): a tube of
 * constant radius along the trefoil (sin t + 2 sin 2t, cos t - 2 cos 2t, -sin 3t) x scale,
 * cut open at the bottom of one lobe (t = pi +- CUT) and given two straight tails along x.
 * The tail coming in from -x ends at the cut's start S = c(pi + CUT), the one leaving to +x
 * starts at its end E = c(pi - CUT); S and E sit 2 scale sin(3 CUT) apart in z, so the tails
 * pass each other there without touching (an extra crossing of the tails only, which leaves
 * the knot an overhand knot). Pulling the tails apart tightens it.
 */
import { boundedUnion, groupParts, taperedPolylineParts } from '../sdf';
import type { ShapeDefinition } from './shapeTypes';

/** Half the angle cut out of the trefoil's lobe. */
const CUT = 0.3;
const KNOT_SEGMENTS = 240;

function trefoil(t: number, s: number): [number, number, number] {
  return [s * (Math.sin(t) + 2 * Math.sin(2 * t)), s * (Math.cos(t) - 2 * Math.cos(2 * t)), -s * Math.sin(3 * t)];
}

/** x of the tails' far ends: the trefoil spans |x| < 2.6 scale; each tail runs `tail` beyond 3 scale. */
export function knotRodHalfLength(scale: number, tail: number): number {
  return 3 * scale + tail;
}

/** The centre line: tail in (from -x), the knot, tail out (to +x); straight parts sampled every `step`. */
export function knotRodCurve(scale: number, tail: number, step: number): Float64Array {
  const pts: number[] = [];
  const X = knotRodHalfLength(scale, tail);
  const S = trefoil(Math.PI + CUT, scale);
  const E = trefoil(3 * Math.PI - CUT, scale);
  const line = (a: readonly number[], b: readonly number[], skipFirst: boolean): void => {
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / step));
    for (let i = skipFirst ? 1 : 0; i <= n; i++) for (let k = 0; k < 3; k++) pts.push(a[k] + ((b[k] - a[k]) * i) / n);
  };
  line([-X, S[1], S[2]], S, false);
  for (let i = 1; i < KNOT_SEGMENTS; i++) pts.push(...trefoil(Math.PI + CUT + ((2 * Math.PI - 2 * CUT) * i) / KNOT_SEGMENTS, scale));
  line(E, [X, E[1], E[2]], false);
  return Float64Array.from(pts);
}

/**
 * Smallest distance between two points of the centre line more than `arc` apart along it
 * (brute force over the samples): the tube of radius r does not touch itself when this
 * exceeds 2 r with arc a few r.
 */
export function closestNonAdjacent(pts: Float64Array, arc: number): number {
  const n = pts.length / 3;
  const along = new Float64Array(n);
  for (let i = 1; i < n; i++) along[i] = along[i - 1] + Math.hypot(pts[3 * i] - pts[3 * i - 3], pts[3 * i + 1] - pts[3 * i - 2], pts[3 * i + 2] - pts[3 * i - 1]);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (along[j] - along[i] <= arc) continue;
      best = Math.min(best, Math.hypot(pts[3 * j] - pts[3 * i], pts[3 * j + 1] - pts[3 * i + 1], pts[3 * j + 2] - pts[3 * i + 2]));
    }
  }
  return best;
}

export const knotRodShape: ShapeDefinition = {
  name: 'knotRod',
  description: 'Rod tied in a loose open overhand knot, with straight tails along x.',
  container: false,
  params: [
    { name: 'radius', description: 'rod radius', min: 0.002, max: 1, default: 0.06 },
    { name: 'scale', description: 'knot size (the trefoil spans about 5.2 scale in x)', min: 0.01, max: 10, default: 0.2 },
    { name: 'tail', description: 'length of each tail beyond the knot', min: 0, max: 20, default: 1.5 },
  ],
  defaultResolution: 110,
  build: ({ radius, scale, tail }) => {
    const pts = knotRodCurve(scale, tail, radius);
    // The strands must not touch: the knot's closest strands are 1.21 scale apart (centre
    // lines), the tails 2 scale sin(3 CUT) apart in z.
    const gap = closestNonAdjacent(pts, 4 * radius);
    if (!(gap > 2.5 * radius)) {
      throw new Error(`knotRod: radius ${radius} must be below ${(gap / 2.5).toFixed(4)} for scale ${scale} (its strands are ${gap.toFixed(4)} apart and need 2.5 radii)`);
    }
    const n = pts.length / 3;
    const sdf = boundedUnion(groupParts(taperedPolylineParts(pts, new Float64Array(n).fill(radius)), 8));
    const min: [number, number, number] = [Infinity, Infinity, Infinity];
    const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k], pts[3 * i + k] - radius);
        max[k] = Math.max(max[k], pts[3 * i + k] + radius);
      }
    }
    // Probe across the incoming tail halfway along it (the tail runs along x).
    const x = -knotRodHalfLength(scale, tail) / 2 - 1.5 * scale;
    const y = pts[1], z = pts[2];
    return {
      sdf,
      bounds: { min, max },
      thinnest: 2 * radius,
      probes: [{ a: [x, y - 1.3 * radius, z], b: [x, y + 1.3 * radius, z], thickness: 2 * radius, label: 'rod diameter' }],
    };
  },
};
