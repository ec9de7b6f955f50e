/**
 * A long noodle falling into a bowl (paper 000 Fig. 20): the noodle (6 units long, 0.08
 * thick, slightly wavy so it does not fall perfectly straight) stands on end with its lower
 * end 0.15 above the bottom of a hemispherical bowl collider of radius 0.6 centred on its axis,
 * and falls: its lower end stops on the bowl while the rest comes down on it, buckles (its
 * self-buckling length is about 0.3) and coils into a pile, self-collision on. The ground
 * plane y = 0 touches the bowl's bottom. Settings as Table 1's "long noodle": 8.3e-4 s
 * substeps (20 a frame) x 3 iterations.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { placeAbove, standUpright } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const LONG_NOODLE_SHAPE = { length: 6, radius: 0.04, amplitude: 0.1, waves: 3 };
export const NOODLE_BOWL_RADIUS = 0.6;
/** Height of the noodle's lower end above the bowl's bottom (y = 0). */
export const NOODLE_BOWL_START = 0.15;
const SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 130, max: 1100, step: 1, default: 200, small: 160, paper: 1090,
  note: 'paper Fig. 20 (Table 1): 860k vertices, 2.29M tets; resolution 1090 gives 442k vertices, 2.30M tets',
};
const DEFAULT_COUNTS = { vertices: 4925, tets: 16454 };

export const noodleBowl: SceneDefinition = {
  name: 'noodle-bowl',
  description:
    `A noodle ${LONG_NOODLE_SHAPE.length} long standing on end falls into a bowl (radius ${NOODLE_BOWL_RADIUS}) and coils up; self-collision on. ` +
    `Default (resolution ${SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const shape = generateShape('noodle', LONG_NOODLE_SHAPE, sizedValue('noodle-bowl', SIZE, options));
    const upright = standUpright(shape.positions);
    return {
      model: buildModel([{ name: 'noodle', positions: placeAbove(upright, NOODLE_BOWL_START), tets: shape.tets, material: { youngsModulus: 1e5, poissonRatio: 0.4, density: 1000 } }]),
      colliders: [
        { kind: 'plane', normal: [0, 1, 0], offset: 0 },
        { kind: 'bowl', center: [0, NOODLE_BOWL_RADIUS, 0], radius: NOODLE_BOWL_RADIUS },
      ],
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.3, damping: 1, collisions: true, selfCollision: true }),
    };
  },
};
