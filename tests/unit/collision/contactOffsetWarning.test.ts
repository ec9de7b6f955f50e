import { describe, expect, it } from 'vitest';
import { CONTACT_OFFSET_WARN_RATIO, contactOffsetWarning } from '../../../src/collision/contactOffset';
import { findScene } from '../../../src/scenes/registry';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { shortestEdgeOfObjects } from '../../../src/sim/resolution';

describe('contactOffsetWarning: an explicit offset against the smallest element', () => {
  it("'auto' and offsets up to half the smallest edge pass; larger ones name their ratio and the limit", () => {
    expect(CONTACT_OFFSET_WARN_RATIO).toBe(0.5);
    expect(contactOffsetWarning('auto', 0.05)).toBeNull();
    expect(contactOffsetWarning(0, 0.05)).toBeNull();
    expect(contactOffsetWarning(0.025, 0.05)).toBeNull();
    // A whole element: the cube stack measured +77 % energy in 8 frames (docs/collisions.md).
    const w = contactOffsetWarning(0.05, 0.05);
    expect(w).toMatch(/contact offset 0\.05 is 1\.00 of the smallest element edge \(0\.050\)/);
    expect(w).toMatch(/self-contacts/);
    expect(w).toMatch(/at most about 0\.025/);
    // Scale-free: the same ratio warns at any mesh scale.
    expect(contactOffsetWarning(50, 50)).toMatch(/is 1\.00 of the smallest element edge \(50\)/);
    expect(contactOffsetWarning(25, 50)).toBeNull();
    // No mesh yet (no edge): nothing to compare with.
    expect(contactOffsetWarning(1, 0)).toBeNull();
  });
});

describe('the advised limit against the energy law', () => {
  it('two cubes stacked 5 mm apart with the offset at the warning limit (half the smallest edge, 5x the gaps) peak under 10 % above their start energy in 3 frames, twice the limit does not (float64 CPU engine)', () => {
    const shortest = Math.min(...shortestEdgeOfObjects(findScene('cube-stack').build({ copies: 2 }).model));
    const limit = CONTACT_OFFSET_WARN_RATIO * shortest;
    expect(contactOffsetWarning(limit, shortest)).toBeNull();
    expect(contactOffsetWarning(2 * limit, shortest)).not.toBeNull();
    const peak = (offset: number): number => {
      const run = findScene('cube-stack').build({ copies: 2 });
      run.params = { ...run.params, contactOffset: offset };
      const solver = new CpuSolver(run);
      const p = solver.params;
      const energy = () => totalEnergy(solver.model, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity }).total;
      const start = energy();
      let most = start;
      for (let f = 0; f < 3; f++) {
        solver.stepFrame();
        most = Math.max(most, energy());
      }
      return (most - start) / start;
    };
    // Measured: +3.8 % at the limit (the lift's potential: the ramp opens the layer at 0.1 m/s);
    // +23 % at twice it, where self-contacts of one surface push it against itself
    // (docs/collisions.md "Contact offset").
    expect(peak(limit)).toBeLessThan(0.1);
    expect(peak(2 * limit)).toBeGreaterThan(0.1);
  });
});
