/**
 * CCD contacts behind their face (docs/collisions.md "CCD contacts behind their face"): the shared
 * GlassBox.t, a 10 m open container with walls 0.11-0.14 m thick (16 vertices, 30 tets), thrown
 * onto the ground at 30 m/s with no damping. The impact crushes its bottom wall to about 2 cm, less
 * than the CCD separation (0.057 m, the auto contact offset), so an inner-surface vertex comes within
 * it of the outer face across the wall, directly behind that face. Such a pair is no contact: the
 * vertex is beyond a crushed part, on the solid side of the face. Before, its CCD contact held the
 * wall's thickness from growing at every build, and opened its "layer" from the start gap at
 * 0.1 m/s besides, a push through the wall against the material: the total energy rose from 22.9 to
 * 44.7 MJ over 40 frames after the impact (with the opening held alone, 2 MJ). The law (physics
 * issue): after the impact the total energy never rises above its running minimum by more than 1 %
 * of the energy released. Float64 CPU reference, both CCD modes; the GPU twin is in
 * tests/gpu/crushedWallEnergy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { crushedContainer } from './scenes';

describe('a container crushed by its impact (GlassBox.t at 30 m/s)', () => {
  for (const mode of ['hybrid', 'ccd'] as const) {
    it(`${mode}: the total energy never rises above its running minimum by more than 1 % of the energy released`, () => {
      const setup = crushedContainer(mode);
      const solver = new CpuSolver(setup);
      const p = solver.params;
      const energy = (): number => totalEnergy(setup.model, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity }).total;
      const start = energy();
      let lowest = start, rise = 0;
      const totals: number[] = [];
      for (let f = 0; f < 50; f++) {
        solver.stepFrame();
        const e = energy();
        totals.push(e);
        rise = Math.max(rise, e - lowest);
        lowest = Math.min(lowest, e);
      }
      console.log(`${mode}: total energy every 5 frames (MJ) ${totals.filter((_, i) => i % 5 === 4).map((e) => (e / 1e6).toFixed(2)).join(' ')}; largest rise ${(rise / 1e6).toFixed(4)} MJ`);
      // The impact released energy (into the crushed wall, then the material's damping-free swing).
      expect(start - lowest).toBeGreaterThan(0.3 * start);
      expect(rise).toBeLessThanOrEqual(0.01 * (start - lowest));
    });
  }
});
