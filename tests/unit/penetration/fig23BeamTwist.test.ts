/**
 * Paper 000 Fig. 23 on the beam-twist scene itself (float64 CPU engine): the thin beam is twisted
 * with the shortest path until it coils onto itself (the first frame with DCD queries), then the
 * same state continues with `exact` and with `restClosest` for 8 frames. The paper switched to the
 * rest-pose closest point at that moment and its beam exploded within a few frames.
 *
 * Cheapest setting that still self-contacts: resolution 20 (186 vertices, 404 tets) and 10
 * substeps a frame instead of the scene's 50; the coil forms at frame 194 (3.2 s), at 1,452 J.
 *
 * Truths checked: the scene does reach self-contact (DCD queries and self-penetrating vertices,
 * the brute-force counter); with `exact` the total energy never exceeds its value at the switch
 * by more than 25 % (the handles keep twisting, so it may rise a little) and the self-penetration
 * is gone by the end. Measured for `restClosest` (the paper's claim is that it grows): it does not
 * grow here; its energy peaks 10 % above exact's in the first frame after the switch (1,372 J
 * against 1,242 J) and then follows it. The test holds that measurement, so that a change making
 * restClosest diverge, or making it match the paper, shows up.
 *
 * Caveat, measured with probes (docs/benchmarks.md "Penetration methods"): at 10 substeps (and
 * at 20) the coil does not hold; with both methods it springs open within 3-4 frames and the
 * energy falls (1,452 J to about 400 J here), so the window in which the methods can differ is
 * short. At the scene's own 50 substeps the coil holds (12 frames measured after the switch, 600-
 * 1,000 queries a frame) and exact and restClosest stay within 1.1 % of each other in energy; that
 * run takes 72 s here, too long for the suite.
 */
import { describe, expect, it } from 'vitest';
import { findScene } from '../../../src/scenes/registry';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import type { PenetrationMethod } from '../../../src/penetration/methods';
import { countIntersections } from '../../support/intersectionCounter';

const RESOLUTION = 20, SUBSTEPS = 10, AFTER = 8, MAX_PREFIX = 300;

function solver(method: PenetrationMethod): CpuSolver {
  const setup = findScene('beam-twist').build({ resolution: RESOLUTION });
  setup.params = { ...setup.params, substeps: SUBSTEPS, penetration: method };
  return new CpuSolver(setup);
}

function energy(s: CpuSolver): number {
  return totalEnergy(s.model, s.x, s.v, { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity }).total;
}

interface Branch { energy: number[]; penetrating: number[]; queries: number }

function branch(from: CpuSolver, method: PenetrationMethod): Branch {
  const s = solver(method);
  s.x.set(from.x);
  s.x0.set(from.x0);
  s.v.set(from.v);
  s.time = from.time;
  s.frame = from.frame;
  const out: Branch = { energy: [], penetrating: [], queries: 0 };
  for (let f = 0; f < AFTER; f++) {
    s.stepFrame();
    out.queries += s.collisionCounters.spbQueries;
    out.energy.push(energy(s));
    out.penetrating.push(countIntersections({ positions: s.x, tets: s.model.tets, tetObject: s.model.tetObject }).self);
  }
  return out;
}

describe('Fig. 23: the twisted thin beam coils onto itself, then exact or the rest-pose closest point (beam-twist, float64 CPU engine)', () => {
  it('self-contact forms; exact stays bounded and resolves it; restClosest measured alongside (no blow-up here)', () => {
    const start = solver('exact');
    while (start.frame < MAX_PREFIX && start.collisionCounters.spbQueries === 0) start.stepFrame();
    expect(start.collisionCounters.spbQueries, `no self-contact within ${MAX_PREFIX} frames`).toBeGreaterThan(0);
    const e0 = energy(start);
    const exact = branch(start, 'exact');
    const rest = branch(start, 'restClosest');
    const peak = (b: Branch): number => Math.max(...b.energy);
    console.log(`beam-twist res ${RESOLUTION}: coil at frame ${start.frame}, E ${e0.toFixed(0)} J; peak after: exact ${peak(exact).toFixed(0)}, restClosest ${peak(rest).toFixed(0)}; ` +
      `penetrating exact ${exact.penetrating.join(',')} rest ${rest.penetrating.join(',')}; queries ${exact.queries} / ${rest.queries}`);

    expect(exact.queries).toBeGreaterThan(100);
    expect(Math.max(...exact.penetrating)).toBeGreaterThan(0);
    expect(peak(exact)).toBeLessThan(1.25 * e0);
    expect(exact.penetrating[AFTER - 1]).toBe(0);

    // The paper's Fig. 23: the energy of restClosest grows. Measured here: it does not.
    expect(rest.queries).toBeGreaterThan(100);
    expect(peak(rest)).toBeLessThan(1.25 * e0);
    expect(peak(rest)).toBeLessThan(1.25 * peak(exact));
    expect(rest.penetrating[AFTER - 1]).toBe(0);
  });
});
