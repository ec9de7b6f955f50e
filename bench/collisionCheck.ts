/**
 * The GPU detect and contact stages against the float64 CPU reference (src/collision/cpu) on a
 * real adapter, where invocations really run concurrently (SwiftShader's tests cannot show
 * races in the hash build, the list appends or the compare-exchange accumulation):
 *  - detection: the query points (kind, id) of the GPU and of CpuDetector, repeated `repeat`
 *    times (same set every time?), and the points of queries in the same tet;
 *  - contacts: the CPU shortest path answers the GPU's queries; GPU contacts (friction 0.3,
 *    3 passes, a motion field in prev) against CpuContacts from the same start, repeated: the
 *    largest position difference, GPU vs CPU and GPU run vs GPU run, and sum m x.
 * Scenes: the overlapping cubes of the tests, and 8 octopus_2KFaces.t copies 0.55 apart.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/collisionCheck.ts [--repeat 10]
 */
import { CpuContacts } from '../src/collision/cpu/contactsCpu';
import { CpuDetector } from '../src/collision/cpu/detectCpu';
import { CpuQueryList } from '../src/collision/cpu/queryList';
import { CpuSpb, CpuSpbResults } from '../src/collision/cpu/spbCpu';
import { CollisionTopologyGpu } from '../src/collision/gpu/collisionTopology';
import { ContactStage } from '../src/collision/gpu/contactStage';
import { DetectStage } from '../src/collision/gpu/detectStage';
import { QL, QL_HEADER_WORDS, QueryList, RESULT_WORDS } from '../src/collision/gpu/queryList';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { acquireGpu } from '../src/gpu/device';
import { createSpbMeshData, updateSpbMeshData } from '../src/spb';
import { buildModel, type Model, type SimObjectDesc } from '../src/sim/model';
import type { SubstepContext } from '../src/contract/stage';
import { GpuState, packVec4 } from '../src/contract/state';
import { overlappingCubes } from '../tests/support/collisionScenes';
import { loadSharedTetArrays } from '../tests/support/sharedMeshes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/collisionCheck.ts [--repeat 10]',
  values: ['--repeat'],
});

const args = process.argv.slice(2);
const repeat = Number(args[args.indexOf('--repeat') + 1] ?? 10) || 10;
const ctx = await acquireGpu();
const { device } = ctx;
console.log(`adapter: ${ctx.description}`);
const step = { substep: 0, substeps: 1, slotOffset: 0, beginPass: (e: GPUCommandEncoder, _p: string, label?: string) => e.beginComputePass({ label }), countDispatches: () => {} } as unknown as SubstepContext;

async function read(buffer: GPUBuffer, bytes = buffer.size): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const e = device.createCommandEncoder();
  e.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
  device.queue.submit([e.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return out;
}

function octopusPile(): Model {
  const m = loadSharedTetArrays('octopus_2KFaces.t');
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < m.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], m.positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], m.positions[i]);
  }
  const objects: SimObjectDesc[] = [];
  for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) for (let c = 0; c < 2; c++) {
    const off = [a, b, c].map((g, d) => g * 0.55 * (hi[d] - lo[d]));
    objects.push({ name: `octopus ${objects.length}`, positions: Float64Array.from(m.positions, (x, i) => x + off[i % 3]), tets: m.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 } });
  }
  return buildModel(objects);
}

for (const [name, model] of [['overlapping cubes', overlappingCubes()], ['8 octopi 0.55 apart', octopusPile()]] as const) {
  const mesh = buildSceneMesh(model);
  const state = new GpuState(device, model);
  const topology = new CollisionTopologyGpu(device, mesh);
  const list = new QueryList(device, 1 << 14);
  const detect = new DetectStage(device, topology, list, () => ({ collisions: true, selfCollision: true, recovery: false, interObject: 'exact' }));
  const contacts = new ContactStage(device, topology, list, () => ({ collisions: true, friction: 0.3, contactIterations: 3 }));
  const x0 = new Float32Array(await state.readPositions());

  // Detection, repeated.
  const key = (source: number) => `${(source >>> 29) & 3}:${source & 0x1fffffff}`;
  let words = new Uint32Array(0);
  const sets: string[] = [];
  for (let r = 0; r < repeat; r++) {
    const e = device.createCommandEncoder();
    detect.beginFrame(e);
    detect.encode(e, state, step);
    device.queue.submit([e.finish()]);
    words = new Uint32Array(await read(list.list));
    const n = words[QL.count];
    sets.push(Array.from({ length: n }, (_, i) => key(words[QL_HEADER_WORDS + 8 * i + 6])).sort().join(','));
  }
  const n = words[QL.count];
  const f = new Float32Array(words.buffer), iw = new Int32Array(words.buffer);
  const cpuList = new CpuQueryList();
  new CpuDetector(mesh).detect(Float64Array.from(x0), { selfCollision: true, recovery: false, euclidean: false }, cpuList);
  const gpuKeys = new Map<string, number>();
  for (let i = 0; i < n; i++) gpuKeys.set(key(words[QL_HEADER_WORDS + 8 * i + 6]), i);
  let onlyCpu = 0, sameTet = 0, worstPoint = 0;
  const cpuKeys = new Set<string>();
  for (let i = 0; i < cpuList.count; i++) {
    const k = key(cpuList.source[i]);
    cpuKeys.add(k);
    const g = gpuKeys.get(k);
    if (g === undefined) { onlyCpu++; continue; }
    const o = QL_HEADER_WORDS + 8 * g;
    if (words[o + 3] === cpuList.tet[i]) {
      sameTet++;
      worstPoint = Math.max(worstPoint, Math.abs(f[o] - cpuList.px[i]), Math.abs(f[o + 1] - cpuList.py[i]), Math.abs(f[o + 2] - cpuList.pz[i]));
    }
  }
  const onlyGpu = [...gpuKeys.keys()].filter((k) => !cpuKeys.has(k)).length;
  console.log(`${name}: ${model.tetCount} tets; GPU ${n} queries (same set in all ${repeat} runs: ${sets.every((s) => s === sets[0])}), CPU ${cpuList.count}; only GPU ${onlyGpu}, only CPU ${onlyCpu}; same tet ${sameTet}, their points differ by ${worstPoint.toExponential(2)} at most`);

  // The CPU shortest path answers the GPU's list (same order).
  const q = new CpuQueryList();
  for (let i = 0; i < n; i++) {
    const o = QL_HEADER_WORDS + 8 * i;
    const s = words[o + 6];
    q.push(f[o], f[o + 1], f[o + 2], words[o + 3], iw[o + 4], iw[o + 5], (s >>> 29) & 3, s & 0x1fffffff, false, false, f[o + 7]);
  }
  const data = createSpbMeshData(mesh);
  updateSpbMeshData(data, x0);
  const res = new CpuSpbResults();
  new CpuSpb(data).run(q, res);
  const r = new ArrayBuffer(4 * RESULT_WORDS * n);
  for (let i = 0; i < n; i++) {
    const rf = new Float32Array(r, 4 * RESULT_WORDS * i, RESULT_WORDS), ru = new Uint32Array(r, 4 * RESULT_WORDS * i, RESULT_WORDS), ri = new Int32Array(r, 4 * RESULT_WORDS * i, RESULT_WORDS);
    rf.set(res.s.subarray(3 * i, 3 * i + 3), 0);
    ri[4] = res.triangle[i];
    ru[5] = res.feature[i];
    ru[6] = res.status[i];
  }
  device.queue.writeBuffer(list.results, 0, r);
  const prev = Float32Array.from(x0, (c, i) => c - 0.004 * Math.sin(3 * x0[3 * Math.floor(i / 3) + ((i + 1) % 3)] + (i % 3)));
  const objectBits = new Float32Array(new Uint32Array(model.vertexObject).buffer);
  device.queue.writeBuffer(state.prev, 0, packVec4(prev, model.vertexCount, (i) => objectBits[i]));
  const runs: Float32Array[] = [];
  for (let k = 0; k < repeat; k++) {
    // Both reset: the contacts move the start positions too (split impulse).
    device.queue.writeBuffer(state.positions, 0, packVec4(x0, model.vertexCount, (i) => model.invMass[i]));
    device.queue.writeBuffer(state.prev, 0, packVec4(prev, model.vertexCount, (i) => objectBits[i]));
    const e = device.createCommandEncoder();
    contacts.beginFrame(e);
    contacts.encode(e, state, step);
    device.queue.submit([e.finish()]);
    runs.push(new Float32Array(await state.readPositions()));
  }
  const cpu = new CpuContacts(mesh, data);
  const x = Float64Array.from(x0);
  const active = cpu.build(x, q, res);
  cpu.solve(x, Float64Array.from(prev), model.invMass, 0.3, 3);
  let vsCpu = 0, vsRun = 0, moved = 0;
  for (let i = 0; i < x.length; i++) {
    vsCpu = Math.max(vsCpu, Math.abs(runs[0][i] - x[i]));
    moved = Math.max(moved, Math.abs(x[i] - x0[i]));
    for (const run of runs) vsRun = Math.max(vsRun, Math.abs(run[i] - runs[0][i]));
  }
  const p = (y: ArrayLike<number>) => [0, 1, 2].map((d) => { let s = 0; for (let v = 0; v < model.vertexCount; v++) s += y[3 * v + d] / model.invMass[v]; return s; });
  const p0 = p(x0), p1 = p(runs[0]);
  const dp = Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]) / Math.hypot(...p0);
  const perRun = runs.map((run) => {
    let worst = 0, off = 0;
    for (let i = 0; i < x.length; i++) {
      const d = Math.abs(run[i] - x[i]);
      worst = Math.max(worst, d);
      if (d > 1e-5) off++;
    }
    return `${worst.toExponential(1)}/${off}`;
  });
  console.log(`  per run, largest |GPU - CPU| / coordinates off by > 1e-5: ${perRun.join(' ')}`);
  console.log(`  contacts: ${active} active (CPU found ${res.found}); largest correction ${moved.toFixed(4)}; GPU vs CPU ${vsCpu.toExponential(2)}; GPU run vs run ${vsRun.toExponential(2)}; |d sum m x| / |sum m x| ${dp.toExponential(2)}`);
  detect.destroy();
  contacts.destroy();
  topology.destroy();
  list.destroy();
  state.destroy();
}
process.exit(0);
