/** A beam pinned at its left end, bending under gravity. */
import { fixedHandle } from '../sim/handles';
import { defaultParams } from '../contract/params';
import { BEAM_DEFAULT_COUNTS, beamSize, pinnedBeamModel } from './pinnedBeam';
import { sizedValue } from './size';
import type { SceneDefinition } from './types';

const SIZE = beamSize('not in the paper (a physics check)');

export const cantilever: SceneDefinition = {
  name: 'cantilever',
  description: 'Beam (2 x 0.25 x 0.25) clamped at its left end, sagging under gravity. Default (resolution 40): 3326 vertices, 13700 tets.',
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: BEAM_DEFAULT_COUNTS,
  build(options = {}) {
    const model = pinnedBeamModel(sizedValue('cantilever', SIZE, options), false);
    return {
      model,
      colliders: [],
      handles: [fixedHandle],
      params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, damping: 2 }),
    };
  },
};
