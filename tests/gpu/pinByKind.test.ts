/**
 * Pin by kind (SolverParams.pinByKind, docs/collisions.md "Pin by kind") on the GPU: the scene of
 * the float64 test (tests/unit/collision/pinByKind.test.ts), a body whose two overlapping cubes put
 * a corner of each inside the other (Pin points of a self hit) shot at 6 m/s, 10 cm in one
 * substep, into a heavy 1 cm slab. The truth is brute force that shares no code with src/: no
 * boundary edge of the body through a boundary triangle of the slab (tests/support/
 * surfaceCrossings.ts), no body vertex inside it (tests/support/intersectionCounter.ts). With Alg. 5
 * as written the self-pinned corners take no CCD pair with the slab and their edges end through it.
 * The float64 twin's CCD skips beside the GPU's.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';
import { countSurfaceCrossings } from '../support/surfaceCrossings';
import { countOn, dentedBodyAtSlab } from '../unit/collision/scenes';

describe('Pin by kind on the GPU: a point inside its own body still meets other bodies through CCD', () => {
  it("a self-intersecting body shot at a thin slab stops at it; with Alg. 5 as written the self-pinned corners' edges end through it", async () => {
    const ctx = await testGpu();
    const runs = [];
    for (const pinByKind of [true, false]) {
      const { setup } = dentedBodyAtSlab({ pinByKind });
      const solver = new GpuSolver(ctx, setup);
      try {
        const frame = await solver.stepFrame();
        const x = Float64Array.from(await solver.readPositions());
        const m = setup.model;
        const cpu = new CpuSolver(dentedBodyAtSlab({ pinByKind }).setup);
        cpu.stepFrame();
        runs.push({
          pinByKind,
          crossings: countSurfaceCrossings({ positions: x, tets: m.tets, tetObject: m.tetObject }).interPairs,
          inside: countOn(m, x).inter,
          pin: frame.collisions!.pin,
          skippedPin: frame.collisions!.ccd.skippedPin,
          cpuSkippedPin: cpu.collisionCounters.ccd.skippedPin,
        });
      } finally {
        solver.destroy();
      }
    }
    console.log(runs.map((r) => JSON.stringify(r)).join('\n'));
    const [byKind, plain] = runs;
    expect(byKind.pin).toBeGreaterThan(0);
    expect(byKind).toMatchObject({ crossings: 0, inside: 0 });
    expect(plain.crossings).toBeGreaterThan(0);
    // Fewer pairs taken from CCD by kind, on both twins (a self-pinned point keeps its pairs with the slab).
    expect(plain.skippedPin).toBeGreaterThan(byKind.skippedPin);
    expect(plain.cpuSkippedPin).toBeGreaterThan(byKind.cpuSkippedPin);
  }, 120_000);
});
