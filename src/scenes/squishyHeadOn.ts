/**
 * Two squishy balls thrown at each other (paper 000 Fig. 12: contact at a relative speed of
 * 50 m/s, self-collisions and the collisions between the balls both handled): each flies at
 * --speed (default 25 m/s) toward the other along x, the second shifted across by 5 % of its
 * size so that the tentacles meet off-centre. They start 2.5 units apart (contact after about
 * 3 frames at the default speed). No gravity, no ground. Equal meshes and opposite
 * velocities: the total momentum is zero. Settings as Table 1's "2 squishy balls":
 * 3.3e-4 s substeps (50 a frame) x 3 iterations. The material is stiffened with the speed
 * (impact.ts: E = 10 rho V^2) so the balls bounce back instead of crumpling.
 */
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { centredAt, checkSpeed, impactMaterial } from './impact';
import { sizedValue } from './size';
import { SMALL_SQUISHY_COUNTS, SMALL_SQUISHY_MIN_RESOLUTION, smallSquishy, SQUISHY_BALL_MATERIAL } from './smallSquishy';
import type { SceneDefinition, SceneSize } from './types';

export const SQUISHY_HEAD_ON_SPEED = 25;
/** Gap between the balls' tentacle tips at the start. */
export const SQUISHY_HEAD_ON_GAP = 2.5;
const SIZE: SceneSize = {
  label: 'lattice resolution (each ball)', option: 'resolution', min: SMALL_SQUISHY_MIN_RESOLUTION, max: 100, step: 1, default: 20, small: 18, paper: 95,
  note: 'paper Fig. 12 (Table 1): 418k vertices, 1.4M tets for the two; resolution 95 gives 267k vertices, 1.34M tets',
};
const DEFAULT_COUNTS = { vertices: 2 * SMALL_SQUISHY_COUNTS[20].vertices, tets: 2 * SMALL_SQUISHY_COUNTS[20].tets };

export const squishyHeadOn: SceneDefinition = {
  name: 'squishy-head-on',
  description:
    `Two squishy balls flying at each other at --speed each (default ${SQUISHY_HEAD_ON_SPEED} m/s, 50 m/s relative), no gravity. ` +
    `Default (resolution ${SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution', 'speed'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const speed = options.speed ?? SQUISHY_HEAD_ON_SPEED;
    checkSpeed('squishy-head-on', speed);
    const ball = smallSquishy(sizedValue('squishy-head-on', SIZE, options));
    const [lx, ly, lz] = centredAt(ball.positions, [0, 0, 0]).extent;
    const half = (lx + SQUISHY_HEAD_ON_GAP) / 2;
    const a = centredAt(ball.positions, [-half, 0, 0]);
    const b = centredAt(ball.positions, [half, 0.05 * ly, 0.05 * lz]);
    const material = impactMaterial(speed, SQUISHY_BALL_MATERIAL.density);
    return {
      model: buildModel([
        { name: 'squishy ball A', positions: a.positions, tets: ball.tets, material, velocity: [speed, 0, 0] },
        { name: 'squishy ball B', positions: b.positions, tets: ball.tets, material, velocity: [-speed, 0, 0] },
      ]),
      colliders: [],
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: options.gravity ? [...options.gravity] : [0, 0, 0], damping: 0, friction: 0.2, collisions: true, selfCollision: true }),
    };
  },
};
