/**
 * An interior tet inverted by moving one vertex through its opposite face (paper section 3.5):
 * the boundary is untouched (a cube), so the valid answer is still the distance to the nearest
 * cube face, but the segment to it now runs through the fold, where the ray travels backward
 * inside inverted tets. The traversal must still find it.
 */
import { describe, expect, it } from 'vitest';
import { QUERY_FOUND, SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, createSpbMeshData, shortestPathToBoundary } from '../../../src/spb';
import { TRAVERSE_FOUND, tetrahedralTraverse } from '../../../src/spb/traverse';
import { TET_FACES } from '../../../src/mesh/types';
import { latticeMesh } from './lattice';

const N = 8;

function insideTet(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, p: number[]): boolean {
  const v = [0, 1, 2, 3].map((k) => 3 * tets[4 * t + k]);
  const orient = (a: number[], b: number[], c: number[], d: number[]): number => {
    const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], e3 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  };
  const P = v.map((i) => [x[i], x[i + 1], x[i + 2]]);
  const vol = orient(P[0], P[1], P[2], P[3]);
  const w = [orient(p, P[1], P[2], P[3]), orient(P[0], p, P[2], P[3]), orient(P[0], P[1], p, P[3]), orient(P[0], P[1], P[2], p)];
  return w.every((wi) => wi / vol > 0);
}

describe('inverted interior tets', () => {
  it('finds the path through a tet inverted by moving one vertex through its opposite face', () => {
    const lm = latticeMesh(N, N, N, (i, j, k) => [i, j, k]);
    const mesh = lm.mesh;
    const x = Float32Array.from(mesh.positions);
    // Vertex (1, 4, 4), corner 0 of cell (1, 4, 4), all interior: nearest cube face x = 0.
    const v = lm.vertexId(1, 4, 4);
    let target = -1, local = -1;
    for (let t = 0; t < mesh.tetCount && target < 0; t++) {
      const cell = lm.cellOfTet.subarray(3 * t, 3 * t + 3);
      if (cell[0] !== 1 || cell[1] !== 4 || cell[2] !== 4) continue;
      for (let k = 0; k < 4; k++) if (mesh.tets[4 * t + k] === v) { target = t; local = k; }
    }
    // Reflect v through the plane of its opposite face, half its height beyond: the tet inverts.
    const f = TET_FACES[local].map((k) => 3 * mesh.tets[4 * target + k]);
    const a = [x[f[0]], x[f[0] + 1], x[f[0] + 2]], b = [x[f[1]], x[f[1] + 1], x[f[1] + 2]], c = [x[f[2]], x[f[2] + 1], x[f[2] + 2]];
    const n = [
      (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
      (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
      (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]),
    ];
    const nl = Math.hypot(n[0], n[1], n[2]);
    const height = ((x[3 * v] - a[0]) * n[0] + (x[3 * v + 1] - a[1]) * n[1] + (x[3 * v + 2] - a[2]) * n[2]) / nl;
    for (let c2 = 0; c2 < 3; c2++) x[3 * v + c2] -= (1.5 * height * n[c2]) / nl;
    const data = createSpbMeshData({ ...mesh, positions: x });
    expect(data.tetInverted[target]).toBe(1);
    expect(data.invertedCount).toBeGreaterThan(0);
    const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
    ws.trace = new Int32Array(data.tetCount);
    const cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
    let throughInverted = 0;

    // Query points on lines through the inverted tet's centroid, parallel to x, beyond it (larger
    // x): their nearest face is x = 0 and the segment to it crosses the inverted tet.
    const centroid = [0, 1, 2].map((c2) => [0, 1, 2, 3].reduce((s, k) => s + x[3 * mesh.tets[4 * target + k] + c2], 0) / 4);
    let answered = 0;
    for (const dx of [0.25, 0.35, 0.45, 0.55]) for (const dy of [-0.02, 0, 0.03]) for (const dz of [-0.03, 0.01]) {
      const p = [centroid[0] + dx, centroid[1] + dy, centroid[2] + dz];
      // The segment from p to its nearest face point crosses the inverted tet.
      let crosses = false;
      for (let s = 0; s <= 200 && !crosses; s++) crosses = insideTet(x, mesh.tets, target, [(p[0] * s) / 200, p[1], p[2]]);
      expect(crosses).toBe(true);
      // p's own tet: a non-inverted tet containing it (with the fold, several may).
      let tet = -1;
      for (let t = 0; t < mesh.tetCount && tet < 0; t++) if (!data.tetInverted[t] && insideTet(x, mesh.tets, t, p)) tet = t;
      if (tet < 0) continue;
      const st = shortestPathToBoundary(data, ws, cfg, p[0], p[1], p[2], tet, -1);
      expect(st, `p = ${p}`).toBe(QUERY_FOUND);
      const res = { distance: Math.sqrt(ws.resultDistance2) };
      // The element traversal that validated the answer: re-run the answer's traversal (later
      // candidates overwrite the trace) and follow the entered-from links back to the start tet.
      const chain: number[] = [];
      const s2 = tetrahedralTraverse(data, ws, cfg.tolerances, ws.resultTriangle, ws.resultX, ws.resultY, ws.resultZ, p[0], p[1], p[2]);
      expect(s2).toBe(TRAVERSE_FOUND);
      for (let t = ws.foundTet; t >= 0; t = ws.trace![t]) chain.push(t);
      if (chain.some((t) => data.tetInverted[t] === 1)) throughInverted++;
      const box = Math.min(...p.map((q) => Math.min(q, N - q)));
      expect(box).toBe(p[0]);
      expect(Math.abs(res!.distance - box), `p = ${p}: got ${res!.distance}`).toBeLessThan(1e-9);
      answered++;
    }
    expect(answered).toBeGreaterThan(15);
    // The validating element traversals really ran through the fold.
    expect(throughInverted).toBeGreaterThan(answered / 2);
  });
});
