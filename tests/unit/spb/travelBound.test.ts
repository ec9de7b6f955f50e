/**
 * How far a traversal branch may run along the ray (Alg. 1 lines 24-26, supplement 1.2). Each
 * traversal is run with its trace on: every tet a branch went on from is recorded with the tet it
 * was entered from. The ray parameter z where it entered (s at 0, p at 1) is recomputed here from
 * the shared face's plane, independently of src/spb, and checked:
 * - in a component without inverted tets: |c - s| <= |p - s| at every entry (plus the tolerance
 *   beyond * h), ahead of s and behind it: a branch entering behind s by more than |p - s| ends;
 * - with inverted tets: the distance travelled along the ray to every entry, forward and backward
 *   summed over the chain of entries, stays within 2 |p - s|.
 */
import { describe, expect, it } from 'vitest';
import { SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, createSpbMeshData, type SpbMeshData } from '../../../src/spb';
import { computeSupport } from '../../../src/spb/query';
import { tetrahedralTraverse } from '../../../src/spb/traverse';
import type { TetMesh } from '../../../src/mesh/types';
import { randomInteriorPoint, rng } from '../../support/random';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { foldedRing } from './invertedScenes';
import { triangleClosest } from './layerOracle';

type V3 = [number, number, number];

/** z where the line s + z (p - s) meets the plane of the face shared by tets a and b; NaN if (nearly) parallel. */
function entryZ(x: ArrayLike<number>, tets: ArrayLike<number>, a: number, b: number, s: V3, p: V3): number {
  const shared: number[] = [];
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (tets[4 * a + i] === tets[4 * b + j]) shared.push(tets[4 * a + i]);
  expect(shared.length).toBe(3);
  const P = shared.map((v) => [x[3 * v], x[3 * v + 1], x[3 * v + 2]]);
  const e1 = [0, 1, 2].map((c) => P[1][c] - P[0][c]), e2 = [0, 1, 2].map((c) => P[2][c] - P[0][c]);
  const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const r = [0, 1, 2].map((c) => p[c] - s[c]);
  const nr = n[0] * r[0] + n[1] * r[1] + n[2] * r[2];
  const nn = Math.hypot(n[0], n[1], n[2]), rr = Math.hypot(r[0], r[1], r[2]);
  if (Math.abs(nr) < 1e-3 * nn * rr) return NaN; // face seen edge-on: no single crossing
  return (n[0] * (P[0][0] - s[0]) + n[1] * (P[0][1] - s[1]) + n[2] * (P[0][2] - s[2])) / nr;
}

interface Tally {
  traversals: number;
  entries: number;
  /** Most negative / largest entry parameter and largest travel among the continued tets. */
  minZ: number;
  maxZ: number;
  maxTravel: number;
}

/**
 * For `count` random interior points of `mesh`, traverses toward p from the closest point of
 * every boundary triangle within `radius` of p and returns the extremes over all continued tets.
 */
function traced(mesh: TetMesh, count: number, radius: number, seed: number): { tally: Tally; data: SpbMeshData } {
  const data = createSpbMeshData(mesh);
  const x = data.positions;
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
  ws.trace = new Int32Array(data.tetCount).fill(-2);
  const tol = SPB_DEFAULT_TOLERANCES;
  const r = rng(seed);
  const at = (v: number): V3 => [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
  const tally: Tally = { traversals: 0, entries: 0, minZ: 0, maxZ: 0, maxTravel: 0 };
  // Tet centroids and the largest edge: a branch within its bound enters only tets near p, so
  // only those are read back from the trace (each traversal marks a handful of the mesh's tets).
  const centroid = new Float64Array(3 * data.tetCount);
  let hMax = 0;
  for (let t = 0; t < data.tetCount; t++) {
    for (let c = 0; c < 3; c++) centroid[3 * t + c] = 0.25 * [0, 1, 2, 3].reduce((sum, k) => sum + x[3 * data.tets[4 * t + k] + c], 0);
    hMax = Math.max(hMax, Math.sqrt(data.tetSize2[t]));
  }
  for (let i = 0; i < count; i++) {
    const tet = Math.floor(r() * data.tetCount);
    const p = randomInteriorPoint(x, data.tets, tet, r);
    // Within the bound, entries lie within 2 |p - s| of s, so within 3 radius of p; one tet more
    // around that holds the first entry past the bound, which the checks below would catch.
    const near: number[] = [];
    const reach = 3 * radius + 2 * hMax;
    for (let t = 0; t < data.tetCount; t++) {
      if (Math.hypot(centroid[3 * t] - p[0], centroid[3 * t + 1] - p[1], centroid[3 * t + 2] - p[2]) < reach) near.push(t);
    }
    computeSupport(data, ws, tet, p[0], p[1], p[2], tol.barycentric);
    for (let f = 0; f < data.triangleCount; f++) {
      if (data.triangleComponent[f] !== data.tetComponent[tet]) continue;
      const s = triangleClosest(p, at(data.triangles[3 * f]), at(data.triangles[3 * f + 1]), at(data.triangles[3 * f + 2]));
      const d = Math.hypot(s[0] - p[0], s[1] - p[1], s[2] - p[2]);
      if (!(d < radius) || d < 1e-9) continue;
      for (const t of near) ws.trace[t] = -2;
      tetrahedralTraverse(data, ws, tol, f, s[0], s[1], s[2], p[0], p[1], p[2]);
      tally.traversals++;
      for (const t of near) {
        if (ws.trace[t] < 0 || t === ws.foundTet) continue; // not continued, or the start tet (at s), or p's
        // The chain of entries back to the start tet: z at each, travel summed.
        let travel = 0, z = NaN, ok = true;
        for (let u = t; ws.trace[u] >= 0; u = ws.trace[u]) {
          const zu = entryZ(x, data.tets, ws.trace[u], u, s, p);
          if (Number.isNaN(zu)) { ok = false; break; }
          if (u === t) z = zu;
          const parent = ws.trace[u];
          const zp = ws.trace[parent] >= 0 ? entryZ(x, data.tets, ws.trace[parent], parent, s, p) : 0;
          if (Number.isNaN(zp)) { ok = false; break; }
          travel += Math.abs(zu - zp);
        }
        if (!ok) continue;
        tally.entries++;
        tally.minZ = Math.min(tally.minZ, z);
        tally.maxZ = Math.max(tally.maxZ, z);
        tally.maxTravel = Math.max(tally.maxTravel, travel);
        // Beyond the bound by more than the tolerance, relative to this tet's size.
        const slack = (tol.beyond * Math.sqrt(data.tetSize2[t])) / d + 1e-9;
        if (data.componentInverted[data.tetComponent[tet]] === 0) {
          expect(Math.abs(z), `triangle ${f} -> point ${i}: continued from tet ${t} entered at z = ${z}`).toBeLessThanOrEqual(1 + slack);
        } else {
          expect(travel, `triangle ${f} -> point ${i}: continued from tet ${t} after travelling ${travel}`).toBeLessThanOrEqual(tol.inversionTravel + 1e-6);
        }
      }
    }
  }
  return { tally, data };
}

describe('branch bound of the traversal', () => {
  it('no inversions: a branch goes on only from entries within |p - s| of s, ahead or behind (OverhandKnot.t)', () => {
    const { tally, data } = traced(loadSharedTetMesh('OverhandKnot.t'), 12, 0.008, 1);
    expect(data.invertedCount).toBe(0);
    console.log('knot:', JSON.stringify(tally));
    expect(tally.traversals).toBeGreaterThan(100);
    expect(tally.entries).toBeGreaterThan(1000);
  });

  it('no inversions, overlapping ring (rays through the other layer, many behind s)', () => {
    const scene = foldedRing(55, [0, 0, 0]);
    const { tally, data } = traced(scene.mesh, 40, 0.15, 2);
    expect(data.invertedCount).toBe(0);
    console.log('ring:', JSON.stringify(tally));
    expect(tally.entries).toBeGreaterThan(1000);
    expect(tally.minZ).toBeLessThan(-0.2); // branches do run behind s (and stop by |p - s|)
  });

  it('with inverted tets: the distance travelled along the ray stays within 2 |p - s| (folded ring)', () => {
    const scene = foldedRing(55, [0.0559, -0.0061, 0.0768], 0.04);
    const { tally, data } = traced(scene.mesh, 60, 0.15, 3);
    expect(data.invertedCount).toBeGreaterThan(0);
    console.log('folded ring:', JSON.stringify(tally));
    expect(tally.entries).toBeGreaterThan(1000);
    expect(tally.maxTravel).toBeGreaterThan(1.5); // the budget is reached
  });
});
