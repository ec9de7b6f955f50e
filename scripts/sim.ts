/**
 * Headless runner: runs a scene for N frames on any WebGPU adapter (Node + Dawn) and writes
 * a JSON report (per-frame timings and counters; energy, lowest point, centre of mass,
 * volume and angular momentum every K frames) and optionally VTK frames.
 *
 *   npm run sim -- --help
 *   npm run sim -- --scene drop --mesh ../shared/meshes/Cube.t --frames 60 --out run.json --dump frames
 *   npm run sim -- --scene noodle-recovery --self-collision-from 30 --frames 60 --out noodle.json
 *   npm run sim -- --scene octopus-drop --frames 60 --out drop.json --csv drop.csv
 *
 * Flags: src/runner/args.ts (one table, printed by --help). A bad flag or input file exits
 * with status 2 and a message naming it; no GPU adapter or a lost device exits with status 3.
 * The paper's Table-1 row of the run (src/runner/table1.ts) goes to stderr at the end and into
 * the report as `table1`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { acquireGpu, GpuRejectedError, GpuUnavailableError, isSoftwareAdapter } from '../src/gpu/device';
import { softwareAdapterNote } from '../src/runner/softwareAdapterNote';
import { parseRunArgs, usageText, UsageError, type RunOptions } from '../src/runner/args';
import { VtkDumper } from '../src/runner/dump';
import { measureState, type StateMeasures } from '../src/runner/measure';
import { lumpedMasses, sliverTets, vertexMasses } from '../src/sim/model';
import { readMeshFile } from '../src/runner/meshFile';
import { frameEntry, summarize, type FrameEntry } from '../src/runner/report';
import { runFrames } from '../src/runner/frameLoop';
import { framesToCsv } from '../src/runner/reportCsv';
import type { RunReport } from '../src/runner/reportDocument';
import { table1Row } from '../src/runner/table1';
import { table1Text } from '../src/runner/table1Format';
import { buildScene, checkSceneFlags, meshFileOf, runParams, type RunParams } from '../src/runner/sceneSetup';
import { findScene, scenes } from '../src/scenes/registry';
import { changesAt } from '../src/scenes/schedule';
import { materialResolution, shortestEdgeOfObjects } from '../src/sim/resolution';
import { contactOffsetNote, meanBoundaryEdge } from '../src/collision/contactOffset';
import { idleFlagNotes, runParameterSets } from '../src/runner/idleFlags';
import { invertedBodyNote } from '../src/runner/invertedBodyNote';
import { impactCapNote } from '../src/runner/impactCapNote';
import type { SimSetup } from '../src/sim/setup';
import { Simulation } from '../src/sim/simulation';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { effectiveCollisionMode, paramsJsonReplacer } from '../src/contract/params';
import { runnerCcdPool } from '../src/runner/ccdWorkerBundle';
import { isAirMeshError } from '../src/collision/air/airMeshError';

function log(message: string): void {
  console.error(`sim: ${message}`);
}

/** Everything that can fail because of the command line or an input file, before the GPU starts. */
function prepare(o: RunOptions): { setup: SimSetup; sceneName: string; meshFile?: string; run: RunParams; dumper?: VtkDumper } {
  let scene;
  try {
    scene = findScene(o.scene);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  checkSceneFlags(scene, o);
  if (o.out !== undefined && !existsSync(dirname(o.out) || '.')) throw new UsageError(`--out ${o.out}: folder ${dirname(o.out)} does not exist`);
  if (o.csv !== undefined && !existsSync(dirname(o.csv) || '.')) throw new UsageError(`--csv ${o.csv}: folder ${dirname(o.csv)} does not exist`);
  // --mesh, or the scene's own mesh file (octopus-pile's shared octopus), read from the working folder.
  const meshFile = meshFileOf(scene, o);
  let mesh;
  try {
    mesh = meshFile !== undefined ? readMeshFile(meshFile) : undefined;
  } catch (e) {
    if (!(e instanceof UsageError) || o.mesh !== undefined) throw e;
    throw new UsageError(`${e.message} (scene ${scene.name} reads it by default, from the project root; --mesh FILE gives another)`);
  }
  for (const w of mesh?.warnings ?? []) log(`warning: ${w}`);
  const setup = buildScene(scene, o, mesh, undefined, log);
  for (const note of setup.notes ?? []) log(`note: ${note}`);
  const run = runParams(setup, o);
  const first = { ...setup.params, ...run.initial };
  warnUnresolvedMaterials(setup, first);
  for (const note of idleFlagNotes(o.params, runParameterSets(first, run.schedule), o.engine, setup.model.objectNames.length)) log(`note: ${note}`);
  const offsetNote = contactOffsetNote(first.contactOffset, Math.min(...shortestEdgeOfObjects(setup.model)));
  if (offsetNote) log(`note: ${offsetNote}`);
  reportSlivers(setup, first);
  reportLightVertices(setup, first);
  const dumper = o.dump !== undefined ? new VtkDumper(o.dump, setup.model, `${scene.name}${meshFile ? ` ${meshFile}` : ''}`) : undefined;
  return { setup, sceneName: scene.name, meshFile, run, dumper };
}

/** Lists the tets the run treats as slivers (SolverParams.sliverQuality, src/mesh/tetQuality.ts), per object. */
function reportSlivers(setup: SimSetup, params: SimSetup['params']): void {
  const m = setup.model;
  const probe = { ...m, sliverQuality: params.sliverQuality };
  const slivers = sliverTets(probe);
  if (slivers.length === 0) return;
  m.objectNames.forEach((name, o) => {
    const mine = slivers.filter((t) => m.tetObject[t] === o);
    if (mine.length === 0) return;
    const shown = mine.slice(0, 12).map((t) => `${t - m.objectTetOffsets[o]} (${m.relativeQuality[t].toFixed(4)})`).join(', ');
    log(`${name}: ${mine.length} sliver tet(s) below ${params.sliverQuality} x the median quality keep a millionth of their stiffness (--sliver-quality 0 keeps it): tet (relative quality) ${shown}${mine.length > 12 ? ', ...' : ''}`);
  });
}

/** Counts the vertices the run's light-vertex floor raises (SolverParams.vertexMassFloor, src/sim/vertexMassFloor.ts), per object. */
function reportLightVertices(setup: SimSetup, params: SimSetup['params']): void {
  const m = setup.model;
  if (!(params.vertexMassFloor > 0)) return;
  const lumped = lumpedMasses(m);
  const raised = vertexMasses({ ...m, vertexMassFloor: params.vertexMassFloor });
  m.objectNames.forEach((name, o) => {
    const mine: number[] = [];
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) if (raised[v] > lumped[v]) mine.push(v);
    if (mine.length === 0) return;
    const shown = mine.slice(0, 12).map((v) => `${v - m.objectVertexOffsets[o]} (${(lumped[v] / raised[v]).toFixed(3)})`).join(', ');
    log(`${name}: ${mine.length} light vertex(es) raised toward ${params.vertexMassFloor} x their tet neighbours' mean mass, taken from those neighbours (each keeps at least ${params.vertexMassFloor} of its own) (--vertex-mass-floor 0 keeps the lumped masses): vertex (lumped / raised mass) ${shown}${mine.length > 12 ? ', ...' : ''}`);
  });
}

/** Says when an object is stiffer than the substeps and iterations resolve (src/sim/resolution.ts). */
function warnUnresolvedMaterials(setup: SimSetup, params: SimSetup['params']): void {
  const m = setup.model;
  const shortest = shortestEdgeOfObjects(m, true);
  // Copies of one mesh and material get the same words: said once, naming them all (the
  // octopus box printed its four octopi's identical warning four times).
  const named = new Map<string, string[]>();
  m.objectNames.forEach((name, o) => {
    const { warning } = materialResolution(m.materials[o], shortest[o], { ...params, objects: m.objectNames.length });
    if (warning) named.set(warning, [...(named.get(warning) ?? []), name]);
  });
  for (const [warning, names] of named) log(`warning: ${names.join(', ')}: ${warning}`);
}

/** The engine the run steps: the GPU solver, or the float64 CPU reference (--engine cpu). */
interface RunEngine {
  sim: Simulation | CpuSimulation;
  adapter: string;
  timestamps: boolean;
  close(): void;
}

async function startEngine(o: RunOptions, setup: SimSetup, first: SimSetup['params']): Promise<RunEngine> {
  if (o.engine === 'cpu') {
    const sim = new CpuSimulation(setup);
    return { sim, adapter: sim.description, timestamps: false, close: () => {} };
  }
  const ctx = await acquireGpu({
    onLost: (reason) => {
      log(`GPU device lost: ${reason}`);
      process.exit(3);
    },
  });
  const softwareNote = softwareAdapterNote(isSoftwareAdapter(ctx), ctx.description);
  if (softwareNote) log(`note: ${softwareNote}`);
  // CCD's broad phase and the BVH rebuilds run in a pool of worker threads when the run starts with
  // collisions on and either of them (hybrid or ccd mode, a rebuild cadence); otherwise (or if a
  // schedule turns them on later) on this thread.
  const usesWorkers = first.collisions && (effectiveCollisionMode(first) !== 'dcd' || first.bvhRebuildFrames > 0);
  const ccdPool = usesWorkers ? await runnerCcdPool(process.cwd()) : undefined;
  if (ccdPool) log(`collision jobs (CCD broad phase, BVH rebuilds) in ${ccdPool.size} worker thread(s)`);
  const sim = new Simulation(ctx, setup, ccdPool ? { collisions: { workerJobs: ccdPool.factory } } : {});
  return {
    sim,
    adapter: ctx.description,
    timestamps: sim.timestampQueries,
    close: () => {
      sim.destroy();
      ccdPool?.terminate();
      ctx.device.destroy();
    },
  };
}

async function run(o: RunOptions): Promise<void> {
  const { setup, sceneName, meshFile, run: runP, dumper } = prepare(o);
  const tBuild = performance.now();
  // The partition's pass rule is taken when the GPU solver is built (SolverParams.partitionBalance).
  setup.params = { ...setup.params, partitionBalance: runP.initial.partitionBalance ?? setup.params.partitionBalance };
  const engine = await startEngine(o, setup, { ...setup.params, ...runP.initial });
  const sim = engine.sim;
  sim.setParams(runP.initial);
  // The parameters of the first frame; the schedule (in the report beside them) changes them later.
  const startParams = { ...sim.params };
  const buildMs = performance.now() - tBuild;
  const m = setup.model;
  log(`${sceneName}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.edgeCount} edges, ${m.tetColouring.colourCount} tet colours, ${m.edgeColouring.colourCount} edge colours; ${o.engine} engine: ${engine.adapter}; timestamps ${engine.timestamps ? 'yes' : 'no'}`);

  // The masses the solver moves the vertices with (light vertices raised: vertexMassFloor), as the
  // energy's; computed again only when the floor changes (the solver keeps model.vertexMassFloor).
  let massFloor = NaN;
  let mass: Float64Array = new Float64Array(0);
  const sample = async (frame: number, time: number): Promise<StateMeasures> => {
    const x = await sim.readPositions();
    const v = await sim.readVelocities();
    dumper?.write(frame, time, Float32Array.from(x));
    if (m.vertexMassFloor !== massFloor) {
      massFloor = m.vertexMassFloor;
      mass = vertexMasses(m);
    }
    return measureState(m, mass, x, v, sim.params);
  };
  const initial = await sample(0, 0);
  const frames: FrameEntry[] = [];
  let final = initial;
  let lastProgress = performance.now();
  let impactCapNoted = false;
  const meanEdge = meanBoundaryEdge(setup.model);
  // --frames-in-flight 2: frame f + 1 is submitted before frame f is read back (src/runner/frameLoop.ts).
  await runFrames(sim, {
    frames: o.frames,
    framesInFlight: o.framesInFlight,
    // Scheduled parameter changes go in between frames: once f - 1 frames are submitted.
    beforeFrame: (f) => {
      const change = changesAt(runP.schedule, f - 1);
      if (change) {
        sim.setParams(change);
        log(`after ${f - 1} frames (t = ${((f - 1) * sim.params.dt).toFixed(4)} s): ${JSON.stringify(change)}`);
      }
      return change;
    },
    stateDue: (f) => f % o.every === 0 || f === o.frames,
    afterFrame: async (f, s, change) => {
      for (const msg of s.stopped) log(msg);
      for (const msg of s.collisions?.warnings ?? []) log(`frame ${f}: ${msg}`);
      const state = f % o.every === 0 || f === o.frames ? await sample(f, s.time) : undefined;
      if (state) final = state;
      frames.push(frameEntry(s, state, change));
      if (!impactCapNoted && s.closingSpeed !== undefined) {
        const note = impactCapNote(f, s.closingSpeed, s.substeps, sim.params, meanEdge);
        if (note) {
          log(`note: ${note} (said once a run)`);
          impactCapNoted = true;
        }
      }
      if (performance.now() - lastProgress > 2000) {
        lastProgress = performance.now();
        log(`frame ${f}/${o.frames}, t = ${s.time.toFixed(3)} s${state ? `, total energy ${state.energy.total.toExponential(4)}${state.fastestVertex ? `, fastest vertex ${state.fastestVertex.vertex} at ${state.fastestVertex.speed.toFixed(2)} m/s` : ''}` : ''}`);
      }
    },
  });

  const summary = summarize(frames, initial, final, sim.stoppedMessages);
  const counts = { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount, tetColours: m.tetColouring.colourCount, edgeColours: m.edgeColouring.colourCount };
  const table1 = table1Row({ frames, counts, params: startParams });
  // Typed as the reader's document (src/runner/reportReader.ts checks files of this shape).
  const report: RunReport = {
    source: 'runner',
    scene: sceneName,
    mesh: meshFile ?? null,
    engine: o.engine,
    adapter: engine.adapter,
    timing: engine.timestamps ? 'timestamp-query' : 'cpu-wall',
    params: startParams,
    schedule: runP.schedule,
    materials: m.objectNames.map((name, i) => ({ object: name, ...m.materials[i] })),
    colliders: setup.colliders.map((c) => c.kind),
    every: o.every,
    dump: o.dump ?? null,
    counts,
    buildMs,
    initial: { frame: 0, time: 0, state: initial },
    frames,
    summary,
    table1,
  };
  const json = JSON.stringify(report, paramsJsonReplacer, 2);
  if (o.out !== undefined) writeFileSync(o.out, json);
  else console.log(json);
  if (o.csv !== undefined) writeFileSync(o.csv, framesToCsv(frames));
  const bb = summary.boundingBox;
  log(`${o.frames} frames, mean ${summary.meanFrameMs.toFixed(1)} ms/frame, bbox y [${bb.min[1].toFixed(3)}, ${bb.max[1].toFixed(3)}], total energy ${initial.energy.total.toExponential(4)} -> ${final.energy.total.toExponential(4)}, non-finite ${summary.nonFiniteVertices}${summary.collisions ? `, contacts ${summary.collisions.totalContacts} (max ${summary.collisions.maxContactsPerFrame} a frame)` : ''}${dumper ? `; VTK frames in ${dumper.dir}` : ''}${o.csv !== undefined ? `; CSV in ${o.csv}` : ''}`);
  log(`Table 1 (paper 000), ${o.frames} frames:\n${table1Text(table1)}`);
  const flat = invertedBodyNote(final.invertedTets ?? 0, setup.model.tetCount, sim.params.recovery);
  if (flat) log(`note: frame ${o.frames}: ${flat}`);
  engine.close();
}

try {
  const cmd = parseRunArgs(process.argv.slice(2));
  if (cmd.kind === 'help') console.log(usageText(scenes.map((s) => s.name)));
  else if (cmd.kind === 'list') for (const s of scenes) console.log(s.name);
  else await run(cmd.options);
} catch (e) {
  if (e instanceof GpuUnavailableError || e instanceof GpuRejectedError) {
    log(`${e.message} (--engine cpu runs every scene on the float64 CPU reference, with no GPU or driver)`);
    process.exit(3);
  }
  if (isAirMeshError(e)) {
    // Bad input for air mode (objects touching at rest, a surface the mesher cannot recover): the
    // message names the object and element; the other collision modes take the scene as it is.
    log(`${e.message} (--collision-mode air needs an air mesh between the objects; the other collision modes run this scene)`);
    process.exit(2);
  }
  if (!(e instanceof UsageError)) throw e;
  log(e.message);
  process.exit(2);
}
