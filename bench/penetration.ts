/**
 * The three penetration methods side by side (issue 22; paper 000 Figs. 22-23, Fisher and Lin
 * 2001): exact shortest path, rest-pose closest point (restClosest), deformed distance field
 * (ddf), on cube-on-cuboid, beam-twist, a 2-octopus pile and a strip folded onto itself (the
 * state of Fig. 23 built directly as well). Per scene a common prefix runs
 * with 'exact' (the paper's Fig. 23 protocol: simulate with the shortest path until contacts
 * form, then switch), then each method continues from the same state. Physics on the float64 CPU
 * engine (CpuSolver: DCD + the method's targets + eq. 6 contacts), the same algorithms as the GPU
 * time step, because SwiftShader runs these scenes at 7-14 s a frame on this machine.
 *
 * Per method and scene:
 *  - penetrating boundary vertices per frame: the brute-force counter (tests/support/intersectionCounter.ts,
 *    no code shared with detection), mean / max / last over the method's frames;
 *  - depth error against the exact shortest path: every query of each frame's last substep is
 *    answered again by the exact query at the same positions; |d_method - d_exact| mean and max,
 *    and the distance between the two targets (mean), over the queries both answered;
 *  - query time per contact: the CPU twin's time for the last substep's queries (ms per 1000),
 *    and the GPU kernel's (SwiftShader, CPU-emulated: compare ratios only) on the busiest
 *    frame's list repeated to at least 20,000 queries (so that the batch's upload and readback
 *    do not dominate), median of 5 batches;
 *  - energy: the largest total energy and vertex speed over the method's frames (Fig. 23's blow-up);
 *  - for cube-on-cuboid, the cube's centre (x, y) at the end (Fig. 22: down the slope or not).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/penetration.ts \
 *     [--scenes cube-on-cuboid,beam-twist,octopus-pile,folded-strip] [--methods exact,restClosest,ddf]
 *     [--beam-resolution 20] [--beam-substeps 50] [--quick]
 */
import { CpuSpb, CpuSpbResults } from '../src/collision/cpu/spbCpu';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { acquireGpu } from '../src/gpu/device';
import { PENETRATION_METHODS, type PenetrationMethod } from '../src/penetration/methods';
import { penetrationKernels } from '../src/penetration/gpu/penetrationGpu';
import { PenetrationTargets } from '../src/penetration/penetrationTargets';
import { readMeshFile } from '../src/runner/meshFile';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import type { SceneSetup } from '../src/scenes/types';
import { CpuSolver } from '../src/sim/cpuSolver';
import { totalEnergy } from '../src/sim/energy';
import { createSpbMeshData, QUERY_FOUND, shortestPathToBoundary, SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, updateSpbMeshData } from '../src/spb';
import { SpbQueryGpu } from '../src/spb/gpu/spbQueryGpu';
import type { CpuQueryList } from '../src/collision/cpu/queryList';
import { countIntersections } from '../tests/support/intersectionCounter';
import { latticePart, uStrip } from '../tests/unit/collision/scenes';
import { buildModel } from '../src/sim/model';
import { defaultParams } from '../src/contract/params';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/penetration.ts\n' +
    '  [--scenes cube-on-cuboid,beam-twist,octopus-pile,folded-strip] [--methods exact,restClosest,ddf] [--beam-resolution 20] [--beam-substeps 50] [--quick]',
  values: ['--scenes', '--methods', '--beam-resolution', '--beam-substeps'],
  switches: ['--quick'],
});

interface SceneRun {
  name: string;
  build: () => SceneSetup;
  /** Frames with 'exact' before the methods branch off, and frames each method runs after. */
  prefix: number;
  frames: number;
  /** Sets the start state before the prefix (a posed state; default the model's rest positions). */
  pose?: (s: CpuSolver) => void;
  /** The prefix ends early at the first frame with DCD queries (contacts formed: Fig. 23's switch). */
  untilContact?: boolean;
}

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const quick = args.includes('--quick');
const methods = arg('methods', PENETRATION_METHODS.join(',')).split(',') as PenetrationMethod[];
const sceneNames = arg('scenes', 'cube-on-cuboid,beam-twist,octopus-pile,folded-strip').split(',');

const SCENES: Record<string, SceneRun> = {
  // Fig. 22: the arch forms over 1 s under the cube, which then slides down its slope (2.5 s).
  'cube-on-cuboid': { name: 'cube-on-cuboid', build: () => findScene('cube-on-cuboid').build({ meshes: readSceneMeshes(findScene('cube-on-cuboid')) }), prefix: quick ? 15 : 20, frames: quick ? 30 : 130 },
  // Fig. 23: the thin beam twisted (and its ends closing in) until it coils onto itself, then each method.
  'beam-twist': { name: 'beam-twist', build: beamTwistRun, prefix: 400, untilContact: true, frames: quick ? 10 : 40 },
  // A formed self-collision built directly: tests/unit/penetration/fig23SelfContact.test.ts's strip.
  'folded-strip': { name: 'folded-strip', build: foldedStrip, pose: poseFoldedStrip, prefix: 0, frames: quick ? 10 : 20 },
  'octopus-pile': { name: 'octopus-pile (2 octopi)', build: () => findScene('octopus-pile').build({ copies: 2, mesh: readMeshFile('../shared/meshes/octopus_2KFaces.t') }), prefix: quick ? 20 : 40, frames: quick ? 20 : 60 },
};

/** beam-twist at --beam-resolution (20) with --beam-substeps (the scene's 50) a frame, DCD only; at 10 or 20 substeps main's CPU engine lets the coil pass through itself. */
function beamTwistRun(): SceneSetup {
  const setup = findScene('beam-twist').build({ resolution: Number(arg('beam-resolution', '20')) });
  // Collision mode dcd: the methods answer DCD queries only, and a CPU engine with CCD (issue 19) makes none here in hybrid mode.
  setup.params = { ...setup.params, substeps: Number(arg('beam-substeps', String(setup.params.substeps))), collisionMode: 'dcd' };
  return setup;
}

/** A 30 x 2 x 2-cell strip (10 cm square section), straight at rest, no gravity, damping or friction. */
function foldedStrip(): SceneSetup {
  const S = 0.1;
  const rest = latticePart([30, 2, 2], (i, j, k) => [(S * i) / 4, S * (j / 2 - 0.5), (S * k) / 2]);
  const model = buildModel([{ name: 'strip', positions: rest.positions, tets: rest.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 } }]);
  return { model, colliders: [], handles: [], params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, gravity: [0, 0, 0], damping: 0, friction: 0 }) };
}

/** Posed folded into a U, its upper arm 3 cm into the lower one (tests/unit/collision/scenes.ts uStrip). */
function poseFoldedStrip(s: CpuSolver): void {
  const posed = uStrip(0.13);
  s.x.set(posed.positions);
  s.x0.set(posed.positions);
}

interface MethodStats {
  penetrating: number[];
  depthError: number[];
  targetGap: number[];
  exactDepth: number[];
  cpuQueryMs: number;
  cpuQueries: number;
  maxEnergy: number;
  maxSpeed: number;
  contacts: number;
  noTarget: number;
  /** Total energy and penetrating vertices every 5 frames (the Fig. 23 trace). */
  trace: string[];
  busiest: { points: Float64Array; tets: Uint32Array; e1: Int32Array; e2: Int32Array; positions: Float64Array } | null;
  end: string;
}

/** The list's queries as arrays (for the exact re-query and the GPU batch). */
function copyList(list: CpuQueryList): { points: Float64Array; tets: Uint32Array; e1: Int32Array; e2: Int32Array } {
  const n = list.count;
  const points = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) points.set([list.px[i], list.py[i], list.pz[i]], 3 * i);
  return { points, tets: Uint32Array.from(list.tet.subarray(0, n)), e1: Int32Array.from(list.exclude.subarray(0, n)), e2: Int32Array.from(list.exclude2.subarray(0, n)) };
}

function cloneState(from: CpuSolver, to: CpuSolver): void {
  to.x.set(from.x);
  to.x0.set(from.x0);
  to.v.set(from.v);
  to.time = from.time;
  to.frame = from.frame;
}

function runMethod(run: SceneRun, start: CpuSolver, method: PenetrationMethod): MethodStats {
  const setup = run.build();
  setup.params = { ...setup.params, penetration: method };
  const s = new CpuSolver(setup);
  cloneState(start, s);
  const m = s.model;
  const st: MethodStats = { penetrating: [], depthError: [], targetGap: [], exactDepth: [], cpuQueryMs: 0, cpuQueries: 0, maxEnergy: -Infinity, maxSpeed: 0, contacts: 0, noTarget: 0, trace: [], busiest: null, end: '' };
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, m.tetCount);
  const cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
  let spb: CpuSpb | null = null;
  const timed = new CpuSpbResults();
  for (let f = 0; f < run.frames; f++) {
    s.stepFrame();
    const c = countIntersections({ positions: s.x, tets: m.tets, tetObject: m.tetObject });
    st.penetrating.push(c.vertices);
    const e = totalEnergy(m, s.x, s.v, { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity });
    st.maxEnergy = Math.max(st.maxEnergy, e.total);
    if ((f + 1) % 5 === 0) st.trace.push(`${e.total.toFixed(1)} (${c.vertices})`);
    for (let i = 0; i < m.vertexCount; i++) st.maxSpeed = Math.max(st.maxSpeed, Math.hypot(s.v[3 * i], s.v[3 * i + 1], s.v[3 * i + 2]));
    st.contacts += s.collisionCounters.contacts;
    st.noTarget += s.collisionCounters.noPath;
    const stage = s.collisionStage;
    if (!stage || stage.queries.count === 0) continue;
    const list = stage.queries, res = stage.results, data = stage.data;
    // The method's query time on this list (CPU twin), at the positions it was answered at.
    if (!spb) {
      const targets = new PenetrationTargets(stage.mesh, m.restPositions);
      // Built once per scene (their cost is reported apart): not part of the query time.
      if (method === 'ddf') void targets.field;
      else if (method === 'restClosest') void targets.rest;
      spb = new CpuSpb(data, targets);
    }
    spb.configure({ ...s.params, penetration: method });
    const t0 = performance.now();
    spb.run(list, timed);
    st.cpuQueryMs += performance.now() - t0;
    st.cpuQueries += list.count;
    for (let i = 0; i < list.count; i++) {
      if (res.status[i] !== QUERY_FOUND) continue;
      if (shortestPathToBoundary(data, ws, cfg, list.px[i], list.py[i], list.pz[i], list.tet[i], list.exclude[i], list.exclude2[i]) !== QUERY_FOUND) continue;
      const dExact = Math.sqrt(ws.resultDistance2);
      const dx = res.s[3 * i] - list.px[i], dy = res.s[3 * i + 1] - list.py[i], dz = res.s[3 * i + 2] - list.pz[i];
      st.depthError.push(Math.abs(Math.hypot(dx, dy, dz) - dExact));
      st.exactDepth.push(dExact);
      st.targetGap.push(Math.hypot(res.s[3 * i] - ws.resultX, res.s[3 * i + 1] - ws.resultY, res.s[3 * i + 2] - ws.resultZ));
    }
    if (!st.busiest || list.count > st.busiest.tets.length) st.busiest = { ...copyList(list), positions: Float64Array.from(data.positions) };
  }
  if (run.name === 'cube-on-cuboid') {
    const v0 = m.objectVertexOffsets[1], v1 = m.objectVertexOffsets[2];
    const c = [0, 1].map((k) => { let a = 0; for (let v = v0; v < v1; v++) a += s.x[3 * v + k]; return a / (v1 - v0); });
    st.end = `cube centre x ${c[0].toFixed(3)} y ${c[1].toFixed(3)}`;
  }
  return st;
}

const mean = (a: number[]): number => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : 0);
const max = (a: number[]): number => a.reduce((x, y) => Math.max(x, y), 0);
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const ctx = await acquireGpu();
console.log(`adapter: ${ctx.description} (GPU query times: ratios only on a software adapter)`);
for (const name of sceneNames) {
  const run = SCENES[name];
  if (!run) throw new Error(`unknown scene ${name} (have ${Object.keys(SCENES).join(', ')})`);
  const start = new CpuSolver(run.build());
  run.pose?.(start);
  const t0 = performance.now();
  for (let f = 0; f < run.prefix; f++) {
    start.stepFrame();
    if (run.untilContact && start.collisionCounters.spbQueries > 0) break;
  }
  console.log(`\n${run.name}: ${start.model.vertexCount} vertices, ${start.model.tetCount} tets; ${start.frame} frames with exact (${((performance.now() - t0) / 1000).toFixed(0)} s), then ${run.frames} frames per method`);
  console.log('| method | penetrating vertices / frame (mean, max, last) | depth error vs exact (mean, max) | target gap (mean) | exact depth (mean) | CPU query ms / 1000 | GPU kernel ms / 1000 (SwiftShader) | rest pose / field build (ms) | targets / no target | max energy (J) | max speed (m/s) | end |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const traces: string[] = [];
  for (const method of methods) {
    const st = runMethod(run, start, method);
    traces.push(`| ${method} | ${st.trace.join(' | ')} |`);
    let gpuMs = NaN;
    let setupMs = 0;
    if (st.busiest && st.busiest.tets.length > 0) {
      const setup = run.build();
      const stageMesh = buildSceneMesh(setup.model);
      const data = createSpbMeshData(stageMesh);
      updateSpbMeshData(data, st.busiest.positions);
      const targets = new PenetrationTargets(stageMesh, setup.model.restPositions);
      const gpu = new SpbQueryGpu(ctx.device, data, { penetration: penetrationKernels(targets) });
      const b = st.busiest, n = b.tets.length, copies = Math.ceil(20000 / n);
      const tile = <T extends Float64Array | Uint32Array | Int32Array>(a: T, make: (len: number) => T): T => {
        const out = make(a.length * copies);
        for (let k = 0; k < copies; k++) out.set(a, k * a.length);
        return out;
      };
      const points = tile(b.points, (l) => new Float64Array(l)), tets = tile(b.tets, (l) => new Uint32Array(l));
      const e1 = tile(b.e1, (l) => new Int32Array(l)), e2 = tile(b.e2, (l) => new Int32Array(l));
      const times: number[] = [];
      for (let k = 0; k < 6; k++) {
        const t = performance.now();
        await gpu.run(points, tets, e1, { exclude2: e2, method });
        if (k > 0) times.push(performance.now() - t);
      }
      gpu.destroy();
      gpuMs = (1000 * median(times)) / tets.length;
      setupMs = targets.setupMs;
    }
    const p = st.penetrating;
    console.log(
      `| ${method} | ${mean(p).toFixed(1)}, ${max(p)}, ${p[p.length - 1]} | ${mean(st.depthError).toExponential(2)}, ${max(st.depthError).toExponential(2)} | ${mean(st.targetGap).toExponential(2)} | ${mean(st.exactDepth).toExponential(2)} | ` +
        `${st.cpuQueries ? ((1000 * st.cpuQueryMs) / st.cpuQueries).toFixed(1) : '-'} | ${Number.isFinite(gpuMs) ? gpuMs.toFixed(1) : '-'} (${st.busiest?.tets.length ?? 0} queries) | ${setupMs.toFixed(0)} | ${st.contacts} / ${st.noTarget} | ${st.maxEnergy.toFixed(2)} | ${st.maxSpeed.toFixed(2)} | ${st.end} |`,
    );
  }
  const e0 = totalEnergy(start.model, start.x, start.v, { constraint: start.params.constraint, springCompliance: start.params.springCompliance, gravity: start.params.gravity }).total;
  console.log(`\nTotal energy J (penetrating vertices) every 5 frames after the branch (${e0.toFixed(1)} J at the branch):`);
  console.log(`| method | ${traces.length ? Array.from({ length: run.frames / 5 }, (_, k) => `+${5 * (k + 1)}`).join(' | ') : ''} |`);
  console.log(`|---|${'---|'.repeat(Math.floor(run.frames / 5))}`);
  for (const t of traces) console.log(t);
}
ctx.device.destroy();
