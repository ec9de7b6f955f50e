/** A beam pinned at its left end, bending under gravity. */
import { fixedHandle } from '../sim/handles';
import { defaultParams } from '../sim/params';
import { pinnedBeamModel } from './pinnedBeam';
import type { SceneDefinition } from './types';

export const cantilever: SceneDefinition = {
  name: 'cantilever',
  description: 'Beam (2 x 0.25 x 0.25) clamped at its left end, sagging under gravity.',
  accepts: ['resolution'],
  build(options = {}) {
    const model = pinnedBeamModel(options.resolution, false);
    return {
      model,
      colliders: [],
      handles: [fixedHandle],
      params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, damping: 2 }),
    };
  },
};
