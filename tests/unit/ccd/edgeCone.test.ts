import { describe, expect, it } from 'vitest';
import { clampToArc, clampToEdgeCone } from '../../../src/collision/ccd/featureNormal';

/**
 * The normal cone of a convex surface edge (featureNormal.ts clampToEdgeCone). Truth: geometry. An
 * edge along x between a top face (outward normal +y) and a front face (-z) has as its normal cone
 * the quarter circle from +y to -z in the plane x = 0: every direction in it is perpendicular to
 * the edge, and the direction in the cone nearest any u is u's projection on that plane, clamped to
 * the arc's nearer end where it falls outside.
 */
const up = [0, 1, 0], front = [0, 0, -1];
const unit = (v: number[]): Float64Array => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return Float64Array.from(v, (c) => c / l);
};

describe('an edge\'s normal cone is the arc between its faces\' normals, perpendicular to the edge', () => {
  it('keeps a direction on the arc, and moves one off it to the arc\'s nearer end', () => {
    const onArc = unit([0, 1, -1]);
    expect(clampToEdgeCone(up, front, onArc)).toBe(false);
    expect(Array.from(onArc)).toEqual(Array.from(unit([0, 1, -1])));
    const behind = unit([0, 1, 0.3]); // past +y, away from the front face
    expect(clampToEdgeCone(up, front, behind)).toBe(true);
    expect(Array.from(behind)).toEqual(up);
  });

  it('takes out a direction\'s part along the edge: the nearest direction in the cone is its projection, normalised', () => {
    const slanted = unit([0.6, 0.48, -0.64]); // 0.8 of it in the plane x = 0, on the arc
    expect(clampToEdgeCone(up, front, slanted)).toBe(true);
    expect(slanted[0]).toBe(0);
    expect(slanted[1]).toBeCloseTo(0.6, 14);
    expect(slanted[2]).toBeCloseTo(-0.8, 14);
    // Along the edge (no part in the plane): the nearer face's normal.
    const along = unit([1, 0, 0]);
    expect(clampToEdgeCone(up, front, along)).toBe(true);
    expect(Math.abs(along[0])).toBe(0);
    expect(Math.hypot(along[1], along[2])).toBeCloseTo(1, 14);
  });

  it('the check can fail: the wedge of clampToArc alone holds a direction along the edge as inside the cone', () => {
    const along = unit([1, 0, 0]);
    expect(clampToArc(up, front, along)).toBe(false);
    expect(Array.from(along)).toEqual([1, 0, 0]);
  });
});
