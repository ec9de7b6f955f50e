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
import { clipSegmentToTet, minBarycentric } from './edgeClip';
import { foldedSlabMap } from './foldedSlab';
import { latticeMesh } from './lattice';

describe('edge points: exclude only the edge\'s own triangles', () => {
  it('folded slab: the upper arm\'s edges inside the lower arm are answered on the lower arm', () => {
    const { mesh, cellOfTet } = latticeMesh(60, 4, 8, foldedSlabMap({ armCells: 24, bendCells: 12, thicknessCells: 4, widthCells: 4 }));
    const lowerHost = (t: number): boolean => cellOfTet[3 * t] >= 2 && cellOfTet[3 * t] < 10;
    const lower = (t: number): boolean => cellOfTet[3 * t] < 24;
    const upper = (t: number): boolean => cellOfTet[3 * t] >= 36;
    const x = mesh.positions;
    const tris = mesh.boundaryTriangles;
    // Boundary vertices of the upper arm (on one of its boundary triangles).
    const upperVertex = new Uint8Array(mesh.vertexCount);
    for (let f = 0; f < tris.length / 3; f++) if (upper(mesh.boundaryTriangleTet[f])) for (let k = 0; k < 3; k++) upperVertex[tris[3 * f + k]] = 1;
    const hosts: number[] = [];
    for (let t = 0; t < mesh.tetCount; t++) if (lowerHost(t)) hosts.push(t);
    const query = createBoundaryPathQuery(mesh);
    const data = query.data;
    const wsOff = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
    let checked = 0, ownNearer = 0;
    for (let e = 0; e < mesh.boundaryEdges.length / 2; e++) {
      const ia = mesh.boundaryEdges[2 * e], ib = mesh.boundaryEdges[2 * e + 1];
      if (!upperVertex[ia] || !upperVertex[ib]) continue;
      const a = [x[3 * ia], x[3 * ia + 1], x[3 * ia + 2]], b = [x[3 * ib], x[3 * ib + 1], x[3 * ib + 2]];
      for (const t of hosts) {
        const clip = clipSegmentToTet(x, mesh.tets, t, a, b);
        if (!clip) continue;
        const m = 0.5 * (clip[0] + clip[1]);
        const p = [0, 1, 2].map((c) => a[c] + m * (b[c] - a[c]));
        if (!(minBarycentric(x, mesh.tets, t, p) > 1e-6)) continue;
        const truth = bruteForceDistance(x, tris, p, (f) => lower(mesh.boundaryTriangleTet[f]));
        const res = query.closestBoundaryPoint(p, t, ia, { excludeVertex2: ib });
        expect(res, `edge ${ia}-${ib} in tet ${t}`).not.toBeNull();
        expect(Math.abs(res!.distance - truth) / truth, `edge ${ia}-${ib} in tet ${t}: got ${res!.distance}, lower arm ${truth}`).toBeLessThan(1e-6);
        expect(lower(mesh.boundaryTriangleTet[res!.triangle])).toBe(true);
        // Culling off gives the same answer (the excluded pair's culling witnesses, feasibleRegion.ts).
        const st = shortestPathToBoundary(data, wsOff, { culling: false, tolerances: SPB_DEFAULT_TOLERANCES }, p[0], p[1], p[2], t, ia, ib);
        expect(st).toBe(QUERY_FOUND);
        expect(Math.sqrt(wsOff.resultDistance2)).toBe(res!.distance);
        // The edge's other triangles (at a or b, upper arm) are nearer than the answer: the path test matters.
        const own = bruteForceDistance(x, tris, p, (f) => {
          const g = tris.subarray(3 * f, 3 * f + 3);
          const hasA = g[0] === ia || g[1] === ia || g[2] === ia, hasB = g[0] === ib || g[1] === ib || g[2] === ib;
          return upper(mesh.boundaryTriangleTet[f]) && !(hasA && hasB);
        });
        if (own < truth) ownNearer++;
        checked++;
        break; // one query per edge (the first containing tet, as detection does)
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(ownNearer).toBeGreaterThan(checked / 2);
  });

  it('rejects an exclude pair that is not an edge\'s two ends', () => {
    const { mesh } = latticeMesh(2, 2, 2, (i, j, k) => [i, j, k]);
    const query = createBoundaryPathQuery(mesh);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, -1, { excludeVertex2: 3 })).toThrow(/excludeVertex2 3 needs a different excludeVertex/);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, 3, { excludeVertex2: 3 })).toThrow(/excludeVertex2/);
    expect(() => query.closestBoundaryPoint([0.5, 0.5, 0.5], 0, 3, { excludeVertex2: 1e6 })).toThrow(/excludeVertex2 1000000 out of range/);
  });
});
