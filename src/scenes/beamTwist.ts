/** A beam held at both ends by kinematic handles; one end turns about the beam axis. */
import { fixedHandle, twistingHandle } from '../sim/handles';
import { defaultParams } from '../sim/params';
import { pinnedBeamModel } from './pinnedBeam';
import type { SceneDefinition } from './types';

export const beamTwist: SceneDefinition = {
  name: 'beam-twist',
  description: 'Beam (2 x 0.25 x 0.25) pinned at both ends; the right end twists at 2 rad/s.',
  accepts: ['resolution'],
  build(options = {}) {
    const model = pinnedBeamModel(options.resolution, true);
    return {
      model,
      colliders: [],
      handles: [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 2)],
      params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, gravity: [0, 0, 0] }),
    };
  },
};
