/**
 * A squishy ball flattened between two planes to 1/20 of its radius, then released (the top
 * plane switches off). Authors' settings: 50 substeps x 3 iterations.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { buildModel } from '../sim/model';
import { defaultParams } from '../sim/params';
import { placeAbove } from './place';
import type { SceneDefinition } from './types';

/** Top plane height over time: holds, descends to `gap`, holds, then is switched off. */
export function squeezeScript(top: number, gap: number, descend: [number, number], release: number): (t: number) => number | null {
  return (t) => {
    if (t >= release) return null;
    const s = Math.min(1, Math.max(0, (t - descend[0]) / (descend[1] - descend[0])));
    // The plane is n.x >= offset with n = (0,-1,0): offset = -height.
    return -(top + (gap - top) * s);
  };
}

export const squishySqueeze: SceneDefinition = {
  name: 'squishy-squeeze',
  description: 'Squishy ball squeezed flat (1/20 of its radius) between two planes, then released; self-collision on. Default: 7781 vertices, 28170 tets.',
  accepts: ['resolution', 'ground'],
  defaultCounts: { vertices: 7781, tets: 28170 },
  build(options = {}) {
    const radius = 0.38;
    const shape = generateShape('squishyBall', { radius }, options.resolution);
    const positions = placeAbove(shape.positions, 0);
    let top = 0;
    for (let i = 1; i < positions.length; i += 3) top = Math.max(top, positions[i]);
    const model = buildModel([
      { name: 'squishy ball', positions, tets: shape.tets, material: { youngsModulus: 5e4, poissonRatio: 0.45, density: 500 } },
    ]);
    return {
      model,
      colliders: [
        ...(options.ground === false ? [] : [{ kind: 'plane', normal: [0, 1, 0], offset: 0 } as const]),
        { kind: 'plane', normal: [0, -1, 0], offset: squeezeScript(top + 0.01, radius / 20, [0.1, 1.1], 1.6) },
      ],
      handles: [],
      // Self-collision on: the flattened tentacles press on each other and must not pass through (issue 8).
      params: defaultParams({ dt: 1 / 60, substeps: 50, iterations: 3, gravity: [0, -9.81, 0], damping: 1, collisions: true, selfCollision: true }),
    };
  },
};
