/**
 * The sliver lift clipped to the contacts' pushes (SolverParams.sliverLift 'clipped-to-contacts';
 * docs/collisions.md "The sliver lift clipped to the contacts' pushes"), on the float64 engine. A
 * sliver's apex starts 0.01 mm inside another body (tests/support/sliverUnderBox.ts), the sliver at
 * a tenth of the floor's volume: the substep's contact pushes the apex out of the body's bottom face
 * (along -y), then the floor lifts the sliver, which moves the apex up (+y), back against that push.
 * Clipped, the apex keeps no part of its move along +y, so it ends outside the body by a
 * brute-force point-in-tet test while the base corners take the lift and the sliver reaches the
 * floor; lifted with every corner free ('after-contacts'), the apex goes back in, so the check can
 * fail. Where all four corners were pushed out of the body, each keeps the moves that go on away
 * from it, so the sliver still reaches the floor with none of its corners inside (no second round,
 * as 'holding-contacts' needs). The lift moves positions and start positions together: no velocity.
 */
import { describe, expect, it } from 'vitest';
import type { SliverLift } from '../../../src/contract/params';
import { sliverCornersInside, sliverLiftFrame, sliverLiftMotion } from '../../support/sliverUnderBox';

function liftOnce(sliverLift: SliverLift, apexY?: number, baseY?: number, coverBase?: boolean) {
  const frame = sliverLiftFrame(sliverLift, apexY, baseY, coverBase);
  const inBox = (x: ArrayLike<number>) => sliverCornersInside(x, frame.model.tets, frame.boxTets);
  return { ...frame, startInside: inBox(frame.start), inside: inBox(frame.solver.x) };
}

describe("the sliver lift clipped to the contacts' pushes", () => {
  it('an apex a contact pushed out of another body stays out while the base corners lift the sliver to the floor; with every corner free the lift carries it back in', () => {
    const clipped = liftOnce('clipped-to-contacts');
    const free = liftOnce('after-contacts');
    const floor = clipped.setup.params.inversionFloor;
    const apex = 3;
    console.log(
      `apex y: clipped ${(clipped.solver.x[3 * apex + 1] * 1000).toFixed(4)} mm (corners inside the box: ${clipped.inside.join(', ') || 'none'}), every corner free ${(free.solver.x[3 * apex + 1] * 1000).toFixed(4)} mm (${free.inside.join(', ') || 'none'}); sliver volume / rest ${clipped.ratio.toFixed(3)} / ${free.ratio.toFixed(3)} (floor ${floor}, started ${clipped.startRatio.toFixed(3)})`,
    );
    // The start: the apex inside the box and the sliver below the floor, so both the contact and the lift act.
    expect(clipped.startInside).toEqual([apex]);
    expect(clipped.startRatio).toBeLessThan(0.5 * floor);
    expect(clipped.lifted).toBe(1);
    expect(free.lifted).toBe(1);
    expect(clipped.inside).toEqual([]);
    expect(clipped.ratio).toBeGreaterThan(0.99 * floor);
    expect(free.inside).toEqual([apex]);
  });

  it('a sliver whose four corners the contacts all pushed out of the body reaches the floor with none of them back inside', () => {
    // The base 0.01 mm and the apex 0.005 mm inside a box over the whole base: inside out (the apex
    // below the base), and each corner's own contact pushes it out of the box.
    const clipped = liftOnce('clipped-to-contacts', 2.5e-5, 3e-5, true);
    const floor = clipped.setup.params.inversionFloor;
    console.log(`corners inside the box: ${clipped.startInside.length} of 4 at the start, ${clipped.inside.length} after the substep; sliver volume / rest ${clipped.startRatio.toFixed(3)} at the start, ${clipped.ratio.toFixed(3)} after (floor ${floor}); lifted ${clipped.lifted}`);
    expect(clipped.startInside.length).toBe(4);
    expect(clipped.startRatio).toBeLessThan(0);
    expect(clipped.inside).toEqual([]);
    expect(clipped.ratio).toBeGreaterThan(0.99 * floor);
  });

  it('the clipped lift adds no velocity: every vertex moves its start position as far as its position', () => {
    // The same substep with the floor off: what the lift moved is the difference; it must move x and x0 alike.
    const { lift, velocity } = sliverLiftMotion('clipped-to-contacts');
    console.log(`largest lift ${lift.toExponential(2)} m; largest velocity difference ${velocity.toExponential(2)} m/s`);
    expect(lift).toBeGreaterThan(1e-5);
    expect(velocity).toBeLessThan(1e-9);
  });
});
