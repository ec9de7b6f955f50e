/**
 * The frame the pairs within one object are joined in (broadPhase.ts sweptCandidates), chosen per
 * object and job: the object's own frame (its mean motion removed) or the world frame.
 *
 * Why: the own frame makes a falling or flying body's boxes margin-sized where world boxes are
 * |v| H tall, but a body that lands turns that around: its lower part stops while its mean still
 * falls, so in its own frame the stopped part rises at nearly the full speed, and every escape from
 * those boxes doubles the body's own margin (ccdSchedule.ts; it decays by 5 % a frame after). On an
 * H100 (docs/benchmarks.md, 2026-11-26) own margins went 11 -> 90 mm after a landing, same-object
 * pairs 35k -> 4.4M, the job 15 ms -> 1.1 s; in the world frame the landed body's boxes are
 * margin-sized again.
 *
 * Soundness: two points of one object meet at time t only where both are at one place at t, and a
 * place is one place in every frame, so a pair that can meet has overlapping boxes in every frame
 * whose boxes bound the motion: joining in either frame is complete. The GPU checks every boundary
 * vertex against its world box and its own-frame box each substep, and counts, widens and hands to
 * DCD an escape from either (ccdNarrow.wgsl, SolverParams.escapedToDcd).
 *
 * The choice: the frame whose boxes are smaller in sum (x + y + z extents over the object's
 * boundary vertices: the join's work and its answer grow with them). Filtering the chosen frame's
 * pairs by the other frame's boxes too (a pair must overlap in both) was measured and not kept: it
 * dropped 0-1 % of the pairs where the frames' boxes are comparable and cost a box test per pair
 * (docs/benchmarks.md "CCD's same-object pairs in the smaller frame").
 */

import type { CcdTopology } from './broadPhase';
import type { CcdSelfPairFrame } from '../../contract/params';

/** SolverParams.ccdSelfPairFrame: 'own' joins every object's pairs in its own frame; 'adaptive' as above. */
export type SelfPairFrame = CcdSelfPairFrame;

/** What the choice did in one job (counter ccd.selfWorldFrame). */
export interface SelfPairFrameReport {
  /** Objects whose same-object pairs were joined on world boxes. */
  worldJoined: number;
}

export interface SelfPairFrames {
  /** Per vertex 6 floats: its own-frame box, or its world box where its object joins in the world (the own-frame boxes' array itself when none does). */
  joinBoxes: Float32Array;
  /** Per object: 1 where its pairs are joined on world boxes. */
  world: Uint8Array;
  report: SelfPairFrameReport;
}

/** Sum over boundary vertices of objects lo..hi-1 of their boxes' x + y + z extents, per object. */
function boxSums(topo: CcdTopology, boxes: Float32Array, [lo, hi]: [number, number]): Float64Array {
  const bv = topo.boundaryVertices, obj = topo.vertexObject;
  const sums = new Float64Array(hi);
  for (let q = 0; q < bv.length; q++) {
    const v = bv[q], o = obj[v];
    if (o < lo || o >= hi) continue;
    const b = 6 * v;
    sums[o] += boxes[b + 3] - boxes[b] + boxes[b + 4] - boxes[b + 1] + boxes[b + 5] - boxes[b + 2];
  }
  return sums;
}

/**
 * Per object lo..hi-1, the frame its pairs are joined in, and the boxes to join them on.
 * ownBoxes and worldBoxes: 6 floats per vertex, valid at least for those objects' vertices.
 */
export function chooseSelfPairFrames(topo: CcdTopology, ownBoxes: Float32Array, worldBoxes: Float32Array, range: [number, number]): SelfPairFrames {
  const [lo, hi] = range;
  const n = topo.vertexCount, obj = topo.vertexObject;
  if (worldBoxes.length !== 6 * n || ownBoxes.length !== 6 * n) {
    throw new RangeError(`chooseSelfPairFrames: world boxes have length ${worldBoxes.length} and own-frame boxes ${ownBoxes.length}, expected ${6 * n} each (6 per vertex)`);
  }
  const own = boxSums(topo, ownBoxes, range), world = boxSums(topo, worldBoxes, range);
  const inWorld = new Uint8Array(hi);
  const report: SelfPairFrameReport = { worldJoined: 0 };
  for (let o = lo; o < hi; o++) {
    inWorld[o] = world[o] < own[o] ? 1 : 0;
    report.worldJoined += inWorld[o];
  }
  if (report.worldJoined === 0) return { joinBoxes: ownBoxes, world: inWorld, report };
  const joinBoxes = ownBoxes.slice();
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    if (o < lo || o >= hi || !inWorld[o]) continue;
    for (let k = 6 * v; k < 6 * v + 6; k++) joinBoxes[k] = worldBoxes[k];
  }
  return { joinBoxes, world: inWorld, report };
}
