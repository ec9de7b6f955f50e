/**
 * The GPU twin of tests/unit/collision/turnedRim.test.ts: the shared GlassBox.t in mesh-pile, whose
 * second copy is turned 137.5 degrees about y, falls freely. With the 'auto' offset at 1 % of the
 * mean boundary edge (half the rim's shortest edge) the turned rim's corners were CCD contacts of
 * their own coplanar rim (8 a substep) and the pile gained 5.4 kJ of elastic energy in the first
 * frame; the offset is now capped by the shortest edge (contactOffset.ts CONTACT_OFFSET_AUTO_CAP).
 * An explicit offset above that cap keeps it for self-contacts (contactOffset.ts selfContactOffset).
 * Truth: a body in free fall meets nothing, so it has no contact and does not deform.
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../src/runner/meshFile';
import { findScene } from '../../src/scenes/registry';
import type { SimSetup } from '../../src/sim/setup';
import { totalEnergy } from '../../src/sim/energy';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { testGpu } from '../support/gpu';

/** The GlassBox pile (with `offset` as its contact offset, if given) over 2 frames: contacts and elastic energy per frame. */
async function freeFall(offset?: number): Promise<{ hits: number[]; elastic: number[] }> {
  const setup: SimSetup = findScene('mesh-pile').build({ mesh: readMeshFile('../shared/meshes/GlassBox.t'), copies: 2 });
  if (offset !== undefined) setup.params = { ...setup.params, contactOffset: offset };
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
    return { hits, elastic };
  } finally {
    solver.destroy();
  }
}

describe("the 'auto' contact offset on a mesh of widely varying element sizes, on the GPU", () => {
  it('GlassBox.t in mesh-pile, its second copy turned: no contact in free fall, no deformation', async () => {
    const { hits, elastic } = await freeFall();
    console.log(`GPU GlassBox pile: contacts per frame ${hits.join(', ')}; elastic energy ${elastic.map((e) => e.toExponential(2)).join(', ')} J`);
    expect(hits).toEqual([0, 0]);
    for (const e of elastic) expect(e).toBeLessThan(1);
  });

  it('the same pile at an explicit offset of 2.5 of its shortest edge: self-contacts keep the cap, so still no contact and no deformation', async () => {
    // Without the cap: 1,717 and 1,778 contacts of the rims with themselves, 2.4 and 9.4 kJ of elastic energy.
    const { hits, elastic } = await freeFall(0.5);
    console.log(`GPU GlassBox pile at offset 0.5: contacts per frame ${hits.join(', ')}; elastic energy ${elastic.map((e) => e.toExponential(2)).join(', ')} J`);
    expect(hits).toEqual([0, 0]);
    for (const e of elastic) expect(e).toBeLessThan(1);
  });
});
