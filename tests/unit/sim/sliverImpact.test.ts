/**
 * Sliver tets at an impact (SolverParams.sliverQuality, sim/model.ts, mesh/tetQuality.ts). The law:
 * a body thrown onto the ground with no damping never gains energy through the impact: the
 * total (kinetic + elastic + gravitational, float64 CPU reference) never rises above its running
 * minimum by more than 1 % of the energy released so far (issue 19). The shared octopus, a real
 * mesh made by others, has slivers (tet 4049: quality 0.0003 against a median of 0.26). With
 * their stiffness kept (sliverQuality 0) a sliver's light corner swings through it at the
 * impact and the total rises by several joules; with the default it never rises.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { sliverTets } from '../../../src/sim/model';
import { thrownOctopus } from '../../support/thrownOctopus';

/** Largest rise of the total energy above its running minimum, over frames, and the energy released by then. */
function impact(sliverQuality: number, frames: number): { rise: number; released: number; slivers: number } {
  // Thrown down at 5 m/s from 1 cm: the lowest tentacle tips land in the first frame.
  const setup = thrownOctopus({ collisions: false, sliverQuality });
  const solver = new CpuSolver(setup);
  const energy = (): number => totalEnergy(setup.model, solver.x, solver.v, { constraint: solver.params.constraint, springCompliance: solver.params.springCompliance, gravity: solver.params.gravity }).total;
  const start = energy();
  let lowest = start, rise = 0, released = 0;
  for (let f = 0; f < frames; f++) {
    solver.stepFrame();
    const e = energy();
    if (e - lowest > rise) {
      rise = e - lowest;
      released = start - lowest;
    }
    lowest = Math.min(lowest, e);
  }
  return { rise, released: Math.max(released, start - lowest), slivers: sliverTets(setup.model).length };
}

describe('sliver tets at an impact', () => {
  it('the shared octopus thrown onto the ground gains no energy with its slivers softened, and gains joules without', () => {
    const soft = impact(0.04, 8);
    console.log(`sliverQuality 0.04: ${soft.slivers} slivers, largest rise ${soft.rise.toFixed(4)} J, released ${soft.released.toFixed(2)} J`);
    expect(soft.slivers).toBeGreaterThan(10);
    expect(soft.released).toBeGreaterThan(10);
    expect(soft.rise).toBeLessThanOrEqual(0.01 * soft.released);
    const kept = impact(0, 8);
    console.log(`sliverQuality 0: ${kept.slivers} slivers, largest rise ${kept.rise.toFixed(4)} J, released ${kept.released.toFixed(2)} J`);
    expect(kept.slivers).toBe(0);
    expect(kept.rise).toBeGreaterThan(0.01 * kept.released);
  });
});
