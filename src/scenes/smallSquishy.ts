/**
 * The squishy ball of the scenes with several of them (head-on, bowl): smaller than the
 * squeeze's (radius 0.3, 16 tentacles 0.12 thick) so that two to four fit the interactive
 * budget; its size is the lattice resolution (below 18 the tentacles lose tets).
 */
import { generateShape } from '../mesh/procedural/catalog';
import type { Material } from '../sim/material';
import { SQUISHY_MATERIAL } from './squishySqueeze';

export const SMALL_SQUISHY_SHAPE = { radius: 0.3, shellThickness: 0.09, tentacles: 16, tentacleLength: 0.3, tentacleRadius: 0.06, knobRadius: 0.08 };
export const SMALL_SQUISHY_MIN_RESOLUTION = 18;
/** Vertices and tets of one small squishy ball at a resolution (held by tests/unit/scenes). */
export const SMALL_SQUISHY_COUNTS: Record<number, { vertices: number; tets: number }> = {
  18: { vertices: 1674, tets: 5061 },
  20: { vertices: 2087, tets: 6730 },
};
/** The squeeze's squishy material. */
export const SQUISHY_BALL_MATERIAL: Material = SQUISHY_MATERIAL;

export function smallSquishy(resolution: number): { positions: Float32Array; tets: Uint32Array } {
  return generateShape('squishyBall', SMALL_SQUISHY_SHAPE, resolution);
}
