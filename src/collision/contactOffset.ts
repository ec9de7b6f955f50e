/**
 * The contact thickness delta (SolverParams.contactOffset; docs/collisions.md "Contact offset"):
 * every contact is solved to (x - s) . n >= delta, colliders included, and CCD reports pairs that
 * come within delta. 'auto' scales with the scene: a fraction of its mean boundary edge at rest, so
 * a resting contact's residual (a few Jacobi passes leave some) sits inside the skin instead of
 * inside the other body, at any mesh scale. The GPU and the CPU engines take it from here.
 */
import { computeFaceTopology } from '../mesh/faceTopology';
import type { SceneArrays } from '../contract/sceneArrays';
import type { SolverParams } from '../contract/params';

/** 'auto' contact offset as a fraction of the scene's mean boundary edge. */
export const CONTACT_OFFSET_AUTO_RATIO = 0.01;

const meanEdges = new WeakMap<SceneArrays, number>();

/**
 * Mean length of the model's boundary edges at rest (every boundary edge lies on two boundary
 * triangles, so this is the mean over the triangles' edges). Computed once per model.
 */
export function meanBoundaryEdge(model: SceneArrays): number {
  const known = meanEdges.get(model);
  if (known !== undefined) return known;
  const mean = meanTriangleEdge(model.restPositions, computeFaceTopology(model.tets, { source: 'scene' }).boundaryTriangles);
  meanEdges.set(model, mean);
  return mean;
}

/** Mean edge length of triangles `tris` (3 vertex ids each) over xyz `positions` (0 without triangles). */
export function meanTriangleEdge(positions: ArrayLike<number>, tris: ArrayLike<number>): number {
  const x = positions;
  let sum = 0;
  for (let f = 0; f < tris.length; f += 3) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * tris[f + k], b = 3 * tris[f + ((k + 1) % 3)];
      sum += Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]);
    }
  }
  return tris.length > 0 ? sum / tris.length : 0;
}

/**
 * Largest explicit contact offset, as a fraction of the smallest element edge, that runs without a
 * warning (contactOffsetWarning). A surface that starts closer than delta to another body or a
 * collider is pushed out to delta within one substep. The split impulse keeps that push out of
 * the velocity, but it still crushes the surface layer's tets, and the material launches the body
 * as it restores them. Measured (docs/collisions.md "Contact offset"): two cubes stacked 5 mm apart
 * with 0.05 m elements gained 1.6 % / 3 % / 73 % of their energy in 3 frames at delta = 0.2 / 0.25 /
 * 0.5 of an element, and 56x at a whole element.
 */
export const CONTACT_OFFSET_WARN_RATIO = 0.25;

/** A warning when an explicit offset exceeds CONTACT_OFFSET_WARN_RATIO of the smallest element edge; null otherwise. */
export function contactOffsetWarning(offset: SolverParams['contactOffset'], shortestEdge: number): string | null {
  if (offset === 'auto' || !(shortestEdge > 0) || !(offset > CONTACT_OFFSET_WARN_RATIO * shortestEdge)) return null;
  const limit = CONTACT_OFFSET_WARN_RATIO * shortestEdge;
  return (
    `contact offset ${offset} is ${(offset / shortestEdge).toFixed(2)} of the smallest element edge (${shortestEdge.toPrecision(2)}): ` +
    `a surface that starts closer than that to another body or a collider is pushed out to it within one substep, ` +
    `which crushes its surface tets and can launch the body; use at most about ${limit.toPrecision(2)} (a quarter of that edge), or 'auto'.`
  );
}

/** delta in world units for the parameter's value ('auto' or a length) on a scene whose mean boundary edge is `meanEdge`. */
export function contactOffsetValue(p: SolverParams['contactOffset'], meanEdge: number): number {
  return p === 'auto' ? CONTACT_OFFSET_AUTO_RATIO * meanEdge : p;
}

/** delta in world units for the model's scene. */
export function modelContactOffset(model: SceneArrays, p: SolverParams['contactOffset']): number {
  return p === 'auto' ? CONTACT_OFFSET_AUTO_RATIO * meanBoundaryEdge(model) : p;
}
