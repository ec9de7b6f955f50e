/**
 * An open box for the pile scenes: the ground plane y >= 0 and four vertical wall planes
 * bounding |x| <= halfX and |z| <= halfZ (colliders.ts planes are half-spaces n.x >= offset,
 * so each wall faces inwards).
 */
import type { Collider } from '../sim/colliders';

export function containerColliders(halfX: number, halfZ: number): Collider[] {
  if (!(halfX > 0) || !(halfZ > 0)) throw new RangeError(`container: half widths must be > 0, got ${halfX}, ${halfZ}`);
  return [
    { kind: 'plane', normal: [0, 1, 0], offset: 0 },
    { kind: 'plane', normal: [1, 0, 0], offset: -halfX },
    { kind: 'plane', normal: [-1, 0, 0], offset: -halfX },
    { kind: 'plane', normal: [0, 0, 1], offset: -halfZ },
    { kind: 'plane', normal: [0, 0, -1], offset: -halfZ },
  ];
}
