/** A beam held at both ends by kinematic handles; one end turns about the beam axis. */
import { fixedHandle, twistingHandle } from '../sim/handles';
import { defaultParams } from '../contract/params';
import { BEAM_DEFAULT_COUNTS, beamSize, pinnedBeamModel } from './pinnedBeam';
import { sizedValue } from './size';
import type { SceneDefinition } from './types';

const SIZE = { ...beamSize('paper Fig. 13 (Table 1): thin beam, 400k vertices, 1.9M tets; resolution 215 gives 351k vertices, 1.93M tets'), paper: 215 };

export const beamTwist: SceneDefinition = {
  name: 'beam-twist',
  description: 'Beam (2 x 0.25 x 0.25) pinned at both ends; the right end twists at 2 rad/s. Default (resolution 40): 3326 vertices, 13700 tets.',
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: BEAM_DEFAULT_COUNTS,
  build(options = {}) {
    const model = pinnedBeamModel(sizedValue('beam-twist', SIZE, options), true);
    return {
      model,
      colliders: [],
      handles: [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 2)],
      // Paper Table 1 (twisted thin beam): 3.3e-4 s substeps (1/60 s in 50) x 3 iterations; the
      // twist buckles the beam onto itself, so self-collision is on.
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: [0, 0, 0], collisions: true, selfCollision: true }),
    };
  },
};
