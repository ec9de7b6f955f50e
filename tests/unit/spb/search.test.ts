/**
 * The candidate search of src/spb/query.ts: an expanding radius (passes over shells of
 * candidates) and a budget of failed surface descents. Neither may change an answer:
 * - on a beam bent past a full turn so that its two ends occupy the same space, every answer
 *   equals an exhaustive oracle (every triangle's closest point tested with the traversal, the
 *   nearest valid one kept), with culling on and off and with the GPU's fixed capacities;
 * - the work stays bounded there: the old search (one unbounded pass, a descent from every
 *   culled candidate) offered about 156 candidates and 2,800 descent closest points per query,
 *   and culling cost more closest points than it saved traversals;
 * - the WGSL kernel uses the same search constants as the TypeScript twin.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closestPointOnTriangle } from '../../../src/geometry/closestPointOnTriangle';
import {
  QUERY_FOUND,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  type SpbCapacities,
  type SpbMeshData,
} from '../../../src/spb';
import { computeSupport } from '../../../src/spb/query';
import * as settings from '../../../src/spb/settings';
import { COMPONENT_FLAG_WORD, COUNTER_WORDS } from '../../../src/spb/gpu/packSpbBuffers';
import { TRAVERSE_FOUND, tetrahedralTraverse } from '../../../src/spb/traverse';
import { STAT_BVH_CANDIDATES, STAT_DESCENT_CANDIDATES, STAT_TRAVERSALS } from '../../../src/spb/workspace';
import { randomInteriorPoint, rng } from '../../support/random';
import { latticeMesh } from './lattice';

/** A 60 x 2 x 2-cell beam bent flat over 1.2 turns: cells 50-60 lie exactly on cells 0-10. */
function overlappingRing(): SpbMeshData {
  const nu = 60, h = 0.1, turns = 1.2;
  const radius = (nu * h) / (2 * Math.PI * turns);
  const ring = latticeMesh(nu, 2, 2, (u, v, w) => {
    const a = (2 * Math.PI * turns * u) / nu;
    const r = radius + (1 - v) * h; // v runs inward: the map keeps the orientation
    return [r * Math.cos(a), r * Math.sin(a), w * h];
  });
  return createSpbMeshData(ring.mesh);
}

interface Points {
  points: Float64Array;
  tets: Int32Array;
}

/** n random interior points, half of them in the overlapping end (cells 50-59). */
function ringPoints(data: SpbMeshData, n: number, seed: number): Points {
  const r = rng(seed);
  const out: Points = { points: new Float64Array(3 * n), tets: new Int32Array(n) };
  const cells = 60 * 2 * 2;
  for (let i = 0; i < n; i++) {
    // Lattice tets are numbered 6 per cell, cells i-fastest (lattice.ts).
    let t = Math.floor(r() * data.tetCount);
    if (i % 2 === 0) t = 6 * (Math.floor(r() * 4) * 60 + 50 + Math.floor(r() * 10)) + Math.floor(r() * 6);
    expect(t).toBeLessThan(6 * cells);
    out.points.set(randomInteriorPoint(data.positions, data.tets, t, r), 3 * i);
    out.tets[i] = t;
  }
  return out;
}

/**
 * Exhaustive oracle: every triangle of p's component, its closest point traversed; the distance
 * of the nearest valid one, and of the nearest invalid one.
 */
function oracle(data: SpbMeshData, ws: SpbWorkspace, px: number, py: number, pz: number, tet: number): { valid: number; invalid: number } {
  const tol = SPB_DEFAULT_TOLERANCES;
  const cpt = new Float64Array(6);
  const x = data.positions;
  let best = Infinity, invalid = Infinity;
  for (let f = 0; f < data.triangleCount; f++) {
    if (data.triangleComponent[f] !== data.tetComponent[tet]) continue;
    const [a, b, c] = [0, 1, 2].map((k) => 3 * data.triangles[3 * f + k]);
    closestPointOnTriangle(px, py, pz, x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], cpt);
    const d2 = (cpt[0] - px) ** 2 + (cpt[1] - py) ** 2 + (cpt[2] - pz) ** 2;
    if (d2 <= tol.zeroLength ** 2 * data.tetSize2[data.triangleTet[f]]) continue;
    computeSupport(data, ws, tet, px, py, pz, tol.barycentric);
    if (tetrahedralTraverse(data, ws, tol, f, cpt[0], cpt[1], cpt[2], px, py, pz) === TRAVERSE_FOUND) best = Math.min(best, Math.sqrt(d2));
    else invalid = Math.min(invalid, Math.sqrt(d2));
  }
  return { valid: best, invalid };
}

interface Run {
  distance: Float64Array;
  closestPoints: number;
  traversals: number;
  candidates: number;
}

function runAll(data: SpbMeshData, q: Points, capacities: Readonly<SpbCapacities>, culling: boolean): Run {
  const ws = new SpbWorkspace(capacities, data.tetCount);
  const n = q.tets.length;
  const distance = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const st = shortestPathToBoundary(data, ws, { culling, tolerances: SPB_DEFAULT_TOLERANCES }, q.points[3 * i], q.points[3 * i + 1], q.points[3 * i + 2], q.tets[i], -1);
    distance[i] = st === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : -st;
  }
  const t = ws.totals;
  return {
    distance,
    closestPoints: (t[STAT_BVH_CANDIDATES] + t[STAT_DESCENT_CANDIDATES]) / n,
    traversals: t[STAT_TRAVERSALS] / n,
    candidates: t[STAT_BVH_CANDIDATES] / n,
  };
}

describe('expanding candidate search', () => {
  const data = overlappingRing();
  const q = ringPoints(data, 160, 7);

  it('answers every point of an overlapping ring like the exhaustive oracle (culling on/off, static capacities)', () => {
    const on = runAll(data, q, SPB_DYNAMIC_CAPACITIES, true);
    const off = runAll(data, q, SPB_DYNAMIC_CAPACITIES, false);
    const fixed = runAll(data, q, SPB_STATIC_CAPACITIES, true);
    const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
    let invalidAsNear = 0;
    for (let i = 0; i < q.tets.length; i++) {
      const [px, py, pz] = q.points.subarray(3 * i, 3 * i + 3);
      const o = oracle(data, ws, px, py, pz, q.tets[i]);
      const truth = o.valid;
      expect(on.distance[i], `point ${i}`).toBe(truth);
      expect(off.distance[i], `point ${i}`).toBe(truth);
      expect(fixed.distance[i], `point ${i}`).toBe(truth);
      // The other end's boundary (coincident with this end's) is at least as near: the search
      // must get past candidates whose paths are invalid.
      if (o.invalid <= truth) invalidAsNear++;
    }
    expect(invalidAsNear).toBeGreaterThan(40);
  });

  it('keeps the work bounded where the ends overlap, and culling never costs more closest points than it saves', () => {
    const on = runAll(data, q, SPB_DYNAMIC_CAPACITIES, true);
    const off = runAll(data, q, SPB_DYNAMIC_CAPACITIES, false);
    // The old single unbounded pass offered ~156 candidates per query here (half the mesh).
    expect(off.candidates).toBeLessThan(60);
    expect(on.candidates).toBeLessThan(60);
    // With a descent from every culled candidate: ~2,800 descent closest points and 89 traversals per query.
    expect(on.closestPoints).toBeLessThan(1.25 * off.closestPoints);
    expect(on.traversals).toBeLessThan(off.traversals);
  });
});

describe('WGSL kernel constants', () => {
  it('match src/spb/settings.ts', () => {
    const wgsl = readFileSync(new URL('../../../shaders/spbQuery.wgsl', import.meta.url), 'utf8');
    const constant = (name: string): number => {
      const m = new RegExp(`const ${name} = ([0-9.e+-]+)u?;`).exec(wgsl);
      if (!m) throw new Error(`shaders/spbQuery.wgsl: no constant ${name}`);
      return Number(m[1]);
    };
    expect(constant('SEARCH_START2')).toBe(settings.SPB_SEARCH_START2);
    expect(constant('SEARCH_GROWTH2')).toBe(settings.SPB_SEARCH_GROWTH2);
    expect(constant('SEARCH_SKIP2')).toBe(settings.SPB_SEARCH_SKIP2);
    expect(constant('DESCENT_FAILURES')).toBe(settings.SPB_DESCENT_FAILURES);
  });

  it('counter layout (list of inverted tets, component flags) matches in the query, the measures snippet (prepass and hash build) and the host', () => {
    for (const file of ['spbQuery.wgsl', 'lib/tetMeasures.wgsl']) {
      const wgsl = readFileSync(new URL(`../../../shaders/${file}`, import.meta.url), 'utf8');
      const constant = (name: string): number => {
        const m = new RegExp(`const ${name} = ([0-9]+)u;`).exec(wgsl);
        if (!m) throw new Error(`shaders/${file}: no constant ${name}`);
        return Number(m[1]);
      };
      expect(constant('INVERTED_CAP'), file).toBe(settings.SPB_INVERTED_LIST);
      expect(constant('INVERTED_LIST'), file).toBe(COUNTER_WORDS);
      expect(constant('COMPONENT_FLAGS'), file).toBe(COMPONENT_FLAG_WORD);
    }
  });
});
