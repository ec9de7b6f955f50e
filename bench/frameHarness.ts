/**
 * What bench/report.ts and bench/scale.ts share: build a registry scene as the runner does
 * (sceneSetup.ts, --size or --tets), run it on the Node WebGPU device for some frames, and
 * record beside the runner's frame entries
 *   - every GPU buffer the solver allocates (device.createBuffer wrapped: label and size), for
 *     GPU memory per tet and by kind;
 *   - every dispatch (compute passes wrapped: pipeline label, direct or indirect), as an
 *     independent count of the dispatches FrameStats reports;
 *   - the memory-traffic model's bytes (src/sim/traffic.ts): XPBD stages exact, collision
 *     stages estimated from the frame's counters.
 */
import { hashEntriesNeeded, medianTetExtent } from '../src/collision/gpu/spatialHash';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { acquireGpu, type GpuContext } from '../src/gpu/device';
import { parseRunArgs, type RunOptions } from '../src/runner/args';
import { runnerCcdPool } from '../src/runner/ccdWorkerBundle';
import { frameEntry, type FrameEntry } from '../src/runner/report';
import { readMeshFile } from '../src/runner/meshFile';
import { buildScene, checkSceneFlags, meshFileOf, readSceneMeshes, runParams } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { changesAt } from '../src/scenes/schedule';
import { effectiveCollisionMode, type SolverParams } from '../src/contract/params';
import { Simulation, type FrameStats } from '../src/sim/simulation';
import { collidersRunInCells } from '../src/sim/stages/materialStage';
import { dampsPerObject, predictJoinsFinalize, warmStartJoinsFinalize } from '../src/sim/stages/finalizeStage';
import { predictClearsPushDirections } from '../src/sim/stages/xpbdFrame';
import { collisionTrafficEstimate, partitionShape, planTraffic, xpbdClearBytes, xpbdFramePlan, type TrafficTotals, type XpbdFrameInput } from '../src/sim/traffic';

export interface BufferRecord {
  label: string;
  size: number;
  /** Destroyed since (a temporary, or a capacity that grew). */
  destroyed: boolean;
}

/** Wraps device.createBuffer: every buffer made from now on is listed (label, bytes, destroyed or live). */
export function recordBuffers(device: GPUDevice): BufferRecord[] {
  const list: BufferRecord[] = [];
  const original = device.createBuffer.bind(device);
  device.createBuffer = (d: GPUBufferDescriptor): GPUBuffer => {
    const record: BufferRecord = { label: d.label ?? '(no label)', size: d.size, destroyed: false };
    list.push(record);
    const buffer = original(d);
    const destroy = buffer.destroy.bind(buffer);
    buffer.destroy = (): undefined => {
      record.destroyed = true;
      destroy();
    };
    return buffer;
  };
  return list;
}

/** Bytes of the buffers still live. */
export function liveBytes(list: readonly BufferRecord[]): number {
  return list.reduce((a, b) => a + (b.destroyed ? 0 : b.size), 0);
}

/** Live bytes by label (or by `key` of the label), largest first. */
export function bytesByLabel(list: readonly BufferRecord[], key: (label: string) => string = (l) => l): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of list) if (!b.destroyed) out.set(key(b.label), (out.get(key(b.label)) ?? 0) + b.size);
  return new Map([...out].sort((a, b) => b[1] - a[1]));
}

export interface DispatchLog {
  /** Dispatches per pipeline label since the last reset. */
  byPipeline: Map<string, number>;
  total: number;
  reset(): void;
}

/**
 * Wraps device.createCommandEncoder so that compute passes count their dispatches by pipeline
 * label. The wrappers forward every other call to the real objects (Dawn's natives).
 */
export function recordDispatches(device: GPUDevice): DispatchLog {
  const log: DispatchLog = {
    byPipeline: new Map(),
    total: 0,
    reset() {
      this.byPipeline.clear();
      this.total = 0;
    },
  };
  const original = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (d?: GPUCommandEncoderDescriptor): GPUCommandEncoder => {
    const encoder = original(d);
    const beginComputePass = encoder.beginComputePass.bind(encoder);
    encoder.beginComputePass = (pd?: GPUComputePassDescriptor): GPUComputePassEncoder => {
      const pass = beginComputePass(pd);
      let pipeline = '(none)';
      const setPipeline = pass.setPipeline.bind(pass);
      const count = (): void => {
        log.byPipeline.set(pipeline, (log.byPipeline.get(pipeline) ?? 0) + 1);
        log.total++;
      };
      pass.setPipeline = (p: GPUComputePipeline): undefined => {
        pipeline = p.label || '(no label)';
        setPipeline(p);
      };
      const direct = pass.dispatchWorkgroups.bind(pass);
      pass.dispatchWorkgroups = (x: number, y?: number, z?: number): undefined => {
        count();
        direct(x, y, z);
      };
      const indirect = pass.dispatchWorkgroupsIndirect.bind(pass);
      pass.dispatchWorkgroupsIndirect = (b: GPUBuffer, offset: number): undefined => {
        count();
        indirect(b, offset);
      };
      return pass;
    };
    return encoder;
  };
  return log;
}

export interface HarnessFrame {
  entry: FrameEntry;
  stats: FrameStats;
  params: SolverParams;
  /** Dispatches seen by the pass wrappers this frame, by pipeline. */
  recorded: { total: number; byPipeline: Record<string, number> };
  /** Traffic model: XPBD stages (exact from the counts) and collision stages (estimate). */
  xpbd: TrafficTotals;
  /** What the XPBD plan was made from (re-plan it in another order). */
  xpbdInput: XpbdFrameInput;
  clearBytes: number;
  collisions: TrafficTotals | null;
  /** JavaScript time to record and submit the frame (ms), and the waits for the GPU before submitting. */
  encodeMs: number;
  blockingReadbacks: number;
}

export interface HarnessRun {
  scene: string;
  size: number | undefined;
  vertices: number;
  tets: number;
  edges: number;
  tetColours: number;
  edgeColours: number;
  boundaryPoints: number;
  hashEntriesPerTet: number;
  adapter: string;
  timing: string;
  startParams: SolverParams;
  buildMs: number;
  buffers: BufferRecord[];
  frames: HarnessFrame[];
}

let shared: Promise<{ ctx: GpuContext; buffers: BufferRecord[]; dispatches: DispatchLog }> | undefined;
let sharedPool: Awaited<ReturnType<typeof runnerCcdPool>> | undefined;

/** One device for the whole bench process (Dawn keeps one instance per process), wrapped once. */
export function benchGpu(): Promise<{ ctx: GpuContext; buffers: BufferRecord[]; dispatches: DispatchLog }> {
  shared ??= acquireGpu({
    onLost: (reason) => {
      console.error(`GPU device lost: ${reason}`);
      process.exit(3);
    },
  }).then((ctx) => ({ ctx, buffers: recordBuffers(ctx.device), dispatches: recordDispatches(ctx.device) }));
  return shared;
}

export function endBench(): void {
  sharedPool?.terminate();
}

/**
 * Runs `scene` with the runner's command-line flags `argv` (e.g. ['--tets', '100000',
 * '--substeps', '2']) for `frames` frames. `progress` hears what it does.
 */
export async function runScene(scene: string, argv: readonly string[], frames: number, progress: (m: string) => void = () => {}): Promise<HarnessRun> {
  const cmd = parseRunArgs(['--scene', scene, ...argv]);
  if (cmd.kind !== 'run') throw new Error('runScene: not a run');
  const o: RunOptions = cmd.options;
  const def = findScene(scene);
  checkSceneFlags(def, o);
  const tBuild0 = performance.now();
  const meshes = readSceneMeshes(def);
  let chosenSize = o.size;
  // --mesh, or the scene's default mesh file (octopus-pile's shared octopus), as the runner reads it.
  const meshFile = meshFileOf(def, o);
  const setup = buildScene(def, o, meshFile !== undefined ? readMeshFile(meshFile) : undefined, meshes, (m) => {
    progress(m);
    const s = /size (\d+)/.exec(m);
    if (s) chosenSize = Number(s[1]);
  });
  const run = runParams(setup, o);
  const m = setup.model;
  const sceneMesh = buildSceneMesh(m);
  // Cells a tet's box overlaps at rest, with the detect stage's default cell (the median tet extent).
  const hashEntriesPerTet = hashEntriesNeeded(sceneMesh.tets, sceneMesh.positions, medianTetExtent(sceneMesh.tets, sceneMesh.positions)) / m.tetCount;
  const { ctx, buffers, dispatches } = await benchGpu();
  buffers.length = 0;
  const first = { ...setup.params, ...run.initial };
  const usesWorkers = first.collisions && (effectiveCollisionMode(first) !== 'dcd' || first.bvhRebuildFrames > 0);
  if (usesWorkers) sharedPool ??= await runnerCcdPool(process.cwd());
  const sim = new Simulation(ctx, setup, usesWorkers && sharedPool ? { collisions: { workerJobs: sharedPool.factory } } : {});
  sim.setParams(run.initial);
  // The plans a hardware adapter records (the report projects to GPUs): FinalizeStage's warm start
  // beside finalize is off by default on software adapters only (it is slow there).
  (sim.solver.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as { warmStartNextSubstep: boolean }).warmStartNextSubstep = true;
  const startParams = { ...sim.params };
  const buildMs = performance.now() - tBuild0;
  progress(`${scene}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.tetColouring.colourCount} colours; built in ${(buildMs / 1000).toFixed(1)} s; GPU buffers ${(liveBytes(buffers) / 1e6).toFixed(1)} MB live`);
  const mesh = { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount };
  const out: HarnessFrame[] = [];
  // MaterialStage's choice: the colliders inside the partitioned cells when every vertex has a cell of its last visit.
  const collidersInCells = collidersRunInCells(m);
  const dampingPerObject = dampsPerObject(m);
  for (let f = 1; f <= frames; f++) {
    const change = changesAt(run.schedule, f - 1);
    if (change) sim.setParams(change);
    const p = { ...sim.params };
    dispatches.reset();
    const t0 = performance.now();
    const s = await sim.stepFrame();
    const wall = performance.now() - t0;
    const xin: XpbdFrameInput = {
      mesh,
      partition: partitionShape(p.constraint === 'neohookean' ? m.tetPartition : m.edgePartition),
      colours: p.constraint === 'neohookean' ? m.tetColouring.colourCount : m.edgeColouring.colourCount,
      substeps: p.substeps,
      iterations: p.iterations,
      solveOrder: p.solveOrder,
      constraint: p.constraint,
      colliders: setup.colliders.length,
      damping: p.damping,
      warmStart: p.warmStart,
      collidersInCells,
      dampingPerObject,
      predictInFinalize: predictJoinsFinalize(m), warmStartInFinalize: warmStartJoinsFinalize(m),
      pushDirections: predictClearsPushDirections(p, m.objectNames.length),
    };
    const mode = effectiveCollisionMode(p);
    const boundaryPoints = sceneMesh.boundaryVertices.length + (mode === 'ccd' ? 0 : sceneMesh.boundaryEdges.length / 2) + (p.recovery ? m.tetCount : 0);
    const c = s.collisions ?? null;
    out.push({
      entry: frameEntry(s, undefined, change),
      stats: s,
      params: p,
      recorded: { total: dispatches.total, byPipeline: Object.fromEntries(dispatches.byPipeline) },
      xpbd: planTraffic(xpbdFramePlan(xin), mesh),
      xpbdInput: xin,
      clearBytes: xpbdClearBytes(xin),
      collisions: c ? collisionTrafficEstimate(c, mesh, p.substeps, boundaryPoints, p.contactIterations, hashEntriesPerTet) : null,
      encodeMs: s.encodeMs,
      blockingReadbacks: s.blockingReadbacks,
    });
    progress(`${scene} frame ${f}/${frames}: ${wall.toFixed(0)} ms, ${s.dispatches} dispatches`);
  }
  // Copies: destroying the solver marks its buffers.
  const bufferSnapshot = buffers.map((b) => ({ ...b }));
  sim.destroy();
  const boundaryPoints = sceneMesh.boundaryVertices.length + sceneMesh.boundaryEdges.length / 2;
  return {
    scene,
    size: chosenSize,
    vertices: m.vertexCount,
    tets: m.tetCount,
    edges: m.edgeCount,
    tetColours: m.tetColouring.colourCount,
    edgeColours: m.edgeColouring.colourCount,
    boundaryPoints,
    hashEntriesPerTet,
    adapter: ctx.description,
    timing: sim.timestampQueries ? 'timestamp-query' : 'cpu-wall',
    startParams,
    buildMs,
    buffers: bufferSnapshot,
    frames: out,
  };
}
