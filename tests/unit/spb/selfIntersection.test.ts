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
import { bruteForceDistance, randomInteriorPoint, rng } from './helpers';
import { latticeMesh } from './lattice';

const smoothstep = (t: number): number => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

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

describe('self-intersecting meshes: the answer stays on the point\'s own layer', () => {
  it('a slab folded so that its two halves overlap (paper Fig. 3)', () => {
    // Lattice cells: i in [0, 24) lower arm (x from 6 down to 0), [24, 36) a half-circle bend of
    // centreline radius 1 around (0, 0, 1), [36, 60) upper arm (x from 0 to 6) at z = 2. The
    // upper arm is then sheared down by 1.6 for x >= 3 (a shear keeps every volume), so it sinks
    // 0.6 into the lower arm (lower arm z in [-0.5, 0.5], upper arm z in [-0.1, 0.9] there).
    const { mesh, cellOfTet } = latticeMesh(60, 4, 8, (i, j, k) => {
      const q = -0.5 + j / 4;
      const y = k / 4;
      if (i <= 24) return [6 - i / 4, y, q];
      if (i <= 36) {
        const phi = (Math.PI * (i - 24)) / 12;
        return [-Math.sin(phi) * (1 - q), y, 1 - Math.cos(phi) * (1 - q)];
      }
      const x = (i - 36) / 4;
      return [x, y, 2 - q - 1.6 * smoothstep((x - 1) / 2)];
    });
    const lower = (t: number): boolean => cellOfTet[3 * t] < 24;
    const upper = (t: number): boolean => cellOfTet[3 * t] >= 36;
    // Points deep in the overlap (x in [3.5, 5.5]), of each layer, answered on that layer.
    const inOverlap = (t: number): boolean => {
      const i = cellOfTet[3 * t];
      return (i >= 2 && i < 10) || (i >= 50 && i < 58);
    };
    const fracLower = checkLayer(mesh, (t) => lower(t) && inOverlap(t), lower, 400, 1);
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
