/**
 * DCD-hit queries as the simulator issues them (boundary vertices found inside another part's
 * tets, excluding the vertex itself):
 * - an octopus pushed 0.12 into a copy of itself: the answer must be on the host copy's own
 *   boundary, the brute-force closest point over the host's triangles (the host alone is
 *   intersection-free), though the vertex's own copy has triangles much nearer;
 * - a squishy ball with tentacles bent into each other (self-intersection, some tets inverted),
 *   and one squeezed flat so that its tentacles press through each other: culling on/off and
 *   static/dynamic must agree on every query, and with culling the traversals drop.
 */
import { describe, expect, it } from 'vitest';
import {
  QUERY_FOUND,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  type SpbCapacities,
  type SpbMeshData,
} from '../../../src/spb';
import { bruteForceDistance } from './helpers';
import { STAT_TRAVERSALS } from '../../../src/spb/workspace';
import { octopusPairQueries, squeezedSquishyBallQueries, squishyBallQueries, type Queries } from './scenes';

interface Answers {
  status: Int32Array;
  distance: Float64Array;
  traversals: number;
}

function answers(data: SpbMeshData, q: Queries, capacities: Readonly<SpbCapacities>, culling: boolean): Answers {
  const ws = new SpbWorkspace(capacities, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const n = q.tets.length;
  const status = new Int32Array(n), distance = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    status[i] = shortestPathToBoundary(data, ws, cfg, q.points[3 * i], q.points[3 * i + 1], q.points[3 * i + 2], q.tets[i], q.exclude[i]);
    distance[i] = status[i] === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : -1;
  }
  return { status, distance, traversals: ws.totals[STAT_TRAVERSALS] };
}

/**
 * Culling off and the fixed (static) capacities must give the culled dynamic answers exactly,
 * every query found; returns how many queries the static capacities overflowed on.
 */
function expectSameAnswers(count: number, on: Answers, off: Answers, fixed: Answers): number {
  let overflows = 0;
  for (let i = 0; i < count; i++) {
    expect(on.status[i]).toBe(QUERY_FOUND);
    expect(off.status[i]).toBe(on.status[i]);
    expect(off.distance[i]).toBe(on.distance[i]);
    if (fixed.status[i] === QUERY_OVERFLOW) overflows++;
    else expect(fixed.distance[i]).toBe(on.distance[i]);
  }
  return overflows;
}

describe('DCD-hit scenes', () => {
  it('octopus pushed into its copy: answers on the host copy, not on the vertex\'s own surface', () => {
    const { mesh, queries } = octopusPairQueries('octopus_2KFaces.t', 0.12);
    expect(queries.tets.length).toBeGreaterThan(50);
    const data = createSpbMeshData(mesh);
    const res = answers(data, queries, SPB_DYNAMIC_CAPACITIES, true);
    let ownNearer = 0;
    for (let i = 0; i < queries.tets.length; i++) {
      const p = queries.points.subarray(3 * i, 3 * i + 3);
      const host = mesh.tetObject[queries.tets[i]];
      const truth = bruteForceDistance(mesh.positions, mesh.boundaryTriangles, p, (f) => mesh.tetObject[mesh.boundaryTriangleTet[f]] === host);
      expect(res.status[i]).toBe(QUERY_FOUND);
      expect(Math.abs(res.distance[i] - truth) / truth, `query ${i}`).toBeLessThan(1e-6);
      const v = queries.exclude[i];
      const own = bruteForceDistance(mesh.positions, mesh.boundaryTriangles, p, (f) => {
        const t = mesh.boundaryTriangles.subarray(3 * f, 3 * f + 3);
        return mesh.tetObject[mesh.boundaryTriangleTet[f]] !== host && t[0] !== v && t[1] !== v && t[2] !== v;
      });
      if (own < truth) ownNearer++;
    }
    expect(ownNearer).toBeGreaterThan(queries.tets.length / 2);
  });

  it('squishy ball with tentacles bent into each other: culling and capacities never change an answer', () => {
    const { mesh, queries } = squishyBallQueries();
    expect(queries.tets.length).toBeGreaterThan(100);
    const data = createSpbMeshData(mesh);
    expect(data.invertedCount).toBeGreaterThan(0); // the inversion mode is exercised
    const on = answers(data, queries, SPB_DYNAMIC_CAPACITIES, true);
    const off = answers(data, queries, SPB_DYNAMIC_CAPACITIES, false);
    const fixed = answers(data, queries, SPB_STATIC_CAPACITIES, true);
    const overflows = expectSameAnswers(queries.tets.length, on, off, fixed);
    expect(overflows).toBeLessThan(queries.tets.length / 50);
  });

  it('squishy ball squeezed flat, tentacles pressed through each other: culling and capacities never change an answer', () => {
    const { mesh, queries } = squeezedSquishyBallQueries();
    expect(queries.tets.length).toBeGreaterThan(500);
    const data = createSpbMeshData(mesh);
    const on = answers(data, queries, SPB_DYNAMIC_CAPACITIES, true);
    const off = answers(data, queries, SPB_DYNAMIC_CAPACITIES, false);
    const fixed = answers(data, queries, SPB_STATIC_CAPACITIES, true);
    const overflows = expectSameAnswers(queries.tets.length, on, off, fixed);
    expect(overflows).toBeLessThan(queries.tets.length / 50);
    expect(on.traversals).toBeLessThan(off.traversals / 2); // culling really skips invalid paths here
  });
});
