/**
 * Recovery of a tangled squishy ball (paper 000 section 5.2, Fig. 16): the squishy ball of
 * squishy-squeeze is flattened between two planes with self-collision off, so its tentacles
 * pass through each other and through the shell; it is held flat (to 1/20 of its radius from
 * 1.1 s) and at frame F (default 96 = 1.6 s) the top plane lets go and self-collision and
 * recovery mode (every vertex and tet centroid a query point) switch on, so the intersections
 * must vanish as it springs back. Held flat, it cannot: flattened to 1/20 of its radius the
 * ball's material has no room to be free of overlap (measured: the DCD hits fell by a fifth in
 * 20 frames with the switch while held). F follows the runner's --self-collision-from.
 * Settings as Table 1's pre-intersected squishy ball: 3.3e-4 s substeps (50 a frame) x 3.
 */
import { defaultParams } from '../sim/params';
import { sizedValue } from './size';
import { SQUEEZE_RELEASE, squeezedBall, SQUISHY_DEFAULT_COUNTS, SQUISHY_SIZE } from './squishySqueeze';
import type { SceneDefinition, SceneSize } from './types';

/** Seconds: the top plane is switched off (squishy-squeeze's release). */
export const SQUISHY_RECOVERY_RELEASE = SQUEEZE_RELEASE;
/** The frame that starts at the release (1.6 s at 1/60 s a frame). */
export const SQUISHY_RECOVERY_SWITCH_FRAME = 96;
const SIZE: SceneSize = {
  ...SQUISHY_SIZE,
  paper: 100,
  note: 'paper Fig. 16 (Table 1): 219k vertices, 704k tets; resolution 100 gives 138k vertices, 673k tets',
};

export const squishyRecovery: SceneDefinition = {
  name: 'squishy-recovery',
  description:
    `Squishy ball squeezed flat with self-collision off (its tentacles interpenetrate), released at ${SQUISHY_RECOVERY_RELEASE} s; ` +
    `from that frame (${SQUISHY_RECOVERY_SWITCH_FRAME}, or --self-collision-from F) self-collision and recovery mode are on. ` +
    `Default: ${SQUISHY_DEFAULT_COUNTS.vertices} vertices, ${SQUISHY_DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution', 'ground'],
  size: SIZE,
  defaultCounts: SQUISHY_DEFAULT_COUNTS,
  build(options = {}) {
    const { model, colliders } = squeezedBall(sizedValue('squishy-recovery', SIZE, options), options.ground !== false, SQUISHY_RECOVERY_RELEASE);
    const from = options.selfCollisionFrom ?? SQUISHY_RECOVERY_SWITCH_FRAME;
    return {
      model,
      colliders,
      handles: [],
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, damping: 1, collisions: true, selfCollision: false, recovery: false }),
      schedule: [{ frame: from, params: { selfCollision: true, recovery: true } }],
    };
  },
};
