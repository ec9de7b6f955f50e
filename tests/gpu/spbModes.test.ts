/**
 * The WGSL kernel's edge points (second excluded vertex) and Euclidean mode, against the twin
 * (spbCompare.ts) and against brute force: edge hits on the folded slab are answered on the
 * lower arm (its brute-force closest point), Euclidean queries of the octopus pair get the
 * brute-force nearest point of the host copy.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { bruteForceDistance } from '../unit/spb/helpers';
import { foldedSlabEdgeHits } from '../unit/spb/edgeScenes';
import { compareBatch, expectAgreement, summary } from './spbCompare';
import { pushedPair, type QueryBatch } from './spbCases';

describe('WGSL kernel: edge points and the Euclidean mode', () => {
  afterAll(() => console.log(summary.join('\n')));

  it('folded slab edge hits: the twin\'s answers, on the lower arm', async () => {
    const hits = foldedSlabEdgeHits();
    const m = hits.mesh;
    const batch: QueryBatch = {
      name: 'folded slab edge hits',
      mesh: m,
      positions: m.positions,
      points: Float32Array.from(hits.points),
      tets: Uint32Array.from(hits.tets),
      exclude: hits.exclude,
      exclude2: hits.exclude2,
    };
    const c = await compareBatch(batch, true);
    expectAgreement(c);
    expect(c.found).toBe(batch.tets.length);
    for (let i = 0; i < batch.tets.length; i++) {
      const truth = bruteForceDistance(m.positions, m.boundaryTriangles, batch.points.subarray(3 * i, 3 * i + 3), (f) => hits.lower(m.boundaryTriangleTet[f]));
      expect(Math.abs(c.gpu.distance[i] - truth), `query ${i}`).toBeLessThan(1e-5);
      expect(hits.lower(m.boundaryTriangleTet[c.gpu.triangle[i]])).toBe(true);
    }
  });

  it('octopus pair, Euclidean mode: the twin\'s answers, the nearest point of the host copy', async () => {
    const batch = { ...pushedPair('octopus_2KFaces.t', 0.12) };
    batch.euclidean = new Uint8Array(batch.tets.length).fill(1);
    const c = await compareBatch(batch, true);
    expectAgreement(c);
    expect(c.found).toBe(batch.tets.length);
    const m = batch.mesh;
    for (let i = 0; i < batch.tets.length; i++) {
      const host = m.tetObject[batch.tets[i]];
      const v = batch.exclude[i];
      const truth = bruteForceDistance(m.positions, m.boundaryTriangles, batch.points.subarray(3 * i, 3 * i + 3), (f) => {
        const g = m.boundaryTriangles.subarray(3 * f, 3 * f + 3);
        return m.tetObject[m.boundaryTriangleTet[f]] === host && !g.includes(v);
      });
      expect(Math.abs(c.gpu.distance[i] - truth), `query ${i}`).toBeLessThan(1e-5);
      expect(c.gpu.traversals[i]).toBe(0);
    }
  });
});
