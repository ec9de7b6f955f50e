import { describe, expect, it } from 'vitest';
import { countedBoundaryVertices, countIntersections } from '../../support/intersectionCounter';
import { kuhnLattice } from '../../support/kuhnLattice';
import { mergeParts as merge } from '../../support/mergeParts';
import { rng } from '../../support/random';

/**
 * The brute-force counter against constructed cases whose answer is known by hand: unit cubes
 * (Kuhn lattices, whose tets tile the cube exactly) overlapping at generic offsets, one cube's
 * corner in the other, a point on a face (not strictly inside), and small tets thrown at random
 * against the box test "strictly inside the open cube".
 */

function cube(n: number, offset: [number, number, number]): { positions: number[]; tets: number[] } {
  const l = kuhnLattice(n, n, n, (i, j, k) => [i / n + offset[0], j / n + offset[1], k / n + offset[2]]);
  return { positions: Array.from(l.positions), tets: Array.from(l.tets) };
}

// Float32 lattice coordinates: the offsets are chosen exact enough that no vertex lands on a
// Kuhn diagonal plane of the other cube (a point on x = y inside a cell is on two tets' shared face).
const OFFSET: [number, number, number] = [0.3, 0.4, 0.55];

describe('intersection counter', () => {
  it('finds its own boundary: a 2x2x2 Kuhn cube has 26 boundary vertices of 27', () => {
    const c = cube(2, [0, 0, 0]);
    expect(countedBoundaryVertices(c.tets, 27).length).toBe(26);
  });

  it('two overlapping cubes of different objects: one corner of each inside the other', () => {
    const scene = merge([cube(1, [0, 0, 0]), cube(1, OFFSET)]);
    const r = countIntersections(scene);
    expect(r.inter).toBe(2);
    expect(r.self).toBe(0);
    const vertices = r.hits.map((h) => h.vertex).sort((a, b) => a - b);
    // A's corner (1, 1, 1) is vertex 7; B's corner at its offset is vertex 8 + 0.
    expect(vertices).toEqual([7, 8]);
    // Depth: the distance to the other cube's nearest face, min(0.3, 0.4, 0.55, 0.7, 0.6, 0.45) for both.
    const deep = countIntersections(scene, { depth: true });
    for (const h of deep.hits) expect(h.depth).toBeCloseTo(0.3, 6);
    expect(deep.maxDepth).toBeCloseTo(0.3, 6);
    // The same two cubes as one object: self hits (no tet of the other cube is incident).
    const same = countIntersections(merge([cube(1, [0, 0, 0]), cube(1, OFFSET)], [0, 0]));
    expect([same.self, same.inter]).toEqual([2, 0]);
    expect(countIntersections(merge([cube(1, [0, 0, 0]), cube(1, OFFSET)], [0, 0]), { self: false }).self).toBe(0);
  });

  it('finer cubes: every vertex of one in the open box of the other is counted, and only those', () => {
    const scene = merge([cube(3, [0, 0, 0]), cube(3, OFFSET)]);
    const r = countIntersections(scene);
    // Boundary vertices of each cube inside the other's open box, counted by coordinates.
    let expected = 0;
    for (let v = 0; v < scene.positions.length / 3; v++) {
      const b = v < 64 ? OFFSET : [0, 0, 0];
      const x = [0, 1, 2].map((k) => scene.positions[3 * v + k] - b[k]);
      const onBoundary = [0, 1, 2].some((k) => { const l = scene.positions[3 * v + k] - (v < 64 ? 0 : OFFSET[k]); return Math.abs(l) < 1e-6 || Math.abs(l - 1) < 1e-6; });
      if (onBoundary && x.every((c) => c > 0 && c < 1)) expected++;
    }
    expect(expected).toBeGreaterThan(4);
    expect(r.inter).toBe(expected);
    expect(r.boundaryVertexCount).toBe(2 * 56);
  });

  it('a vertex exactly on a face of the other object is not strictly inside', () => {
    const scene = merge([cube(1, [0, 0, 0]), cube(1, [1, 0.4, 0.55])]);
    expect(countIntersections(scene).inter).toBe(0);
  });

  it('an inverted tet still contains points between its faces, flagged; skipInverted drops it', () => {
    const scene = merge([cube(1, [0, 0, 0]), cube(1, OFFSET)]);
    // Swap two corners of every tet of cube A: all its tets inverted, same point sets.
    for (let t = 0; t < 6; t++) { const a = scene.tets[4 * t]; scene.tets[4 * t] = scene.tets[4 * t + 1]; scene.tets[4 * t + 1] = a; }
    const r = countIntersections(scene);
    expect(r.inter).toBe(2);
    expect(r.hits.filter((h) => h.inverted).map((h) => h.vertex)).toEqual([8]);
    expect(countIntersections(scene, { skipInverted: true }).inter).toBe(1);
  });

  it('a corner pushed through its own tet\'s opposite face into the neighbour is a self hit through its own tet; a far vertex of the object is not', () => {
    // One object: tets A = (0, 1, 2, 3) and B = (0, 2, 1, 4) share the face (0, 1, 2) on z = 0,
    // A's apex 3 above it, B's apex 4 below; tet C = (5, 6, 7, 8) lies apart, off to the side.
    const positions = Float64Array.from([
      0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, 1, 0.25, 0.25, -1,
      3, 0, 0, 4, 0, 0, 3, 1, 0, 3.25, 0.25, 1,
    ]);
    const tets = Uint32Array.from([0, 1, 2, 3, 0, 2, 1, 4, 5, 6, 7, 8]);
    const scene = { positions, tets, tetObject: Uint32Array.from([0, 0, 0]) };
    expect(countIntersections(scene).self).toBe(0);
    // A's apex through the shared face, into B: A is now inverted.
    positions.set([0.2, 0.2, -0.3], 9);
    const through = countIntersections(scene);
    expect(through.self).toBe(1);
    expect(through.hits).toMatchObject([{ vertex: 3, tet: 1, self: true, throughOwnTet: true }]);
    expect(through.selfThroughOwnTet).toBe(1);
    // C's apex moved into B instead (A restored): the same kind of hit, but no tet of 8 shares a face with B.
    positions.set([0.25, 0.25, 1], 9);
    positions.set([0.2, 0.2, -0.3], 24);
    const apart = countIntersections(scene);
    expect(apart.hits).toMatchObject([{ vertex: 8, tet: 1, self: true, throughOwnTet: false }]);
    expect(apart.selfThroughOwnTet).toBe(0);
  });

  it('small random tets against the open unit cube (2x2x2 lattice)', () => {
    const r = rng(8);
    const lattice = cube(2, [0, 0, 0]);
    let checked = 0;
    for (let trial = 0; trial < 200; trial++) {
      const q = [r() * 1.4 - 0.2, r() * 1.4 - 0.2, r() * 1.4 - 0.2];
      // Keep the small tet (size 0.02) away from the lattice's vertices (spacing 0.5), so no
      // cube vertex is inside it and the answer is the box test of its own 4 corners.
      const near = [0, 1, 2].every((k) => Math.abs(q[k] * 2 - Math.round(q[k] * 2)) < 0.1);
      if (near) continue;
      const small = { positions: [...q, q[0] + 0.02, q[1], q[2], q[0], q[1] + 0.02, q[2], q[0], q[1], q[2] + 0.02], tets: [0, 1, 2, 3] };
      const scene = merge([lattice, small]);
      let expected = 0;
      for (let c = 0; c < 4; c++) {
        const x = small.positions.slice(3 * c, 3 * c + 3);
        if (x.every((v) => v > 0 && v < 1)) expected++;
      }
      expect(countIntersections(scene).inter).toBe(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('rejects bad input naming the problem', () => {
    expect(() => countIntersections({ positions: [0, 0, 0], tets: [0, 0, 0, 5], tetObject: [0] })).toThrow(/tet 0 corner 3 is vertex 5/);
    expect(() => countIntersections({ positions: [0, 0, NaN, 1, 0, 0, 0, 1, 0, 0, 0, 1], tets: [0, 1, 2, 3], tetObject: [0] })).toThrow(/vertex 0 is not finite/);
  });
});
