import { afterAll, describe, expect, it } from 'vitest';
import {
  QUERY_FOUND,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  updateSpbMeshData,
} from '../../src/spb';
import { SpbQueryGpu } from '../../src/spb/gpu/spbQueryGpu';
import { interiorPoints, invertedBlock, loadShared, overlappingRing, pushedPair, spbTestDevice, type QueryBatch } from './spbCases';

/**
 * The WGSL kernel (f32) against its TypeScript static twin (same code structure, same fixed
 * capacities, f64) on the same f32 inputs: every query that neither flags as overflowed gets
 * the same status and the same distance within 1e-4 of the local element size (the triangle
 * may differ only where two candidates are equally near), and the overflowed queries are
 * exactly the ones the twin flags. Then the fallback: flagged queries answered by the CPU.
 */

interface Comparison {
  total: number;
  found: number;
  overflowGpu: number;
  overflowTwin: number;
  overflowMismatch: number;
  statusMismatch: number;
  distanceMismatch: number;
  triangleDiffers: number;
  worstRelative: number;
}

const summary: string[] = [];

async function compareBatch(batch: QueryBatch, culling: boolean): Promise<Comparison> {
  const device = await spbTestDevice();
  const data = createSpbMeshData(batch.mesh);
  updateSpbMeshData(data, batch.positions);
  const gpu = new SpbQueryGpu(device, data, { culling });
  const res = await gpu.run(batch.points, batch.tets, batch.exclude, { fallback: false });
  gpu.destroy();

  const ws = new SpbWorkspace(SPB_STATIC_CAPACITIES, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const n = batch.tets.length;
  const c: Comparison = { total: n, found: 0, overflowGpu: 0, overflowTwin: 0, overflowMismatch: 0, statusMismatch: 0, distanceMismatch: 0, triangleDiffers: 0, worstRelative: 0 };
  const examples: string[] = [];
  for (let q = 0; q < n; q++) {
    const px = batch.points[3 * q], py = batch.points[3 * q + 1], pz = batch.points[3 * q + 2];
    const st = shortestPathToBoundary(data, ws, cfg, px, py, pz, batch.tets[q], batch.exclude[q]);
    const gs = res.status[q];
    if (st === QUERY_OVERFLOW) c.overflowTwin++;
    if (gs === QUERY_OVERFLOW) c.overflowGpu++;
    if ((st === QUERY_OVERFLOW) !== (gs === QUERY_OVERFLOW)) {
      c.overflowMismatch++;
      if (examples.length < 5) examples.push(`q${q}: twin ${st} gpu ${gs}`);
      continue;
    }
    if (st === QUERY_OVERFLOW) continue;
    if (st !== gs) {
      c.statusMismatch++;
      if (examples.length < 5) examples.push(`q${q}: status twin ${st} gpu ${gs} (twin d ${Math.sqrt(ws.resultDistance2)})`);
      continue;
    }
    if (st !== QUERY_FOUND) continue;
    c.found++;
    const h = Math.sqrt(data.tetSize2[batch.tets[q]]);
    const dt = Math.sqrt(ws.resultDistance2);
    const rel = Math.abs(res.distance[q] - dt) / h;
    c.worstRelative = Math.max(c.worstRelative, rel);
    if (rel > 1e-4) {
      c.distanceMismatch++;
      if (examples.length < 5) examples.push(`q${q}: distance twin ${dt} (tri ${ws.resultTriangle}) gpu ${res.distance[q]} (tri ${res.triangle[q]}), h ${h}`);
    } else if (res.triangle[q] !== ws.resultTriangle) c.triangleDiffers++;
  }
  summary.push(`${batch.name} culling ${culling ? 'on' : 'off'}: ${JSON.stringify(c)}${examples.length ? ' e.g. ' + examples.join('; ') : ''}`);
  return c;
}

function expectAgreement(c: Comparison): void {
  expect({ overflowMismatch: c.overflowMismatch, statusMismatch: c.statusMismatch, distanceMismatch: c.distanceMismatch }).toEqual({
    overflowMismatch: 0,
    statusMismatch: 0,
    distanceMismatch: 0,
  });
}

describe('WGSL shortest path kernel vs the TypeScript static twin', () => {
  afterAll(() => console.log(summary.join('\n')));

  it('octopus_2KFaces.t: 4,000 random interior points (culling on and off)', async () => {
    const mesh = loadShared('octopus_2KFaces.t');
    const batch = interiorPoints('octopus_2KFaces.t interior', mesh, mesh.positions, 4000, 1);
    const on = await compareBatch(batch, true);
    expectAgreement(on);
    expect(on.found).toBeGreaterThan(3900);
    const off = await compareBatch({ ...batch, points: batch.points.subarray(0, 3 * 1000), tets: batch.tets.subarray(0, 1000), exclude: batch.exclude.subarray(0, 1000) }, false);
    expectAgreement(off);
  });

  it('OverhandKnot.t (0.3 units, tiny tets): 3,000 random interior points', async () => {
    const mesh = loadShared('OverhandKnot.t');
    const c = await compareBatch(interiorPoints('OverhandKnot.t interior', mesh, mesh.positions, 3000, 2), true);
    expectAgreement(c);
    expect(c.found).toBeGreaterThan(2900);
  });

  it('two octopi pushed 0.12 into each other: boundary vertices of one inside the other (DCD hits)', async () => {
    const batch = pushedPair('octopus_2KFaces.t', 0.12);
    expect(batch.tets.length).toBeGreaterThan(50);
    expectAgreement(await compareBatch(batch, true));
  });

  it('a beam bent past a full turn, its ends interpenetrating: 2,000 points', async () => {
    const batch = overlappingRing(60, 3, 2000);
    expectAgreement(await compareBatch(batch, true));
  });

  it('a block with inverted interior tets: 1,000 points', async () => {
    const batch = invertedBlock(4, 1000);
    expectAgreement(await compareBatch(batch, true));
  });
});
