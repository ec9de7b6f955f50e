/**
 * The GPU's CCD contacts keep a Euclidean separation at any orientation (ccdNarrow.wgsl, the twin of
 * tests/unit/collision/turnedRim.test.ts): the shared GlassBox.t in mesh-pile, whose second copy is
 * turned 137.5 degrees about y, falls freely. Truth: a body in free fall meets nothing, so it has no
 * contact and does not deform. Before the rule, the turned copy's rim made 8 CCD contacts a substep
 * (160 a frame) and gained 5.4 kJ of elastic energy in the first frame.
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../src/runner/meshFile';
import { findScene } from '../../src/scenes/registry';
import { totalEnergy } from '../../src/sim/energy';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';

describe('CCD contacts at a Euclidean separation on the GPU', () => {
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
