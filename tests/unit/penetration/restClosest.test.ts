/**
 * The rest-pose closest point (src/penetration/restClosest.ts; paper 000 section 5.5) against
 * analytic targets on a unit cube (6^3 Kuhn cells):
 *  - moved rigidly, the target of every point is the moved cube's nearest face point, at its
 *    Euclidean distance (the rest pose is then exact);
 *  - squashed to 40 % of its height, a point near the top edge by the side face x = 1 is 0.024
 *    below the top and 0.03 from the side: the shortest path goes up (exact: the top face), the
 *    rest pose (where it is 0.06 below the top, 0.03 from the side) sends it sideways through the
 *    side face, a longer path to the wrong face: paper Fig. 22e's "incorrect and longer path".
 */
import { describe, expect, it } from 'vitest';
import { PenetrationTargets } from '../../../src/penetration/penetrationTargets';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../../../src/spb/meshData';
import { QUERY_FOUND, shortestPathToBoundary } from '../../../src/spb/query';
import { SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES } from '../../../src/spb/settings';
import { SpbWorkspace } from '../../../src/spb/workspace';
import type { TetMesh } from '../../../src/mesh/types';
import { rng } from '../../support/random';
import { cubePart, sceneOf } from '../collision/scenes';

/** The tet of `mesh` at positions x that strictly contains p (brute force), or -1. */
function tetOf(mesh: TetMesh, x: Float64Array, p: number[]): number {
  const vol = (a: number[], b: number[], c: number[], d: number[]): number => {
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  };
  for (let t = 0; t < mesh.tetCount; t++) {
    const c = [0, 1, 2, 3].map((j) => [0, 1, 2].map((k) => x[3 * mesh.tets[4 * t + j] + k]));
    const s = [vol(p, c[1], c[2], c[3]), vol(c[0], p, c[2], c[3]), vol(c[0], c[1], p, c[3]), vol(c[0], c[1], c[2], p)];
    if (s.every((q) => q > 0)) return t;
  }
  return -1;
}

function answer(targets: PenetrationTargets, current: SpbMeshData, p: number[], t: number): { s: number[]; d: number; triangle: number } {
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, current.tetCount);
  expect(targets.answer('restClosest', current, ws, p[0], p[1], p[2], t, -1, -1)).toBe(QUERY_FOUND);
  return { s: [ws.resultX, ws.resultY, ws.resultZ], d: Math.sqrt(ws.resultDistance2), triangle: ws.resultTriangle };
}

describe('rest-pose closest point against analytic targets', () => {
  const cube = sceneOf([cubePart(6, 1, [0, 0, 0])]);
  const targets = new PenetrationTargets(cube.mesh, cube.x);

  it('a rigidly moved cube: the moved nearest face point, at its distance, for 200 random points', () => {
    const c = Math.cos(1.1), s = Math.sin(1.1);
    const move = (p: ArrayLike<number>, o = 0): number[] => [p[o] + 0.3, c * p[o + 1] - s * p[o + 2] - 2, s * p[o + 1] + c * p[o + 2] + 1];
    const moved = new Float64Array(cube.x.length);
    for (let v = 0; v < cube.mesh.vertexCount; v++) moved.set(move(cube.x, 3 * v), 3 * v);
    const current = createSpbMeshData(cube.mesh);
    updateSpbMeshData(current, moved);
    const r = rng(5);
    let checked = 0;
    while (checked < 200) {
      const p = [0.02 + 0.96 * r(), 0.02 + 0.96 * r(), 0.02 + 0.96 * r()];
      const gaps = [p[0], 1 - p[0], p[1], 1 - p[1], p[2], 1 - p[2]];
      const sorted = [...gaps].sort((a, b) => a - b);
      if (sorted[1] - sorted[0] < 1e-3) continue; // a unique nearest face
      const t = tetOf(cube.mesh, cube.x, p);
      if (t < 0) continue;
      checked++;
      const k = gaps.indexOf(sorted[0]);
      const near = [...p];
      near[k >> 1] = k % 2 === 0 ? 0 : 1;
      const a = answer(targets, current, move(p), t);
      expect(Math.abs(a.d - sorted[0])).toBeLessThan(1e-12);
      const want = move(near);
      for (let j = 0; j < 3; j++) expect(Math.abs(a.s[j] - want[j])).toBeLessThan(1e-12);
    }
  });

  it('a cube squashed to 40 % of its height: the rest pose sends a point by the top edge out through the side face (exact: the top)', () => {
    const squashed = Float64Array.from(cube.x);
    for (let v = 0; v < cube.mesh.vertexCount; v++) squashed[3 * v + 1] *= 0.4;
    const current = createSpbMeshData(cube.mesh);
    updateSpbMeshData(current, squashed);
    const p = [0.97, 0.376, 0.53];
    const t = tetOf(cube.mesh, squashed, p);
    expect(t).toBeGreaterThanOrEqual(0);
    const a = answer(targets, current, p, t);
    // The side face x = 1, straight across: 0.03 away.
    for (const [j, want] of [[0, 1], [1, 0.376], [2, 0.53]]) expect(Math.abs(a.s[j] - want)).toBeLessThan(1e-12);
    expect(Math.abs(a.d - 0.03)).toBeLessThan(1e-12);
    // The shortest path: the top face y = 0.4, 0.024 above.
    const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, current.tetCount);
    expect(shortestPathToBoundary(current, ws, { culling: true, tolerances: SPB_DEFAULT_TOLERANCES }, p[0], p[1], p[2], t, -1)).toBe(QUERY_FOUND);
    expect(Math.abs(ws.resultY - 0.4)).toBeLessThan(1e-12);
    expect(Math.abs(Math.sqrt(ws.resultDistance2) - 0.024)).toBeLessThan(1e-12);
  });
});
