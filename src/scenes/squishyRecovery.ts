/**
 * Recovery of a tangled squishy ball (paper 000 section 5.2, Fig. 16): the squishy ball of
 * squishy-squeeze is flattened between two planes with self-collision off, so its tentacles
 * pass through each other and through the shell; once it is flat (frame F, default 75 =
 * 1.25 s, after the squeeze ends at 1.1 s) self-collision and recovery mode (every vertex and
 * tet centroid a query point) switch on while it is still held, and the intersections must
 * vanish; the top plane lets go at 2 s. F follows the runner's --self-collision-from.
 * Measured on the CPU reference at resolution 28 (bench/sceneCheck.ts): held flat, the DCD hits
 * per frame fall steadily (652k at frame 80 to 525k at frame 95, no NaN, kinetic energy about
 * 100 J); flattened to 1/20 of its radius the ball has no room to be free of overlap, so they
 * cannot vanish before the release. Switching at the release instead (frame 96) threw the ball
 * up at several m/s as its compressed material sprang back under the new contacts.
 * Settings as Table 1's pre-intersected squishy ball: 3.3e-4 s substeps (50 a frame) x 3.
 */
import { defaultParams } from '../contract/params';
import { sizedValue } from './size';
import { squeezedBall, SQUISHY_DEFAULT_COUNTS, SQUISHY_SIZE } from './squishySqueeze';
import type { SceneDefinition, SceneSize } from './types';

export const SQUISHY_RECOVERY_SWITCH_FRAME = 75;
/** Seconds: the top plane is switched off. */
export const SQUISHY_RECOVERY_RELEASE = 2;
const SIZE: SceneSize = {
  ...SQUISHY_SIZE,
  paper: 100,
  note: 'paper Fig. 16 (Table 1): 219k vertices, 704k tets; resolution 100 gives 138k vertices, 673k tets',
};

export const squishyRecovery: SceneDefinition = {
  name: 'squishy-recovery',
  description:
    `Squishy ball squeezed flat with self-collision off (its tentacles interpenetrate), then from frame ${SQUISHY_RECOVERY_SWITCH_FRAME} ` +
    `(or --self-collision-from F) self-collision and recovery mode on while still held; released at ${SQUISHY_RECOVERY_RELEASE} s. ` +
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
