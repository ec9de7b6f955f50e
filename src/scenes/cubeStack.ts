/**
 * Cubes dropped on each other onto the ground: --copies N cubes (default 4) of side 0.5 in a
 * column with gaps of half a side, each shifted sideways by a tenth of a side (alternating)
 * and turned about y, so they land off-centre on the one below and the contacts are not all
 * face-parallel.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { placeAbove, turnedAboutY } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const CUBE_SIDE = 0.5;
export const CUBE_STACK_DEFAULT_COPIES = 4;
export const CUBE_STACK_RESOLUTION = 5;
/** Counts the description states (held by tests/unit/scenes): one cube at the default resolution. */
export const CUBE_COUNTS = { vertices: 491, tets: 1800 };
const SIZE: SceneSize = { label: 'cubes', option: 'copies', min: 1, max: 64, step: 1, default: CUBE_STACK_DEFAULT_COPIES, small: 2, paper: CUBE_STACK_DEFAULT_COPIES, note: 'not in the paper (a stacking check)' };
const MATERIAL = { youngsModulus: 1e5, poissonRatio: 0.4, density: 1000 };

export const cubeStack: SceneDefinition = {
  name: 'cube-stack',
  description:
    `Cubes of side ${CUBE_SIDE} dropped on each other onto the ground plane: --copies N (default ${CUBE_STACK_DEFAULT_COPIES}), ` +
    `--resolution (default ${CUBE_STACK_RESOLUTION}: ${CUBE_COUNTS.vertices} vertices, ${CUBE_COUNTS.tets} tets a cube). ` +
    `Default: ${CUBE_STACK_DEFAULT_COPIES * CUBE_COUNTS.vertices} vertices, ${CUBE_STACK_DEFAULT_COPIES * CUBE_COUNTS.tets} tets.`,
  accepts: ['copies', 'resolution'],
  size: SIZE,
  defaultCounts: { vertices: CUBE_STACK_DEFAULT_COPIES * CUBE_COUNTS.vertices, tets: CUBE_STACK_DEFAULT_COPIES * CUBE_COUNTS.tets },
  build(options = {}) {
    const copies = sizedValue('cube-stack', SIZE, options);
    const cube = generateShape('cube', { size: CUBE_SIDE }, options.resolution ?? CUBE_STACK_RESOLUTION);
    const centred = placeAbove(cube.positions, 0);
    const gap = CUBE_SIDE / 2;
    // A turned cube's corner reaches sqrt(2)/2 of a side from its axis; the column stays
    // within that plus the shift, and every cube starts above the previous one's top.
    const objects = Array.from({ length: copies }, (_, i) => ({
      name: `cube ${i + 1}`,
      positions: turnedAboutY(centred, 0.3 * i, [(i % 2 === 0 ? 1 : -1) * 0.1 * CUBE_SIDE, gap + i * (CUBE_SIDE + gap), 0]),
      tets: cube.tets,
      material: MATERIAL,
    }));
    return {
      model: buildModel(objects),
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.4, damping: 0.5, collisions: true, selfCollision: true }),
    };
  },
};
