/**
 * SolverParams.ccdSkipInverted on the GPU (shaders/ccdNarrow.wgsl with lib/invertedBoundaryFan.wgsl;
 * docs/collisions.md "An inverted tet held by CCD"), the state of the float64 test
 * (tests/unit/collision/ccdSkipInverted.test.ts): the shared teapot container at rest, no gravity,
 * flat boundary tet 805 turned inside out to -0.2 of its volume, which folds the surface. One frame
 * of 2 substeps in hybrid mode. With the setting the GPU turns the tet back and the brute-force
 * surface crossing counter (tests/support/surfaceCrossings.ts) finds the surface unfolded, as on
 * the float64 twin; without it CCD holds the fold (the check can fail).
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../src/runner/meshFile';
import { findScene } from '../../src/scenes/registry';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { flipTetCorner, tetVolume6Of } from '../support/flippedTet';
import { testGpu } from '../support/gpu';
import { countSurfaceCrossings } from '../support/surfaceCrossings';

const TEAPOT = readMeshFile('../shared/meshes/teapotContainer.t');
const TET = 805;

function flippedSetup(ccdSkipInverted: boolean) {
  const setup = findScene('drop').build({ mesh: TEAPOT, height: 1 });
  setup.params = { ...setup.params, gravity: [0, 0, 0], substeps: 2, collisionMode: 'hybrid', ccdSkipInverted };
  const start = Float64Array.from(setup.model.restPositions);
  flipTetCorner(setup.model.tets, start, start, TET);
  return { setup, start, rest: tetVolume6Of(setup.model.tets, setup.model.restPositions, TET) };
}

describe('CCD leaves out the self pairs at a tet inverted at the substep start, on the GPU', () => {
  it('the flipped teapot tet: turned back and the surface unfolded within a frame with the setting, as on the float64 twin; held without it', async () => {
    const ctx = await testGpu();
    const onGpu = async (skip: boolean) => {
      const { setup, start, rest } = flippedSetup(skip);
      const gpu = new GpuSolver(ctx, setup);
      try {
        gpu.writePositions(start);
        const c = (await gpu.stepFrame()).collisions!;
        const x = await gpu.readPositions();
        const m = setup.model;
        return { volume: tetVolume6Of(m.tets, x, TET) / rest, crossing: countSurfaceCrossings({ positions: x, tets: m.tets, tetObject: m.tetObject }).selfVertices, skipped: c.ccd.skippedInverted };
      } finally {
        gpu.destroy();
      }
    };
    const on = await onGpu(true);
    const off = await onGpu(false);
    const { setup, start, rest } = flippedSetup(true);
    const cpu = new CpuSolver(setup);
    cpu.x.set(start);
    cpu.x0.set(start);
    cpu.stepFrame();
    const m = setup.model;
    const twin = { volume: tetVolume6Of(m.tets, cpu.x, TET) / rest, crossing: countSurfaceCrossings({ positions: cpu.x, tets: m.tets, tetObject: m.tetObject }).selfVertices, skipped: cpu.collisionCounters.ccd.skippedInverted };
    console.log(`flipped teapot tet, one frame: GPU ${JSON.stringify(on)}, CPU ${JSON.stringify(twin)}, GPU without the setting ${JSON.stringify(off)}`);
    expect(on.skipped).toBeGreaterThan(0);
    expect(on.volume).toBeGreaterThan(0.9);
    expect(on.crossing).toBe(0);
    expect(twin.volume).toBeGreaterThan(0.9);
    expect(Math.abs(on.volume - twin.volume)).toBeLessThan(1e-2);
    expect(off.skipped).toBe(0);
    expect(off.volume).toBeLessThan(0);
    expect(off.crossing).toBeGreaterThan(0);
  }, 240_000);
});
