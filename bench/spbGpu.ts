/**
 * GPU shortest-path-to-boundary benchmark: queries per second of the WGSL kernel (static stacks)
 * against the TypeScript dynamic version on one CPU core, on the same queries.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/spbGpu.ts [--copies 40] [--repeat 3] [--scene pair|knot|ring|squeezed|all] [--ringQueries 500]
 *
 * Scenes:
 *  - pair: DCD-like hits: two copies of octopus_2KFaces.t, the second moved 0.12 along x into the
 *    first; the queries are the second's boundary vertices inside tets of the first (excluding
 *    themselves). The batch repeats them `copies` times so that the GPU gets a realistic batch.
 *  - knot: random interior points of OverhandKnot.t (the authors' 2,000-point test, x copies).
 *  - ring: a beam bent past a full turn, interior points where the two ends overlap.
 *  - squeezed: DCD hits of the squishy ball squeezed flat (tentacles pressed through each other;
 *    tests/unit/spb/scenes.ts), repeated copies / 4 times.
 * GPU time = upload of the queries + prepass + query kernel + readback (one sync point), best of
 * `repeat`; "kernel" = the prepass and query dispatches alone on pre-uploaded queries. On a
 * software adapter (SwiftShader) these are CPU figures; compare ratios within one run.
 */
import {
  QUERY_FOUND,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  updateSpbMeshData,
} from '../src/spb';
import { packQueries, RESULT_WORDS } from '../src/spb/gpu/packSpbBuffers';
import { SpbQueryGpu } from '../src/spb/gpu/spbQueryGpu';
import { storageBuffer } from '../src/gpu/buffers';
import { loadSharedTetMesh } from '../tests/support/sharedMeshes';
import { interiorPoints, overlappingRing, pushedPair, spbTestDevice, type QueryBatch } from '../tests/gpu/spbCases';
import { squeezedSquishyBallQueries } from '../tests/unit/spb/scenes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/spbGpu.ts [--copies 40] [--repeat 3] [--scene pair|knot|ring|squeezed|all] [--ringQueries 500]',
  values: ['--copies', '--repeat', '--scene', '--ringQueries'],
});
const args = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const copies = Number(arg('copies', '40'));
const repeat = Number(arg('repeat', '3'));
const scene = arg('scene', 'all');

function repeatBatch(b: QueryBatch, k: number): QueryBatch {
  const n = b.tets.length;
  const points = new Float32Array(3 * n * k);
  const tets = new Uint32Array(n * k);
  const exclude = new Int32Array(n * k);
  for (let c = 0; c < k; c++) {
    points.set(b.points, 3 * n * c);
    tets.set(b.tets, n * c);
    exclude.set(b.exclude, n * c);
  }
  return { ...b, name: `${b.name} (x${k})`, points, tets, exclude };
}

async function measure(batch: QueryBatch, culling: boolean): Promise<Record<string, string | number>> {
  const device = await spbTestDevice();
  const data = createSpbMeshData(batch.mesh);
  updateSpbMeshData(data, batch.positions);
  const gpu = new SpbQueryGpu(device, data, { culling });
  const n = batch.tets.length;

  // End to end (upload, dispatch, readback, CPU fallback of overflowed queries).
  let best = Infinity;
  let res = await gpu.run(batch.points, batch.tets, batch.exclude); // warm-up: pipeline caches
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    res = await gpu.run(batch.points, batch.tets, batch.exclude);
    best = Math.min(best, performance.now() - t0);
  }

  // Kernel only: queries already on the GPU, no readback.
  const queryBuf = storageBuffer(device, 'bench.queries', new Uint8Array(packQueries(batch.points, batch.tets, batch.exclude)));
  const resultBuf = storageBuffer(device, 'bench.results', Math.max(1, n) * RESULT_WORDS * 4);
  // Completion is observed by mapping a 16-byte copy of the last result (a tiny readback).
  const probe = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  let kernel = Infinity;
  for (let r = -1; r < repeat; r++) {
    const t0 = performance.now();
    const enc = device.createCommandEncoder();
    gpu.encode(enc, queryBuf, resultBuf, n);
    enc.copyBufferToBuffer(resultBuf, Math.max(0, n - 1) * RESULT_WORDS * 4, probe, 0, 16);
    device.queue.submit([enc.finish()]);
    await probe.mapAsync(GPUMapMode.READ);
    probe.unmap();
    if (r >= 0) kernel = Math.min(kernel, performance.now() - t0);
  }
  probe.destroy();
  queryBuf.destroy();
  resultBuf.destroy();
  gpu.destroy();

  // CPU: the dynamic version, one core, same queries (first copy of each only when repeated).
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  let cpuBest = Infinity;
  let mismatches = 0;
  const cpuN = Math.min(n, 4000);
  // Small batches are repeated more (timer resolution, and the JIT must reach its top tier:
  // with 3 runs of 500 queries the first configuration measured came out 2x slow).
  const cpuReps = Math.max(repeat, Math.ceil(20000 / Math.max(cpuN, 1)));
  for (let r = -1; r < cpuReps; r++) {
    const t0 = performance.now();
    for (let q = 0; q < cpuN; q++) {
      const st = shortestPathToBoundary(data, ws, cfg, batch.points[3 * q], batch.points[3 * q + 1], batch.points[3 * q + 2], batch.tets[q], batch.exclude[q]);
      if (r === -1) {
        const h = Math.sqrt(data.tetSize2[batch.tets[q]]);
        const d = st === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : -1;
        if (st !== res.status[q] || Math.abs(d - res.distance[q]) > 1e-4 * h) mismatches++;
      }
    }
    if (r >= 0) cpuBest = Math.min(cpuBest, performance.now() - t0);
  }
  const t = res.totals;
  return {
    scene: batch.name,
    culling: culling ? 'on' : 'off',
    queries: n,
    'GPU q/s (end to end)': Math.round(n / (best / 1000)),
    'GPU q/s (kernel)': Math.round(n / (kernel / 1000)),
    'CPU q/s (1 core)': Math.round(cpuN / (cpuBest / 1000)),
    'CPU us/query': +((cpuBest * 1000) / cpuN).toFixed(2),
    'GPU/CPU (end to end)': +((n / best) / (cpuN / cpuBest)).toFixed(2),
    'mean Q': +(t.bvhCandidates / n).toFixed(2),
    'mean Tr': +(t.traversals / n).toFixed(2),
    'mean Tet': +(t.tetsVisited / n).toFixed(2),
    'GPU overflows (CPU answered)': res.overflowed.length,
    'disagreements vs CPU': mismatches,
  };
}

async function main(): Promise<void> {
  const batches: QueryBatch[] = [];
  if (scene === 'pair' || scene === 'all') batches.push(repeatBatch(pushedPair('octopus_2KFaces.t', 0.12), copies));
  if (scene === 'knot' || scene === 'all') {
    const knot = loadSharedTetMesh('OverhandKnot.t');
    batches.push(repeatBatch(interiorPoints('OverhandKnot.t interior', knot, knot.positions, 2000, 2023), Math.max(1, Math.round(copies / 4))));
  }
  if (scene === 'ring' || scene === 'all') batches.push(overlappingRing(60, 3, Number(arg('ringQueries', '500'))));
  if (scene === 'squeezed' || scene === 'all') {
    const { mesh, queries } = squeezedSquishyBallQueries();
    const squeezed: QueryBatch = {
      name: 'squishy ball squeezed flat, DCD hits',
      mesh,
      positions: Float32Array.from(mesh.positions),
      points: Float32Array.from(queries.points),
      tets: Uint32Array.from(queries.tets),
      exclude: queries.exclude,
    };
    batches.push(repeatBatch(squeezed, Math.max(1, Math.round(copies / 4))));
  }
  const rows: Record<string, string | number>[] = [];
  for (const b of batches) {
    for (const culling of [true, false]) {
      const row = await measure(b, culling);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  console.table(rows);
  process.exit(0);
}

void main();
