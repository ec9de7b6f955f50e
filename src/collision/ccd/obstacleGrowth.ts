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
  let objects = 0;
  for (let v = 0; v < n; v++) objects = Math.max(objects, obj[v] + 1);
  if (references.length < 4 * objects) throw new RangeError(`obstacleGrowth: references has length ${references.length}, expected 4 per object (${4 * objects})`);
  // Per object: its world box and mean velocity.
  const box = new Float64Array(6 * objects);
  for (let o = 0; o < objects; o++) box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * o);
  const mean = new Float64Array(3 * objects);
  const count = new Float64Array(objects);
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    for (let k = 0; k < 3; k++) {
      box[6 * o + k] = Math.min(box[6 * o + k], worldBoxes[6 * v + k]);
      box[6 * o + 3 + k] = Math.max(box[6 * o + 3 + k], worldBoxes[6 * v + 3 + k]);
      mean[3 * o + k] += velocities[4 * v + k];
    }
    count[o]++;
  }
  for (let o = 0; o < objects; o++) for (let k = 0; k < 3; k++) mean[3 * o + k] /= Math.max(1, count[o]);
  // Per object, the others whose world boxes overlap its own: the only ones its vertices can meet.
  const neighbours: number[][] = Array.from({ length: objects }, () => []);
  for (let a = 0; a < objects; a++) {
    if (count[a] === 0) continue;
    for (let b = a + 1; b < objects; b++) {
      if (count[b] === 0 || boxesApart(box, 6 * a, box, 6 * b)) continue;
      neighbours[a].push(b);
      neighbours[b].push(a);
    }
  }
  const growth = new Float32Array(6 * n);
  // Grows [out, out + 6) toward u = sign (v_mean(o) - s) H: one side per axis.
  const grow = (out: Float32Array | Float64Array, at: number, o: number, sign: number, sx: number, sy: number, sz: number): void => {
    const u = [sign * (mean[3 * o] - sx) * H, sign * (mean[3 * o + 1] - sy) * H, sign * (mean[3 * o + 2] - sz) * H];
    for (let k = 0; k < 3; k++) {
      if (u[k] < 0) out[at + k] = Math.max(out[at + k], -u[k]);
      else out[at + 3 + k] = Math.max(out[at + 3 + k], u[k]);
    }
  };
  // Calls meet(s) for each obstacle vertex v may reach: a collider (s = 0), another object (its mean velocity).
  const obstacles = (v: number, meet: (sx: number, sy: number, sz: number) => void): void => {
    if (reachesCollider && reachesCollider[v] !== 0) meet(0, 0, 0);
    for (const p of neighbours[obj[v]]) if (!boxesApart(worldBoxes, 6 * v, box, 6 * p)) meet(mean[3 * p], mean[3 * p + 1], mean[3 * p + 2]);
  };
  // Where the reference may stop, every vertex of its object flies on relative to it.
  const referenceGrowth = new Float64Array(6 * objects);
  for (let o = 0; o < objects; o++) {
    if (count[o] === 0) continue;
    obstacles(references[4 * o], (sx, sy, sz) => grow(referenceGrowth, 6 * o, o, 1, sx, sy, sz));
  }
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    for (let k = 0; k < 6; k++) growth[6 * v + k] = referenceGrowth[6 * o + k];
    obstacles(v, (sx, sy, sz) => grow(growth, 6 * v, o, -1, sx, sy, sz));
  }
  return growth;
}

/** Boxes a (at ia) and b (at ib), lo xyz then hi xyz, do not overlap. */
function boxesApart(a: ArrayLike<number>, ia: number, b: ArrayLike<number>, ib: number): boolean {
  return a[ia] > b[ib + 3] || b[ib] > a[ia + 3] || a[ia + 1] > b[ib + 4] || b[ib + 1] > a[ia + 4] || a[ia + 2] > b[ib + 5] || b[ib + 2] > a[ia + 5];
}
