/**
 * A squishy ball flattened between two planes to 1/20 of its radius, then released (the top
 * plane switches off). Authors' settings: 50 substeps x 3 iterations.
 */
import { generateShape } from '../mesh/procedural/catalog';
import type { Collider } from '../sim/colliders';
import { buildModel, type Model } from '../sim/model';
import { defaultParams } from '../contract/params';
import { placeAbove } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

/**
 * The squishy ball's size: the lattice resolution of the default ball (radius 0.38, 24
 * tentacles 0.1 thick). Below 28 the lattice is too coarse for the tentacles (tets are cut
 * off them).
 */
export const SQUISHY_SIZE: SceneSize = {
  label: 'lattice resolution', option: 'resolution', min: 28, max: 170, step: 1, default: 30, small: 28, paper: 160,
  note: 'paper Fig. 11 (Table 1): 774k vertices, 2.81M tets; resolution 160 gives 515k vertices, 2.70M tets',
};
/** Counts at the default resolution 30 (held by tests/unit/scenes). */
export const SQUISHY_DEFAULT_COUNTS = { vertices: 5626, tets: 19324 };
export const SQUISHY_RADIUS = 0.38;
export const SQUISHY_MATERIAL = { youngsModulus: 5e4, poissonRatio: 0.45, density: 500 };

/** Top plane height over time: holds, descends to `gap`, holds, then is switched off. */
export function squeezeScript(top: number, gap: number, descend: [number, number], release: number): (t: number) => number | null {
  return (t) => {
    if (t >= release) return null;
    const s = Math.min(1, Math.max(0, (t - descend[0]) / (descend[1] - descend[0])));
    // The plane is n.x >= offset with n = (0,-1,0): offset = -height.
    return -(top + (gap - top) * s);
  };
}

/** Seconds: the top plane descends over DESCEND and is switched off at SQUEEZE_RELEASE. */
export const SQUEEZE_DESCEND: [number, number] = [0.1, 1.1];
export const SQUEEZE_RELEASE = 1.6;

/**
 * The default squishy ball resting on the ground (y = 0, left out with ground false) under a
 * plane that squeezes it to 1/20 of its radius over SQUEEZE_DESCEND and is switched off at `release`.
 */
export function squeezedBall(resolution: number, ground: boolean, release: number): { model: Model; colliders: Collider[] } {
  const shape = generateShape('squishyBall', { radius: SQUISHY_RADIUS }, resolution);
  const positions = placeAbove(shape.positions, 0);
  let top = 0;
  for (let i = 1; i < positions.length; i += 3) top = Math.max(top, positions[i]);
  return {
    model: buildModel([{ name: 'squishy ball', positions, tets: shape.tets, material: SQUISHY_MATERIAL }]),
    colliders: [
      ...(ground ? [{ kind: 'plane', normal: [0, 1, 0], offset: 0 } as const] : []),
      { kind: 'plane', normal: [0, -1, 0], offset: squeezeScript(top + 0.01, SQUISHY_RADIUS / 20, SQUEEZE_DESCEND, release) },
    ],
  };
}

export const squishySqueeze: SceneDefinition = {
  name: 'squishy-squeeze',
  description: `Squishy ball squeezed flat (1/20 of its radius) between two planes, then released; self-collision on. Default: ${SQUISHY_DEFAULT_COUNTS.vertices} vertices, ${SQUISHY_DEFAULT_COUNTS.tets} tets.`,
  accepts: ['resolution', 'ground'],
  size: SQUISHY_SIZE,
  defaultCounts: SQUISHY_DEFAULT_COUNTS,
  build(options = {}) {
    const { model, colliders } = squeezedBall(sizedValue('squishy-squeeze', SQUISHY_SIZE, options), options.ground !== false, SQUEEZE_RELEASE);
    return {
      model,
      colliders,
      handles: [],
      // Self-collision on: the flattened tentacles press on each other and must not pass through (issue 8).
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: [0, -9.81, 0], damping: 1, collisions: true, selfCollision: true }),
    };
  },
};
