/**
 * A square beam bent into a figure eight whose two branches cross (paper 002 Fig. 3's pipe
 * through itself, as one tet mesh): the centre line is the lemniscate of Gerono x = cos(phi),
 * z = sin(phi) cos(phi), phi from 0.35 to 2 pi - 0.35, lying in the plane y = lift(phi); the cross
 * section is a square of half-size `half`. The branches cross at phi = pi/2 and 3 pi/2.
 */
import { kuhnLattice, type KuhnLattice } from './kuhnLattice';

export const FIGURE_EIGHT_PHI0 = 0.35;

export function figureEight(segments: number, half: number, lift: (phi: number) => number): KuhnLattice {
  return kuhnLattice(segments, 2, 2, (i, j, k) => {
    const phi = FIGURE_EIGHT_PHI0 + ((2 * Math.PI - 2 * FIGURE_EIGHT_PHI0) * i) / segments;
    const tx = -Math.sin(phi), tz = Math.cos(2 * phi), tl = Math.hypot(tx, tz);
    // Horizontal normal of the centre line (T x up, pointing the same way along the curve).
    const nx = tz / tl, nz = -tx / tl;
    const a = (j / 2 - 0.5) * 2 * half, b = (k / 2 - 0.5) * 2 * half;
    return [Math.cos(phi) + a * nx, lift(phi) + b, Math.sin(phi) * Math.cos(phi) + a * nz];
  });
}

/** 1 at phi = 3 pi / 2 (the second branch at the crossing), falling smoothly to 0 at 0.9 rad from it. */
export function secondBranch(phi: number): number {
  const d = Math.abs(phi - 1.5 * Math.PI);
  return d > 0.9 ? 0 : 0.5 * (1 + Math.cos((Math.PI * d) / 0.9));
}
