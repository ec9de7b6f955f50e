/**
 * The zero-length case (paper section 3.3): a candidate boundary point that coincides with p has
 * no direction to traverse. The paper rejects only the faces incident to the penetrating vertex
 * (the excluded vertex); every other boundary point at p is p's own boundary when p, as the point
 * of its tet, lies on that boundary face: the true distance is then 0.
 * - p exactly on a boundary face, edge or vertex of its own tet (any tet holding that face, edge
 *   or vertex): distance 0, on a triangle through p, with culling on and off, static and dynamic;
 * - p at a boundary vertex that is the excluded vertex itself: its incident faces are excluded
 *   (the paper's rule), so the answer is never on them and never nearer than the nearest other
 *   boundary point (on a lattice cube: the brute-force distance to the construction's boundary
 *   faces not incident to the vertex).
 */
import { describe, expect, it } from 'vitest';
import { QUERY_FOUND, QUERY_NONE, SPB_DYNAMIC_CAPACITIES, SPB_STATIC_CAPACITIES, createSpbMeshData } from '../../../src/spb';
import type { TetMesh } from '../../../src/mesh/types';
import { kuhnLattice } from '../../support/kuhnLattice';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { meshFrom } from './helpers';
import { latticeBoundaryFaces, triangleClosest } from './layerOracle';
import { runQueries } from './queryRuns';
import { onBoundary, vertexTets, type BoundaryPoints } from './boundaryPoints';

function expectZero(mesh: TetMesh, batch: BoundaryPoints): number {
  const data = createSpbMeshData(mesh);
  const x = mesh.positions;
  const at = (v: number): [number, number, number] => [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
  const on = runQueries(data, batch, SPB_DYNAMIC_CAPACITIES, true);
  const off = runQueries(data, batch, SPB_DYNAMIC_CAPACITIES, false);
  const fixed = runQueries(data, batch, SPB_STATIC_CAPACITIES, true);
  for (let i = 0; i < batch.tets.length; i++) {
    const label = `${batch.kind[i]} in tet ${batch.tets[i]}`;
    const h = Math.sqrt(data.tetSize2[batch.tets[i]]);
    expect(on.status[i], label).toBe(QUERY_FOUND);
    expect(on.distance[i], label).toBeLessThan(1e-9 * h);
    expect(off.distance[i], label).toBe(on.distance[i]);
    expect(fixed.distance[i], label).toBe(on.distance[i]);
    // The answer's triangle passes through p.
    const p: [number, number, number] = [batch.points[3 * i], batch.points[3 * i + 1], batch.points[3 * i + 2]];
    const tri = data.triangles.subarray(3 * on.triangle[i], 3 * on.triangle[i] + 3);
    const s = triangleClosest(p, at(tri[0]), at(tri[1]), at(tri[2]));
    expect(Math.hypot(s[0] - p[0], s[1] - p[1], s[2] - p[2]), label).toBeLessThan(1e-9 * h);
  }
  return batch.tets.length;
}

describe('zero-length candidates: points on the boundary of their own tet', () => {
  it('lattice cube: points on boundary faces, edges and vertices of their own tet are at distance 0', () => {
    const lat = kuhnLattice(5, 5, 5, (i, j, k) => [0.1 * i, 0.1 * j, 0.1 * k]);
    const mesh = meshFrom(lat.positions, lat.tets);
    const n = expectZero(mesh, onBoundary(mesh, 60, 1));
    expect(n).toBeGreaterThan(400);
  });

  it('OverhandKnot.t and octopus_2KFaces.t (real meshes): the same', () => {
    for (const name of ['OverhandKnot.t', 'octopus_2KFaces.t']) {
      const mesh = loadSharedTetMesh(name);
      expect(expectZero(mesh, onBoundary(mesh, 40, 2))).toBeGreaterThan(300);
    }
  });

  it('p at the excluded (penetrating) vertex itself: its faces are rejected, no answer nearer than the other boundary points', () => {
    const N = 5;
    const lat = kuhnLattice(N, N, N, (i, j, k) => [0.1 * i, 0.1 * j, 0.1 * k]);
    const mesh = meshFrom(lat.positions, lat.tets);
    const latticeOf = new Int32Array(3 * mesh.vertexCount);
    for (let k = 0; k <= N; k++) for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) latticeOf.set([i, j, k], 3 * lat.vertexId(i, j, k));
    const { faces } = latticeBoundaryFaces({ positions: lat.positions, tets: lat.tets, cellOfTet: lat.cellOfTet, latticeOf, size: [N, N, N] });
    const x = mesh.positions;
    const at = (v: number): [number, number, number] => [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
    const around = vertexTets(mesh);
    const pts: number[] = [], tets: number[] = [], excl: number[] = [];
    for (const v of mesh.boundaryVertices) {
      for (const t of around[v]) {
        pts.push(...at(v));
        tets.push(t);
        excl.push(v);
      }
    }
    const batch = { points: Float64Array.from(pts), tets: Int32Array.from(tets), exclude: Int32Array.from(excl) };
    const data = createSpbMeshData(mesh);
    const on = runQueries(data, batch, SPB_DYNAMIC_CAPACITIES, true);
    const off = runQueries(data, batch, SPB_DYNAMIC_CAPACITIES, false);
    let found = 0;
    for (let i = 0; i < tets.length; i++) {
      const v = excl[i];
      const label = `vertex ${v} (lattice ${Array.from(latticeOf.subarray(3 * v, 3 * v + 3))}) in tet ${tets[i]}`;
      // Oracle: the nearest boundary face of the construction not incident to v (the cube is convex).
      let truth = Infinity;
      for (let f = 0; f < faces.length / 3; f++) {
        if (faces[3 * f] === v || faces[3 * f + 1] === v || faces[3 * f + 2] === v) continue;
        const s = triangleClosest(at(v), at(faces[3 * f]), at(faces[3 * f + 1]), at(faces[3 * f + 2]));
        truth = Math.min(truth, Math.hypot(s[0] - x[3 * v], s[1] - x[3 * v + 1], s[2] - x[3 * v + 2]));
      }
      // Never v's own faces (no zero-length answer), never nearer than any other boundary point.
      // The nearest other points lie in the boundary planes through v, where the segment grazes
      // the surface: the traversal (a ray in a boundary face's plane leaves through that face)
      // does not follow it, and the answer, when there is one, is farther.
      expect(on.status[i] === QUERY_FOUND || on.status[i] === QUERY_NONE, label).toBe(true);
      if (on.status[i] === QUERY_FOUND) {
        found++;
        expect(on.distance[i], label).toBeGreaterThanOrEqual(truth - 1e-12);
        const tri = data.triangles.subarray(3 * on.triangle[i], 3 * on.triangle[i] + 3);
        expect(tri.includes(v), label).toBe(false);
      }
      expect(off.status[i], label).toBe(on.status[i]);
      expect(off.distance[i], label).toBe(on.distance[i]);
    }
    expect(found).toBeGreaterThan(tets.length / 2); // vertices inside the cube's faces: the far side
  });
});
