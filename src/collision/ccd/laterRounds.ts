/**
 * CCD in the later collision rounds (SolverParams.ccdEveryRound; docs/collisions.md "CCD in every
 * round"): which candidate pairs a later round tests again. A pair whose axis-aligned gap at the
 * detecting round's positions exceeds the separation plus twice the later rounds' reach cannot come
 * within the separation in them as long as no vertex moves farther than the reach (along any axis)
 * from where that round saw it: each side closes the gap by at most the reach. Such pairs are
 * skipped; a vertex that does move farther is counted (counters.ccd.laterRoundBeyondReach), the
 * pairs it was in then untested. The reach is half the broad phase's base margin (which the
 * frame's boxes hold in any case): on the settled octopus box most candidates are the fast tentacle
 * tips' pairs with far triangles, which one round's material iterations cannot bring near.
 * The GPU twin is ccdNarrow.wgsl's candidateFar / CCD_LATER_ROUND_BEYOND.
 */

/** The broad phase's base margin in mean boundary edges (gpuCollisions.ts ccdMarginRatio's default). */
export const CCD_BASE_MARGIN_RATIO = 0.25;

/** How far (world units, along any axis) a vertex may move in the later rounds before pairs skipped as far could be missed. */
export function laterRoundReach(offset: number, meanEdge: number, marginRatio = CCD_BASE_MARGIN_RATIO): number {
  return Math.max(2 * offset, marginRatio * meanEdge) / 2;
}

/**
 * The axis-aligned gap between the boxes of point set A and point set B (vertex ids into xyz
 * positions x): the largest separation along x, y or z (0 when the boxes overlap), a lower bound of
 * their Euclidean distance.
 */
export function pairBoxGap(x: ArrayLike<number>, a: readonly number[], b: readonly number[]): number {
  let gap = 0;
  for (let k = 0; k < 3; k++) {
    let aLo = Infinity, aHi = -Infinity, bLo = Infinity, bHi = -Infinity;
    for (const v of a) { aLo = Math.min(aLo, x[3 * v + k]); aHi = Math.max(aHi, x[3 * v + k]); }
    for (const v of b) { bLo = Math.min(bLo, x[3 * v + k]); bHi = Math.max(bHi, x[3 * v + k]); }
    gap = Math.max(gap, bLo - aHi, aLo - bHi);
  }
  return gap;
}
