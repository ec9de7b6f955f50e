/**
 * Self-collision culling in the GPU time step (paper 002; the broad phase's job culls CCD's
 * same-object pairs): a square beam bent into a figure eight (tests/support/figureEight.ts) lies
 * on the ground with its second branch 5 mm above the first where they cross, and falls onto it.
 * Run with selfCulling 'off' and 'enhanced' from the same start, frame by frame: boundary vertices
 * inside a tet of their own object (the brute-force counter, tests/support/intersectionCounter.ts,
 * no code shared with the simulator) are never more with enhanced than with off, CCD finds the
 * self-contact in both, and enhanced drops same-object candidates once its deviation bound is
 * known (from the third frame on).
 */
import { describe, expect, it } from 'vitest';
import { defaultParams, type SelfCullingMode } from '../../src/contract/params';
import { buildTetMesh } from '../../src/mesh/tetMesh';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { buildModel } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { figureEight, secondBranch } from '../support/figureEight';
import { testGpu } from '../support/gpu';
import { countIntersections } from '../support/intersectionCounter';

const HALF = 0.05;
const FRAMES = 6;

function setup(mode: SelfCullingMode): SimSetup {
  // Bottom of the first branch on the ground (y = 0); the second 5 mm above the first's top where they cross.
  const lattice = figureEight(24, HALF, (phi) => HALF + (2 * HALF + 0.005) * secondBranch(phi));
  const mesh = buildTetMesh({ positions: lattice.positions, tets: lattice.tets }).mesh;
  return {
    model: buildModel([{ name: 'figure eight', positions: mesh.positions, tets: mesh.tets, material: { youngsModulus: 2e5, poissonRatio: 0.3, density: 1000 } }]),
    colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    handles: [],
    params: defaultParams({ dt: 1 / 60, substeps: 4, iterations: 2, collisions: true, selfCollision: true, selfCulling: mode }),
  };
}

interface Run {
  inside: number[];
  ccdHits: number;
  before: number[];
  after: number[];
}

async function run(mode: SelfCullingMode): Promise<Run> {
  const s = setup(mode);
  const solver = new GpuSolver(await testGpu(), s);
  const out: Run = { inside: [], ccdHits: 0, before: [], after: [] };
  try {
    for (let f = 0; f < FRAMES; f++) {
      const r = await solver.stepFrame();
      const c = r.collisions!.ccd;
      out.ccdHits += c.hitsVertexFace + c.hitsEdgeEdge;
      out.before.push(c.selfPairsBefore);
      out.after.push(c.selfPairsAfter);
      const x = await solver.readPositions();
      out.inside.push(countIntersections({ positions: Float64Array.from(x), tets: s.model.tets, tetObject: s.model.tetObject }).self);
    }
  } finally {
    solver.destroy();
  }
  return out;
}

describe('self-collision culling in the time step', () => {
  it('a figure eight falling onto itself: no more self-penetration with enhanced culling than without', async () => {
    const off = await run('off');
    const enhanced = await run('enhanced');
    if (process.env.SELF_CULLING_VERBOSE) console.log({ off, enhanced });
    expect(off.ccdHits).toBeGreaterThan(0);
    expect(enhanced.ccdHits).toBeGreaterThan(0);
    for (let f = 0; f < FRAMES; f++) expect(enhanced.inside[f], `frame ${f}`).toBeLessThanOrEqual(off.inside[f]);
    // Off keeps every pair; enhanced culls once the bound is known.
    expect(off.after).toEqual(off.before);
    const culled = enhanced.before.reduce((a, b) => a + b, 0) - enhanced.after.reduce((a, b) => a + b, 0);
    expect(culled).toBeGreaterThan(0);
  });
});
