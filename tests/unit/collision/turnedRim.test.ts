import { describe, expect, it } from 'vitest';
import { autoContactOffset, CONTACT_OFFSET_AUTO_RATIO, CONTACT_OFFSET_SELF_CAP, meanBoundaryEdge, selfContactOffset } from '../../../src/collision/contactOffset';
import { shortestTetEdge } from '../../../src/mesh/shortestTetEdge';
import { readMeshFile } from '../../../src/runner/meshFile';
import { findScene } from '../../../src/scenes/registry';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import type { SimSetup } from '../../../src/sim/setup';

/**
 * The 'auto' contact offset must stay below the distance between features of one surface, whatever
 * the mesh's orientation. The shared GlassBox.t is a container of 30 tets whose flat rim is a strip
 * of 0.14 m triangles, while its mean boundary edge is 10.2 m: 1 % of that (0.1015 m) is half its
 * shortest edge. Each inner rim corner lies 0.139 m beside a coplanar rim triangle, and CCD's search
 * (inf-norm, a reach of sqrt(2) offsets along a plane's diagonal) took the pair as a contact once
 * the mesh was turned: mesh-pile's second copy (137.5 degrees about y) got the rim's normal with a
 * gap of 0 and was pushed out of its plane every substep, 5.4 kJ of elastic energy in the first
 * frame. The offset is now capped by the shortest edge (contactOffset.ts CONTACT_OFFSET_AUTO_CAP).
 *
 * Truth: a body in free fall meets nothing, so it has no contact, does not deform and gains no energy.
 */
/** The pile over 2 frames of free fall, each frame's total energy at most the start's: contacts and elastic energy per frame. */
function freeFall(setup: SimSetup): { hits: number[]; elastic: number[] } {
  const m = setup.model;
  const solver = new CpuSolver(setup);
  const p = setup.params;
  const energy = () => totalEnergy(m, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity });
  const start = energy();
  const hits: number[] = [];
  const elastic: number[] = [];
  for (let f = 0; f < 2; f++) {
    solver.stepFrame();
    const c = solver.collisionCounters;
    hits.push(c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge + c.contacts);
    const e = energy();
    elastic.push(e.elastic);
    expect(e.total, `frame ${f}`).toBeLessThanOrEqual(start.total);
  }
  return { hits, elastic };
}

describe("the 'auto' contact offset on a mesh of widely varying element sizes (float64 engine)", () => {
  it('GlassBox.t in mesh-pile, its second copy turned: no contact, no deformation and no energy gained in free fall', () => {
    const setup = findScene('mesh-pile').build({ mesh: readMeshFile('../shared/meshes/GlassBox.t'), copies: 2 });
    const m = setup.model;
    // The cap binds here (1 % of the mean boundary edge is more than it).
    expect(autoContactOffset(m)).toBeLessThan(CONTACT_OFFSET_AUTO_RATIO * meanBoundaryEdge(m));
    expect(autoContactOffset(m)).toBeLessThan(0.139 / Math.sqrt(3));
    expect(shortestTetEdge(m.restPositions, m.tets)).toBeGreaterThan(0);
    const { hits, elastic } = freeFall(setup);
    console.log(`GlassBox pile: offset ${autoContactOffset(m).toPrecision(3)} m; contacts per frame ${hits.join(', ')}; elastic energy ${elastic.map((e) => e.toExponential(2)).join(', ')} J`);
    expect(hits).toEqual([0, 0]);
    for (const e of elastic) expect(e).toBeLessThan(1);
  });

  it('the same pile at an explicit offset of 2.5 of its shortest edge: self-contacts keep the cap, so still no contact and no deformation in free fall', () => {
    const setup = findScene('mesh-pile').build({ mesh: readMeshFile('../shared/meshes/GlassBox.t'), copies: 2 });
    const m = setup.model;
    const shortest = shortestTetEdge(m.restPositions, m.tets);
    setup.params = { ...setup.params, contactOffset: 0.5 };
    expect(0.5 / shortest).toBeGreaterThan(2.5);
    expect(selfContactOffset(m, 0.5)).toBeCloseTo(CONTACT_OFFSET_SELF_CAP * shortest, 12);
    // Before the cap: 1,553 and 1,640 vertex-face contacts of the rims with themselves, 2.5 and 10 kJ of elastic energy.
    const { hits, elastic } = freeFall(setup);
    console.log(`GlassBox pile at offset 0.5: contacts per frame ${hits.join(', ')}; elastic energy ${elastic.map((e) => e.toExponential(2)).join(', ')} J`);
    expect(hits).toEqual([0, 0]);
    for (const e of elastic) expect(e).toBeLessThan(1);
  });
});
