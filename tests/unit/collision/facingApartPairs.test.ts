import { describe, expect, it } from 'vitest';
import { headOnRun, type HeadOnTurns } from './scenes';

/**
 * Apart edge-edge pairs between surfaces that face each other keep their contacts in the later
 * collision rounds (ccdCpu.ts APART_FACING_MIN_COS; docs/collisions.md "Apart pairs that face each
 * other"), on the float64 CPU reference. An apart pair is one whose two edges' normal cones do not
 * meet (mutualCone.ts): the edges' nearest points are not the surfaces' nearest, yet where the
 * surfaces face each other the edges' common perpendicular still pushes them apart. The scenes of
 * edgeContactsFollow.test.ts (two turned cubes thrown at each other at 3 m/s each, the octopus box's
 * schedule with CCD in every round, impact substeps off), with turns drawn at random and kept where
 * retiring every apart pair after its own round lets edges through (4 of 16 draws). Truths: the
 * brute-force segment-triangle test after every substep, the inside counter, momentum and the energy
 * law (scenes.ts headOnRun). With the rule keeping nothing (CpuCcd.facingApartKept false: every apart
 * pair solved in its own round only) each scene ends substeps with edges through the other cube.
 */
const TURNS: HeadOnTurns[] = [
  { a: [-0.1307, 0.0042, 0.2049, 0.1588], b: [-0.1305, 0.2748, 0.0562, 0.0518], bAt: [0.2, 0.0156, -0.01] },
  { a: [0.1414, 0.0584, 0.3159, 0.1569], b: [0.1127, -0.4321, -0.1954, 1.7047], bAt: [0.2, 0.0225, 0.0045] },
  { a: [0.3228, 0.4278, 0.39, 1.2028], b: [-0.3919, 0.4299, -0.363, 1.7595], bAt: [0.2, 0.0271, 0.0008] },
  { a: [0.2298, 0.2749, -0.2399, 0.1493], b: [0.0852, -0.2597, -0.2015, 2.0333], bAt: [0.2, 0.01, -0.0177] },
];

describe('apart edge-edge pairs of facing surfaces keep their contacts in the later rounds', () => {
  it('turned cubes thrown at each other: no edge through the other cube after any substep, laws kept; retiring every apart pair after its round lets edges through in every scene', () => {
    for (const turns of TURNS) {
      const kept = headOnRun(turns, (stage) => { stage.ccd.facingApartKept = true; });
      const retired = headOnRun(turns, (stage) => { stage.ccd.facingApartKept = false; });
      console.log(`turns ${JSON.stringify(turns)}: crossing pairs after each substep, facing apart pairs kept ${kept.crossings.join(' ')}; retired ${retired.crossings.join(' ')}; apart pairs ${kept.edgeEdgeApart}; |p| / p_body ${kept.worstMomentum.toExponential(1)}; worst rise ${kept.worstRise.toExponential(1)} J`);
      expect(kept.edgeEdgeApart).toBeGreaterThan(0);
      expect(Math.max(...kept.crossings)).toBe(0);
      expect(kept.inside).toBe(0);
      expect(kept.worstMomentum).toBeLessThan(1e-9);
      expect(kept.worstRise).toBeLessThanOrEqual(0);
      expect(Math.max(...retired.crossings)).toBeGreaterThan(0);
    }
  });
});
