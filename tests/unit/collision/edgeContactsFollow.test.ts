import { describe, expect, it } from 'vitest';
import { EDGE_THROUGH_TURNS, headOnRun } from './scenes';

/**
 * Edge-edge contacts follow their edges (docs/collisions.md "Edge-edge contacts follow their
 * edges"; CpuContacts.followEdges), on the float64 CPU reference. Two turned 10 cm cubes thrown at
 * each other at 3 m/s each, at the octopus box's schedule (5 substeps x 5 iterations, contacts
 * after every iteration, CCD in every round) with impact substeps off, so that each substep closes
 * 2 cm, 2/5 of an element (scenes.ts turnedCubesHeadOn, headOnRun). The turns were drawn at random
 * and kept where contacts at fixed closest-point parameters let edges through (5 of 16 draws; 1 of
 * the 16 crosses either way: a contact left violated by the passes at a vertex with 19 contacts).
 * Independent truths: a brute-force segment-triangle test after every substep (no boundary edge of
 * one cube through a boundary triangle of the other), the brute-force inside counter, momentum (no
 * gravity, no colliders) and energy that never rises above its running minimum by more than 1% of
 * what was released (no damping or friction; kinetic + Neo-Hookean elastic). With the points fixed
 * at the time of impact's parameters every one of these scenes ends substeps with edges through the
 * other cube: the check can fail.
 */
describe('edge-edge contacts follow their edges', () => {
  it('turned cubes thrown at each other: no edge through the other cube after any substep, momentum and energy laws kept; with fixed points edges pass through in every scene', () => {
    for (const turns of EDGE_THROUGH_TURNS) {
      const followed = headOnRun(turns, (stage) => { stage.contacts.followEdges = true; });
      const fixed = headOnRun(turns, (stage) => { stage.contacts.followEdges = false; });
      console.log(`turns ${JSON.stringify(turns)}: crossing pairs after each substep, followed ${followed.crossings.join(' ')}; fixed ${fixed.crossings.join(' ')}; edge-edge hits ${followed.edgeEdgeHits}; |p| / p_body ${followed.worstMomentum.toExponential(1)}; released ${followed.released.toFixed(3)} J, worst rise ${followed.worstRise.toExponential(1)} J`);
      expect(followed.edgeEdgeHits).toBeGreaterThan(0);
      expect(Math.max(...followed.crossings)).toBe(0);
      expect(followed.inside).toBe(0);
      expect(followed.worstMomentum).toBeLessThan(1e-9);
      expect(followed.worstRise).toBeLessThanOrEqual(0);
      expect(Math.max(...fixed.crossings)).toBeGreaterThan(0);
    }
  });
});
