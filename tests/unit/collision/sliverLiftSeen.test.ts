/**
 * The sliver floor's lift is motion that CCD tests (docs/collisions.md "The sliver lift before the
 * last round's collisions"), on the float64 engine: a sliver's apex lifted toward another body
 * (tests/support/sliverUnderBox.ts) ends outside it, by a brute-force point-in-tet test. Lifted
 * after the contacts, as before this change, the apex ended 0.175 mm above the base, inside the box.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { sliverTets } from '../../../src/sim/model';
import { signedVolume6 as vol6 } from '../../support/invertedTets';
import { pointInTet, sliverUnderBox } from '../../support/sliverUnderBox';

describe('the sliver lift and CCD', () => {
  it('a sliver apex lifted toward another body stops at its face instead of passing into it', () => {
    const { setup, start, apex, boxTets } = sliverUnderBox();
    const model = setup.model;
    for (let t = 0; t < model.tetCount; t++) expect(vol6(model.restPositions, model.tets, t)).toBeGreaterThan(0);
    expect(sliverTets(model)).toEqual([0]);
    const solver = new CpuSolver(setup);
    solver.x.set(start);
    solver.x0.set(start);
    expect(vol6(solver.x, model.tets, 0)).toBeLessThan(0);
    solver.stepFrame();
    const p = [0, 1, 2].map((k) => solver.x[3 * apex + k]);
    const inBox = boxTets.filter((t) => pointInTet(solver.x, model.tets, t, p));
    const lowest = (x: ArrayLike<number>) => Math.min(...boxTets.flatMap((t) => [0, 1, 2, 3].map((k) => x[3 * model.tets[4 * t + k] + 1])));
    const boxLowest = lowest(solver.x);
    console.log(`apex after the substep: y = ${(p[1] * 1000).toFixed(4)} mm; the box's lowest point ${(boxLowest * 1000).toFixed(4)} mm; lifted ${solver.collisionCounters.inversionFloorTets}; inside the box's tets ${inBox.join(', ') || 'none'}`);
    expect(solver.collisionCounters.inversionFloorTets).toBe(1);
    // The lift reached past where the box started: it is the contact that stopped the apex.
    expect(p[1]).toBeGreaterThan(lowest(start));
    expect(inBox).toEqual([]);
  });
});
