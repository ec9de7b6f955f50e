/**
 * The deformed distance field (Fisher and Lin 2001; src/penetration/distanceField.ts and
 * deformedDistance.ts) against analytic distances.
 *
 * At rest: the field's value at every vertex is the distance to the boundary (a cube: the
 * nearest face, exact; a stuffed sphere of radius R: between R - |X| - delta and R - |X|, delta
 * the gap between the sphere and its inscribed triangles, measured here by brute force). Inside a
 * tet, eq. 3's interpolant of a concave distance f (both are) lies between f - E and f, with E
 * the linear-interpolation error bound: 1/2 sum_i u_i |x - X_i|^2 max|Hessian| (the sphere's
 * Hessian is 1/r across the radius, r >= the tet's distance from the centre) or, near the
 * centre and across the cube's medial surfaces, sum_i u_i |x - X_i| (f is 1-Lipschitz). Where
 * one face is nearest at all four vertices the cube's distance is affine and the interpolant exact.
 *
 * Deformed: under a rigid motion the target is the moved nearest face point; under a shear
 * x += k y the top face stays level, so the direction (mapped by F^-T) stays vertical and the
 * target lands on the face exactly (mapped by F it would tilt by atan(k)).
 */
import { describe, expect, it } from 'vitest';
import { closestPointOnTriangle } from '../../../src/geometry/closestPointOnTriangle';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';
import { PenetrationTargets } from '../../../src/penetration/penetrationTargets';
import { createSpbMeshData, updateSpbMeshData } from '../../../src/spb/meshData';
import { QUERY_FOUND } from '../../../src/spb/query';
import { SPB_DYNAMIC_CAPACITIES } from '../../../src/spb/settings';
import { SpbWorkspace } from '../../../src/spb/workspace';
import { rng } from '../../support/random';
import { cubePart, sceneOf } from '../collision/scenes';

const FACE_NORMALS = [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]];

/** Distance from x to the unit cube's boundary, and the outward normals of its nearest faces. */
function cubeDistance(x: ArrayLike<number>, o = 0): { d: number; normals: number[][] } {
  const gaps = [x[o], 1 - x[o], x[o + 1], 1 - x[o + 1], x[o + 2], 1 - x[o + 2]];
  const d = Math.min(...gaps);
  return { d, normals: FACE_NORMALS.filter((_, i) => gaps[i] <= d + 1e-12) };
}

/** Random points of random tets, with their barycentrics. */
function samples(mesh: TetMesh, x: Float64Array, n: number, seed: number): { t: number; p: number[]; u: number[] }[] {
  const rnd = rng(seed);
  const out: { t: number; p: number[]; u: number[] }[] = [];
  for (let i = 0; i < n; i++) {
    const t = Math.floor(rnd() * mesh.tetCount);
    const w = [rnd(), rnd(), rnd(), rnd()].map((a) => -Math.log(a + 1e-12));
    const sum = w.reduce((a, b) => a + b);
    const u = w.map((a) => a / sum);
    const p = [0, 1, 2].map((k) => u.reduce((a, ui, j) => a + ui * x[3 * mesh.tets[4 * t + j] + k], 0));
    out.push({ t, p, u });
  }
  return out;
}

/** The 'ddf' answers at positions x: for p in tet t, the target and depth (none: null). */
function ddfAt(targets: PenetrationTargets, mesh: TetMesh, x: Float64Array): (p: number[], t: number) => { s: number[]; depth: number } | null {
  const current = createSpbMeshData(mesh);
  updateSpbMeshData(current, x);
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, mesh.tetCount);
  return (p, t) => {
    if (targets.answer('ddf', current, ws, p[0], p[1], p[2], t, -1, -1) !== QUERY_FOUND) return null;
    return { s: [ws.resultX, ws.resultY, ws.resultZ], depth: Math.sqrt(ws.resultDistance2) };
  };
}

/** The tet's vertices all have distance 0 (the field vanishes in it: no target). */
function onBoundary(targets: PenetrationTargets, mesh: TetMesh, t: number): boolean {
  return [0, 1, 2, 3].every((j) => targets.field.distance[mesh.tets[4 * t + j]] === 0);
}

/** The one face nearest at all four vertices of tet t of the unit cube at rest, if any. */
function singleFace(x: Float64Array, mesh: TetMesh, t: number): number[] | undefined {
  const corners = [0, 1, 2, 3].map((j) => cubeDistance(x, 3 * mesh.tets[4 * t + j]).normals);
  return corners.every((c) => c.length === 1 && c[0] === corners[0][0]) ? corners[0][0] : undefined;
}

/** Interpolation error bound of a 1-Lipschitz concave f at p: sum_i u_i |p - X_i|, and sum_i u_i |p - X_i|^2. */
function spread(mesh: TetMesh, x: Float64Array, t: number, p: number[], u: number[]): { l1: number; l2: number } {
  let l1 = 0, l2 = 0;
  for (let j = 0; j < 4; j++) {
    const v = mesh.tets[4 * t + j];
    const r = Math.hypot(p[0] - x[3 * v], p[1] - x[3 * v + 1], p[2] - x[3 * v + 2]);
    l1 += u[j] * r;
    l2 += u[j] * r * r;
  }
  return { l1, l2 };
}

describe('deformed distance field: the rest field against analytic distances', () => {
  const cube = sceneOf([cubePart(6, 1, [0, 0, 0])]);
  const cubeTargets = new PenetrationTargets(cube.mesh, cube.x);

  it('unit cube (6^3 cells): the distance at every vertex is the nearest face\'s, the direction that face\'s normal', () => {
    const f = cubeTargets.field;
    let interior = 0;
    for (let v = 0; v < cube.mesh.vertexCount; v++) {
      const a = cubeDistance(cube.x, 3 * v);
      expect(Math.abs(f.distance[v] - a.d), `vertex ${v}`).toBeLessThan(1e-12);
      if (a.d === 0) continue;
      interior++;
      const g = [0, 1, 2].map((k) => f.direction[3 * v + k]);
      expect(a.normals.some((n) => Math.hypot(g[0] - n[0], g[1] - n[1], g[2] - n[2]) < 1e-12), `vertex ${v}: direction ${g}`).toBe(true);
    }
    expect(interior).toBe(125);
  });

  it('unit cube: inside the tets the field is within the interpolation error below the distance, and exact where one face is nearest', () => {
    let exact = 0;
    const ddf = ddfAt(cubeTargets, cube.mesh, cube.x);
    for (const { t, p, u } of samples(cube.mesh, cube.x, 400, 7)) {
      const a = cubeDistance(p);
      const r = ddf(p, t);
      if (!r) {
        expect(onBoundary(cubeTargets, cube.mesh, t), `tet ${t}`).toBe(true);
        continue;
      }
      const { l1 } = spread(cube.mesh, cube.x, t, p, u);
      expect(r.depth).toBeLessThanOrEqual(a.d + 1e-12);
      expect(r.depth).toBeGreaterThanOrEqual(a.d - l1 - 1e-12);
      const face = singleFace(cube.x, cube.mesh, t);
      if (!face) continue;
      exact++;
      expect(Math.abs(r.depth - a.d)).toBeLessThan(1e-12);
      // The target is the nearest face point: p moved by the depth along that face's normal.
      for (let k = 0; k < 3; k++) expect(Math.abs(r.s[k] - (p[k] + a.d * face[k]))).toBeLessThan(1e-12);
    }
    expect(exact).toBeGreaterThan(50);
  });

  it('sphere (stuffed, R = 0.5): R - |X| - delta <= d_i <= R - |X| at the vertices, and inside within the interpolation error', () => {
    const R = 0.5;
    const shape = generateShape('sphere', { radius: R }, 8);
    const { mesh } = buildTetMesh({ positions: Float32Array.from(shape.positions), tets: Uint32Array.from(shape.tets) });
    const x = Float64Array.from(mesh.positions);
    // delta: how far inside the sphere its boundary triangles reach (brute force over the triangles).
    let delta = 0;
    const cpt = new Float64Array(6);
    const tri = mesh.boundaryTriangles;
    for (let f = 0; f < tri.length / 3; f++) {
      const [a, b, c] = [3 * tri[3 * f], 3 * tri[3 * f + 1], 3 * tri[3 * f + 2]];
      closestPointOnTriangle(0, 0, 0, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
      delta = Math.max(delta, R - Math.hypot(cpt[0], cpt[1], cpt[2]));
    }
    expect(delta).toBeLessThan(0.05 * R);
    const targets = new PenetrationTargets(mesh, x);
    const d = targets.field.distance;
    const ddf = ddfAt(targets, mesh, x);
    for (let v = 0; v < mesh.vertexCount; v++) {
      const f = R - Math.hypot(x[3 * v], x[3 * v + 1], x[3 * v + 2]);
      expect(d[v], `vertex ${v}`).toBeLessThanOrEqual(f + 1e-6);
      expect(d[v], `vertex ${v}`).toBeGreaterThanOrEqual(f - delta - 1e-6);
    }
    for (const { t, p, u } of samples(mesh, x, 300, 11)) {
      const f = R - Math.hypot(p[0], p[1], p[2]);
      const r = ddf(p, t);
      if (!r) {
        // Depth 0: only a tet whose four vertices are on the boundary (d_i = 0).
        expect(onBoundary(targets, mesh, t), `tet ${t}`).toBe(true);
        continue;
      }
      // No point of the tet is nearer the centre than its nearest vertex less its longest edge:
      // there the Hessian of R - |x| is at most 1 / radius.
      const near = Math.min(...[0, 1, 2, 3].map((j) => Math.hypot(x[3 * mesh.tets[4 * t + j]], x[3 * mesh.tets[4 * t + j] + 1], x[3 * mesh.tets[4 * t + j] + 2])));
      const { l1, l2 } = spread(mesh, x, t, p, u);
      const radius = near - Math.sqrt(tetSize2(x, mesh, t));
      const E = radius > 0 ? Math.min(l1, (0.5 * l2) / radius) : l1;
      expect(r.depth).toBeLessThanOrEqual(f + 1e-6);
      expect(r.depth).toBeGreaterThanOrEqual(f - delta - E - 1e-6);
    }
  });
});

/** Longest squared edge of tet t. */
function tetSize2(x: Float64Array, mesh: TetMesh, t: number): number {
  let m = 0;
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
    const a = 3 * mesh.tets[4 * t + i], b = 3 * mesh.tets[4 * t + j];
    m = Math.max(m, (x[a] - x[b]) ** 2 + (x[a + 1] - x[b + 1]) ** 2 + (x[a + 2] - x[b + 2]) ** 2);
  }
  return m;
}

describe('deformed distance field: deformed with the mesh (eqs. 3-5, direction by F^-T)', () => {
  const cube = sceneOf([cubePart(6, 1, [0, 0, 0])]);
  const targets = new PenetrationTargets(cube.mesh, cube.x);
  const pts = samples(cube.mesh, cube.x, 1500, 3);

  it('a rigid motion moves the targets with the cube: depth and nearest-face point of the moved cube', () => {
    const c = Math.cos(0.7), s = Math.sin(0.7);
    const move = (p: ArrayLike<number>, o = 0): number[] => [c * p[o] - s * p[o + 1] + 2, s * p[o] + c * p[o + 1] - 1, p[o + 2] + 0.5];
    const moved = new Float64Array(cube.x.length);
    for (let v = 0; v < cube.mesh.vertexCount; v++) moved.set(move(cube.x, 3 * v), 3 * v);
    let checked = 0;
    const ddf = ddfAt(targets, cube.mesh, moved);
    for (const { t, p } of pts) {
      const face = singleFace(cube.x, cube.mesh, t);
      if (!face) continue;
      checked++;
      const a = cubeDistance(p);
      const r = ddf(move(p), t)!;
      expect(Math.abs(r.depth - a.d)).toBeLessThan(1e-12);
      const want = move([p[0] + a.d * face[0], p[1] + a.d * face[1], p[2] + a.d * face[2]]);
      for (let k = 0; k < 3; k++) expect(Math.abs(r.s[k] - want[k])).toBeLessThan(1e-12);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('a shear x += 0.8 y keeps the top face level: targets of top-face tets land on it straight above the point', () => {
    const k = 0.8;
    const sheared = Float64Array.from(cube.x);
    for (let v = 0; v < cube.mesh.vertexCount; v++) sheared[3 * v] += k * cube.x[3 * v + 1];
    let checked = 0;
    const ddf = ddfAt(targets, cube.mesh, sheared);
    for (const { t, p } of pts) {
      if (singleFace(cube.x, cube.mesh, t)?.[1] !== 1) continue;
      checked++;
      const q = [p[0] + k * p[1], p[1], p[2]];
      const r = ddf(q, t)!;
      expect(Math.abs(r.s[1] - 1)).toBeLessThan(1e-12);
      expect(Math.abs(r.s[0] - q[0])).toBeLessThan(1e-12);
      expect(Math.abs(r.s[2] - q[2])).toBeLessThan(1e-12);
    }
    expect(checked).toBeGreaterThan(20);
  });
});
