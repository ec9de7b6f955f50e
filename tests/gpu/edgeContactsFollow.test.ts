/**
 * Edge-edge contacts follow their edges on the GPU (shaders/contacts.wgsl followEdgePoints; docs/
 * collisions.md "Edge-edge contacts follow their edges"): the scenes of the float64 test
 * (tests/unit/collision/edgeContactsFollow.test.ts), two turned 10 cm cubes thrown at each other at
 * 3 m/s each with impact substeps off, whose contacts at fixed closest-point parameters let edges
 * through within the first two frames. The truth is brute force that shares no code with src/: no
 * boundary edge of one cube through a boundary triangle of the other at the end of either frame
 * (tests/support/surfaceCrossings.ts), no vertex inside the other (tests/support/
 * intersectionCounter.ts). With the points fixed (followEdgePoints returning its contact unchanged)
 * the first scene ends its two frames with 8 and 12 crossing pairs: the check can fail. The
 * twins part through the impacts (up to 1 cm by the second frame end), so they are not compared here;
 * the float64 test checks the same scenes after every substep.
 */
import { describe, expect, it } from 'vitest';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';
import { countSurfaceCrossings } from '../support/surfaceCrossings';
import { countOn, EDGE_THROUGH_TURNS, turnedCubesHeadOn } from '../unit/collision/scenes';

describe('edge-edge contacts follow their edges on the GPU', () => {
  it('turned cubes thrown at each other: no edge through the other cube and no vertex inside it at either frame end', async () => {
    const ctx = await testGpu();
    for (const turns of EDGE_THROUGH_TURNS) {
      const setup = turnedCubesHeadOn(turns, 3, { impactSubsteps: 0 });
      const m = setup.model;
      const solver = new GpuSolver(ctx, setup);
      const gpu: { crossings: number; inside: number; edgeEdge: number }[] = [];
      try {
        for (let f = 0; f < 2; f++) {
          const frame = await solver.stepFrame();
          const x = Float64Array.from(await solver.readPositions());
          gpu.push({
            crossings: countSurfaceCrossings({ positions: x, tets: m.tets, tetObject: m.tetObject }).interPairs,
            inside: countOn(m, x).inter,
            edgeEdge: frame.collisions!.ccd.hitsEdgeEdge,
          });
        }
      } finally {
        solver.destroy();
      }
      console.log(`turns ${JSON.stringify(turns)}: GPU frames ${JSON.stringify(gpu)}`);
      expect(gpu.reduce((n, g) => n + g.edgeEdge, 0)).toBeGreaterThan(0);
      for (const g of gpu) expect(g).toMatchObject({ crossings: 0, inside: 0 });
    }
  }, 240_000);
});
