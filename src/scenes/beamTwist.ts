/**
 * A twisted thin beam (paper 000 Figs. 13 and 23): a 2 x 0.1 x 0.1 beam (the paper gives no
 * dimensions; 20:1 is thin enough to coil, and at resolution 400 the lattice gives 370k vertices
 * and 1.99M tets, the paper's 400K and 1.9M). Its left end (the first 3 % of its length) is held
 * still; its right end turns about the beam's axis at one turn a second and closes in at 0.1 m/s
 * for 4 s (rods-twist's motion, twistAndApproach). The beam buckles into a helix within the first
 * turn and, once the ends have come closer, coils onto itself (plectoneme): self-contact from
 * about 3.3 s (frame 194-199 at resolution 20 on the float64 CPU engine, 10-50 substeps). Twisted with its ends kept apart it stays a helix and never touches itself (5 turns
 * measured), which is why the ends close in. No gravity. Settings as Table 1's "twisted thin
 * beam": 3.3e-4 s substeps (1/60 s in 50) x 3 iterations.
 */
import { fixedHandle } from '../sim/handles';
import { defaultParams } from '../contract/params';
import { pinnedBeamModel } from './pinnedBeam';
import { twistAndApproach } from './rodsTwist';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const THIN_BEAM = { sizeX: 2, sizeY: 0.1, sizeZ: 0.1 };
const SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 16, max: 640, step: 1, default: 80, small: 40, paper: 400,
  note: 'paper Fig. 13 (Table 1): thin beam, 400K vertices, 1.9M tets; resolution 400 gives 370k vertices, 1.99M tets',
};
const DEFAULT_COUNTS = { vertices: 4617, tets: 17984 };

export const beamTwist: SceneDefinition = {
  name: 'beam-twist',
  description:
    `Thin beam (${THIN_BEAM.sizeX} x ${THIN_BEAM.sizeY} x ${THIN_BEAM.sizeZ}) held at both ends; the right end turns about the beam's axis at one turn a second ` +
    `and closes in at 0.1 m/s for 4 s, so the beam buckles and coils onto itself (self-contact from about 3.3 s). ` +
    `Default (resolution ${SIZE.default}): ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const model = pinnedBeamModel(sizedValue('beam-twist', SIZE, options), true, THIN_BEAM);
    return {
      model,
      colliders: [],
      handles: [fixedHandle, twistAndApproach],
      // Paper Table 1 (twisted thin beam): 3.3e-4 s substeps (1/60 s in 50) x 3 iterations.
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: [0, 0, 0], damping: 1, friction: 0.2, collisions: true, selfCollision: true }),
    };
  },
};
