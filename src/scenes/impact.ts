/**
 * Shared pieces of the fast-impact scenes (shoot, head-on; issue "CCD ... no tunnelling at any
 * speed"): the mesh centred at a point, and a material stiff enough for the speed. An impact at
 * speed V puts a kinetic energy density of rho V^2 / 2 into the body; with E = 10 rho V^2 the
 * strain that absorbs it is about 1 / sqrt(10) ~ 0.3 at most (far less with contact rebound),
 * so the body deforms visibly but does not crumple into inverted tets.
 */
import type { Material } from '../sim/material';
import { boundsOf } from './place';

/** `density` undefined: water's, 1000 kg/m^3 (a user's --density is the scene's rho). */
export function impactMaterial(speed: number, density: number = 1000): Material {
  return { youngsModulus: Math.max(1e4, Number((10 * density * speed * speed).toPrecision(2))), poissonRatio: 0.3, density };
}

/** The mesh's positions moved so that its box centre sits at `at`; also the box's extent. */
export function centredAt(positions: ArrayLike<number>, at: readonly [number, number, number]): { positions: Float64Array; extent: [number, number, number] } {
  const b = boundsOf(positions);
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = positions[i + k] - 0.5 * (b.min[k] + b.max[k]) + at[k];
  }
  return { positions: out, extent: [b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]] };
}

export function checkSpeed(scene: string, speed: number): void {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`${scene}: --speed must be a finite number > 0, got ${speed}`);
}
