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
import { pointInTet, sliverCornersInside, sliverLiftFrame, sliverLiftMotion } from '../../support/sliverUnderBox';

/** The frame, and the box's tets that hold the apex at the start and after it (brute-force point-in-tet). */
function liftOnce(sliverLift: SliverLift) {
  const frame = sliverLiftFrame(sliverLift);
  const { model, solver, start, apex, boxTets } = frame;
  const p = [0, 1, 2].map((k) => solver.x[3 * apex + k]);
  return {
    ...frame, p,
    inBox: boxTets.filter((t) => pointInTet(solver.x, model.tets, t, p)),
    startInBox: boxTets.filter((t) => pointInTet(start, model.tets, t, [0, 1, 2].map((k) => start[3 * apex + k]))),
  };
}

describe('the sliver lift holding the contacts\' corners', () => {
  it('an apex a contact pushed out of another body stays out while the free corners lift the sliver to the floor; with every corner free the lift carries it back in', () => {
    const held = liftOnce('holding-contacts');
    const free = liftOnce('after-contacts');
    const floor = held.solver.params.inversionFloor;
    console.log(
      `apex y: holding ${(held.p[1] * 1000).toFixed(4)} mm (inside ${held.inBox.join(', ') || 'none'}), every corner free ${(free.p[1] * 1000).toFixed(4)} mm (inside ${free.inBox.join(', ') || 'none'}); sliver volume / rest ${held.ratio.toFixed(3)} / ${free.ratio.toFixed(3)} (floor ${floor}); started ${held.startRatio.toFixed(3)}`,
    );
    // The start: the apex inside the box and the sliver below the floor, so both the contact and the lift act.
    expect(held.startInBox.length).toBeGreaterThan(0);
    expect(held.startRatio).toBeLessThan(0.5 * floor);
    expect(held.lifted).toBe(1);
    expect(free.lifted).toBe(1);
    expect(held.inBox).toEqual([]);
    expect(held.ratio).toBeGreaterThan(0.99 * floor);
    expect(free.inBox.length).toBeGreaterThan(0);
  });

  it('a sliver whose four corners the contacts all pushed still ends at the floor: what the held lift leaves below it lifts with every corner free', () => {
    // The base 0.01 mm and the apex 0.005 mm inside a box over the whole base: inside out (the apex
    // below the base), and each corner's own contact pushes it out of the box.
    const { model, start, boxTets, startRatio, ratio, lifted, setup } = sliverLiftFrame('holding-contacts', 2.5e-5, 3e-5, true);
    const corners = [0, 1, 2, 3].map((k) => model.tets[k]);
    const startInside = sliverCornersInside(start, model.tets, boxTets);
    console.log(`corners inside the box at the start: ${startInside.length} of 4; sliver volume / rest ${startRatio.toFixed(3)} at the start, ${ratio.toFixed(3)} after the substep (floor ${setup.params.inversionFloor}); lifted ${lifted}`);
    expect(startInside).toEqual(corners);
    expect(startRatio).toBeLessThan(0);
    expect(ratio).toBeGreaterThan(0.99 * setup.params.inversionFloor);
  });

  it('holding the apex, the lift adds no velocity: every vertex moves its start position as far as its position', () => {
    // The same substep with the floor off: what the lift moved is the difference; it must move x and x0 alike.
    const { lift, velocity } = sliverLiftMotion('holding-contacts');
    console.log(`largest lift ${lift.toExponential(2)} m; largest velocity difference ${velocity.toExponential(2)} m/s`);
    expect(lift).toBeGreaterThan(1e-5);
    expect(velocity).toBeLessThan(1e-9);
  });
});
