/**
 * Squishy balls piling into a bowl (paper 000 Fig. 19: 16 balls, 11.2M tets): --copies N
 * small squishy balls (smallSquishy.ts, resolution 18) laid out in layers as the pile scenes
 * do (pile.ts: k x k cells a layer, k = floor(sqrt(N / 4))), all above the rim of a
 * hemispherical bowl collider (colliders.ts 'bowl': below its centre, points stay within its
 * radius) whose radius holds the grid's corners inside the rim and the balls' volume twice
 * over; the ground plane y = 0 touches the bowl's bottom. Settings as Table 1's "16 squishy
 * balls": 3.3e-4 s substeps (50 a frame) x 3 iterations.
 */
import { defaultParams } from '../contract/params';
import type { Collider } from '../sim/colliders';
import { pileColumns, pileScene, type PileItem } from './pile';
import { sizedValue } from './size';
import { SMALL_SQUISHY_COUNTS, smallSquishy, SQUISHY_BALL_MATERIAL } from './smallSquishy';
import type { SceneDefinition, SceneSize } from './types';

export const SQUISHY_BOWL_RESOLUTION = 18;
const SIZE: SceneSize = {
  label: 'squishy balls', option: 'copies', min: 1, max: 200, step: 1, default: 3, small: 2, paper: 16,
  note: 'paper Fig. 19: 16 squishy balls, 3.5M vertices, 11.2M tets (here 5k tets a ball)',
};
const BALL = SMALL_SQUISHY_COUNTS[SQUISHY_BOWL_RESOLUTION];
const DEFAULT_COUNTS = { vertices: SIZE.default * BALL.vertices, tets: SIZE.default * BALL.tets };

/** Bowl radius for n balls of radius `r` in a pile of k x k cells `cell` wide. */
export function bowlRadius(n: number, r: number, cell: number): number {
  const k = pileColumns(n);
  // Every cell's corners inside the rim (with a 10 % margin), and the hemisphere's volume
  // (2/3 pi R^3) at least twice the balls' (4/3 pi r^3 each).
  return Math.max(1.1 * Math.SQRT2 * (k * cell) / 2, Math.cbrt(4 * n) * r);
}

export const squishyBowl: SceneDefinition = {
  name: 'squishy-bowl',
  description:
    `Squishy balls (--copies N, default ${SIZE.default}; ${BALL.vertices} vertices, ${BALL.tets} tets each) dropped into a bowl. ` +
    `Default: ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['copies'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const n = sizedValue('squishy-bowl', SIZE, options);
    const ball = smallSquishy(SQUISHY_BOWL_RESOLUTION);
    const items: PileItem[] = Array.from({ length: n }, (_, i) => ({ name: `squishy ball ${i + 1}`, positions: ball.positions, tets: ball.tets, material: SQUISHY_BALL_MATERIAL }));
    const params = defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, friction: 0.3, damping: 1, collisions: true, selfCollision: true });
    // A first layout gives the cell width; the pile then starts at the rim (the bowl's centre height).
    const probe = pileScene(items.slice(0, 1), params);
    const cell = 2 * probe.halfWidth;
    const radius = bowlRadius(n, cell / 2.2, cell);
    const pile = pileScene(items, params, { lift: radius });
    const colliders: Collider[] = [
      { kind: 'plane', normal: [0, 1, 0], offset: 0 },
      { kind: 'bowl', center: [0, radius, 0], radius },
    ];
    return { model: pile.model, colliders, handles: [], params };
  },
};
