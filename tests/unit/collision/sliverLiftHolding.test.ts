/**
 * The sliver lift holding the contacts' corners (SolverParams.sliverLift 'holding-contacts';
 * docs/collisions.md "The sliver lift holding the contacts' corners"), on the float64 engine. A
 * sliver's apex starts 0.01 mm inside another body (tests/support/sliverUnderBox.ts with the apex
 * just above the box's bottom face), the sliver at a tenth of the floor's volume: the substep's
 * contact pushes the apex out, then the floor lifts the sliver. Holding the pushed apex, the lift
 * moves the sliver's free corners only: the apex ends outside the body by a brute-force
 * point-in-tet test and the sliver at the floor. Lifted after the contacts with every corner free
 * ('after-contacts', the default), the lift carries the apex back into the body, so the check can
 * fail. The lift moves positions and start positions together, so neither adds velocity. A sliver
 * whose four corners a contact pushed cannot lift with them held; those still below the floor lift
 * again with every corner free, so none is left inside out (which would hide the boundary around it
 * from the self queries, paper section 3.5).
 */
import { describe, expect, it } from 'vitest';
import type { SliverLift } from '../../../src/contract/params';
import { signedVolume6 as vol6 } from '../../support/invertedTets';
import { cpuFrameFrom, pointInTet, sliverUnderBox } from '../../support/sliverUnderBox';

/** The apex 0.03 mm above the base: 0.01 mm inside the box, whose bottom face is at 0.02 mm. */
const APEX_Y = 3e-5;

function liftOnce(sliverLift: SliverLift) {
  const { setup, start, apex, boxTets } = sliverUnderBox(sliverLift, APEX_Y);
  const model = setup.model;
  const solver = cpuFrameFrom(setup, start);
  const p = [0, 1, 2].map((k) => solver.x[3 * apex + k]);
  return {
    model, solver, p, start, apex,
    inBox: boxTets.filter((t) => pointInTet(solver.x, model.tets, t, p)),
    startInBox: boxTets.filter((t) => pointInTet(start, model.tets, t, [0, 1, 2].map((k) => start[3 * apex + k]))),
    ratio: vol6(solver.x, model.tets, 0) / vol6(model.restPositions, model.tets, 0),
    lifted: solver.collisionCounters.inversionFloorTets,
  };
}

describe('the sliver lift holding the contacts\' corners', () => {
  it('an apex a contact pushed out of another body stays out while the free corners lift the sliver to the floor; with every corner free the lift carries it back in', () => {
    const held = liftOnce('holding-contacts');
    const free = liftOnce('after-contacts');
    const floor = held.solver.params.inversionFloor;
    console.log(
      `apex y: holding ${(held.p[1] * 1000).toFixed(4)} mm (inside ${held.inBox.join(', ') || 'none'}), every corner free ${(free.p[1] * 1000).toFixed(4)} mm (inside ${free.inBox.join(', ') || 'none'}); sliver volume / rest ${held.ratio.toFixed(3)} / ${free.ratio.toFixed(3)} (floor ${floor}); started ${(vol6(held.start, held.model.tets, 0) / vol6(held.model.restPositions, held.model.tets, 0)).toFixed(3)}`,
    );
    // The start: the apex inside the box and the sliver below the floor, so both the contact and the lift act.
    expect(held.startInBox.length).toBeGreaterThan(0);
    expect(vol6(held.start, held.model.tets, 0)).toBeLessThan(0.5 * floor * vol6(held.model.restPositions, held.model.tets, 0));
    expect(held.lifted).toBe(1);
    expect(free.lifted).toBe(1);
    expect(held.inBox).toEqual([]);
    expect(held.ratio).toBeGreaterThan(0.99 * floor);
    expect(free.inBox.length).toBeGreaterThan(0);
  });

  it('a sliver whose four corners the contacts all pushed still ends at the floor: what the held lift leaves below it lifts with every corner free', () => {
    // The base 0.01 mm and the apex 0.005 mm inside a box over the whole base: inside out (the apex
    // below the base), and each corner's own contact pushes it out of the box.
    const { setup, start, boxTets } = sliverUnderBox('holding-contacts', 2.5e-5, 3e-5, true);
    const model = setup.model;
    const corners = [0, 1, 2, 3].map((k) => model.tets[k]);
    const startInside = corners.filter((v) => boxTets.some((t) => pointInTet(start, model.tets, t, [0, 1, 2].map((k) => start[3 * v + k]))));
    const rest = vol6(model.restPositions, model.tets, 0);
    const solver = cpuFrameFrom(setup, start);
    const ratio = vol6(solver.x, model.tets, 0) / rest;
    console.log(`corners inside the box at the start: ${startInside.length} of 4; sliver volume / rest ${(vol6(start, model.tets, 0) / rest).toFixed(3)} at the start, ${ratio.toFixed(3)} after the substep (floor ${setup.params.inversionFloor}); lifted ${solver.collisionCounters.inversionFloorTets}`);
    expect(startInside).toEqual(corners);
    expect(vol6(start, model.tets, 0)).toBeLessThan(0);
    expect(ratio).toBeGreaterThan(0.99 * setup.params.inversionFloor);
  });

  it('holding the apex, the lift adds no velocity: every vertex moves its start position as far as its position', () => {
    // The same substep with the floor off: what the lift moved is the difference; it must move x and x0 alike.
    const { solver, model } = liftOnce('holding-contacts');
    const { setup, start } = sliverUnderBox('holding-contacts', APEX_Y);
    setup.params = { ...setup.params, sliverFloor: false };
    const bare = cpuFrameFrom(setup, start);
    let lift = 0, velocity = 0;
    for (let i = 0; i < 3 * model.vertexCount; i++) {
      lift = Math.max(lift, Math.abs(solver.x[i] - bare.x[i]));
      velocity = Math.max(velocity, Math.abs(solver.v[i] - bare.v[i]));
    }
    console.log(`largest lift ${lift.toExponential(2)} m; largest velocity difference ${velocity.toExponential(2)} m/s`);
    expect(lift).toBeGreaterThan(1e-5);
    expect(velocity).toBeLessThan(1e-9);
  });
});
