/**
 * Meshes without self-intersection: the shortest valid path to the boundary is the Euclidean
 * one (the Euclidean closest boundary point's segment cannot leave the mesh, or it would cross
 * the boundary at a nearer point). So for random interior points, the query must return the
 * brute-force closest boundary distance, on every shared mesh, on lattice shapes, and under
 * smooth deformations (twist, bend) that create no self-intersection.
 */
import { describe, expect, it } from 'vitest';
import type { TetMesh } from '../../../src/mesh/types';
import { createBoundaryPathQuery } from '../../../src/spb';
import { loadTetMesh } from '../../../src/mesh/io/loadMeshFile';
import { listSharedMeshes, readSharedMesh } from '../../support/sharedMeshes';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { randomInteriorPoint, rng } from '../../support/random';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { bruteForceDistance, meshFrom } from './helpers';
import { latticeMesh } from './lattice';

/** Checks `count` random interior points against brute force. */
function checkEuclidean(mesh: TetMesh, count: number, seed: number): void {
  const query = createBoundaryPathQuery(mesh);
  expect(query.data.invertedCount).toBe(0);
  const r = rng(seed);
  const tris = query.boundaryTriangles();
  let worst = 0;
  for (let i = 0; i < count; i++) {
    const tet = Math.floor(r() * mesh.tetCount);
    const p = randomInteriorPoint(mesh.positions, mesh.tets, tet, r);
    const res = query.closestBoundaryPoint(p, tet);
    const truth = bruteForceDistance(mesh.positions, tris, p);
    expect(res, `point ${i} in tet ${tet}`).not.toBeNull();
    const rel = Math.abs(res!.distance - truth) / truth;
    worst = Math.max(worst, rel);
    expect(rel, `point ${i} in tet ${tet}: got ${res!.distance}, brute force ${truth}`).toBeLessThan(1e-6);
    // The returned point is on the returned triangle and at the returned distance.
    const s = res!.point;
    const onTri = bruteForceDistance(mesh.positions, tris, s, (t) => t === res!.triangle);
    expect(onTri).toBeLessThan(1e-9 * (1 + truth));
    expect(Math.abs(Math.hypot(s[0] - p[0], s[1] - p[1], s[2] - p[2]) - res!.distance)).toBeLessThan(1e-12 + 1e-9 * truth);
  }
  expect(worst).toBeLessThan(1e-6);
}

/** Copy of the mesh with positions mapped. */
function deformed(mesh: TetMesh, map: (x: number, y: number, z: number) => [number, number, number]): TetMesh {
  const positions = new Float32Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) positions.set(map(mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]), i);
  return { ...mesh, positions };
}

function bounds(mesh: TetMesh): { lo: number[]; hi: number[] } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], mesh.positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], mesh.positions[i]);
  }
  return { lo, hi };
}

describe('shortest path to boundary equals the Euclidean closest boundary point without self-intersection', () => {
  const names = listSharedMeshes('.t');
  it('covers every shared .t mesh', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
  });
  for (const name of names) {
    it(`${name}: 400 random interior points`, () => {
      checkEuclidean(loadSharedTetMesh(name), 400, name.length * 7919);
    });
  }

  // The same octopus in TetGen and legacy VTK formats (through the project's loaders).
  for (const files of [['octopus_2KFaces.1.node', 'octopus_2KFaces.1.ele'], ['octopus_2KFaces.1.vtk']]) {
    it(`${files.join(' + ')}: 200 random interior points`, () => {
      const { mesh } = loadTetMesh(files.map((name) => ({ name, text: readSharedMesh(name) })));
      checkEuclidean(mesh, 200, 77);
    });
  }

  it('OverhandKnot.t: 2000 random interior points', () => {
    checkEuclidean(loadSharedTetMesh('OverhandKnot.t'), 2000, 11);
  });

  it('Beam_1k.t twisted by a quarter turn end to end about its long axis', () => {
    const mesh = loadSharedTetMesh('Beam_1k.t');
    const { lo, hi } = bounds(mesh);
    const long = [0, 1, 2].reduce((a, c) => (hi[c] - lo[c] > hi[a] - lo[a] ? c : a), 0);
    const c1 = (long + 1) % 3, c2 = (long + 2) % 3;
    const m1 = (lo[c1] + hi[c1]) / 2, m2 = (lo[c2] + hi[c2]) / 2;
    // A rotation of each cross-section: injective, volume preserving, no inversion.
    const twisted = deformed(mesh, (...x) => {
      const a = ((Math.PI / 2) * (x[long] - lo[long])) / (hi[long] - lo[long]);
      const u = x[c1] - m1, v = x[c2] - m2;
      const out: [number, number, number] = [0, 0, 0];
      out[long] = x[long];
      out[c1] = m1 + Math.cos(a) * u - Math.sin(a) * v;
      out[c2] = m2 + Math.sin(a) * u + Math.cos(a) * v;
      return out;
    });
    checkEuclidean(twisted, 500, 3);
  });

  it('octopus_2KFaces.t bent gently (a ring arc of 60 degrees across its width)', () => {
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const { lo, hi } = bounds(mesh);
    const w = hi[0] - lo[0];
    const R = (3 * w) / Math.PI; // arc angle w / R = 60 degrees; R far larger than the height
    const bent = deformed(mesh, (x, y, z) => {
      const a = (x - lo[0]) / R;
      const r = R + (y - lo[1]);
      return [r * Math.sin(a), r * Math.cos(a), z];
    });
    checkEuclidean(bent, 500, 5);
  });

  // Procedural shapes (isosurface stuffing, src/mesh/procedural), at their default resolution.
  for (const shape of ['octopus', 'squishyBall', 'noodle', 'bowl']) {
    it(`generated ${shape}: 300 random interior points`, () => {
      const g = generateShape(shape);
      checkEuclidean(meshFrom(g.positions, g.tets), 300, shape.length);
    });
  }

  it('lattice beam bent into a half ring', () => {
    const { mesh } = latticeMesh(24, 3, 3, (i, j, k) => {
      const a = (Math.PI * i) / 24;
      const r = 4 + j / 3;
      return [r * Math.cos(a), r * Math.sin(a), k / 3];
    });
    checkEuclidean(mesh, 500, 9);
  });
});
