import { describe, expect, it } from 'vitest';
import { sourceIndex, sourceKind, KIND_VERTEX } from '../../../src/collision/cpu/queryList';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { QUERY_FOUND } from '../../../src/spb';
import { countIntersections } from '../../support/intersectionCounter';
import { foldedSlabMap } from '../spb/foldedSlab';
import { bodiesSetup, latticePart } from './scenes';

/**
 * Paper 000 Fig. 5 / Fig. 15: inside a self-intersecting object, the Euclidean closest boundary
 * point can lie on another layer of the same object, inside the layer that holds the point, and
 * pushing towards it does not resolve the penetration. Scene: the folded slab of the SPB tests
 * (lower arm z in [-0.5, 0.5]; the upper arm folded back and sunk to z in [-0.1, 0.9] over x >= 3),
 * self-collision off so the fold stays as built, and a thin plate (another object) that has
 * tunnelled into the lower arm at z in [-0.29, -0.24], below the upper arm. Its vertices are 0.21-0.26
 * above the lower arm's bottom face (their valid path out) but 0.14-0.19 below the upper arm's
 * inner face, whose outward normal points down: C = (p - s) . n > 0 there, the contact is
 * "satisfied" and nothing moves. (At z = -0.3 the two faces were equally near, 0.2 each, and which
 * one the Euclidean query took depended on the boundary's numbering: renumbered along a
 * space-filling curve, it took the bottom face and the plate left.) Measured by the brute-force counter (plate vertices inside the slab)
 * per substep: exact 18 18 18 6 0 ..., euclidean 18 after every one of 12 substeps.
 */

const CELLS = { armCells: 24, bendCells: 8, thicknessCells: 2, widthCells: 2 };

function run(mode: 'exact' | 'euclidean') {
  const slab = latticePart([2 * CELLS.armCells + CELLS.bendCells, CELLS.thicknessCells, CELLS.widthCells], foldedSlabMap(CELLS));
  // Off the slab's lattice planes (x multiples of 0.25, y of 0.5), so no vertex is on a tet face.
  const plate = latticePart([2, 2, 1], (u, v, w) => [4.23 + 0.23 * u, 0.33 + 0.16 * v, -0.29 + 0.05 * w]);
  const setup = bodiesSetup([{ part: slab, youngsModulus: 1e6 }, { part: plate, youngsModulus: 1e6 }], {
    // The plate starts 0.21 inside: removed at once (no depenetration speed), as in the figure;
    // the test is about which way the push goes.
    gravity: [0, 0, 0], dt: 1 / 600, substeps: 1, damping: 0, selfCollision: false, interObject: mode, depenetrationSpeed: Infinity,
  });
  const s = new CpuSolver(setup);
  const m = s.model;
  const inside = () => countIntersections({ positions: s.x, tets: m.tets, tetObject: m.tetObject }, { self: false }).hits.filter((h) => m.vertexObject[h.vertex] === 1).length;
  const counts = [inside()];
  // Boundary points found for the plate's vertices in the first substep.
  const sz: number[] = [];
  for (let step = 0; step < 12; step++) {
    s.stepFrame();
    counts.push(inside());
    if (step > 0) continue;
    const { queries: q, results: r } = s.collisionStage!;
    for (let i = 0; i < q.count; i++) {
      if (sourceKind(q.source[i]) !== KIND_VERTEX || m.vertexObject[sourceIndex(q.source[i])] !== 1) continue;
      expect(r.status[i]).toBe(QUERY_FOUND);
      sz.push(r.s[3 * i + 2]);
    }
  }
  return { counts, sz, plateVertices: m.vertexCount - m.objectVertexOffsets[1] };
}

describe('Fig. 15: Euclidean closest point against the shortest path, inter-object', () => {
  it('the shortest path pushes the tunnelled plate out through the lower arm within 5 substeps', () => {
    const { counts, sz, plateVertices } = run('exact');
    expect(counts[0]).toBe(plateVertices);
    expect(sz.length).toBe(plateVertices);
    // Every boundary point on the lower arm's bottom face.
    for (const z of sz) expect(z).toBeCloseTo(-0.5, 2);
    expect(counts.slice(5)).toEqual(new Array(counts.length - 5).fill(0));
  });

  it('the Euclidean closest point is the upper arm\'s inner face, and the plate stays inside for 12 substeps', () => {
    const { counts, sz, plateVertices } = run('euclidean');
    expect(sz.length).toBe(plateVertices);
    for (const z of sz) expect(z).toBeCloseTo(-0.1, 2);
    expect(counts).toEqual(new Array(counts.length).fill(plateVertices));
  });
});
