/**
 * The sliver lift with the contacts (SolverParams.sliverLift 'with-contacts'; docs/collisions.md
 * "The sliver lift with the contacts"), on the float64 engine: a sliver's apex lifted toward
 * another body (tests/support/sliverUnderBox.ts) ends outside it, by a brute-force point-in-tet
 * test, and above where the box started (a contact stopped it, not the lift falling short). Lifted
 * after the contacts ('after-contacts', the default), the same apex ends inside the box: CCD never
 * sees that lift, so the check can fail.
 */
import { describe, expect, it } from 'vitest';
import type { SliverLift } from '../../../src/contract/params';
import { sliverTets } from '../../../src/sim/model';
import { signedVolume6 as vol6 } from '../../support/invertedTets';
import { cpuFrameFrom, pointInTet, sliverUnderBox } from '../../support/sliverUnderBox';

function liftOnce(sliverLift: SliverLift) {
  const { setup, start, apex, boxTets } = sliverUnderBox(sliverLift);
  const model = setup.model;
  const solver = cpuFrameFrom(setup, start);
  const p = [0, 1, 2].map((k) => solver.x[3 * apex + k]);
  const lowest = (x: ArrayLike<number>) => Math.min(...boxTets.flatMap((t) => [0, 1, 2, 3].map((k) => x[3 * model.tets[4 * t + k] + 1])));
  return { model, start, p, inBox: boxTets.filter((t) => pointInTet(solver.x, model.tets, t, p)), boxStart: lowest(start), lifted: solver.collisionCounters.inversionFloorTets, solver };
}

describe('the sliver lift and CCD', () => {
  it('with the contacts, a sliver apex lifted toward another body stops at its face; after the contacts it passes into the body', () => {
    const { setup, start } = sliverUnderBox('with-contacts');
    for (let t = 0; t < setup.model.tetCount; t++) expect(vol6(setup.model.restPositions, setup.model.tets, t)).toBeGreaterThan(0);
    expect(sliverTets(setup.model)).toEqual([0]);
    expect(vol6(start, setup.model.tets, 0)).toBeLessThan(0);

    const seen = liftOnce('with-contacts');
    const unseen = liftOnce('after-contacts');
    console.log(
      `apex y: with the contacts ${(seen.p[1] * 1000).toFixed(4)} mm (inside ${seen.inBox.join(', ') || 'none'}), after them ${(unseen.p[1] * 1000).toFixed(4)} mm (inside ${unseen.inBox.join(', ') || 'none'}); the box started at ${(seen.boxStart * 1000).toFixed(4)} mm; sliver volume / rest ${(vol6(seen.solver.x, seen.model.tets, 0) / vol6(seen.model.restPositions, seen.model.tets, 0)).toFixed(3)}`,
    );
    expect(seen.lifted).toBe(1);
    expect(unseen.lifted).toBe(1);
    // The lift reached past where the box started: it is the contact that stopped the apex.
    expect(seen.p[1]).toBeGreaterThan(seen.boxStart);
    expect(seen.inBox).toEqual([]);
    // The sliver is right side out again.
    expect(vol6(seen.solver.x, seen.model.tets, 0)).toBeGreaterThan(0);
    expect(unseen.inBox.length).toBeGreaterThan(0);
  });

  it('with the contacts the lift and the contacts keep momentum: no external force, so the total momentum stays zero and the centre of mass where it was', () => {
    const { solver, model, start } = liftOnce('with-contacts');
    let mass = 0, speedSum = 0;
    const before = [0, 0, 0], after = [0, 0, 0], momentum = [0, 0, 0];
    for (let v = 0; v < model.vertexCount; v++) {
      const m = 1 / model.invMass[v];
      mass += m;
      for (let k = 0; k < 3; k++) {
        before[k] += m * start[3 * v + k];
        after[k] += m * solver.x[3 * v + k];
        momentum[k] += m * solver.v[3 * v + k];
      }
      speedSum += m * Math.hypot(solver.v[3 * v], solver.v[3 * v + 1], solver.v[3 * v + 2]);
    }
    const moved = Math.hypot(...before.map((b, k) => (after[k] - b) / mass));
    console.log(`|total momentum| ${Math.hypot(...momentum).toExponential(2)} kg m/s against sum of m |v| ${speedSum.toExponential(2)}; centre of mass moved ${moved.toExponential(2)} m`);
    // The contact that stopped the apex moved both bodies: the check has something to keep.
    expect(speedSum).toBeGreaterThan(0);
    expect(Math.hypot(...momentum)).toBeLessThan(1e-9 * speedSum);
    expect(moved).toBeLessThan(1e-12);
  });
});
