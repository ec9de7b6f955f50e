/**
 * Self-intersecting meshes, where the Euclidean closest boundary point is wrong: the answer
 * must lie on the query point's own layer. Oracle: the brute-force closest point among the
 * boundary triangles of that layer alone (the layer is intersection-free by itself, so there
 * the Euclidean answer is the valid one, and every other part of the mesh is farther along the
 * mesh than that answer). Each test also checks that the Euclidean answer over the whole mesh is
 * nearer for many points, i.e. the case really needs the valid-path test.
 */
import { describe, expect, it } from 'vitest';
import type { TetMesh } from '../../../src/mesh/types';
import { createBoundaryPathQuery } from '../../../src/spb';
import { randomInteriorPoint, rng } from '../../support/random';
import { bruteForceDistance } from './helpers';
import { foldedSlabMap } from './foldedSlab';
import { latticeMesh } from './lattice';

/**
 * Queries random points of tets chosen by `pick` (their own layer is `ownLayer`) and compares
 * with the layer oracle. Returns the fraction of points whose whole-mesh Euclidean answer is
 * nearer than the valid answer.
 */
function checkLayer(mesh: TetMesh, pick: (tet: number) => boolean, ownLayer: (tet: number) => boolean, count: number, seed: number): number {
  const query = createBoundaryPathQuery(mesh);
  expect(query.data.invertedCount).toBe(0);
  const tris = query.boundaryTriangles();
  const triTet = mesh.boundaryTriangleTet;
  const candidates: number[] = [];
  for (let t = 0; t < mesh.tetCount; t++) if (pick(t)) candidates.push(t);
  expect(candidates.length).toBeGreaterThan(0);
  const r = rng(seed);
  let euclideanWrong = 0;
  for (let i = 0; i < count; i++) {
    const tet = candidates[Math.floor(r() * candidates.length)];
    const p = randomInteriorPoint(mesh.positions, mesh.tets, tet, r);
    const res = query.closestBoundaryPoint(p, tet);
    const truth = bruteForceDistance(mesh.positions, tris, p, (f) => ownLayer(triTet[f]));
    expect(res, `point ${i} in tet ${tet}`).not.toBeNull();
    expect(Math.abs(res!.distance - truth) / truth, `point ${i} in tet ${tet}: got ${res!.distance}, own layer ${truth}`).toBeLessThan(1e-6);
    expect(ownLayer(triTet[res!.triangle])).toBe(true);
    const euclid = bruteForceDistance(mesh.positions, tris, p);
    if (euclid < truth * (1 - 1e-3)) euclideanWrong++;
  }
  return euclideanWrong / count;
}

/** Closed barycentric containment (p on a face or edge counts). */
function containsClosed(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, p: ArrayLike<number>): boolean {
  const P = [0, 1, 2, 3].map((k) => [x[3 * tets[4 * t + k]], x[3 * tets[4 * t + k] + 1], x[3 * tets[4 * t + k] + 2]]);
  const q = [p[0], p[1], p[2]];
  const orient = (a: number[], b: number[], c: number[], d: number[]): number => {
    const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], e3 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  };
  const vol = orient(P[0], P[1], P[2], P[3]);
  const w = [orient(q, P[1], P[2], P[3]), orient(P[0], q, P[2], P[3]), orient(P[0], P[1], q, P[3]), orient(P[0], P[1], P[2], q)];
  return w.every((wi) => wi / vol >= -1e-9);
}

/**
 * Self-collision as the simulator asks it: boundary vertices of one layer found inside a tet of
 * the other (here exactly on its edges: the layers share lattice planes), queried with
 * excludeVertex = the vertex itself. The answer must be on the containing layer's boundary.
 */
function checkSurfaceVertices(mesh: TetMesh, vertexLayer: (t: number) => boolean, hostLayer: (t: number) => boolean): void {
  const query = createBoundaryPathQuery(mesh);
  const tris = query.boundaryTriangles();
  const hostTets: number[] = [];
  for (let t = 0; t < mesh.tetCount; t++) if (hostLayer(t)) hostTets.push(t);
  const layerVertex = new Uint8Array(mesh.vertexCount);
  for (let f = 0; f < tris.length / 3; f++) if (vertexLayer(mesh.boundaryTriangleTet[f])) for (let k = 0; k < 3; k++) layerVertex[tris[3 * f + k]] = 1;
  let checked = 0;
  for (const v of mesh.boundaryVertices) {
    if (!layerVertex[v]) continue;
    const p = mesh.positions.subarray(3 * v, 3 * v + 3);
    const tet = hostTets.find((t) => containsClosed(mesh.positions, mesh.tets, t, p));
    if (tet === undefined) continue;
    const truth = bruteForceDistance(mesh.positions, tris, p, (f) => hostLayer(mesh.boundaryTriangleTet[f]));
    if (truth < 1e-6) continue; // on the host's boundary (shared side planes): touching, not inside
    const res = query.closestBoundaryPoint(p, tet, v);
    expect(res, `vertex ${v} in tet ${tet}`).not.toBeNull();
    expect(Math.abs(res!.distance - truth) / truth, `vertex ${v} in tet ${tet}: got ${res!.distance}, host layer ${truth}`).toBeLessThan(1e-6);
    expect(hostLayer(mesh.boundaryTriangleTet[res!.triangle])).toBe(true);
    checked++;
  }
  expect(checked).toBeGreaterThan(50);
}

describe('self-intersecting meshes: the answer stays on the point\'s own layer', () => {
  it('a slab folded so that its two halves overlap (paper Fig. 3)', () => {
    // Lattice cells: i in [0, 24) lower arm (x from 6 down to 0), [24, 36) a half-circle bend of
    // centreline radius 1 around (0, 0, 1), [36, 60) upper arm (x from 0 to 6) at z = 2. The
    // upper arm is then sheared down by 1.6 for x >= 3 (a shear keeps every volume), so it sinks
    // 0.6 into the lower arm (lower arm z in [-0.5, 0.5], upper arm z in [-0.1, 0.9] there).
    const { mesh, cellOfTet } = latticeMesh(60, 4, 8, foldedSlabMap({ armCells: 24, bendCells: 12, thicknessCells: 4, widthCells: 4 }));
    const lower = (t: number): boolean => cellOfTet[3 * t] < 24;
    const upper = (t: number): boolean => cellOfTet[3 * t] >= 36;
    // Points deep in the overlap (x in [3.5, 5.5]), of each layer, answered on that layer.
    const inOverlap = (t: number): boolean => {
      const i = cellOfTet[3 * t];
      return (i >= 2 && i < 10) || (i >= 50 && i < 58);
    };
    const fracLower = checkLayer(mesh, (t) => lower(t) && inOverlap(t), lower, 400, 1);
    checkSurfaceVertices(mesh, upper, lower);
    const fracUpper = checkLayer(mesh, (t) => upper(t) && inOverlap(t), upper, 400, 2);
    expect(fracLower).toBeGreaterThan(0.3);
    expect(fracUpper).toBeGreaterThan(0.3);
  });

  it('a beam bent into a ring past a full turn (a helix of rise 0.5), its ends interpenetrating', () => {
    // Angle (2 pi + pi / 3) * i / 96, radius 3 +- 0.5, height [0, 1] + 0.5 * angle / 2 pi: the
    // last sixth of a turn overlaps the first in half the beam's height. The map is a bend with
    // positive Jacobian: no element inverts.
    const total = 2 * Math.PI + Math.PI / 3;
    const { mesh, cellOfTet } = latticeMesh(96, 3, 3, (i, j, k) => {
      const a = (total * i) / 96;
      const r = 2.5 + j / 3;
      return [r * Math.cos(a), r * Math.sin(a), k / 3 + (0.5 * a) / (2 * Math.PI)];
    });
    const first = (t: number): boolean => cellOfTet[3 * t] < 48;
    const second = (t: number): boolean => cellOfTet[3 * t] >= 48;
    // Overlapping cells: angles in (0.1, pi/3 - 0.1) at the start, the same angles a turn later.
    const cellsPerRad = 96 / total;
    const startLo = Math.ceil(0.1 * cellsPerRad), startHi = Math.floor((Math.PI / 3 - 0.1) * cellsPerRad);
    const inStart = (t: number): boolean => cellOfTet[3 * t] >= startLo && cellOfTet[3 * t] < startHi;
    const inEnd = (t: number): boolean => {
      const i = cellOfTet[3 * t] - Math.round(2 * Math.PI * cellsPerRad);
      return i >= startLo && i < startHi;
    };
    const fracFirst = checkLayer(mesh, (t) => first(t) && inStart(t), first, 400, 3);
    const fracSecond = checkLayer(mesh, (t) => second(t) && inEnd(t), second, 400, 4);
    expect(fracFirst).toBeGreaterThan(0.2);
    expect(fracSecond).toBeGreaterThan(0.2);
  });
});
