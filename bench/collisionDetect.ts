/**
 * Cost of the GPU detect stage (spatial hash build + DCD kernels + args) against the scene size:
 * k x k x k copies of octopus_2KFaces.t on a grid whose spacing is `spacing` (0.8) of the mesh's
 * extent (the tentacles of neighbours interleave; below about 0.6 they intersect). Per size: tets, query points, hits, and the time per substep
 * (wall time of `substeps` detect substeps in one command buffer, to onSubmittedWorkDone, best of
 * `repeat`; on SwiftShader these are CPU figures, compare ratios within one run).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/collisionDetect.ts [--sizes 1,2,3] [--substeps 5] [--repeat 3] [--cell largest,median] [--spacing 0.8]
 */
import { CollisionTopologyGpu } from '../src/collision/gpu/collisionTopology';
import { DetectStage } from '../src/collision/gpu/detectStage';
import { QL, QueryList } from '../src/collision/gpu/queryList';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { acquireGpu } from '../src/gpu/device';
import { buildModel, type SimObjectDesc } from '../src/sim/model';
import { GpuState } from '../src/contract/state';
import type { SubstepContext } from '../src/contract/stage';
import { loadSharedTetArrays } from '../tests/support/sharedMeshes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/collisionDetect.ts [--sizes 1,2,3] [--substeps 5] [--repeat 3] [--cell largest,median] [--spacing 0.8]',
  values: ['--sizes', '--substeps', '--repeat', '--cell', '--spacing'],
});

const args = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const sizes = arg('sizes', '1,2,3').split(',').map(Number);
const substeps = Number(arg('substeps', '5'));
const repeat = Number(arg('repeat', '3'));
const cellRules = arg('cell', 'median').split(',') as ('largest' | 'median')[];
const spacing = Number(arg('spacing', '0.8'));

const ctx = await acquireGpu();
const { device } = ctx;
console.log(`adapter: ${ctx.description}; spacing ${spacing} of the mesh's extent`);
const mesh = loadSharedTetArrays('octopus_2KFaces.t');
const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
for (let i = 0; i < mesh.positions.length; i++) {
  lo[i % 3] = Math.min(lo[i % 3], mesh.positions[i]);
  hi[i % 3] = Math.max(hi[i % 3], mesh.positions[i]);
}
// Per-kernel GPU time from timestamps (one pass per kernel) when the adapter has them.
const timestamps = ctx.features.has('timestamp-query');
const kernels = ['dcd.buildHash', 'dcd.detect', 'dcd.writeArgs'];
const maxPasses = 3 * substeps;
const querySet = timestamps ? device.createQuerySet({ type: 'timestamp', count: 2 * maxPasses }) : undefined;
const resolve = device.createBuffer({ size: 16 * maxPasses, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
let passIndex = 0;
const passLabels: string[] = [];
const step = {
  substep: 0,
  substeps,
  slotOffset: 0,
  beginPass: (e: GPUCommandEncoder, _p: string, label?: string) => {
    if (!querySet || passIndex >= maxPasses) return e.beginComputePass({ label });
    passLabels[passIndex] = label ?? '';
    const i = passIndex++;
    return e.beginComputePass({ label, timestampWrites: { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } });
  },
  countDispatches: () => {},
} as unknown as SubstepContext;
// Baseline: the same number of passes per substep doing nothing (one 1-thread dispatch, a 4-byte
// clear): what the submission and pass structure cost by themselves on this adapter.
{
  const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> w: array<u32>;\n@compute @workgroup_size(1) fn main() { w[0] = w[0] + 1u; }' });
  const pipe = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const buf = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const group = device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
  let best = Infinity;
  for (let r = 0; r < repeat + 1; r++) {
    const e = device.createCommandEncoder();
    for (let s = 0; s < substeps; s++) {
      e.clearBuffer(buf, 4, 4);
      const pass = e.beginComputePass();
      pass.setPipeline(pipe);
      pass.setBindGroup(0, group);
      for (let k = 0; k < 3; k++) pass.dispatchWorkgroups(1);
      pass.end();
    }
    const t0 = performance.now();
    device.queue.submit([e.finish()]);
    await device.queue.onSubmittedWorkDone();
    if (r > 0) best = Math.min(best, performance.now() - t0);
  }
  console.log(`baseline (a clear and a pass of 3 one-thread dispatches per substep): ${(best / substeps).toFixed(3)} ms / substep`);
}
const rows: string[] = ['| cell rule | copies | tets | query points | hits / substep | ms / substep | us per 1k tets | GPU ms: build / detect / args |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
for (const cellRule of cellRules) for (const k of sizes) {
  const objects: SimObjectDesc[] = [];
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) for (let c = 0; c < k; c++) {
    const off = [a, b, c].map((g, d) => g * spacing * (hi[d] - lo[d]));
    objects.push({ name: `octopus ${objects.length}`, positions: Float64Array.from(mesh.positions, (x, i) => x + off[i % 3]), tets: mesh.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 } });
  }
  const model = buildModel(objects);
  const scene = buildSceneMesh(model);
  const state = new GpuState(device, model);
  const topology = new CollisionTopologyGpu(device, scene);
  const list = new QueryList(device, 1 << 16);
  const detect = new DetectStage(device, topology, list, () => ({ collisions: true, selfCollision: true, recovery: false, interObject: 'exact' }), { cellSize: cellRule, splitPasses: timestamps });
  let kernelMs = '-';
  const frame = async (): Promise<number> => {
    const encoder = device.createCommandEncoder();
    detect.beginFrame(encoder);
    passIndex = 0;
    for (let s = 0; s < substeps; s++) detect.encode(encoder, state, step);
    const passes = passIndex;
    const staging = device.createBuffer({ size: 16 * maxPasses, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    if (querySet && passes > 0) {
      encoder.resolveQuerySet(querySet, 0, 2 * passes, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, staging, 0, 16 * passes);
    }
    const t0 = performance.now();
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const wall = performance.now() - t0;
    if (querySet && passes > 0) {
      await staging.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(staging.getMappedRange());
      const sum = new Map<string, number>();
      for (let i = 0; i < passes; i++) sum.set(passLabels[i], (sum.get(passLabels[i]) ?? 0) + Number(t[2 * i + 1] - t[2 * i]) / 1e6);
      kernelMs = kernels.map((k) => ((sum.get(k) ?? 0) / substeps).toFixed(3)).join(' / ');
      staging.unmap();
    }
    staging.destroy();
    return wall;
  };
  await frame(); // compile, warm
  let best = Infinity;
  for (let r = 0; r < repeat; r++) best = Math.min(best, await frame());
  const staging = device.createBuffer({ size: 64, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const e = device.createCommandEncoder();
  e.copyBufferToBuffer(list.list, 0, staging, 0, 64);
  device.queue.submit([e.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const header = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  const points = scene.boundaryVertices.length + scene.boundaryEdges.length / 2;
  const ms = best / substeps;
  rows.push(`| ${cellRule} (${detect.hash.cellSize.toFixed(4)}) | ${k ** 3} | ${model.tetCount} | ${points} | ${header[QL.count]} | ${ms.toFixed(2)} | ${((1000 * ms) / (model.tetCount / 1000)).toFixed(1)} | ${kernelMs} |`);
  console.log(rows[rows.length - 1]);
  if (header[QL.dropped] + header[QL.hashDropped] > 0) console.log(`  (dropped: ${header[QL.dropped]} hits, ${header[QL.hashDropped]} hash entries)`);
  detect.destroy();
  topology.destroy();
  list.destroy();
  state.destroy();
}
console.log(rows.join('\n'));
process.exit(0);
