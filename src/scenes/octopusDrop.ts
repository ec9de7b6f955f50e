/** The paper's first scene: a procedural octopus dropped on the ground (authors' settings: dt 1/60, 20 x 3, friction 0.2). */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { placeAbove } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const OCTOPUS_DROP_SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 16, max: 80, step: 1, default: 30, small: 20, paper: 28,
  note: 'paper Fig. 18: each octopus about 14.8k tets (8.88M / 600); resolution 28 gives 15.2k',
};
const DEFAULT_COUNTS = { vertices: 4627, tets: 18722 };

export const octopusDrop: SceneDefinition = {
  name: 'octopus-drop',
  description:
    'Procedural octopus (about 2 units wide) dropped from 0.5 above the ground plane. ' +
    `Default (resolution ${OCTOPUS_DROP_SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution', 'height', 'ground'],
  size: OCTOPUS_DROP_SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const shape = generateShape('octopus', {}, sizedValue('octopus-drop', OCTOPUS_DROP_SIZE, options));
    const model = buildModel([
      {
        name: 'octopus',
        positions: placeAbove(shape.positions, options.height ?? 0.5),
        tets: shape.tets,
        material: { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 },
      },
    ]);
    return {
      model,
      colliders: options.ground === false ? [] : [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.2, damping: 0.5 }),
    };
  },
};
