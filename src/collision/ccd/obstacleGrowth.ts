/**
 * How far a body's own frame can be wrong when the body meets an obstacle within the horizon
 * (MotionBound.ownGrowth; broadPhase.ts ownFrameBoxes).
 *
 * Pairs within one object are found on boxes swept in the object's own frame: each vertex's path
 * relative to a reference vertex that moves with the object's mean velocity (broadPhase.ts). That
 * frame predicts a body in flight, but not one that lands: the vertices that touch the ground stop
 * while the reference still falls, so in the own frame they move by the fall's speed times the
 * horizon, along it. On the H100 the shared octopus dropped from 0.5 m escaped its own-frame boxes
 * 522-14,770 times a frame from its first touch; each escape doubled the object's margin, from
 * 11.3 mm to 90.1 mm, and the same-object pairs went from 35,627 to 4.4 million, the worker's job
 * from 15 ms to 1.1 s (docs/benchmarks.md "On a real GPU: NVIDIA H100, 2026-11-26").
 *
 * The motion it misses is bounded and has a direction. If a vertex and the frame's reference
 * vertex each either keep their velocity or take an obstacle's (velocity s) over the horizon H,
 * the vertex's own-frame displacement lies in the hull of 0 and (v - v_mean) H (what the boxes hold
 * already), moved by u = -(v_mean - s) H where the vertex may meet the obstacle (it stops, the
 * reference flies on) and by u = +(v_mean - s) H where the reference may (the reference stops,
 * the vertex flies on). So a vertex's box grows on one side of each axis, toward u, by |u[k]|, and
 * only for the obstacles it or its reference can reach within the horizon: a body landing at
 * 3 m/s gets the boxes of its lowest 10 cm 10 cm taller upward, not every box 10 cm wider.
 *
 * Obstacles of a vertex: a collider it may reach within the horizon (static: s = 0; the caller
 * says which vertices, e.g. sim/colliderClosingSpeed.ts collidersReached), and every other object
 * whose world box (the union of its vertices' swept world boxes) overlaps the vertex's swept world
 * box (s = that object's mean velocity). Bodies that fall together, or rest, get nothing.
 */
import type { CcdTopology } from './broadPhase';
import { objectCount, objectMeans } from './objectMeans';
import { overlap } from './f32Round';

export interface ObstacleGrowthInput {
  topology: CcdTopology;
  /** World boxes, 6 floats per vertex (lo xyz, hi xyz): broadPhase.ts sweptVertexBoxes over the horizon. */
  worldBoxes: Float32Array;
  /** Velocities, vec4 per vertex (xyz used). */
  velocities: Float32Array;
  /** Per object, the own frame's reference vertex at 4 u32 per object (broadPhase.ts ownFrameReferences). */
  references: Uint32Array;
  /** Seconds the boxes cover. */
  horizon: number;
  /** Per vertex, non-zero where it may reach a collider within the horizon; null: no colliders. */
  reachesCollider: Uint8Array | null;
}

/** Per vertex, 6 floats (>= 0): growth below on x, y, z, then above (MotionBound.ownGrowth). */
export function obstacleGrowth(i: ObstacleGrowthInput): Float32Array {
  const { topology, worldBoxes, velocities, references, horizon: H, reachesCollider } = i;
  const obj = topology.vertexObject;
  const n = topology.vertexCount;
  if (worldBoxes.length !== 6 * n) throw new RangeError(`obstacleGrowth: worldBoxes has length ${worldBoxes.length}, expected ${6 * n} (6 per vertex)`);
  if (velocities.length !== 4 * n) throw new RangeError(`obstacleGrowth: velocities has length ${velocities.length}, expected ${4 * n} (vec4 per vertex)`);
  if (reachesCollider && reachesCollider.length !== n) throw new RangeError(`obstacleGrowth: reachesCollider has length ${reachesCollider.length}, expected ${n} (one per vertex)`);
  if (!(Number.isFinite(H) && H >= 0)) throw new RangeError(`obstacleGrowth: horizon must be a finite number >= 0, got ${H}`);
  const objects = objectCount(topology);
  if (references.length < 4 * objects) throw new RangeError(`obstacleGrowth: references has length ${references.length}, expected 4 per object (${4 * objects})`);
  const mean = objectMeans(topology, velocities);
  // Per object, its world box (an object without vertices keeps an empty one, which overlaps nothing).
  const box = new Float32Array(6 * objects);
  for (let o = 0; o < objects; o++) box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * o);
  for (let v = 0; v < n; v++) {
    const o = 6 * obj[v];
    for (let k = 0; k < 3; k++) {
      box[o + k] = Math.min(box[o + k], worldBoxes[6 * v + k]);
      box[o + 3 + k] = Math.max(box[o + 3 + k], worldBoxes[6 * v + 3 + k]);
    }
  }
  // Per object, the others whose world boxes overlap its own: the only ones its vertices can meet.
  const neighbours: number[][] = Array.from({ length: objects }, () => []);
  for (let a = 0; a < objects; a++) {
    for (let b = a + 1; b < objects; b++) {
      if (!overlap(box, a, box, b)) continue;
      neighbours[a].push(b);
      neighbours[b].push(a);
    }
  }
  // Where the reference may stop on an obstacle moving at s, every vertex of its object flies on:
  // displacement u = +(v_mean - s) H. Where the vertex itself may: u = -(v_mean - s) H.
  const referenceGrowth = new Float32Array(6 * objects);
  for (let o = 0; o < objects; o++) {
    const r = references[4 * o];
    if (r < n && obj[r] === o) growToward(referenceGrowth, 6 * o, r, 1, mean, o, H, worldBoxes, box, neighbours[o], reachesCollider);
  }
  const growth = new Float32Array(6 * n);
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    growth.set(referenceGrowth.subarray(6 * o, 6 * o + 6), 6 * v);
    growToward(growth, 6 * v, v, -1, mean, o, H, worldBoxes, box, neighbours[o], reachesCollider);
  }
  return growth;
}

/**
 * Grows out[at, at + 6) (below xyz, above xyz) toward u = sign (v_mean(o) - s) H for each obstacle
 * vertex v may reach: a collider (s = 0) where reachesCollider says so, and each neighbouring
 * object p whose world box v's world box overlaps (s = p's mean velocity). One side per axis.
 */
function growToward(
  out: Float32Array, at: number, v: number, sign: number, mean: Float64Array, o: number, H: number,
  worldBoxes: Float32Array, box: Float32Array, neighbours: number[], reachesCollider: Uint8Array | null,
): void {
  if (reachesCollider && reachesCollider[v] !== 0) growBy(out, at, sign * mean[3 * o] * H, sign * mean[3 * o + 1] * H, sign * mean[3 * o + 2] * H);
  for (const p of neighbours) {
    if (!overlap(worldBoxes, v, box, p)) continue;
    growBy(out, at, sign * (mean[3 * o] - mean[3 * p]) * H, sign * (mean[3 * o + 1] - mean[3 * p + 1]) * H, sign * (mean[3 * o + 2] - mean[3 * p + 2]) * H);
  }
}

/** Grows out[at, at + 6) to hold the displacement (ux, uy, uz): below on an axis where it is negative, above where positive. */
function growBy(out: Float32Array, at: number, ux: number, uy: number, uz: number): void {
  if (ux < 0) out[at] = Math.max(out[at], -ux); else out[at + 3] = Math.max(out[at + 3], ux);
  if (uy < 0) out[at + 1] = Math.max(out[at + 1], -uy); else out[at + 4] = Math.max(out[at + 4], uy);
  if (uz < 0) out[at + 2] = Math.max(out[at + 2], -uz); else out[at + 5] = Math.max(out[at + 5], uz);
}
