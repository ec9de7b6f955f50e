/**
 * A 10 cm block (2 x 2 x 2 cells, E 1e6) resting on a 1 m slab (8 x 1 x 2 cells, bottom layer held),
 * sliding along it at 2.5 m/s with no friction, under gravity, hybrid collisions, no damping: on
 * a flat surface nothing may act along it, so the block keeps its speed (tests of the CCD contact
 * normals at the slab's internal edges: src/collision/ccd/featureNormal.ts).
 */
import type { Model } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { bodiesSetup, cubePart, latticePart } from '../unit/collision/scenes';

export function frictionlessSlide(): SimSetup {
  const slab = latticePart([8, 1, 2], (u, v, w) => [u / 8 - 0.2, v * 0.05, w / 8 - 0.125]);
  const block = cubePart(2, 0.1, [-0.18, 0.0505, -0.05]);
  const setup = bodiesSetup(
    [{ part: slab, youngsModulus: 1e6 }, { part: block, youngsModulus: 1e6, velocity: [2.5, 0, 0] }],
    { substeps: 10, damping: 0, friction: 0, collisionMode: 'hybrid', selfCollision: false },
  );
  const m = setup.model;
  for (let v = m.objectVertexOffsets[0]; v < m.objectVertexOffsets[1]; v++) if (m.restPositions[3 * v + 1] === 0) m.invMass[v] = 0;
  return setup;
}

/** The block's mass-weighted velocity along the slide (x). */
export function slideVelocity(m: Model, v: ArrayLike<number>): number {
  let p = 0, mass = 0;
  for (let i = m.objectVertexOffsets[1]; i < m.objectVertexOffsets[2]; i++) {
    p += v[3 * i] / m.invMass[i];
    mass += 1 / m.invMass[i];
  }
  return p / mass;
}
