/**
 * A rod pulled into a knot (paper 000 Fig. 14: "nested knots were formed by pulling an
 * elastic rod from both sides"): the procedural knotRod (radius 0.04, a loose open overhand
 * knot about 1 unit across with 1.5-unit tails along x) with the last 3 % of each tail held
 * by a handle; the handles move apart along x at PULL_SPEED for PULL_TIME, taking in most of
 * the slack of the knot (its centre line is 5.8 long, a tight one needs under 1), so the knot
 * tightens with sliding self-contact. Self-collision on, no gravity. Settings as Table 1's
 * "nested knots": 5.5e-4 s substeps (30 a frame) x 3 iterations.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { translatingHandle, type HandleScript } from '../sim/handles';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { endHandles } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const KNOT_SHAPE = { radius: 0.04, scale: 0.2, tail: 1.5 };
export const PULL_SPEED = 0.5;
export const PULL_TIME = 4;
const SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 95, max: 300, step: 1, default: 100, small: 95, paper: 225,
  note: 'paper Fig. 14 (Table 1): 38.1k vertices, 103k tets; resolution 225 gives 24.5k vertices, 98k tets',
};
const DEFAULT_COUNTS = { vertices: 3976, tets: 11468 };

/** Moves at `velocity` until `until` seconds, then holds. */
export function pullingHandle(velocity: readonly [number, number, number], until: number): HandleScript {
  const move = translatingHandle([velocity[0], velocity[1], velocity[2]]);
  return (t) => move(Math.min(t, until));
}

export const rodKnot: SceneDefinition = {
  name: 'rod-knot',
  description:
    `A rod (radius ${KNOT_SHAPE.radius}) in a loose overhand knot, its ends pulled apart at ${PULL_SPEED} m/s each for ${PULL_TIME} s so the knot tightens. ` +
    `Default (resolution ${SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const rod = generateShape('knotRod', KNOT_SHAPE, sizedValue('rod-knot', SIZE, options));
    const handleOfVertex = endHandles(rod.positions, 0.03);
    return {
      model: buildModel([{ name: 'knotted rod', positions: rod.positions, tets: rod.tets, material: { youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 }, handleOfVertex }]),
      colliders: [],
      handles: [pullingHandle([-PULL_SPEED, 0, 0], PULL_TIME), pullingHandle([PULL_SPEED, 0, 0], PULL_TIME)],
      params: defaultParams({ dt: 1 / 60, substeps: 30, iterations: 3, gravity: [0, 0, 0], damping: 1, friction: 0.2, collisions: true, selfCollision: true }),
    };
  },
};
