/** A beam held at both ends by kinematic handles; one end turns about the beam axis. */
import { generateShape } from '../mesh/procedural/catalog';
import { fixedHandle, twistingHandle } from '../sim/handles';
import { buildModel } from '../sim/model';
import { defaultParams } from '../sim/params';
import { boundsOf } from './place';
import type { SceneDefinition } from './types';

export const beamTwist: SceneDefinition = {
  name: 'beam-twist',
  description: 'Beam (2 x 0.25 x 0.25) pinned at both ends; the right end twists at 2 rad/s.',
  build(options = {}) {
    const shape = generateShape('beam', {}, options.resolution);
    const b = boundsOf(shape.positions);
    const n = shape.positions.length / 3;
    const handleOfVertex = new Int32Array(n);
    const band = 0.03 * (b.max[0] - b.min[0]);
    for (let v = 0; v < n; v++) {
      const x = shape.positions[3 * v];
      handleOfVertex[v] = x < b.min[0] + band ? 0 : x > b.max[0] - band ? 1 : -1;
    }
    const model = buildModel([
      { name: 'beam', positions: shape.positions, tets: shape.tets, material: { youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 }, handleOfVertex },
    ]);
    return {
      model,
      colliders: [],
      handles: [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 2)],
      params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, gravity: [0, 0, 0] }),
    };
  },
};
