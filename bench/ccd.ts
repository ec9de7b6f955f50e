/**
 * CCD costs on the CPU, for the hybrid CCD + DCD time step (paper 000 supplement Alg. 5):
 *
 * 1. narrow phase: exact queries per second (vertexFaceCcd / edgeEdgeCcd) over every query of
 *    ../shared/ccd-queries (hard, degenerate cases: a worst case, not a typical frame), on one core
 *    (this thread) and split across the CCD worker pool (CcdJobs.narrowPhase);
 * 2. broad phase: swept boxes + candidate pairs (broadPhase.ts) on piles of copies of
 *    ../shared/meshes/octopus_2KFaces.t (positions as placed by the pile scene builder, every vertex
 *    moving at the case's speed downward, horizon --horizon s, gravity -9.81 y): ms on this thread,
 *    ms in the worker (jobMs) and round trip (shared buffers and transfer), and candidate counts.
 *    --cases lists copies@speed (m/s). Pairs of different octopi come from world boxes grown by |v| H
 *    on every side; pairs within one octopus from boxes in its own moving frame (sweptCandidates,
 *    what the time step runs); the last column counts the pairs world boxes alone would give. The
 *    first job finds and keeps each octopus's own pairs (ownPairCache.ts, --self-pair-skin: the
 *    skin as a fraction of the margin, 0 = none); each later one sees the pile a frame further down.
 *    The worst case for kept pairs: each job every vertex jiggled by up to 6 mm (all lists rebuilt).
 *    Also the falling job followed by self-collision culling (enhanced, 1 mm deviation bound), as
 *    the time step runs it by default.
 *
 * 3. step (--sections step): the time step on a pile of octopi with hybrid, DCD only and CCD only:
 *    phase shares, candidate pairs, contacts, the broad-phase job's time and the frame's wait.
 *
 * 4. parts (--sections parts): the split of a broad phase across a pool (ccdJobs.ts splitParts)
 *    with each part timed alone on this thread, for pools of --parts-workers sizes: what a machine
 *    with that many free cores would wait for (the longest part), whatever this machine's cores;
 *    each part also with the default self-collision culling after it, as the time step runs it.
 *
 * 5. job (--sections job): the job the time step runs by default (culling on), on this thread, for
 *    --jobs jobs of the pile falling and at impact (each octopus's lowest 15 cm stopped, the rest
 *    still falling): medians of the job and of its phases. --job-parts K: instead, each job split as
 *    a pool of K workers splits it (splitParts), only the parts, in turn on this thread: the longest
 *    part is what K free cores would wait for.
 *
 * Each section is a function returning rows.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/ccd.ts [--cases 4@2,16@2,4@0.2,16@0.2,50@0.2] [--horizon 0.0333] [--margin 0.001] [--self-pair-skin F] [--repeat 5] [--pool N] [--sections narrow,broad,step,parts,job] [--jobs 24] [--scenarios falling,impact,landed] [--own-margin M] [--self-pair-frame own|adaptive] [--step-copies 2] [--step-frames 12] [--parts-workers 2,4,7] [--job-parts K]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { edgeEdgeCcd, vertexFaceCcd } from '../src/collision/ccd';
import { ccdCandidates, ccdTopologyOf, sweptCandidates, sweptVertexBoxes, type CcdTopology, type MotionBound } from '../src/collision/ccd/broadPhase';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { culledSweptCandidates } from '../src/collision/selfCulling/broadPhaseCulling';
import { readMeshFile } from '../src/runner/meshFile';
import { pileScene, type PileItem } from '../src/scenes/pile';
import { defaultParams } from '../src/contract/params';
import { CcdJobs, splitParts } from '../src/workers/ccdJobs';
import { nodeCcdPool, nodePoolSize } from '../src/workers/ccdNodePool';
import type { CcdQueryKind, CcdWorkerApi } from '../src/workers/ccdWorkerApi';
import type { WorkerPool } from '../src/workers/workerPool';
import { ccdWorkerBundle } from '../src/runner/ccdWorkerBundle';
import { impactFallSpeed } from './impactRamp';
import { acquireGpu } from '../src/gpu/device';
import { GpuSolver } from '../src/sim/gpuSolver';
import { poolJobs } from '../src/workers/collisionJobsPool';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/ccd.ts [--cases 4@2,16@2,4@0.2,16@0.2,50@0.2] [--horizon 0.0333] [--margin 0.001] [--self-pair-skin F] [--repeat 5] [--pool N] [--sections narrow,broad,step,parts,job] [--jobs 24] [--scenarios falling,impact,landed] [--own-margin M] [--self-pair-frame own|adaptive] [--step-copies 2] [--step-frames 12] [--parts-workers 2,4,7] [--job-parts K]',
  values: ['--cases', '--horizon', '--margin', '--self-pair-skin', '--repeat', '--pool', '--sections', '--jobs', '--scenarios', '--own-margin', '--self-pair-frame', '--step-copies', '--step-frames', '--parts-workers', '--job-parts'],
});

// This file runs as dist/node/ccd.mjs (scripts/run-ts.mjs): the project root is two folders up.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const QUERIES_DIR = resolve(ROOT, '../shared/ccd-queries');
const OCTOPUS = resolve(ROOT, '../shared/meshes/octopus_2KFaces.t');

const args = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

type Row = (string | number)[];

function table(header: string[], rows: Row[]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function best(repeat: number, f: () => void): number {
  let ms = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    f();
    ms = Math.min(ms, performance.now() - t0);
  }
  return ms;
}

async function bestAsync<T>(repeat: number, f: () => Promise<T>): Promise<{ ms: number; last: T }> {
  let ms = Infinity;
  let last!: T;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    last = await f();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { ms, last };
}

// ---- Section 1: narrow phase ---------------------------------------------------------------

/** Every query of the shared benchmark, 24 f64 each, per kind. Values are n / 2^k: the division is exact. */
export function loadSharedCcdQueries(): Record<CcdQueryKind, Float64Array> {
  const out: Record<CcdQueryKind, number[]> = { vertexFace: [], edgeEdge: [] };
  const sets = readdirSync(QUERIES_DIR).filter((s) => statSync(join(QUERIES_DIR, s)).isDirectory());
  for (const set of sets) {
    for (const [folder, kind] of [['vertex-face', 'vertexFace'], ['edge-edge', 'edgeEdge']] as const) {
      const dir = join(QUERIES_DIR, set, folder);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv'))) {
        const rows = readFileSync(join(dir, file), 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
        if (rows.length % 8 !== 0) throw new Error(`${join(dir, file)}: ${rows.length} rows, not 8 per query`);
        for (const row of rows) {
          const c = row.split(',');
          for (let k = 0; k < 3; k++) out[kind].push(Number(BigInt(c[2 * k])) / Number(BigInt(c[2 * k + 1])));
        }
      }
    }
  }
  return { vertexFace: Float64Array.from(out.vertexFace), edgeEdge: Float64Array.from(out.edgeEdge) };
}

export function narrowPhaseInThread(queries: Record<CcdQueryKind, Float64Array>, repeat: number): Row[] {
  return (['vertexFace', 'edgeEdge'] as const).map((kind) => {
    const q = queries[kind];
    const n = q.length / 24;
    const ccd = kind === 'vertexFace' ? vertexFaceCcd : edgeEdgeCcd;
    let hits = 0;
    const ms = best(repeat, () => {
      hits = 0;
      for (let i = 0; i < n; i++) if (ccd(q.subarray(24 * i, 24 * i + 24)).hit) hits++;
    });
    return [kind, 'this thread (1 core)', n, hits, ms.toFixed(1), Math.round((1000 * n) / ms)];
  });
}

export async function narrowPhaseInPool(jobs: CcdJobs, poolSize: number, queries: Record<CcdQueryKind, Float64Array>, repeat: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ['vertexFace', 'edgeEdge'] as const) {
    const q = queries[kind];
    const n = q.length / 24;
    await jobs.narrowPhase(kind, q); // warm the workers' JIT
    const { ms, last } = await bestAsync(repeat, () => jobs.narrowPhase(kind, q));
    const hits = last.filter((t) => t >= 0).length;
    rows.push([kind, `pool of ${poolSize}`, n, hits, ms.toFixed(1), Math.round((1000 * n) / ms)]);
  }
  return rows;
}

// ---- Section 2: broad phase ----------------------------------------------------------------

export interface PileCase {
  copies: number;
  speed: number;
  topology: CcdTopology;
  positions: Float32Array;
  velocities: Float32Array;
}

/** `copies` octopi stacked by the pile scene builder (scenes/pile.ts), all moving at `speed` m/s down. */
export function octopusPile(copies: number, speed: number): PileCase {
  const mesh = readMeshFile(OCTOPUS);
  const material = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
  const items: PileItem[] = Array.from({ length: copies }, (_, i) => ({ name: `octopus ${i + 1}`, positions: mesh.positions, tets: mesh.tets, material }));
  const { model } = pileScene(items, defaultParams({}));
  const topology = ccdTopologyOf(buildSceneMesh(model));
  const positions = new Float32Array(4 * model.vertexCount);
  const velocities = new Float32Array(4 * model.vertexCount);
  for (let i = 0; i < model.vertexCount; i++) {
    for (let k = 0; k < 3; k++) positions[4 * i + k] = model.restPositions[3 * i + k];
    velocities[4 * i + 1] = -speed;
  }
  return { copies, speed, topology, positions, velocities };
}

/** The pile one frame (1/60 s) further down its fall: every vertex moved by its velocity (a rigid fall keeps every pair). */
function fallOneFrame(c: PileCase): void {
  for (let i = 0; i < c.positions.length; i += 4) for (let k = 0; k < 3; k++) c.positions[i + k] += c.velocities[i + k] / 60;
}

export async function broadPhaseRows(cases: PileCase[], bound: MotionBound, pool: WorkerPool<CcdWorkerApi>, repeat: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of cases) {
    const t = c.topology;
    let vf = 0, ee = 0;
    // The first job finds (and keeps) every object's own pairs; the later ones see the pile one
    // frame further down its fall each, as a running scene does, and reuse them (ownPairCache.ts).
    const t0 = performance.now();
    sweptCandidates(t, c.positions, c.velocities, bound, true);
    const firstMs = performance.now() - t0;
    const inThread = best(repeat, () => {
      fallOneFrame(c);
      const r = sweptCandidates(t, c.positions, c.velocities, bound, true);
      vf = r.vertexFace.length / 2;
      ee = r.edgeEdge.length / 2;
    });
    // The job as the time step runs it by default: the same, then self-collision culling
    // (enhanced dual-cone, paper 002) with a deviation bound of 1 mm for every vertex.
    const culling = { mode: 'enhanced' as const, deviation: new Float32Array(t.vertexCount).fill(0.001), edgeDeviation: null };
    const culled = best(repeat, () => {
      fallOneFrame(c);
      culledSweptCandidates(t, c.positions, c.velocities, bound, true, culling);
    });
    // The worst case for kept pairs: every vertex moved up to 6 mm from its place each job (a
    // deformation past the skin everywhere), so each job joins every octopus again.
    const base = c.positions.slice();
    let seed = 1;
    const random = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    const deforming = best(repeat, () => {
      for (let i = 0; i < base.length; i += 4) for (let k = 0; k < 3; k++) c.positions[i + k] = base[i + k] + 0.012 * random();
      sweptCandidates(t, c.positions, c.velocities, bound, true);
    });
    c.positions.set(base);
    // The same boxes for every pair (world frame), as before pairs within one object used its own frame.
    const world = ccdCandidates(t, sweptVertexBoxes(c.positions, c.velocities, bound), true);
    const worldPairs = (world.vertexFace.length + world.edgeEdge.length) / 2;
    const worker: Record<string, string> = {};
    let jobMs = Infinity;
    for (const transport of ['shared', 'transfer'] as const) {
      const jobs = await CcdJobs.create(pool, t, { transport });
      await jobs.broadPhase(c.positions, c.velocities, bound, true); // warm
      const { ms, last } = await bestAsync(repeat, () => {
        fallOneFrame(c);
        return jobs.broadPhase(c.positions, c.velocities, bound, true);
      });
      // Against a fresh join (no kept pairs) on this thread, at the same point of the fall.
      const fresh = sweptCandidates(t, c.positions, c.velocities, { ...bound, selfPairSkin: 0 }, true);
      if (last.vertexFace.length !== fresh.vertexFace.length || last.edgeEdge.length !== fresh.edgeEdge.length) throw new Error(`broad phase in the worker (${transport}) differs from a fresh join on this thread`);
      worker[transport] = ms.toFixed(1);
      jobMs = Math.min(jobMs, last.jobMs);
      if (transport === 'shared') {
        // The default job (culling on), split across the pool's workers: its longest part and round trip.
        const request = () => ({ mode: 'enhanced' as const, deviation: new Float32Array(t.vertexCount).fill(0.001), edgeDeviation: null });
        await jobs.broadPhase(c.positions, c.velocities, bound, true, request());
        const culledJob = await bestAsync(repeat, () => {
          fallOneFrame(c);
          return jobs.broadPhase(c.positions, c.velocities, bound, true, request());
        });
        worker.culledRoundTrip = culledJob.ms.toFixed(1);
        worker.culledJob = culledJob.last.jobMs.toFixed(1);
      }
    }
    rows.push([
      c.copies, c.speed, t.vertexCount, t.boundaryVertices.length, t.triangles.length / 3, t.edges.length / 2, firstMs.toFixed(1), inThread.toFixed(1), culled.toFixed(1), deforming.toFixed(1),
      jobMs.toFixed(1), worker.shared, worker.transfer, worker.culledJob, worker.culledRoundTrip, vf, ee, worldPairs,
    ]);
    console.log(`  ${c.copies} copies at ${c.speed} m/s: done`);
  }
  return rows;
}

// ---- Section 4: the broad phase's parts, each alone --------------------------------------------

/**
 * Per case and pool size: splitParts' parts each timed alone on this thread (best of `repeat`),
 * against the whole job; checks that the parts' pairs together are the whole job's.
 */
export function partRows(cases: PileCase[], bound: MotionBound, workerCounts: number[], repeat: number, scenario: 'falling' | 'impact' | 'landed' = 'falling'): Row[] {
  const rows: Row[] = [];
  for (const pile of cases) {
    const c = { ...pile, velocities: scenarioVelocities(pile, scenario) };
    const t = c.topology;
    let whole = 0;
    const wholeMs = best(repeat, () => {
      const r = sweptCandidates(t, c.positions, c.velocities, bound, true);
      whole = (r.vertexFace.length + r.edgeEdge.length) / 2;
    });
    // The job as the time step runs it by default: then self-collision culling (as in section 2).
    const culling = { mode: 'enhanced' as const, deviation: new Float32Array(t.vertexCount).fill(0.001), edgeDeviation: null };
    const wholeCulledMs = best(repeat, () => culledSweptCandidates(t, c.positions, c.velocities, bound, true, culling));
    for (const workers of workerCounts) {
      const parts = splitParts(t, workers);
      let pairs = 0;
      const ms = parts.map((part) => best(repeat, () => {
        const r = sweptCandidates(t, c.positions, c.velocities, bound, true, undefined, part);
        pairs += (r.vertexFace.length + r.edgeEdge.length) / 2;
      }));
      pairs /= repeat;
      if (pairs !== whole) throw new Error(`parts of ${c.copies} octopi over ${workers} workers give ${pairs} pairs, the whole job ${whole}`);
      const culledMs = parts.map((part) => best(repeat, () => culledSweptCandidates(t, c.positions, c.velocities, bound, true, culling, part)));
      const longest = Math.max(...ms);
      const sum = ms.reduce((a, b) => a + b, 0);
      rows.push([
        c.copies, c.speed, scenario, workers, parts.length, wholeMs.toFixed(1), ms.map((m) => m.toFixed(1)).join(' / '), longest.toFixed(1), sum.toFixed(1), (wholeMs / longest).toFixed(2),
        wholeCulledMs.toFixed(1), culledMs.map((m) => m.toFixed(1)).join(' / '), Math.max(...culledMs).toFixed(1),
      ]);
    }
    console.log(`  ${c.copies} copies at ${c.speed} m/s: done`);
  }
  return rows;
}

// ---- Section 5: the default job, falling and at impact, phase by phase ------------------------

/**
 * The pile at impact (impactRamp.ts): each octopus's lowest IMPACT_DEPTH (m) has stopped on what it hit, the rest
 * still falls at the case's speed, with a linear ramp between (a body squashing against the ground
 * or the octopus below it). Its own frame then sees the lower part rise at nearly the full speed:
 * own-frame boxes |v_rel| H wide, lists rebuilt every job (the shape changes each frame).
 */
function impactVelocities(c: PileCase): Float32Array {
  const t = c.topology, obj = t.vertexObject, objects = obj.reduce((m, o) => Math.max(m, o + 1), 0);
  const low = new Float64Array(objects).fill(Infinity);
  for (let v = 0; v < t.vertexCount; v++) low[obj[v]] = Math.min(low[obj[v]], c.positions[4 * v + 1]);
  const out = new Float32Array(c.velocities.length);
  for (let v = 0; v < t.vertexCount; v++) out[4 * v + 1] = -impactFallSpeed(c.positions[4 * v + 1], low[obj[v]], c.speed);
  return out;
}

/**
 * The pile after its landing: each octopus settling, its vertices moving at up to 5 % of the case's
 * speed (the impact's ramp scaled down): world boxes nearly margin-sized, while the landing's
 * escapes have doubled the own-frame margin (--own-margin) to several times that.
 */
function landedVelocities(c: PileCase): Float32Array {
  const v = impactVelocities(c);
  for (let i = 0; i < v.length; i++) v[i] *= 0.05;
  return v;
}

function scenarioVelocities(c: PileCase, scenario: 'falling' | 'impact' | 'landed'): Float32Array {
  return scenario === 'falling' ? c.velocities : scenario === 'impact' ? impactVelocities(c) : landedVelocities(c);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

/**
 * The job the time step runs by default (culledSweptCandidates: self-collision on, enhanced
 * culling with a 1 mm deviation bound), on this thread, `jobs` jobs after 3 warm-up jobs, each
 * frame of the fall (or of the squash at impact: the pile moves a frame along its velocities, back
 * to the start every 4 jobs) one job. Medians of the whole job (wall and this process's CPU time:
 * on a machine shared with other work the CPU time is the steadier) and of its phases (the
 * culling's own report; "join" = the rest: boxes, pairs between objects, the kept same-object lists).
 */
export function jobRows(cases: PileCase[], bound: MotionBound, jobs: number, scenarios: string[] = ['falling', 'impact']): Row[] {
  const rows: Row[] = [];
  for (const c of cases) {
    const t = c.topology;
    const culling = { mode: 'enhanced' as const, deviation: new Float32Array(t.vertexCount).fill(0.001), edgeDeviation: null };
    const base = c.positions.slice();
    for (const scenario of ['falling', 'impact', 'landed'] as const) {
      if (!scenarios.includes(scenario)) continue;
      const velocities = scenarioVelocities(c, scenario);
      const positions = base.slice();
      const total: number[] = [], cpu: number[] = [], cones: number[] = [], traversal: number[] = [], filter: number[] = [];
      let before = 0, after = 0, pairs = 0, rebuilt = 0, worldJoined = 0;
      for (let j = -3; j < jobs; j++) {
        if (scenario !== 'falling' && (j + 3) % 4 === 0) positions.set(base);
        for (let i = 0; i < positions.length; i += 4) for (let k = 0; k < 3; k++) positions[i + k] += velocities[i + k] / 60;
        const c0 = process.cpuUsage(), t0 = performance.now();
        const r = culledSweptCandidates(t, positions, velocities, bound, true, culling);
        const ms = performance.now() - t0, used = process.cpuUsage(c0);
        if (j < 0) continue;
        cpu.push((used.user + used.system) / 1000);
        const s = r.selfCulling!;
        total.push(ms);
        cones.push(s.conesMs);
        traversal.push(s.traversalMs);
        filter.push(s.filterMs);
        before = s.pairsBefore;
        after = s.pairsAfter;
        pairs = (r.vertexFace.length + r.edgeEdge.length) / 2;
        rebuilt += r.keptPairs?.rebuilt ?? 0;
        worldJoined += r.selfFrames?.worldJoined ?? 0;
      }
      const join = total.map((ms, i) => ms - cones[i] - traversal[i] - filter[i]);
      rows.push([
        c.copies, c.speed, scenario, median(total).toFixed(1), Math.min(...total).toFixed(1), Math.max(...total).toFixed(1), median(cpu).toFixed(1), median(join).toFixed(1), median(cones).toFixed(1),
        median(traversal).toFixed(1), median(filter).toFixed(1), before, after, pairs, (rebuilt / jobs).toFixed(1), (worldJoined / jobs).toFixed(1),
      ]);
    }
    c.positions.set(base);
    console.log(`  ${c.copies} copies at ${c.speed} m/s: done`);
  }
  return rows;
}

/**
 * --job-parts K: the jobs of jobRows split as a pool of K workers splits them (splitParts), only
 * the parts, run in turn on this thread. A worker keeps the lists and culling state of its own
 * part only; running the whole job in the same loop would share this thread's per-topology caches
 * with the parts (measured: the parts then cost 1.6-1.8x the whole at impact, 40 ms on their own).
 * Medians over the jobs of the longest part (what K free cores wait for) and of the parts' sum.
 */
export function jobPartRows(cases: PileCase[], bound: MotionBound, jobs: number, scenarios: string[], parts: number): Row[] {
  const rows: Row[] = [];
  for (const c of cases) {
    const t = c.topology;
    const culling = { mode: 'enhanced' as const, deviation: new Float32Array(t.vertexCount).fill(0.001), edgeDeviation: null };
    const base = c.positions.slice();
    const split = splitParts(t, parts);
    for (const scenario of ['falling', 'impact', 'landed'] as const) {
      if (!scenarios.includes(scenario)) continue;
      const velocities = scenarioVelocities(c, scenario);
      const positions = base.slice();
      const longest: number[] = [], summed: number[] = [];
      for (let j = -3; j < jobs; j++) {
        if (scenario !== 'falling' && (j + 3) % 4 === 0) positions.set(base);
        for (let i = 0; i < positions.length; i += 4) for (let k = 0; k < 3; k++) positions[i + k] += velocities[i + k] / 60;
        const partMs = split.map((part) => {
          const t0 = performance.now();
          culledSweptCandidates(t, positions, velocities, bound, true, culling, part);
          return performance.now() - t0;
        });
        if (j < 0) continue;
        longest.push(Math.max(...partMs));
        summed.push(partMs.reduce((a, b) => a + b, 0));
      }
      rows.push([c.copies, c.speed, scenario, parts, split.length, median(longest).toFixed(1), Math.max(...longest).toFixed(1), median(summed).toFixed(1)]);
    }
    c.positions.set(base);
  }
  return rows;
}

// ---- Section 3: the time step with hybrid, DCD only and CCD only -----------------------------

/**
 * `copies` octopi (the shared mesh) dropped into the pile scene's box, `frames` frames per mode on
 * the WebGPU adapter at hand (SwiftShader here: phase shares, not absolute times, carry over),
 * the collision jobs in the pool. Per mode: mean ms per phase (GPU timestamps), candidate pairs,
 * CCD contacts, Pin points, DCD contacts, and the broad-phase job's time and the frame's wait.
 */
export async function stepRows(copies: number, frames: number, pool: WorkerPool<CcdWorkerApi>): Promise<{ header: string[]; rows: Row[] }> {
  const mesh = readMeshFile(OCTOPUS);
  const material = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
  const ctx = await acquireGpu();
  const phases = ['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'finalize'] as const;
  const rows: Row[] = [];
  try {
    for (const mode of ['hybrid', 'dcd', 'ccd'] as const) {
      const items: PileItem[] = Array.from({ length: copies }, (_, i) => ({ name: `octopus ${i + 1}`, positions: mesh.positions, tets: mesh.tets, material }));
      const setup = pileScene(items, defaultParams({ damping: 0.5, collisionMode: mode, bvhRebuildFrames: 30 }));
      const solver = new GpuSolver(ctx, setup, { collisions: { workerJobs: poolJobs(pool) } });
      const sums: Record<string, number> = {};
      let candidates = 0, ccdHits = 0, pin = 0, dcd = 0, jobMs = 0, waitMs = 0, wall = 0;
      try {
        for (let f = 0; f < frames; f++) {
          const t0 = performance.now();
          const r = await solver.stepFrame();
          wall += performance.now() - t0;
          for (const [k, v] of Object.entries(r.gpuPhaseMs ?? {})) sums[k] = (sums[k] ?? 0) + v;
          const c = r.collisions!;
          candidates += c.ccd.candidatesVertexFace + c.ccd.candidatesEdgeEdge;
          ccdHits += c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge;
          pin += c.pin;
          dcd += c.contacts;
          jobMs += c.ccd.jobMs;
          waitMs += c.ccd.waitMs;
        }
      } finally {
        solver.destroy();
      }
      const total = Object.values(sums).reduce((a, b) => a + b, 0);
      const share = (k: string) => (total > 0 ? `${((100 * (sums[k] ?? 0)) / total).toFixed(0)} %` : 'n/a');
      rows.push([mode, setup.model.tetCount, (wall / frames).toFixed(0), (total / frames).toFixed(0), ...phases.map(share), Math.round(candidates / frames), Math.round(ccdHits / frames), Math.round(pin / frames), Math.round(dcd / frames), (jobMs / frames).toFixed(1), (waitMs / frames).toFixed(1)]);
      console.log(`  ${mode}: done`);
    }
  } finally {
    ctx.device.destroy();
  }
  return { header: ['mode', 'tets', 'wall ms / frame', 'GPU ms / frame', ...phases, 'candidate pairs / frame', 'CCD contacts / frame', 'Pin / frame', 'DCD contacts / frame', 'broad-phase job ms', 'frame wait ms'], rows };
}

// ---- Main ----------------------------------------------------------------------------------

/** The broad phase's bound from --horizon and --margin. */
function broadBound(): MotionBound {
  const skin = args.includes('--self-pair-skin') ? { selfPairSkin: Number(arg('self-pair-skin', '')) } : {};
  // --own-margin M: the own-frame boxes' margin (a landing's escapes double it, ccdSchedule.ts; absent: --margin).
  const ownMargin = args.includes('--own-margin') ? { ownMargin: Number(arg('own-margin', '')) } : {};
  const frame = arg('self-pair-frame', 'adaptive');
  if (frame !== 'own' && frame !== 'adaptive') throw new Error(`--self-pair-frame: expected own or adaptive, got ${frame}`);
  return { horizon: Number(arg('horizon', String(2 / 60))), gravity: [0, -9.81, 0], margin: Number(arg('margin', '0.001')), ...skin, ...ownMargin, selfPairFrame: frame };
}

/** The octopus piles of --cases (copies@speed, comma-separated), `def` when not given. */
function pileCases(def: string): PileCase[] {
  return arg('cases', def).split(',').map((c) => {
    const [copies, speed] = c.split('@').map(Number);
    if (!(Number.isInteger(copies) && copies > 0 && Number.isFinite(speed))) throw new Error(`--cases: expected copies@speed, got ${c}`);
    return octopusPile(copies, speed);
  });
}

const sections = arg('sections', 'narrow,broad').split(',');
const repeat = Number(arg('repeat', '5'));
const poolSize = Number(arg('pool', String(nodePoolSize())));
const pool = nodeCcdPool(await ccdWorkerBundle(ROOT), poolSize);
console.log(`CCD bench: pool of ${poolSize} worker(s) (os.availableParallelism() = ${nodePoolSize() + 1}), best of ${repeat}`);
try {
  if (sections.includes('narrow')) {
    const queries = loadSharedCcdQueries();
    // The narrow phase needs no topology: an empty one.
    const jobs = await CcdJobs.create(pool, { vertexCount: 0, boundaryVertices: new Uint32Array(0), triangles: new Uint32Array(0), edges: new Uint32Array(0), vertexObject: new Uint32Array(0) });
    const rows = [...narrowPhaseInThread(queries, repeat), ...(await narrowPhaseInPool(jobs, poolSize, queries, repeat))];
    console.log('\nNarrow phase, all queries of ../shared/ccd-queries:\n');
    console.log(table(['kind', 'where', 'queries', 'hits', 'ms', 'queries / s'], rows));
  }
  if (sections.includes('broad')) {
    const bound = broadBound();
    const cases = pileCases('4@2,16@2,4@0.2,16@0.2,50@0.2');
    const rows = await broadPhaseRows(cases, bound, pool, repeat);
    console.log(`\nBroad phase, piles of octopus_2KFaces.t falling, horizon ${bound.horizon.toFixed(4)} s, margin ${bound.margin}, self-collision on:\n`);
    console.log(table(['copies', 'speed m/s', 'vertices', 'boundary vertices', 'triangles', 'edges', 'first job ms (lists built)', 'this thread ms (falling, lists kept)', 'same, then enhanced culling ms', 'this thread ms (all deforming: each vertex within 6 mm of its place, lists rebuilt)', 'worker job ms', 'round trip ms (shared)', 'round trip ms (transfer)', 'worker job + culling ms (longest part)', 'round trip + culling ms (shared)', 'vertex-face candidates', 'edge-edge candidates', 'pairs with world boxes only'], rows));
  }
  if (sections.includes('parts')) {
    const bound = broadBound();
    const cases = pileCases('8@2,16@2');
    const workerCounts = arg('parts-workers', '2,4,7').split(',').map(Number);
    if (!workerCounts.every((w) => Number.isInteger(w) && w >= 1)) throw new Error(`--parts-workers: expected positive integers, got ${arg('parts-workers', '')}`);
    const scenario = arg('scenarios', 'falling');
    if (scenario !== 'falling' && scenario !== 'impact' && scenario !== 'landed') throw new Error(`--scenarios with --sections parts: one of falling, impact, landed, got ${scenario}`);
    const rows = partRows(cases, bound, workerCounts, repeat, scenario);
    console.log(`\nBroad phase split by object (splitParts), each part alone on this thread, horizon ${bound.horizon.toFixed(4)} s, margin ${bound.margin}, self-collision on:\n`);
    console.log(table(['copies', 'speed m/s', 'scenario', 'workers', 'parts', 'whole job ms', 'parts ms', 'longest part ms', 'sum of parts ms', 'whole / longest', 'whole job + culling ms', 'parts + culling ms', 'longest part + culling ms'], rows));
  }
  if (sections.includes('job')) {
    const bound = broadBound();
    const cases = pileCases('8@2,16@2');
    const jobs = Number(arg('jobs', '24'));
    const jobParts = Number(arg('job-parts', '1'));
    if (!(Number.isInteger(jobParts) && jobParts >= 1)) throw new Error(`--job-parts: expected an integer >= 1, got ${arg('job-parts', '')}`);
    const scenarios = arg('scenarios', 'falling,impact').split(',');
    if (jobParts > 1) {
      const rows = jobPartRows(cases, bound, jobs, scenarios, jobParts);
      console.log(`\nThe default job split as a pool of ${jobParts} workers splits it, the parts in turn on this thread, median of ${jobs} jobs:\n`);
      console.log(table(['copies', 'speed m/s', 'scenario', 'workers', 'parts', 'longest part ms (median)', 'longest part ms (max)', 'sum of parts ms (median)'], rows));
    } else {
      const rows = jobRows(cases, bound, jobs, scenarios);
      console.log(`\nThe default job (self-collision, enhanced culling, 1 mm deviation bound) on this thread, median of ${jobs} jobs, horizon ${bound.horizon.toFixed(4)} s, margin ${bound.margin}:\n`);
      console.log(table(['copies', 'speed m/s', 'scenario', 'job ms (median)', 'job ms (min)', 'job ms (max)', 'job CPU ms (median)', 'join ms', 'cones ms', 'traversal ms', 'pair filter ms', 'same-object pairs', 'after culling', 'candidates', 'lists rebuilt / job', 'objects joined in the world frame / job'], rows));
    }
  }
  if (sections.includes('step')) {
    const copies = Number(arg('step-copies', '2'));
    const frames = Number(arg('step-frames', '12'));
    const { header, rows } = await stepRows(copies, frames, pool);
    console.log(`\nTime step, ${copies} octopi (octopus_2KFaces.t) dropped into a box, ${frames} frames per mode from the start, 20 substeps x 3 iterations:\n`);
    console.log(table(header, rows));
  }
} finally {
  pool.terminate();
}
