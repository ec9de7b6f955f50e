/**
 * Recovery from a tangled state (paper 000 section 5.2, Fig. 16-17): a long soft noodle
 * (4 units long, 0.08 thick) stands on end above the ground inside a narrow open box and
 * falls; it buckles under its own weight (its self-buckling length, 7.84 EI / (rho g A) to the
 * power 1/3, is about 0.3 units) and folds onto itself. Self-collision is off at first, so the
 * folds pass through each other; from frame F (default 90, 1.5 s: the noodle has landed and
 * piled up) self-collision and recovery mode switch on, and the contacts must untangle it.
 * F follows the runner's --self-collision-from when given.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { containerColliders } from './container';
import { placeAbove, standUpright } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const NOODLE_SHAPE = { length: 4, radius: 0.04, amplitude: 0.1, waves: 2 };
export const NOODLE_RESOLUTION = 110;
export const NOODLE_SWITCH_FRAME = 90;
/** Half width of the box: a few noodle thicknesses, so the noodle piles up instead of lying flat. */
export const NOODLE_BOX_HALF_WIDTH = 0.5;
const SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 80, max: 650, step: 1, default: NOODLE_RESOLUTION, small: 80, paper: 300,
  note: 'paper Fig. 17 (Table 1): 40k vertices, 110k tets; resolution 300 gives 25.6k vertices, 112k tets',
};
/** Counts the description states (held by tests/unit/scenes). */
const DEFAULT_COUNTS = { vertices: 2066, tets: 6214 };

export const noodleRecovery: SceneDefinition = {
  name: 'noodle-recovery',
  description:
    `A noodle ${NOODLE_SHAPE.length} long standing on end falls into a narrow box and folds onto itself with self-collision off; ` +
    `from frame ${NOODLE_SWITCH_FRAME} (or --self-collision-from F) self-collision and recovery mode are on. --resolution ` +
    `(default ${NOODLE_RESOLUTION}: ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets), --height of its lower end (default 0.1).`,
  accepts: ['resolution', 'height'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const shape = generateShape('noodle', NOODLE_SHAPE, sizedValue('noodle-recovery', SIZE, options));
    const upright = standUpright(shape.positions);
    const positions = placeAbove(upright, options.height ?? 0.1);
    const from = options.selfCollisionFrom ?? NOODLE_SWITCH_FRAME;
    return {
      model: buildModel([{ name: 'noodle', positions, tets: shape.tets, material: { youngsModulus: 1e5, poissonRatio: 0.4, density: 1000 } }]),
      colliders: containerColliders(NOODLE_BOX_HALF_WIDTH, NOODLE_BOX_HALF_WIDTH),
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.3, damping: 1, collisions: true, selfCollision: false, recovery: false }),
      schedule: [{ frame: from, params: { selfCollision: true, recovery: true } }],
    };
  },
};
