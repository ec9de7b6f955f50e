import { describe, expect, it } from 'vitest';
import { countIntersections } from '../../support/intersectionCounter';
import { kuhnLattice } from '../../support/kuhnLattice';
import { mergeParts as merge } from '../../support/mergeParts';
import { rng } from '../../support/random';
import { countSurfaceCrossings } from '../../support/surfaceCrossings';

/**
 * The surface crossing counter against cases known by hand: a valid surface never crosses
 * itself (however jittered), two overlapping boxes cross only where their faces meet, a dent
 * (a boundary vertex pushed past its own tet, which the vertex counter reports) crosses nothing
 * until it comes out of the far side of the slab.
 */

function box(n: [number, number, number], size: [number, number, number], offset: [number, number, number]) {
  const l = kuhnLattice(n[0], n[1], n[2], (i, j, k) => [offset[0] + (i / n[0]) * size[0], offset[1] + (j / n[1]) * size[1], offset[2] + (k / n[2]) * size[2]]);
  return { positions: Array.from(l.positions), tets: Array.from(l.tets), vertexId: l.vertexId };
}

const OFFSET: [number, number, number] = [0.3, 0.4, 0.55];

describe('surface crossing counter', () => {
  it('a jittered lattice box has no crossing, and counts its own boundary (2 triangles per boundary square)', () => {
    const r = rng(3);
    const b = box([3, 2, 2], [1.5, 1, 1], [0, 0, 0]);
    const jittered = b.positions.map((c) => c + (r() - 0.5) * 0.05);
    const c = countSurfaceCrossings(merge([{ positions: jittered, tets: b.tets }]));
    expect(c.boundaryTriangles).toBe(2 * 2 * (3 * 2 + 3 * 2 + 2 * 2));
    expect([c.selfPairs, c.interPairs]).toEqual([0, 0]);
  });

  it('boxes apart cross nothing; overlapping, only faces through the other box cross, as inter or self by object', () => {
    expect(countSurfaceCrossings(merge([box([2, 2, 2], [1, 1, 1], [0, 0, 0]), box([2, 2, 2], [1, 1, 1], [1.2, 0, 0])])).interPairs).toBe(0);
    const a = box([2, 2, 2], [1, 1, 1], [0, 0, 0]), b = box([2, 2, 2], [1, 1, 1], OFFSET);
    const scene = merge([a, b]);
    const c = countSurfaceCrossings(scene);
    expect(c.interPairs).toBeGreaterThan(0);
    expect(c.selfPairs).toBe(0);
    // Where the surfaces meet: A's faces x = 1, y = 1, z = 1 (the corner inside B) against B's
    // faces x = 0.3, y = 0.4, z = 0.55 (the corner inside A). Every vertex of a crossing pair is on
    // one of those six planes.
    const onPlane = (v: number): boolean => {
      const p = [scene.positions[3 * v], scene.positions[3 * v + 1], scene.positions[3 * v + 2]];
      const planes = v < a.positions.length / 3 ? [1, 1, 1] : OFFSET;
      return p.some((x, k) => Math.abs(x - planes[k]) < 1e-6);
    };
    expect(c.crossingVertices.length).toBeGreaterThan(0);
    for (const v of c.crossingVertices) expect(onPlane(v), `vertex ${v}`).toBe(true);
    expect(c.interVertices).toBeGreaterThan(0);
    // The same two boxes as one object: the same pairs, now self.
    const same = countSurfaceCrossings(merge([a, b], [0, 0]));
    expect([same.selfPairs, same.interPairs]).toEqual([c.interPairs, 0]);
  });

  it('a top vertex pushed down past its own tets is a dent: the vertex counter reports it, the surface crosses nothing until the dent comes out below', () => {
    // A 4 x 4 x 2 slab, cells of 1; vertex (2, 2, 2) at the middle of the top face.
    const slab = box([4, 4, 2], [4, 4, 2], [0, 0, 0]);
    const v = slab.vertexId(2, 2, 2);
    const scene = merge([slab]);
    const pushTo = (z: number) => {
      const positions = Float64Array.from(scene.positions);
      positions[3 * v] = 2.1; positions[3 * v + 1] = 1.95; positions[3 * v + 2] = z;
      return { ...scene, positions };
    };
    const dent = pushTo(0.8);
    expect(countIntersections(dent).self).toBeGreaterThan(0);
    expect(countSurfaceCrossings(dent).selfPairs).toBe(0);
    // Through the bottom face: the dent's triangles now cross the bottom's.
    const through = pushTo(-0.5);
    const c = countSurfaceCrossings(through);
    expect(c.selfPairs).toBeGreaterThan(0);
    expect(c.selfVertices).toBeGreaterThan(0);
  });
});
