/**
 * Edge-tet DCD hits (paper 000 section 4): the query point is the centre of the part of a
 * boundary edge (a, b) inside a tet of the other layer, excluding only the edge's own two
 * triangles (exclude = a, exclude2 = b). Known answer on the folded slab (paper Fig. 3): the
 * upper arm's bottom edges sunk into the lower arm must be answered on the lower arm's own
 * boundary (the brute-force closest point over the lower arm's triangles: the lower arm alone is
 * intersection-free), although the upper arm's own surface is nearer. Culling on and off agree.
 */
import { describe, expect, it } from 'vitest';
import { QUERY_FOUND, SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, createBoundaryPathQuery, shortestPathToBoundary } from '../../../src/spb';
import { bruteForceDistance } from './helpers';
import { foldedSlabEdgeHits } from './edgeScenes';
import { latticeMesh } from './lattice';

describe('edge points: exclude only the edge\'s own triangles', () => {
  it('folded slab: the upper arm\'s edges inside the lower arm are answered on the lower arm', () => {
    const hits = foldedSlabEdgeHits();
    const { mesh, lower, upper } = hits;
    const x = mesh.positions;
    const tris = mesh.boundaryTriangles;
    const query = createBoundaryPathQuery(mesh);
    const wsOff = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, query.data.tetCount);
    let ownNearer = 0;
    const n = hits.tets.length;
    expect(n).toBeGreaterThan(50);
    for (let i = 0; i < n; i++) {
      const p = hits.points.subarray(3 * i, 3 * i + 3);
      const t = hits.tets[i], ia = hits.exclude[i], ib = hits.exclude2[i];
      const truth = bruteForceDistance(x, tris, p, (f) => lower(mesh.boundaryTriangleTet[f]));
      const res = query.closestBoundaryPoint(p, t, ia, { excludeVertex2: ib });
      expect(res, `edge ${ia}-${ib} in tet ${t}`).not.toBeNull();
      expect(Math.abs(res!.distance - truth) / truth, `edge ${ia}-${ib} in tet ${t}: got ${res!.distance}, lower arm ${truth}`).toBeLessThan(1e-6);
      expect(lower(mesh.boundaryTriangleTet[res!.triangle])).toBe(true);
      // Culling off gives the same answer (the excluded pair's culling witnesses, feasibleRegion.ts).
      const st = shortestPathToBoundary(query.data, wsOff, { culling: false, tolerances: SPB_DEFAULT_TOLERANCES }, p[0], p[1], p[2], t, ia, ib);
      expect(st).toBe(QUERY_FOUND);
      expect(Math.sqrt(wsOff.resultDistance2)).toBe(res!.distance);
      // The other upper-arm triangles at a or b are nearer than the answer: the path test matters.
      const own = bruteForceDistance(x, tris, p, (f) => {
        const g = tris.subarray(3 * f, 3 * f + 3);
        return upper(mesh.boundaryTriangleTet[f]) && !(g.includes(ia) && g.includes(ib));
      });
      if (own < truth) ownNearer++;
    }
    expect(ownNearer).toBeGreaterThan(n / 2);
  });

  it('rejects an exclude pair that is not an edge\'s two ends', () => {
    const { mesh } = latticeMesh(2, 2, 2, (i, j, k) => [i, j, k]);
    const query = createBoundaryPathQuery(mesh);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, -1, { excludeVertex2: 3 })).toThrow(/excludeVertex2 3 needs a different excludeVertex/);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, 3, { excludeVertex2: 3 })).toThrow(/excludeVertex2/);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, 3, { excludeVertex2: 1e6 })).toThrow(/excludeVertex2 1000000 out of range/);
  });
});
