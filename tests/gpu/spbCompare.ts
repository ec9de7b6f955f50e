/**
 * The comparison of the WGSL kernel with its TypeScript static twin, shared by the GPU tests.
 */
import { expect } from 'vitest';
import {
  QUERY_FOUND,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  type SpbCapacities,
  shortestPathToBoundary,
  updateSpbMeshData,
} from '../../src/spb';
import { SpbQueryGpu, type SpbGpuResults } from '../../src/spb/gpu/spbQueryGpu';
import { STAT_TETS_VISITED } from '../../src/spb/workspace';
import { spbTestDevice, type QueryBatch } from './spbCases';

/**
 * The WGSL kernel (f32) against its TypeScript static twin (same code structure, same fixed
 * capacities, f64) on the same f32 inputs: every query that neither flags as overflowed gets
 * the same status and the same distance within 1e-4 of the local element size (the triangle
 * may differ only where two candidates are equally near), and the overflowed queries are
 * exactly the ones the twin flags.
 */
export interface Comparison {
  total: number;
  found: number;
  overflowGpu: number;
  overflowTwin: number;
  overflowMismatch: number;
  statusMismatch: number;
  distanceMismatch: number;
  triangleDiffers: number;
  worstRelative: number;
  /** Tets visited, summed over the queries neither flagged (GPU counters vs the twin's). */
  tetsGpu: number;
  tetsTwin: number;
}

/** One line per compared batch (printed by the tests after all). */
export const summary: string[] = [];

export async function compareBatch(
  batch: QueryBatch,
  culling: boolean,
  capacities: Readonly<SpbCapacities> = SPB_STATIC_CAPACITIES,
): Promise<Comparison & { invertedTets: number; gpu: SpbGpuResults }> {
  const device = await spbTestDevice();
  const data = createSpbMeshData(batch.mesh);
  updateSpbMeshData(data, batch.positions);
  const gpu = new SpbQueryGpu(device, data, { culling, capacities });
  const res = await gpu.run(batch.points, batch.tets, batch.exclude, { fallback: false, exclude2: batch.exclude2, euclidean: batch.euclidean });
  gpu.destroy();

  const ws = new SpbWorkspace(capacities, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const n = batch.tets.length;
  const c: Comparison = { total: n, found: 0, overflowGpu: 0, overflowTwin: 0, overflowMismatch: 0, statusMismatch: 0, distanceMismatch: 0, triangleDiffers: 0, worstRelative: 0, tetsGpu: 0, tetsTwin: 0 };
  const examples: string[] = [];
  for (let q = 0; q < n; q++) {
    const px = batch.points[3 * q], py = batch.points[3 * q + 1], pz = batch.points[3 * q + 2];
    const e2 = batch.exclude2 ? batch.exclude2[q] : -1;
    const st = shortestPathToBoundary(data, ws, cfg, px, py, pz, batch.tets[q], batch.exclude[q], e2, batch.euclidean ? batch.euclidean[q] !== 0 : false);
    const gs = res.status[q];
    if (st === QUERY_OVERFLOW) c.overflowTwin++;
    if (gs === QUERY_OVERFLOW) c.overflowGpu++;
    if ((st === QUERY_OVERFLOW) !== (gs === QUERY_OVERFLOW)) {
      c.overflowMismatch++;
      if (examples.length < 5) examples.push(`q${q}: twin ${st} gpu ${gs}`);
      continue;
    }
    if (st === QUERY_OVERFLOW) continue;
    c.tetsGpu += res.tetsVisited[q];
    c.tetsTwin += ws.stats[STAT_TETS_VISITED];
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
  const caps = capacities === SPB_STATIC_CAPACITIES ? '' : ` capacities ${JSON.stringify(capacities)}`;
  summary.push(`${batch.name} culling ${culling ? 'on' : 'off'}${caps}: ${JSON.stringify(c)}${examples.length ? ' e.g. ' + examples.join('; ') : ''}`);
  return { ...c, invertedTets: res.invertedTets, gpu: res };
}

/** Independent count of tets with non-positive signed volume (f64). */
export function countInverted(tets: Uint32Array, x: Float32Array): number {
  let n = 0;
  for (let t = 0; t < tets.length / 4; t++) {
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => 3 * tets[4 * t + k]);
    const e = [b, c, d].map((v) => [x[v] - x[a], x[v + 1] - x[a + 1], x[v + 2] - x[a + 2]]);
    const det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    if (!(det > 0)) n++;
  }
  return n;
}

export function expectAgreement(c: Comparison): void {
  expect({ overflowMismatch: c.overflowMismatch, statusMismatch: c.statusMismatch, distanceMismatch: c.distanceMismatch }).toEqual({
    overflowMismatch: 0,
    statusMismatch: 0,
    distanceMismatch: 0,
  });
}
