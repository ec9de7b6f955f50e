/**
 * Deciding a kept pair's box test without reading its boxes (ownPairCache.ts). When a kept list
 * is tested for the first time, each pair's gap is recorded: the least of the six differences
 * hi - lo of its two boxes (the pair overlaps exactly when the gap is >= 0: the difference of two
 * float32 numbers in float64 has the sign of the exact difference), together with every boundary
 * vertex's box relative to the object's mean (the reference). In a later job the object's drift
 * is the largest change of a box face relative to the mean since the reference, d. Box overlap
 * within one object does not change with a common translation, and an element's face (the min or
 * max of its corners' faces) moves by at most d relative to the mean, so a pair's gap changes by
 * at most 2 d: a recorded gap >= 2 d + slack overlaps now, one <= -(2 d + slack) does not, and only
 * pairs between need their boxes. A falling or resting body drifts by float32 rounding only, so
 * nearly every pair is decided by one sequential read instead of two boxes' six random ones.
 * `slack` covers the float64 rounding of the differences (relative 1e-9 of the largest coordinate,
 * as the containment test's).
 */

const SLACK = 1e-9;

/** A list's reference: each boundary vertex's box relative to the mean, and the largest |coordinate| then. */
export interface GapReference {
  boxes: Float64Array;
  big: number;
}

/** The reference of vertices[a..b) (6 floats each) relative to the mean (mx, my, mz). */
export function referenceBoxes(vertices: Uint32Array, a: number, b: number, boxes: Float32Array, mx: number, my: number, mz: number): GapReference {
  const ref = new Float64Array(6 * (b - a));
  let big = Math.max(Math.abs(mx), Math.abs(my), Math.abs(mz));
  for (let q = a; q < b; q++) {
    const p = 6 * vertices[q], k = 6 * (q - a);
    for (let i = 0; i < 6; i++) {
      ref[k + i] = boxes[p + i] - (i % 3 === 0 ? mx : i % 3 === 1 ? my : mz);
      big = Math.max(big, Math.abs(boxes[p + i]));
    }
  }
  return { boxes: ref, big };
}

/**
 * The threshold 2 d + slack for the boxes of now relative to the mean (mx, my, mz), against the
 * reference (referenceBoxes of vertices[a..b)); Infinity when a box is not finite.
 */
export function gapThreshold(vertices: Uint32Array, a: number, b: number, boxes: Float32Array, mx: number, my: number, mz: number, reference: GapReference): number {
  const ref = reference.boxes;
  let d = 0, big = Math.max(Math.abs(mx), Math.abs(my), Math.abs(mz), reference.big);
  for (let q = a; q < b; q++) {
    const p = 6 * vertices[q], k = 6 * (q - a);
    for (let i = 0; i < 6; i++) {
      const f = boxes[p + i];
      const change = Math.abs(f - (i % 3 === 0 ? mx : i % 3 === 1 ? my : mz) - ref[k + i]);
      if (!(change <= d)) d = change;
      const size = Math.abs(f);
      if (size > big) big = size;
    }
  }
  // Not finite (a box or the mean): no pair is decided by its gap.
  if (!Number.isFinite(d) || !Number.isFinite(big)) return Infinity;
  return 2 * d + SLACK * (1 + big + d);
}
