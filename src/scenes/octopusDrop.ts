/** The paper's first scene: a procedural octopus dropped on the ground (authors' settings: dt 1/60, 20 x 3, friction 0.2). */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../sim/params';
import { placeAbove } from './place';
import type { SceneDefinition } from './types';

export const octopusDrop: SceneDefinition = {
  name: 'octopus-drop',
  description: 'Procedural octopus (about 2 units wide) dropped from 0.5 above the ground plane.',
  accepts: ['resolution', 'height', 'ground'],
  build(options = {}) {
    const shape = generateShape('octopus', {}, options.resolution);
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
