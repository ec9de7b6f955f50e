/**
 * World boxes clipped to each object's mean path (MotionBound.worldBoxes 'mean-path',
 * SolverParams.ccdWorldBoxes; docs/collisions.md "World boxes clipped to the mean path").
 *
 * A vertex's world box (broadPhase.ts sweptVertexBoxes) is the ball of every motion that does not
 * speed it up: its gravity arc grown by margin + |v| H on every side. A body that falls or flies
 * whole moves its vertices alike, so a second prediction holds too: the body's mean path (its mean
 * velocity and gravity over [0, H]) plus the vertex's own deviation from it, margin +
 * |v - v_mean| H on every side, plus the growth the own-frame boxes take where the body may meet
 * an obstacle (MotionBound.ownGrowth, obstacleGrowth.ts: the part that stops while the rest moves
 * on). A vertex whose motion both predictions hold stays inside their intersection, which is the
 * box used: in a pile falling at 2-7 m/s the ball is |v| H wide on every side, while the mean path
 * is one segment wide, so the pairs between bodies fall 1.2-6.2x, 1.7-2.2x once the pile has
 * landed (the 4-octopus box's states, bench/meanPathBoxes.ts), while the boundary vertices outside
 * their box a frame later are as many (0-1 more) and two frames later 2-31 % more.
 *
 * The box is still a prediction: the GPU checks each vertex against it at every substep's end
 * (ccdNarrow.wgsl), counts an escape where it left, and the escaped vertex's boxes widen
 * (ccdSchedule.ts vertexMargins, which both predictions take).
 */
import type { CcdTopology, MotionBound } from './broadPhase';
import { objectMeans } from './objectMeans';
import { roundDown, roundUp } from './f32Round';

/** The least and the most of u t + g t^2 / 2 over t in [0, H]: at its ends, or where the arc turns between them. */
function arcExtent(u: number, g: number, H: number): [number, number] {
  const end = u * H + 0.5 * g * H * H;
  let lo = Math.min(0, end), hi = Math.max(0, end);
  const turn = g !== 0 ? -u / g : -1;
  if (turn > 0 && turn < H) {
    const at = u * turn + 0.5 * g * turn * turn;
    lo = Math.min(lo, at);
    hi = Math.max(hi, at);
  }
  return [lo, hi];
}

/**
 * Clips `boxes` (sweptVertexBoxes of the same positions, velocities and bound: 6 floats per vertex)
 * in place to each vertex's mean-path box, for the vertices `only` places in its object range (all
 * when absent). Corners rounded outward to float32, as the ball's.
 */
export function clipToMeanPath(
  topo: CcdTopology, positions: Float32Array, velocities: Float32Array, bound: MotionBound, boxes: Float32Array, only?: [number, number],
): void {
  const n = topo.vertexCount, obj = topo.vertexObject, H = bound.horizon, g = bound.gravity;
  if (boxes.length !== 6 * n) throw new RangeError(`clipToMeanPath: boxes has length ${boxes.length}, expected ${6 * n} (6 per vertex)`);
  const growth = bound.ownGrowth, vertexMargins = bound.vertexMargins;
  const mean = objectMeans(topo, velocities);
  // Per object and axis, the mean path's extent.
  const path = new Float64Array(2 * mean.length);
  for (let q = 0; q < mean.length; q++) [path[2 * q], path[2 * q + 1]] = arcExtent(mean[q], g[q % 3], H);
  for (let i = 0; i < n; i++) {
    const o = obj[i];
    if (only && (o < only[0] || o >= only[1])) continue;
    let deviation = 0;
    for (let k = 0; k < 3; k++) deviation += (velocities[4 * i + k] - mean[3 * o + k]) ** 2;
    const grow = (vertexMargins !== undefined ? Math.max(bound.margin, vertexMargins[i]) : bound.margin) + Math.sqrt(deviation) * H;
    for (let k = 0; k < 3; k++) {
      const x = positions[4 * i + k], b = 6 * i + k;
      const lo = roundDown(x + path[2 * (3 * o + k)] - grow - (growth ? growth[b] : 0));
      const hi = roundUp(x + path[2 * (3 * o + k) + 1] + grow + (growth ? growth[b + 3] : 0));
      if (lo > boxes[b]) boxes[b] = lo;
      if (hi < boxes[b + 3]) boxes[b + 3] = hi;
    }
  }
}
