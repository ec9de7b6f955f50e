import { describe, expect, it } from 'vitest';
import { inversionFloorScratch, liftInvertedTets, restVolumes6 } from '../../../src/collision/cpu/inversionFloor';
import { kuhnLattice } from '../../support/kuhnLattice';
import { displacementMomentum } from '../../support/displacementMomentum';
import { rng } from '../../support/random';

/**
 * Recovery's inversion floor (SolverParams.inversionFloor) against laws: an inverted tet comes
 * back to positive volume; the lift moves no momentum and no angular momentum (a volume is
 * invariant under rigid motion); as a split impulse it leaves x - x0 (the velocity) alone; tets
 * above the floor and pinned vertices do not move.
 */

/** 6 V by the determinant, written out here (not the module's). */
function vol6(x: ArrayLike<number>, t: number[]): number {
  const p = (i: number) => [x[3 * t[i]], x[3 * t[i] + 1], x[3 * t[i] + 2]];
  const [a, b, c, d] = [p(0), p(1), p(2), p(3)];
  const u = b.map((v, k) => v - a[k]), v = c.map((q, k) => q - a[k]), w = d.map((q, k) => q - a[k]);
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

function lattice() {
  const l = kuhnLattice(3, 3, 3, (i, j, k) => [i * 0.1, j * 0.1, k * 0.1]);
  return { rest: Float64Array.from(l.positions), tets: l.tets, id: l.vertexId };
}

describe('inversion floor', () => {
  it('lifts the tets an interior vertex pushed through its neighbours back above zero, keeping momentum, angular momentum and velocities', () => {
    const { rest, tets, id } = lattice();
    const n = rest.length / 3;
    const r = rng(5);
    const mass = Array.from({ length: n }, () => 0.5 + r());
    const w = Float64Array.from(mass, (m) => 1 / m);
    const x = Float64Array.from(rest);
    // The interior vertex (1, 1, 1) pushed 1.6 cells along x and a little aside: its tets fold.
    const v = id(1, 1, 1);
    x[3 * v] += 0.16; x[3 * v + 1] += 0.03; x[3 * v + 2] -= 0.02;
    const tetList = Array.from({ length: tets.length / 4 }, (_, t) => Array.from(tets.subarray(4 * t, 4 * t + 4)));
    const inverted = (y: Float64Array) => tetList.filter((t) => !(vol6(y, t) > 0)).length;
    const before = inverted(x);
    expect(before).toBeGreaterThan(3);
    const velocity = Float64Array.from(x, (c, i) => (c - rest[i]) / 1e-3);
    const x0 = Float64Array.from(x, (c, i) => c - 1e-3 * velocity[i]);
    const xBefore = Float64Array.from(x);
    const floor = 0.1;
    const lifted = liftInvertedTets(x, x0, w, tets, restVolumes6(rest, tets), floor, inversionFloorScratch(n));
    expect(lifted).toBeGreaterThanOrEqual(before);
    expect(inverted(x)).toBeLessThan(before);
    const worst = (y: Float64Array) => Math.min(...tetList.map((t) => vol6(y, t)));
    expect(worst(x)).toBeGreaterThan(worst(xBefore));
    // Linear and angular momentum of the displacement: zero (up to rounding of the sizes involved).
    const { p, L, scale } = displacementMomentum(mass, xBefore, x);
    expect(scale).toBeGreaterThan(1e-3);
    for (let k = 0; k < 3; k++) expect(Math.abs(p[k])).toBeLessThan(1e-12 + 1e-9 * scale);
    // Angular momentum: each pass keeps it exactly about its own start positions; measured about
    // the first pass's, the second pass leaves a second-order remainder (first lift x second).
    console.log(`inversion floor on a folded vertex: momentum ${p.map((q) => q.toExponential(1)).join(', ')}, angular momentum ${L.map((q) => q.toExponential(1)).join(', ')}, mass-weighted lift ${scale.toExponential(2)}`);
    for (let k = 0; k < 3; k++) expect(Math.abs(L[k])).toBeLessThan(1e-2 * scale * 0.3);
    // Split impulse: x - x0 (the substep's velocity) is what it was.
    for (let i = 0; i < x.length; i++) expect((x[i] - x0[i]) / 1e-3).toBeCloseTo(velocity[i], 6);
    // Round after round (one call per collision round) every tet comes back above the floor.
    const scratch = inversionFloorScratch(n);
    let rounds = 1;
    while (liftInvertedTets(x, x0, w, tets, restVolumes6(rest, tets), floor, scratch) > 0 && rounds < 50) rounds++;
    expect(inverted(x)).toBe(0);
    expect(rounds).toBeLessThan(20);
    const rest6 = restVolumes6(rest, tets);
    tetList.forEach((t, i) => expect(vol6(x, t)).toBeGreaterThanOrEqual(floor * rest6[i] * (1 - 1e-9)));
  });

  it('moves nothing when every tet is above the floor, and never a pinned vertex', () => {
    const { rest, tets, id } = lattice();
    const n = rest.length / 3;
    const w = new Float64Array(n).fill(1);
    const x = Float64Array.from(rest);
    x[3 * id(1, 1, 1)] += 0.02;
    const x0 = Float64Array.from(x);
    expect(liftInvertedTets(x, x0, w, tets, restVolumes6(rest, tets), 0.1, inversionFloorScratch(n))).toBe(0);
    expect(x[3 * id(1, 1, 1)]).toBe(rest[3 * id(1, 1, 1)] + 0.02);
    // Pin the pushed vertex and invert its tets: only its neighbours move.
    const v = id(1, 1, 1);
    x[3 * v] += 0.14;
    w[v] = 0;
    const pinned = x[3 * v];
    expect(liftInvertedTets(x, x0, w, tets, restVolumes6(rest, tets), 0.1, inversionFloorScratch(n))).toBeGreaterThan(0);
    expect(x[3 * v]).toBe(pinned);
    // Floor 0: off.
    const y = Float64Array.from(x);
    expect(liftInvertedTets(y, Float64Array.from(y), new Float64Array(n).fill(1), tets, restVolumes6(rest, tets), 0, inversionFloorScratch(n))).toBe(0);
    expect(y).toEqual(x);
  });
});
