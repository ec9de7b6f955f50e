/** Noodle: a long thin tube of constant radius along a wavy space curve (x runs along it). */
import { boundedUnion, groupParts, taperedPolylineParts } from '../sdf';
import type { ShapeDefinition } from './shapeTypes';

/** Centre line x in [-L/2, L/2], y = A sin(2 pi w s), z = A/2 sin(4 pi w s) (s in [0, 1]). */
export function noodleCurve(length: number, amplitude: number, waves: number, segments: number): Float64Array {
  const pts = new Float64Array(3 * (segments + 1));
  for (let i = 0; i <= segments; i++) {
    const s = i / segments;
    pts[3 * i] = (s - 0.5) * length;
    pts[3 * i + 1] = amplitude * Math.sin(2 * Math.PI * waves * s);
    pts[3 * i + 2] = 0.5 * amplitude * Math.sin(4 * Math.PI * waves * s);
  }
  return pts;
}

export const noodleShape: ShapeDefinition = {
  name: 'noodle',
  description: 'Long thin tube along a wavy curve.',
  container: false,
  params: [
    { name: 'length', description: 'length along x', min: 0.05, max: 50, default: 3 },
    { name: 'radius', description: 'tube radius', min: 0.002, max: 2, default: 0.05 },
    { name: 'amplitude', description: 'wave amplitude', min: 0, max: 10, default: 0.25 },
    { name: 'waves', description: 'number of waves along the length', min: 0, max: 20, default: 1.5 },
  ],
  defaultResolution: 110,
  build: ({ length, radius, amplitude, waves }) => {
    // Segments short against the wave length so the polyline tube looks smooth.
    const segments = Math.max(8, Math.ceil(48 * Math.max(1, waves)));
    const pts = noodleCurve(length, amplitude, waves, segments);
    const radii = new Float64Array(segments + 1).fill(radius);
    const sdf = boundedUnion(groupParts(taperedPolylineParts(pts, radii), 8));
    const hx = length / 2 + radius, hy = amplitude + radius, hz = 0.5 * amplitude + radius;
    // Probe across the tube at 30 % of its length, perpendicular to the curve (in the plane
    // normal to the local tangent, taken along the normal closest to z).
    const i = Math.round(0.3 * segments);
    const c = [pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]];
    const t = [pts[3 * i + 3] - pts[3 * i - 3], pts[3 * i + 4] - pts[3 * i - 2], pts[3 * i + 5] - pts[3 * i - 1]];
    const tl = Math.hypot(t[0], t[1], t[2]);
    const tz = t[2] / tl;
    const n = [-(t[0] / tl) * tz, -(t[1] / tl) * tz, 1 - tz * tz];
    const nl = Math.hypot(n[0], n[1], n[2]);
    const e = 1.3 * radius;
    return {
      sdf,
      bounds: { min: [-hx, -hy, -hz], max: [hx, hy, hz] },
      thinnest: 2 * radius,
      probes: [
        {
          a: [c[0] - (e * n[0]) / nl, c[1] - (e * n[1]) / nl, c[2] - (e * n[2]) / nl],
          b: [c[0] + (e * n[0]) / nl, c[1] + (e * n[1]) / nl, c[2] + (e * n[2]) / nl],
          thickness: 2 * radius,
          label: 'tube diameter',
        },
      ],
    };
  },
};
