/**
 * The Euclidean mode of the query (paper 000 Fig. 15's comparison): the nearest boundary point of
 * the start tet's connected component, no path validity, the excluded triangles still excluded.
 * Truth: brute force over every triangle of the component (components from the mesh's object ids,
 * not from src/spb), minus the excluded ones by the rule written out here.
 */
import { describe, expect, it } from 'vitest';
import { createBoundaryPathQuery } from '../../../src/spb';
import { randomInteriorPoint, rng } from '../../support/random';
import { bruteForceDistance } from './helpers';
import { foldedSlabMap } from './foldedSlab';
import { latticeMesh } from './lattice';
import { octopusPairQueries } from './scenes';

const has = (tris: ArrayLike<number>, f: number, v: number): boolean => tris[3 * f] === v || tris[3 * f + 1] === v || tris[3 * f + 2] === v;

describe('Euclidean mode: nearest boundary point of the component', () => {
  it('octopus pushed into its copy: nearest point of the host copy, never of the vertex\'s own copy', () => {
    const { mesh, queries } = octopusPairQueries('octopus_2KFaces.t', 0.12);
    const query = createBoundaryPathQuery(mesh);
    const tris = mesh.boundaryTriangles;
    let ownNearer = 0;
    for (let i = 0; i < queries.tets.length; i++) {
      const p = queries.points.subarray(3 * i, 3 * i + 3);
      const host = mesh.tetObject[queries.tets[i]];
      const v = queries.exclude[i];
      const truth = bruteForceDistance(mesh.positions, tris, p, (f) => mesh.tetObject[mesh.boundaryTriangleTet[f]] === host && !has(tris, f, v));
      const res = query.closestBoundaryPoint(p, queries.tets[i], v, { euclidean: true });
      expect(res, `query ${i}`).not.toBeNull();
      expect(Math.abs(res!.distance - truth), `query ${i}`).toBeLessThan(1e-12 + 1e-9 * truth);
      expect(mesh.tetObject[mesh.boundaryTriangleTet[res!.triangle]]).toBe(host);
      expect(res!.stats.traversals).toBe(0); // no path test
      if (bruteForceDistance(mesh.positions, tris, p, (f) => !has(tris, f, v)) < truth) ownNearer++;
    }
    expect(ownNearer).toBeGreaterThan(queries.tets.length / 2);
  });

  it('folded slab: the other layer\'s surface when nearer (where the exact query answers on the own layer)', () => {
    const { mesh, cellOfTet } = latticeMesh(60, 4, 8, foldedSlabMap({ armCells: 24, bendCells: 12, thicknessCells: 4, widthCells: 4 }));
    const query = createBoundaryPathQuery(mesh);
    const tris = mesh.boundaryTriangles;
    const r = rng(7);
    let differs = 0;
    const n = 300;
    for (let i = 0; i < n; i++) {
      const cell = 2 + Math.floor(r() * 8); // lower arm in the overlap
      const cands: number[] = [];
      for (let t = 0; t < mesh.tetCount; t++) if (cellOfTet[3 * t] === cell) cands.push(t);
      const tet = cands[Math.floor(r() * cands.length)];
      const p = randomInteriorPoint(mesh.positions, mesh.tets, tet, r);
      const truth = bruteForceDistance(mesh.positions, tris, p); // one component: every triangle
      const res = query.closestBoundaryPoint(p, tet, -1, { euclidean: true });
      expect(Math.abs(res!.distance - truth), `point ${i}`).toBeLessThan(1e-12 + 1e-9 * truth);
      const exact = query.closestBoundaryPoint(p, tet);
      if (exact!.distance > truth * (1 + 1e-3)) differs++;
    }
    expect(differs).toBeGreaterThan(0.3 * n);
  });

  it('exclusion: a vertex excludes all its triangles, an edge point only the edge\'s two', () => {
    // A 4x4x4 cube lattice: p on a top-face boundary edge (a, b), 0.3 of the way from a.
    const { mesh } = latticeMesh(4, 4, 4, (i, j, k) => [i / 4, j / 4, k / 4]);
    const query = createBoundaryPathQuery(mesh);
    const x = mesh.positions, tris = mesh.boundaryTriangles;
    let edges = 0;
    for (let e = 0; e < mesh.boundaryEdges.length / 2; e++) {
      const a = mesh.boundaryEdges[2 * e], b = mesh.boundaryEdges[2 * e + 1];
      if (x[3 * a + 2] !== 1 || x[3 * b + 2] !== 1) continue; // top face z = 1
      const p = [0, 1, 2].map((c) => 0.7 * x[3 * a + c] + 0.3 * x[3 * b + c]);
      const pair = bruteForceDistance(x, tris, p, (f) => !(has(tris, f, a) && has(tris, f, b)));
      const single = bruteForceDistance(x, tris, p, (f) => !has(tris, f, a));
      expect(pair).toBeGreaterThan(0); // the edge's own triangles hold p: distance 0 if not excluded
      expect(single).toBeGreaterThan(pair * 1.5); // the rule matters here
      const res = query.closestBoundaryPoint(p, 0, a, { excludeVertex2: b, euclidean: true });
      expect(Math.abs(res!.distance - pair), `edge ${a}-${b}`).toBeLessThan(1e-12);
      const ft = tris.subarray(3 * res!.triangle, 3 * res!.triangle + 3);
      expect(ft.includes(a) && ft.includes(b)).toBe(false);
      const resV = query.closestBoundaryPoint(p, 0, a, { euclidean: true });
      expect(Math.abs(resV!.distance - single), `vertex ${a}`).toBeLessThan(1e-12);
      edges++;
    }
    expect(edges).toBeGreaterThan(20);
  });
});
