/**
 * The benchmarks' impact state: a body's lowest IMPACT_DEPTH (m) has stopped on what it hit, the
 * rest still falls at the full speed, with a linear ramp between (a body squashing against the
 * ground or the body below it). Shared by bench/ccd.ts and bench/regionFramePairs.ts.
 */
export const IMPACT_DEPTH = 0.15;

/** Downward speed (m/s, >= 0) at height `y` of a body whose lowest point is `lowestY`, falling at `speed`. */
export function impactFallSpeed(y: number, lowestY: number, speed: number): number {
  return speed * Math.min(1, Math.max(0, (y - lowestY) / IMPACT_DEPTH));
}
