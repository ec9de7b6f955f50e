/**
 * Two elastic rods twisted around each other (paper 000 Fig. 13, bottom): two parallel rods
 * (2 long, radius 0.05) along x, 0.05 apart, at z = +-0.075. Their left ends (the first 3 %
 * of their length) are held still by handle 0; their right ends by handle 1, which turns
 * about the common axis (the x axis, midway between the rods) at TWIST_RATE and moves toward
 * the left end at APPROACH_SPEED for APPROACH_TIME, so the rods wrap around each other,
 * buckle and press on each other and must not pass through. No gravity. Settings as Table
 * 1's "twisted rods": 3.3e-4 s substeps (50 a frame) x 3 iterations.
 */
import { generateShape } from '../mesh/procedural/catalog';
import type { HandleScript } from '../sim/handles';
import { fixedHandle, twistingHandle } from '../sim/handles';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { endHandles } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const RODS_SHAPE = { length: 2, radius: 0.05 };
/** Centre of each rod off the common axis (z = +-RODS_OFFSET): a gap of one radius between them. */
export const RODS_OFFSET = 0.075;
export const TWIST_RATE = 2 * Math.PI;
export const APPROACH_SPEED = 0.1;
export const APPROACH_TIME = 4;
const SIZE: SceneSize = {
  label: 'lattice resolution (each rod)', option: 'resolution', min: 40, max: 300, step: 1, default: 60, small: 40, paper: 290,
  note: 'paper Fig. 13 (Table 1): 281k vertices, 1.3M tets for the two rods; resolution 290 gives 242k vertices, 1.23M tets',
};
const ROD = { vertices: 1522, tets: 5532 };
const DEFAULT_COUNTS = { vertices: 2 * ROD.vertices, tets: 2 * ROD.tets };

/** The right ends' motion: a turn by TWIST_RATE t about the x axis, then a shift of -APPROACH_SPEED min(t, APPROACH_TIME) along x. */
export const twistAndApproach: HandleScript = (t) => {
  const turn = twistingHandle([0, 0, 0], [1, 0, 0], TWIST_RATE)(t);
  const shift = -APPROACH_SPEED * Math.min(t, APPROACH_TIME);
  return { matrix: turn.matrix, translation: [turn.translation[0] + shift, turn.translation[1], turn.translation[2]] };
};

export const rodsTwist: SceneDefinition = {
  name: 'rods-twist',
  description:
    `Two parallel rods (${RODS_SHAPE.length} long, radius ${RODS_SHAPE.radius}) held at both ends; the right ends turn about the common axis ` +
    `at one turn a second and close in at ${APPROACH_SPEED} m/s for ${APPROACH_TIME} s, so the rods wrap around each other. ` +
    `Default (resolution ${SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const rod = generateShape('rod', RODS_SHAPE, sizedValue('rods-twist', SIZE, options));
    const handleOfVertex = endHandles(rod.positions, 0.03);
    const at = (z: number): Float64Array => {
      const out = new Float64Array(rod.positions.length);
      for (let i = 0; i < out.length; i += 3) {
        out[i] = rod.positions[i];
        out[i + 1] = rod.positions[i + 1];
        out[i + 2] = rod.positions[i + 2] + z;
      }
      return out;
    };
    const material = { youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 };
    return {
      model: buildModel([
        { name: 'rod A', positions: at(RODS_OFFSET), tets: rod.tets, material, handleOfVertex },
        { name: 'rod B', positions: at(-RODS_OFFSET), tets: rod.tets, material, handleOfVertex },
      ]),
      colliders: [],
      handles: [fixedHandle, twistAndApproach],
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: [0, 0, 0], damping: 1, friction: 0.2, collisions: true, selfCollision: true }),
    };
  },
};
