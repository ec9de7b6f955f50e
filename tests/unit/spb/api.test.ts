/**
 * The public entry point (src/spb/index.ts): plain arrays in, results with the feature named,
 * update() after a deformation, clear errors for bad input, and the inverted-boundary skip.
 */
import { describe, expect, it } from 'vitest';
import { createBoundaryPathQuery } from '../../../src/spb';
import { TET_FACES } from '../../../src/mesh/types';
import { bruteForceDistance } from './helpers';
import { latticeMesh } from './lattice';

describe('createBoundaryPathQuery', () => {
  const lm = latticeMesh(4, 4, 4, (i, j, k) => [i, j, k]);
  const arrays = { positions: Array.from(lm.mesh.positions), tets: Array.from(lm.mesh.tets) };

  it('answers from plain arrays and names the feature', () => {
    const q = createBoundaryPathQuery(arrays);
    expect(q.boundaryTriangles().length).toBe(3 * 2 * 6 * 16); // 2 triangles per boundary square
    // A point near the middle of the x = 0 face, deep enough that only that face is nearest.
    const tet = lm.mesh.tets.findIndex((_, i) => i % 4 === 0 && lm.cellOfTet[3 * (i / 4)] === 0 && lm.cellOfTet[3 * (i / 4) + 1] === 1 && lm.cellOfTet[3 * (i / 4) + 2] === 1) / 4;
    const ids = Array.from(lm.mesh.tets.subarray(4 * tet, 4 * tet + 4));
    const p = [0, 1, 2].map((c) => ids.reduce((s, v) => s + lm.mesh.positions[3 * v + c], 0) / 4);
    const res = q.closestBoundaryPoint(p, tet)!;
    expect(res.distance).toBeCloseTo(p[0], 12);
    expect(res.point[0]).toBe(0);
    expect(['vertex', 'edge', 'face']).toContain(res.feature);
    expect(res.stats.bvhCandidates).toBeGreaterThan(0);
    expect(res.stats.traversals).toBeGreaterThan(0);
    expect(res.stats.tetsVisited).toBeGreaterThan(0);
    // At a lattice point projected onto the face, the closest point is a vertex of the triangle.
    const v = lm.vertexId(1, 2, 2);
    const vt = lm.mesh.tets.findIndex((id) => id === v) >> 2;
    const atVertex = q.closestBoundaryPoint([1, 2, 2], vt)!;
    expect(atVertex.distance).toBe(1);
    expect(atVertex.feature).toBe('vertex');
  });

  it('follows update() after a deformation', () => {
    const q = createBoundaryPathQuery(arrays);
    const moved = arrays.positions.map((x, i) => (i % 3 === 0 ? 2 * x : x)); // stretch x by 2
    q.update(moved);
    const tet = 0;
    const ids = arrays.tets.slice(0, 4);
    const p = [0, 1, 2].map((c) => ids.reduce((s, v) => s + moved[3 * v + c], 0) / 4);
    const res = q.closestBoundaryPoint(p, tet)!;
    expect(res.distance).toBeCloseTo(bruteForceDistance(moved, q.boundaryTriangles(), p), 12);
  });

  it('rejects bad input with a message naming it', () => {
    const q = createBoundaryPathQuery(arrays);
    expect(() => q.closestBoundaryPoint([0.5, 0.5, 0.5], -1)).toThrow(/tet -1 out of range/);
    expect(() => q.closestBoundaryPoint([0.5, 0.5, 0.5], 1e9)).toThrow(/tet 1000000000 out of range/);
    expect(() => q.closestBoundaryPoint([0.5, NaN, 0.5], 0)).toThrow(/3 finite numbers/);
    expect(() => q.closestBoundaryPoint([0.5, 0.5, 0.5], 0, 9999)).toThrow(/excludeVertex 9999/);
    expect(() => q.update([1, 2, 3])).toThrow(/expected 375 coordinates/);
    const bad = arrays.positions.slice();
    bad[7] = Infinity;
    expect(() => q.update(bad)).toThrow(/coordinate 1 of vertex 2 is not finite/);
    expect(() => createBoundaryPathQuery({ positions: [...arrays.positions, 9, 9, 9], tets: arrays.tets })).toThrow(/used by no tet/);
    const badTets = arrays.tets.slice();
    badTets[9] = 2.5;
    expect(() => createBoundaryPathQuery({ positions: arrays.positions, tets: badTets })).toThrow(/tet 2 has vertex id 2.5 \(local 1\)/);
  });

  it('skips a boundary vertex whose own boundary tet is inverted (section 3.5)', () => {
    // Push a boundary vertex of the x = 0 face inward through the opposite face of one of its tets.
    const v = lm.vertexId(0, 2, 2);
    const tet = lm.mesh.tets.findIndex((id) => id === v) >> 2;
    const local = Array.from(lm.mesh.tets.subarray(4 * tet, 4 * tet + 4)).indexOf(v);
    const face = TET_FACES[local].map((k) => lm.mesh.tets[4 * tet + k]);
    const centroid = [0, 1, 2].map((c) => face.reduce((s, u) => s + arrays.positions[3 * u + c], 0) / 3);
    const moved = arrays.positions.slice();
    for (let c = 0; c < 3; c++) moved[3 * v + c] = centroid[c] + 0.5 * (centroid[c] - arrays.positions[3 * v + c]);
    const q = createBoundaryPathQuery(arrays);
    q.update(moved);
    expect(q.data.tetInverted[tet]).toBe(1);
    expect(q.closestBoundaryPoint(moved.slice(3 * v, 3 * v + 3), tet, v)).toBeNull();
    // Without excludeVertex the same point is an ordinary query (its own triangles at distance 0
    // are rejected as zero-length, others answer).
    expect(q.closestBoundaryPoint(moved.slice(3 * v, 3 * v + 3), tet)).not.toBeNull();
  });
});
