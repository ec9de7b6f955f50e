/**
 * Edge-edge CCD over the edges' interiors on the GPU (SolverParams.ccdEdgeInterior) (shaders/ccdNarrow.wgsl edgeEdgeMotion, edgeEdgeContact; docs/
 * collisions.md "Edges searched inside their ends"): the scene of the float64 test
 * (tests/unit/collision/interiorEdges.test.ts, scenes.ts ridgeAndTippingEdge), an edge that tips
 * through a ridge over one substep while its end P stays beside the ridge, run as a frame of one
 * substep through both solvers: the tipping tet starts with the velocities that carry it to its end
 * pose in that substep (a rigid motion, so the material leaves it alone), the ridge's tet is a
 * billion times denser (contacts barely move it). The truth is brute force that shares no code with
 * src/: no crossing triangle pair of the two tets after the frame (tests/support/surfaceCrossings.ts).
 * With SolverParams.ccdEdgeInterior off (whole edges, the default) the same frame leaves the ridge
 * through the edge on the GPU: the check can fail.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';
import { countSurfaceCrossings } from '../support/surfaceCrossings';
import { bodiesSetup, RIDGE_CONTACT_OFFSET, ridgeAndTippingEdge } from '../unit/collision/scenes';

function ridgeSetup(ccdEdgeInterior: boolean) {
  const { parts, end } = ridgeAndTippingEdge();
  const dt = 1 / 60;
  const setup = bodiesSetup([{ part: parts[0], density: 1e12 }, { part: parts[1] }], {
    dt, substeps: 1, iterations: 2, gravity: [0, 0, 0], friction: 0, damping: 0, collisionMode: 'ccd', selfCollision: false,
    contactOffset: RIDGE_CONTACT_OFFSET, impactSubsteps: 0, ccdEdgeInterior,
  });
  const m = setup.model;
  const free = m.objectVertexOffsets[1];
  for (let i = 0; i < end.length; i++) m.initialVelocities[3 * free + i] = (end[i] - m.restPositions[3 * free + i]) / dt;
  return setup;
}

describe('edge-edge CCD searches the edges inside their ends, on the GPU', () => {
  it('an edge tipped through a ridge in one substep: no crossing after the frame on either engine', async () => {
    const ctx = await testGpu();
    const m = ridgeSetup(true).model;
    const crossingsOf = (x: ArrayLike<number>) => countSurfaceCrossings({ positions: Float64Array.from(x), tets: m.tets, tetObject: m.tetObject }).interPairs;
    const onGpu = async (ccdEdgeInterior: boolean) => {
      const gpu = new GpuSolver(ctx, ridgeSetup(ccdEdgeInterior));
      try {
        const frame = await gpu.stepFrame();
        return { crossings: crossingsOf(await gpu.readPositions()), atEnd: frame.collisions!.ccd.edgeEdgeAtEnd, edgeEdge: frame.collisions!.ccd.hitsEdgeEdge };
      } finally {
        gpu.destroy();
      }
    };
    const { crossings: gpuCrossings, atEnd: gpuAtEnd, edgeEdge: gpuEdgeEdge } = await onGpu(true);
    const whole = await onGpu(false);
    const cpu = new CpuSolver(ridgeSetup(true));
    cpu.stepFrame();
    const cpuFrame = { collisions: cpu.collisionCounters };
    const cpuCrossings = crossingsOf(cpu.x);
    console.log(`ridge: GPU over whole edges ${whole.edgeEdge} edge-edge hits, ${whole.atEnd} left to an end, ${whole.crossings} crossing pairs; inside the ends GPU ${gpuEdgeEdge} edge-edge hits (${gpuAtEnd} at an interior's end), ${gpuCrossings} crossing pairs; CPU ${cpuFrame.collisions!.ccd.hitsEdgeEdge} (${cpuFrame.collisions!.ccd.edgeEdgeAtEnd}), ${cpuCrossings}`);
    expect(gpuEdgeEdge).toBeGreaterThan(0);
    expect(gpuAtEnd).toBeGreaterThan(0);
    expect(gpuCrossings).toBe(0);
    expect(cpuCrossings).toBe(0);
    // The check can fail: over whole edges (the default) the GPU leaves the ridge through the edge.
    expect(whole.atEnd).toBeGreaterThan(0);
    expect(whole.crossings).toBeGreaterThan(0);
  }, 120_000);
});
