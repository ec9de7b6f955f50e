/** A beam pinned at its left end, bending under gravity. */
import { generateShape } from '../mesh/procedural/catalog';
import { fixedHandle } from '../sim/handles';
import { buildModel } from '../sim/model';
import { defaultParams } from '../sim/params';
import { boundsOf } from './place';
import type { SceneDefinition } from './types';

export const cantilever: SceneDefinition = {
  name: 'cantilever',
  description: 'Beam (2 x 0.25 x 0.25) clamped at its left end, sagging under gravity.',
  build(options = {}) {
    const shape = generateShape('beam', {}, options.resolution);
    const b = boundsOf(shape.positions);
    const n = shape.positions.length / 3;
    const handleOfVertex = new Int32Array(n);
    const band = 0.03 * (b.max[0] - b.min[0]);
    for (let v = 0; v < n; v++) handleOfVertex[v] = shape.positions[3 * v] < b.min[0] + band ? 0 : -1;
    const model = buildModel([
      { name: 'beam', positions: shape.positions, tets: shape.tets, material: { youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 }, handleOfVertex },
    ]);
    return {
      model,
      colliders: [],
      handles: [fixedHandle],
      params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, damping: 2 }),
    };
  },
};
