/**
 * The GPU twin of tests/unit/collision/turnedRim.test.ts: the shared GlassBox.t in mesh-pile, whose
 * second copy is turned 137.5 degrees about y, falls freely. With the 'auto' offset at 1 % of the
 * mean boundary edge (half the rim's shortest edge) the turned rim's corners were CCD contacts of
 * their own coplanar rim (8 a substep) and the pile gained 5.4 kJ of elastic energy in the first
 * frame; the offset is now capped by the shortest edge (contactOffset.ts CONTACT_OFFSET_AUTO_CAP).
 * Truth: a body in free fall meets nothing, so it has no contact and does not deform.
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../src/runner/meshFile';
import { findScene } from '../../src/scenes/registry';
import { totalEnergy } from '../../src/sim/energy';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';

describe("the 'auto' contact offset on a mesh of widely varying element sizes, on the GPU", () => {
  it('GlassBox.t in mesh-pile, its second copy turned: no contact in free fall, no deformation', async () => {
    const setup = findScene('mesh-pile').build({ mesh: readMeshFile('../shared/meshes/GlassBox.t'), copies: 2 });
    const p = setup.params;
    const solver = new GpuSolver(await testGpu(), setup);
    try {
      const hits: number[] = [];
      const elastic: number[] = [];
      for (let f = 0; f < 2; f++) {
        const r = await solver.stepFrame();
        hits.push((r.collisions?.ccd.hitsVertexFace ?? -1) + (r.collisions?.ccd.hitsEdgeEdge ?? -1) + (r.collisions?.contacts ?? -1));
        const e = totalEnergy(setup.model, await solver.readPositions(), await solver.readVelocities(), { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity });
        elastic.push(e.elastic);
      }
      console.log(`GPU GlassBox pile: contacts per frame ${hits.join(', ')}; elastic energy ${elastic.map((e) => e.toExponential(2)).join(', ')} J`);
      expect(hits).toEqual([0, 0]);
      for (const e of elastic) expect(e).toBeLessThan(1);
    } finally {
      solver.destroy();
    }
  });
});
