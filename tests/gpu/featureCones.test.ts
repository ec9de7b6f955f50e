/**
 * The GPU twin of the thick-offset case in tests/unit/collision/featureNormals.test.ts: a block
 * hovering 2 mm over a slab's flat top, moving down, at a contact offset of 2.4 element edges, one
 * CCD substep. The slab's internal side edges and the top's vertices beside the one below each block
 * vertex lie within the offset, and as triangle features they are no nearest point of the surface
 * (shaders/ccdNarrow.wgsl featureConeNormal, src/collision/ccd/featureNormal.ts): both engines leave
 * those pairs out and count them. Truth: the surface point nearest each block vertex lies straight
 * below it, so every GPU contact of a block vertex on a slab triangle has the top's normal, up.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { readBuffer, testGpu } from '../support/gpu';
import { CONTACT_WORDS } from '../../src/collision/gpu/contactStage';
import { bodiesSetup, cubePart, latticePart } from '../unit/collision/scenes';

function hoverSetup() {
  const slab = latticePart([4, 3, 4], (u, v, w) => [u * 0.05, v * 0.05, w * 0.05]);
  const block = cubePart(2, 0.1, [0.05, 0.152, 0.05]);
  return bodiesSetup(
    [{ part: slab }, { part: block, velocity: [0, -0.06, 0] }],
    { gravity: [0, 0, 0], selfCollision: false, collisionMode: 'ccd', contactOffset: 0.12, substeps: 1, iterations: 1, friction: 0, damping: 0 },
  );
}

describe('CCD contacts beside no feature of their triangle, on the GPU', () => {
  it('a block hovering over a flat top within a thick offset: the pairs the float64 twin leaves out, left out and counted alike, and every block-vertex contact pushes straight up', async () => {
    const setup = hoverSetup();
    const m = setup.model;
    const ctx = await testGpu();
    const gpu = new GpuSolver(ctx, setup);
    try {
      const frame = await gpu.stepFrame();
      // The frame's one substep's vertex-face contacts: the header's count, then the records.
      const list = gpu.collisions!.ccd.vertexFace;
      const count = Math.min(new Uint32Array(await readBuffer(ctx, list.header, 4))[0], list.capacity);
      const words = await readBuffer(ctx, list.contacts, 4 * CONTACT_WORDS * count);
      const ids = new Uint32Array(words), floats = new Float32Array(words);
      const first = m.objectVertexOffsets[1];
      let blockContacts = 0, worst = 0;
      for (let i = 0; i < count; i++) {
        const o = CONTACT_WORDS * i;
        if (ids[o] < first) continue;
        blockContacts++;
        worst = Math.max(worst, Math.hypot(floats[o + 16], floats[o + 17] - 1, floats[o + 18]));
      }
      const cpu = new CpuSolver(hoverSetup());
      cpu.stepFrame();
      const g = frame.collisions!.ccd, c = cpu.collisionCounters.ccd;
      console.log(`hovering block on the GPU: ${g.hitsVertexFace} vertex-face hits, ${g.offFeature} left out (float64: ${c.hitsVertexFace}, ${c.offFeature}); ${blockContacts} contacts of block vertices, largest deviation from straight up ${worst.toExponential(2)}`);
      expect(blockContacts).toBeGreaterThanOrEqual(9);
      expect(worst).toBeLessThan(1e-5);
      expect(c.offFeature).toBeGreaterThan(0);
      expect(Math.abs(g.offFeature - c.offFeature)).toBeLessThanOrEqual(0.05 * c.offFeature);
      expect(Math.abs(g.hitsVertexFace - c.hitsVertexFace)).toBeLessThanOrEqual(0.05 * c.hitsVertexFace);
    } finally {
      gpu.destroy();
    }
  });
});
