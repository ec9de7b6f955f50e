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
 * The axis-aligned gap between the box of vertices a and b and the box of vertices c, d and e
 * (repeat an id where a feature has fewer: a vertex is (v, v), an edge's second side (p, q, q)) at
 * xyz positions x: the largest separation along x, y or z (0 when the boxes overlap), a lower bound
 * of their Euclidean distance. ccdNarrow.wgsl boxGap is the GPU's twin.
 */
export function pairBoxGap(x: ArrayLike<number>, a: number, b: number, c: number, d: number, e: number): number {
  let gap = 0;
  for (let k = 0; k < 3; k++) {
    const xa = x[3 * a + k], xb = x[3 * b + k], xc = x[3 * c + k], xd = x[3 * d + k], xe = x[3 * e + k];
    gap = Math.max(gap, Math.min(xc, xd, xe) - Math.max(xa, xb), Math.min(xa, xb) - Math.max(xc, xd, xe));
  }
  return gap;
}
