/**
 * Collision benchmark (issue 8, "Sync and speed"): prints markdown tables and one JSON line per
 * row; asserts nothing.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/collisions.ts \
 *     [--quick] [--sizes 10k,40k,100k,400k | 2,8,22,86] [--frames N] [--substeps N] [--max-wait N] [--gap G]
 *     [--drop-speed V] [--from F]
 *
 * Scene: `octopus-pile` (the shared octopus_2KFaces.t alternating with generated octopi, scene
 * parameters: dt 1/60, 20 substeps x 3 iterations, self-collision on). So that the octopi touch
 * within a few frames instead of after a long fall, the pile's layers are lowered onto each
 * other (restack below: `gap` = 0.01 above the height field of the layers under them, the
 * lowest `gap` above the floor) and every octopus starts at --drop-speed (1 m/s) downwards.
 * Frame 0 (pipeline compilation) is never measured. The run steps until the octopi touch (a
 * DCD hit between two objects; at most --max-wait frames, and not before frame --from: default
 * 60 on a hardware adapter, when every layer has landed, 0 on a software one), then measures the
 * next --frames frames that have contacts.
 *
 *  1. Phase shares of GPU time (timestamp queries) at the scene's default size and at 4x the tets
 *     (copies x4): material, detect, spb, contacts, others (predict, finalize); DCD hits by kind,
 *     queries, Q / Tr / Tet per query, contacts, overflows, dispatches; the collision share
 *     (detect + spb + contacts) next to the paper's Table 1 (000 section 5.4).
 *  2. Shortest-path queries per second: the GPU's spb phase (BVH refit + prepass + query kernel,
 *     all substeps of a frame) over the frame's queries, against the CPU query
 *     (src/spb/query.ts, dynamic stacks, one core) over the SAME queries: the last substep's query
 *     list, its results and the positions the GPU queried, copied out of that substep once.
 *  3. Cost growth from ~10k to ~400k tets: ms per substep of detect, spb, contacts and material
 *     per size, per 1k tets, and the growth exponent of each (least squares on log-log).
 *
 * --sizes: copies of octopi (plain numbers) or target tet counts (10k, 400k: the copies count
 * nearest to it); --quick: the two smallest sizes, 5 substeps, 2 frames. --frames defaults to 10
 * on a hardware adapter and 2 on a software one (SwiftShader: CPU-emulated, minutes per frame at
 * 100k tets; its figures are CPU figures, compare ratios within one run only).
 */
import { existsSync } from 'node:fs';
import { QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_WORDS, RESULT_WORDS } from '../src/collision/gpu/queryList';
import { totalHits, type CollisionFrameCounters } from '../src/collision/counters';
import { acquireGpu } from '../src/gpu/device';
import { readMeshFile } from '../src/runner/meshFile';
import { PILE_DEFAULT_COPIES, PILE_GENERATED_OCTOPUS_COUNTS } from '../src/scenes/octopusPile';
import { findScene } from '../src/scenes/registry';
import type { SceneMesh } from '../src/scenes/types';
import { QUERY_FOUND, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, shortestPathToBoundary, updateSpbMeshData } from '../src/spb';
import type { GpuCollisions } from '../src/sim/gpuCollisions';
import type { Model } from '../src/sim/model';
import type { SimSetup } from '../src/sim/setup';
import { Simulation, type FrameStats } from '../src/sim/simulation';
import type { SubstepContext } from '../src/contract/stage';
import type { GpuState } from '../src/contract/state';
import { checkBenchArgs } from './cli';

const USAGE =
  'node scripts/run-ts.mjs bench/collisions.ts [--quick] [--sizes 10k,40k,100k,400k | 2,8,22,86] [--frames N] [--substeps N] [--max-wait N] [--gap G] [--drop-speed V] [--from F]';
checkBenchArgs(process.argv.slice(2), {
  usage: USAGE,
  values: ['--sizes', '--frames', '--substeps', '--max-wait', '--gap', '--drop-speed', '--from'],
  switches: ['--quick'],
});

const MESH_FILE = '../shared/meshes/octopus_2KFaces.t';
function fail(message: string): never {
  console.error(`bench/collisions: ${message}\nusage: ${USAGE}`);
  process.exit(2);
}

// ---------------------------------------------------------------- arguments (checked above by checkBenchArgs)
const argv = process.argv.slice(2);
function arg(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) fail(`--${name} needs a value`);
  return v;
}
function positiveInt(name: string, def: number): number {
  const s = arg(name);
  if (s === undefined) return def;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer, got "${s}"`);
  return n;
}
const quick = argv.includes('--quick');

/** Tets of a pile of `copies`: the shared octopus at even places, the generated one at odd places. */
function pileTets(copies: number, sharedTets: number): number {
  return Math.ceil(copies / 2) * sharedTets + Math.floor(copies / 2) * PILE_GENERATED_OCTOPUS_COUNTS.tets;
}

function parseSizes(text: string, sharedTets: number): number[] {
  const sizes = text.split(',').map((s) => {
    const t = s.trim();
    const k = /^(\d+(?:\.\d+)?)k$/i.exec(t);
    if (k) {
      const target = 1000 * Number(k[1]);
      let best = 1;
      for (let c = 1; pileTets(c, sharedTets) < 2 * target; c++) {
        if (Math.abs(pileTets(c, sharedTets) - target) < Math.abs(pileTets(best, sharedTets) - target)) best = c;
      }
      return best;
    }
    const n = Number(t);
    if (!Number.isInteger(n) || n < 1) fail(`--sizes: "${t}" is neither a copies count (positive integer) nor a tet target like 40k`);
    return n;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

if (!existsSync(MESH_FILE)) fail(`the octopus mesh ${MESH_FILE} is missing (run from the project root, next to ../shared)`);
const mesh: SceneMesh = readMeshFile(MESH_FILE);
const sharedTets = mesh.tets.length / 4;
let sizes = parseSizes(arg('sizes') ?? '10k,40k,100k,400k', sharedTets);
if (quick) sizes = sizes.slice(0, 2);
const gap = Number(arg('gap') ?? '0.01');
if (!(gap >= 0 && gap < 1)) fail(`--gap must be in [0, 1), got ${arg('gap')}`);
const maxWait = positiveInt('max-wait', 60);
const dropSpeed = Number(arg('drop-speed') ?? '1');
if (!(dropSpeed >= 0 && dropSpeed <= 20)) fail(`--drop-speed must be in [0, 20] m/s, got ${arg('drop-speed')}`);
const substepsOverride = arg('substeps') !== undefined ? positiveInt('substeps', 20) : quick ? 5 : undefined;

const ctx = await acquireGpu({
  onLost: (r) => {
    console.error(`bench/collisions: GPU device lost: ${r}`);
    process.exit(3);
  },
});
const software = /swiftshader|llvmpipe|software/i.test(ctx.description);
const frames = positiveInt('frames', quick || software ? 2 : 10);
// On a hardware adapter frames are cheap: measure from frame 60 (1 s; every layer of the pile
// has landed on the one below, contacts at every interface); on a software one from first contact.
const fromFrame = arg('from') !== undefined ? positiveInt('from', 1) : software ? 0 : 60;
console.log(`adapter: ${ctx.description}${software ? ' (software: CPU-emulated GPU, compare ratios within one run only)' : ''}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}`);
if (!ctx.features.has('timestamp-query')) fail('the adapter has no timestamp-query feature: the phase times need it');
const progress = (msg: string) => console.error(`[collisions ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const json = (row: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'collisions', adapter: ctx.description, ...row }));
const fx = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const sig = (x: number) => (Number.isFinite(x) ? x.toPrecision(3) : '-');
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

// ---------------------------------------------------------------- scene
/**
 * Lowers the pile's layers (objects sharing their lowest height, pile.ts) as far as they go
 * without touching what is under them, so that contact starts within a few frames instead of
 * after a long fall: the lowest layer to `gapY` above the floor, each next one until some vertex
 * is `gapY` above the highest vertex of the layers below in the same or a neighbouring column
 * of a CELL-wide grid in x, z (a height field; tentacles interleave). A rigid translation per
 * layer, so the rest shape (Dm^-1, volumes) is unchanged. Returns the number of layers.
 */
const CELL = 0.04;
function restack(model: Model, gapY: number): number {
  const n = model.objectNames.length;
  const x = model.restPositions;
  const lo = new Float64Array(n).fill(Infinity);
  for (let o = 0; o < n; o++) {
    for (let v = model.objectVertexOffsets[o]; v < model.objectVertexOffsets[o + 1]; v++) lo[o] = Math.min(lo[o], x[3 * v + 1]);
  }
  const key = (b: number) => +b.toFixed(9);
  const bases = [...new Set(Array.from(lo, key))].sort((a, b) => a - b);
  const top = new Map<string, number>(); // column -> highest placed vertex
  const col = (v: number, di: number, dk: number) => `${Math.floor(x[3 * v] / CELL) + di},${Math.floor(x[3 * v + 2] / CELL) + dk}`;
  for (const b of bases) {
    const objs = [...Array(n).keys()].filter((o) => key(lo[o]) === b);
    // The fall: down to the floor, or until a vertex comes within gapY of the height field.
    let fall = Infinity;
    for (const o of objs) {
      for (let v = model.objectVertexOffsets[o]; v < model.objectVertexOffsets[o + 1]; v++) {
        fall = Math.min(fall, x[3 * v + 1] - gapY);
        for (let di = -1; di <= 1; di++) for (let dk = -1; dk <= 1; dk++) {
          const h = top.get(col(v, di, dk));
          if (h !== undefined) fall = Math.min(fall, x[3 * v + 1] - h - gapY);
        }
      }
    }
    fall = Math.max(0, fall);
    for (const o of objs) {
      for (let v = model.objectVertexOffsets[o]; v < model.objectVertexOffsets[o + 1]; v++) {
        x[3 * v + 1] -= fall;
        const c = col(v, 0, 0);
        top.set(c, Math.max(top.get(c) ?? -Infinity, x[3 * v + 1]));
      }
    }
  }
  return bases.length;
}

function pileSetup(copies: number): { setup: SimSetup; layers: number } {
  const setup = findScene('octopus-pile').build({ mesh, copies });
  if (substepsOverride !== undefined) setup.params = { ...setup.params, substeps: substepsOverride };
  const layers = restack(setup.model, gap);
  // Every octopus starts falling at dropSpeed (as if dropped from v^2 / 2g higher): the lowest
  // lands at once and the next ones reach it within a few frames.
  const v0 = setup.model.initialVelocities;
  for (let i = 1; i < v0.length; i += 3) v0[i] = -dropSpeed;
  return { setup, layers };
}

// ---------------------------------------------------------------- capture of one substep's queries
interface Capture {
  positions: Float32Array; // vec4 per vertex, as the spb stage read them
  list: Uint32Array; // header + queries
  results: Uint32Array;
}

/**
 * Copies, in the frame's last substep, the positions the spb stage reads (before it: detection
 * does not move vertices) and, after it, the query list and the results. Wraps the stage's
 * encode on this instance only; the copies are encoder commands outside every pass, so no phase
 * time includes them. Returns a function that reads the copies once the frame completed.
 */
function armCapture(collisions: GpuCollisions, device: GPUDevice): () => Promise<Capture> {
  const stage = collisions.spb;
  const original = stage.encode.bind(stage);
  const staging: GPUBuffer[] = [];
  let sizes: number[] = [];
  stage.encode = (encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void => {
    const last = step.substep === step.substeps - 1;
    const mk = (label: string, bytes: number) => {
      const b = device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      staging.push(b);
      return b;
    };
    if (last) {
      const pBytes = 16 * state.vertexCount;
      encoder.copyBufferToBuffer(state.positions, 0, mk('bench.capture.positions', pBytes), 0, pBytes);
    }
    original(encoder, state, step);
    if (last) {
      const q = collisions.queryList;
      const lBytes = 4 * (QL_HEADER_WORDS + QUERY_WORDS * q.capacity);
      const rBytes = 4 * RESULT_WORDS * q.capacity;
      encoder.copyBufferToBuffer(q.list, 0, mk('bench.capture.list', lBytes), 0, lBytes);
      encoder.copyBufferToBuffer(q.results, 0, mk('bench.capture.results', rBytes), 0, rBytes);
      sizes = [16 * state.vertexCount, lBytes, rBytes];
      stage.encode = original; // one frame only
    }
  };
  return async () => {
    if (staging.length !== 3) throw new Error(`capture: the frame had no last substep with the spb stage active (${staging.length} copies)`);
    const out: ArrayBuffer[] = [];
    for (let i = 0; i < 3; i++) {
      await staging[i].mapAsync(GPUMapMode.READ);
      out.push(staging[i].getMappedRange(0, sizes[i]).slice(0));
      staging[i].unmap();
      staging[i].destroy();
    }
    return { positions: new Float32Array(out[0]), list: new Uint32Array(out[1]), results: new Uint32Array(out[2]) };
  };
}

// ---------------------------------------------------------------- running a pile
interface Measured {
  copies: number;
  tets: number;
  vertices: number;
  layers: number;
  substeps: number;
  waited: number; // frames stepped before the first measured one
  frames: FrameStats[]; // the measured frames (all with contacts)
  stopped: string[];
  /** Mean spb phase time (ms per frame) of the frames without queries after frame 0: BVH refit and prepass alone. */
  spbIdleMs: number;
  capture?: { capture: Capture; frame: FrameStats; collisions: GpuCollisions };
  /** Kept alive while a capture waits for part 2 (its spbData is read there). */
  sim?: Simulation;
}

async function runPile(copies: number, wantCapture: boolean): Promise<Measured> {
  const { setup, layers } = pileSetup(copies);
  const m = setup.model;
  progress(`octopus pile, ${copies} copies: ${m.tetCount} tets, ${m.vertexCount} vertices, ${layers} layers; building the simulation`);
  const sim = new Simulation(ctx, setup);
  const collisions = sim.solver.collisions;
  if (!collisions) throw new Error('the simulation was built without collision stages');
  const out: Measured = { copies, tets: m.tetCount, vertices: m.vertexCount, layers, substeps: sim.params.substeps, waited: 0, frames: [], stopped: [], spbIdleMs: NaN };
  const idle: number[] = [];
  let frame = 0;
  let inContact = false; // octopi touching each other (an inter-object hit) seen; one octopus: any contact
  const t0 = performance.now();
  // Frame 0 compiles the pipelines: never measured. Then wait for the octopi to touch.
  const maxFrames = Math.max(fromFrame, 1 + maxWait) + 3 * frames;
  let read: (() => Promise<Capture>) | undefined;
  while (out.frames.length < frames && frame < maxFrames) {
    const capturing = wantCapture && out.frames.length === frames - 1;
    if (capturing && !read) read = armCapture(collisions, ctx.device);
    const s = await sim.stepFrame();
    frame++;
    out.stopped.push(...s.stopped);
    if (!s.gpuPhasesMs) throw new Error('frame without GPU phase times (timestamp queries)');
    const c = s.collisions;
    if (!c) throw new Error('frame without collision counters');
    const inter = c.dcdHits.vertexInter + c.dcdHits.edgeInter + c.dcdHits.centroidInter;
    inContact ||= inter > 0 || (m.objectNames.length === 1 && c.contacts > 0);
    progress(`  frame ${s.frame}: ${fx(s.wallMs, 0)} ms wall, ${totalHits(c)} hits (${inter} between octopi), ${c.spbQueries} queries, ${c.contacts} contacts`);
    if (s.frame > 0 && c.spbQueries === 0) idle.push(phase(s, 'spb'));
    if (s.frame === 0 || s.frame < fromFrame || !inContact || c.contacts === 0) {
      if (out.frames.length === 0) out.waited = frame;
      if (capturing && read) {
        await read().catch(() => undefined); // frees the copies; capture again next frame
        read = undefined;
      }
      if (out.frames.length === 0 && frame > Math.max(fromFrame, 1 + maxWait)) break;
      continue;
    }
    out.frames.push(s);
    if (capturing && read) out.capture = { capture: await read(), frame: s, collisions };
  }
  out.spbIdleMs = idle.length > 0 ? idle.reduce((x, y) => x + y, 0) / idle.length : NaN;
  if (out.frames.length === 0) progress(`  no frame with contacts between octopi (an inter-object DCD hit first) by frame ${frame}: nothing measured for ${copies} copies (raise --max-wait)`);
  else if (out.frames.length < frames) progress(`  only ${out.frames.length} of ${frames} frames had contacts within ${maxFrames} frames`);
  if (out.stopped.length > 0) progress(`  stopped objects: ${out.stopped.join('; ')}`);
  progress(`  done in ${fx((performance.now() - t0) / 1000, 1)} s`);
  if (out.capture) out.sim = sim;
  else sim.destroy();
  return out;
}

function mean(frames: FrameStats[], f: (s: FrameStats) => number): number {
  return frames.length === 0 ? NaN : frames.reduce((a, s) => a + f(s), 0) / frames.length;
}
const phase = (s: FrameStats, p: string) => (s.gpuPhasesMs as Record<string, number | undefined>)[p] ?? 0;
const total = (s: FrameStats) => Object.values(s.gpuPhasesMs ?? {}).reduce((a, b) => a + (b ?? 0), 0);
const HIT_KINDS = ['vertexSelf', 'vertexInter', 'edgeSelf', 'edgeInter', 'centroidSelf', 'centroidInter'] as const;
const col = (s: FrameStats): CollisionFrameCounters => s.collisions!;

// ---------------------------------------------------------------- 1. phase shares at default size and 4x
console.log('\n## 1. Octopus pile: GPU phase shares, DCD hits and queries per frame (frames with contacts only)');
const part1: Measured[] = [];
for (const copies of [PILE_DEFAULT_COPIES, 4 * PILE_DEFAULT_COPIES]) part1.push(await runPile(copies, true));

const shareRows = ['| copies | tets | substeps | frames measured (waited) | GPU ms / frame | material | detect | spb | contacts | others | collision share |', '|---|---|---|---|---|---|---|---|---|---|---|'];
const countRows = [
  '| copies | tets | hits vertex self / inter | hits edge self / inter | queries | Q / query | Tr / query | Tet / query | contacts | no path | skipped | overflows | dropped | dispatches (detect / spb / contacts / all) | readbacks (bytes) |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of part1) {
  const fr = r.frames;
  if (fr.length === 0) {
    shareRows.push(`| ${r.copies} | ${r.tets} | ${r.substeps} | 0 (${r.waited}): no frame with contacts between octopi | | | | | | | |`);
    countRows.push(`| ${r.copies} | ${r.tets} | no frame measured | | | | | | | | | | | | |`);
    json({ part: 'phases', copies: r.copies, tets: r.tets, substeps: r.substeps, framesMeasured: 0, framesWaited: r.waited, stopped: r.stopped });
    continue;
  }
  const tot = mean(fr, total);
  const sh = (p: string) => mean(fr, (s) => phase(s, p)) / tot;
  const others = 1 - sh('material') - sh('detect') - sh('spb') - sh('contacts');
  const collisionShare = sh('detect') + sh('spb') + sh('contacts');
  shareRows.push(`| ${r.copies} | ${r.tets} | ${r.substeps} | ${fr.length} (${r.waited}) | ${fx(tot, 1)} | ${pct(sh('material'))} | ${pct(sh('detect'))} | ${pct(sh('spb'))} | ${pct(sh('contacts'))} | ${pct(others)} | ${pct(collisionShare)} |`);
  const c = (f: (x: CollisionFrameCounters) => number) => mean(fr, (s) => f(col(s)));
  const queries = c((x) => x.spbQueries);
  const per = (f: (x: CollisionFrameCounters) => number) => fr.reduce((a, s) => a + f(col(s)), 0) / Math.max(1, fr.reduce((a, s) => a + col(s).spbQueries, 0));
  const d = (p: string) => mean(fr, (s) => s.dispatchesByPhase[p as keyof typeof s.dispatchesByPhase] ?? 0);
  countRows.push(
    `| ${r.copies} | ${r.tets} | ${fx(c((x) => x.dcdHits.vertexSelf), 0)} / ${fx(c((x) => x.dcdHits.vertexInter), 0)} | ${fx(c((x) => x.dcdHits.edgeSelf), 0)} / ${fx(c((x) => x.dcdHits.edgeInter), 0)} | ${fx(queries, 0)} | ${fx(per((x) => x.bvhCandidates))} | ${fx(per((x) => x.traversals))} | ${fx(per((x) => x.tetsVisited))} | ${fx(c((x) => x.contacts), 0)} | ${fx(c((x) => x.noPath), 0)} | ${fx(c((x) => x.skipped), 0)} | ${fx(c((x) => x.spbOverflows), 1)} | ${fx(c((x) => x.dropped), 0)} | ${fx(d('detect'), 0)} / ${fx(d('spb'), 0)} / ${fx(d('contacts'), 0)} / ${fx(mean(fr, (s) => s.dispatches), 0)} | ${fx(c((x) => x.readbacks), 1)} (${fx(c((x) => x.readbackBytes), 0)}) |`,
  );
  json({
    part: 'phases',
    copies: r.copies,
    tets: r.tets,
    vertices: r.vertices,
    substeps: r.substeps,
    framesMeasured: fr.length,
    framesWaited: r.waited,
    gpuMsPerFrame: tot,
    phaseMsPerFrame: Object.fromEntries(['predict', 'material', 'detect', 'spb', 'contacts', 'finalize'].map((p) => [p, mean(fr, (s) => phase(s, p))])),
    shares: { material: sh('material'), detect: sh('detect'), spb: sh('spb'), contacts: sh('contacts'), others, collision: collisionShare },
    perFrame: {
      dcdHits: Object.fromEntries(HIT_KINDS.map((k) => [k, c((x) => x.dcdHits[k])])),
      spbQueries: queries,
      contacts: c((x) => x.contacts),
      noPath: c((x) => x.noPath),
      skipped: c((x) => x.skipped),
      spbOverflows: c((x) => x.spbOverflows),
      dropped: c((x) => x.dropped),
      contactCapacity: c((x) => x.contactCapacity),
      readbacks: c((x) => x.readbacks),
      readbackBytes: c((x) => x.readbackBytes),
      dispatches: mean(fr, (s) => s.dispatches),
      dispatchesByPhase: Object.fromEntries(['predict', 'material', 'detect', 'spb', 'contacts', 'finalize'].map((p) => [p, d(p)])),
    },
    perQuery: { Q: per((x) => x.bvhCandidates), Tr: per((x) => x.traversals), Tet: per((x) => x.tetsVisited) },
    stopped: r.stopped,
  });
}
console.log(shareRows.join('\n'));
console.log('\nPer frame (means over the measured frames; Q / Tr / Tet: BVH candidates, traversals, tets visited per query):');
console.log(countRows.join('\n'));

// The paper's Table 1 (000 section 5.4): CPU collision code next to a GPU XPBD solver; its
// "Ours" column is the shortest path query, DCD its detection, CCD has no counterpart here.
console.log('\nCollision share of frame time next to the paper\'s Table 1 (their collision code on the CPU, XPBD on the GPU):');
console.log('| run | tets | detection (DCD) | shortest path ("Ours") | contacts | detect + spb + contacts |');
console.log('|---|---|---|---|---|---|');
for (const r of part1.filter((x) => x.frames.length > 0)) {
  const tot = mean(r.frames, total);
  const sh = (p: string) => mean(r.frames, (s) => phase(s, p)) / tot;
  console.log(`| this run, ${r.copies} octopi | ${r.tets} | ${pct(sh('detect'))} | ${pct(sh('spb'))} | ${pct(sh('contacts'))} | ${pct(sh('detect') + sh('spb') + sh('contacts'))} |`);
}
console.log('| paper, 8 octopi DCD only (Fig. 9b) | 118 K | 10.7 % | 10.1 % | (in XPBD 79.2 %) | 20.8 % |');
console.log('| paper, 600 octopi (Fig. 18) | 8.88 M | 13.4 % (+ CCD 15.4 %) | 2.9 % | (in XPBD 68.3 %) | 16.3 % without CCD |');
console.log('| paper, all 13 rows | 103 K - 11.2 M | 9.5 - 32.1 % | 1.0 - 18.4 % | - | - |');

// ---------------------------------------------------------------- 2. queries per second, GPU vs CPU
console.log('\n## 2. Shortest-path queries per second: GPU spb phase vs the CPU query on one core, same queries');
const qpsRows = [
  '| copies | tets | GPU queries (frame) | GPU spb ms (frame) | spb ms, frames without queries | GPU q/s (phase) | GPU q/s (above no-query frames) | CPU queries (last substep) | CPU refit ms | CPU q/s (1 core) | GPU / CPU (phase / above) | disagreements |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of part1) {
  const cap = r.capture;
  const sim = r.sim;
  if (!cap) {
    qpsRows.push(`| ${r.copies} | ${r.tets} | no frame with contacts captured | | | | | | | |`);
    continue;
  }
  const { capture, frame, collisions } = cap;
  const gpuQueries = col(frame).spbQueries;
  const gpuMs = phase(frame, 'spb');
  const capacity = capture.list[1];
  const n = Math.min(capture.list[0], capacity);
  progress(`queries per second, ${r.copies} copies: ${n} queries of the last substep on the CPU`);
  const data = collisions.spbData;
  const xyz = new Float64Array(3 * r.vertices);
  for (let v = 0; v < r.vertices; v++) for (let k = 0; k < 3; k++) xyz[3 * v + k] = capture.positions[4 * v + k];
  updateSpbMeshData(data, xyz); // once cold (JIT), then timed
  let refitMs = performance.now();
  updateSpbMeshData(data, xyz);
  refitMs = performance.now() - refitMs;
  const qf = new Float32Array(capture.list.buffer);
  const qi = new Int32Array(capture.list.buffer);
  const rf = new Float32Array(capture.results.buffer);
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
  const cfg = collisions.spb.queryConfig;
  const runAll = (check: boolean): number => {
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const o = QL_HEADER_WORDS + QUERY_WORDS * i;
      const tet = capture.list[o + 3];
      const euclidean = (capture.list[o + 6] & QUERY_EUCLIDEAN) !== 0;
      const st = shortestPathToBoundary(data, ws, cfg, qf[o], qf[o + 1], qf[o + 2], tet, qi[o + 4], qi[o + 5], euclidean);
      if (check) {
        const gs = capture.results[RESULT_WORDS * i + 6];
        const h = Math.sqrt(data.tetSize2[tet]);
        const d = st === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : -1;
        if (gs !== 2 /* GPU overflow: the CPU answers those anyway */ && (st !== gs || (st === QUERY_FOUND && Math.abs(d - rf[RESULT_WORDS * i + 3]) > 1e-4 * h))) bad++;
      }
    }
    return bad;
  };
  const disagreements = runAll(true); // also the JIT's warm-up
  let best = Infinity;
  let reps = 0;
  const tStart = performance.now();
  while (n > 0 && (reps < 3 || (performance.now() - tStart < 1000 && reps < 1000))) {
    const t = performance.now();
    runAll(false);
    best = Math.min(best, performance.now() - t);
    reps++;
  }
  const gpuQps = gpuQueries / (gpuMs / 1000);
  // The query kernel's share: the phase time above the frames without queries (refit + prepass alone).
  const kernelMs = gpuMs - r.spbIdleMs;
  const kernelQps = kernelMs > 0 ? gpuQueries / (kernelMs / 1000) : NaN;
  const cpuQps = n / (best / 1000);
  qpsRows.push(`| ${r.copies} | ${r.tets} | ${gpuQueries} | ${fx(gpuMs, 3)} | ${fx(r.spbIdleMs, 3)} | ${fx(gpuQps, 0)} | ${fx(kernelQps, 0)} | ${n} | ${fx(refitMs, 2)} | ${fx(cpuQps, 0)} | ${sig(gpuQps / cpuQps)} / ${sig(kernelQps / cpuQps)} | ${disagreements} |`);
  json({ part: 'queriesPerSecond', copies: r.copies, tets: r.tets, gpuQueries, gpuSpbMs: gpuMs, gpuSpbIdleMs: r.spbIdleMs, gpuQps, gpuQueryKernelQps: kernelQps, cpuQueries: n, cpuBestMs: best, cpuReps: reps, cpuRefitMs: refitMs, cpuQps, gpuOverCpu: gpuQps / cpuQps, disagreements });
  sim?.destroy();
}
console.log(qpsRows.join('\n'));
console.log('GPU "phase": the whole spb phase of the frame (every substep: BVH refit, prepass, query kernel); "above no-query frames": that time less the mean spb phase of the frames without queries (refit and prepass alone), i.e. the query kernel. The CPU column times the query alone (its BVH refit, needed once per substep, is "CPU refit ms"). Disagreements: status or distance (beyond 1e-4 of the tet size) differ from the GPU\'s result of the same query; queries the GPU overflowed are not counted (the CPU answers those in the solver too).');

// ---------------------------------------------------------------- 3. cost growth
console.log(`\n## 3. Cost growth with the number of tets (copies ${sizes.join(', ')})`);
const growth: { tets: number; ms: Record<string, number>; queries: number }[] = [];
const growthRows = ['| copies | tets | frames measured | queries / substep | material ms / substep | detect | spb | contacts | collision (d+s+c) | collision us per 1k tets | material us per 1k tets |', '|---|---|---|---|---|---|---|---|---|---|---|'];
for (const copies of sizes) {
  const r = await runPile(copies, false);
  if (r.frames.length === 0) {
    growthRows.push(`| ${copies} | ${r.tets} | 0 (no contacts) | | | | | | | | |`);
    continue;
  }
  const ms: Record<string, number> = {};
  for (const p of ['material', 'detect', 'spb', 'contacts']) ms[p] = mean(r.frames, (s) => phase(s, p)) / r.substeps;
  ms.collision = ms.detect + ms.spb + ms.contacts;
  const queries = mean(r.frames, (s) => col(s).spbQueries) / r.substeps;
  growth.push({ tets: r.tets, ms, queries });
  growthRows.push(`| ${copies} | ${r.tets} | ${r.frames.length} | ${fx(queries, 0)} | ${fx(ms.material, 3)} | ${fx(ms.detect, 3)} | ${fx(ms.spb, 3)} | ${fx(ms.contacts, 3)} | ${fx(ms.collision, 3)} | ${fx((1000 * ms.collision) / (r.tets / 1000), 1)} | ${fx((1000 * ms.material) / (r.tets / 1000), 1)} |`);
  json({ part: 'growth', copies, tets: r.tets, substeps: r.substeps, framesMeasured: r.frames.length, queriesPerSubstep: queries, msPerSubstep: ms, collisionUsPer1kTets: (1000 * ms.collision) / (r.tets / 1000) });
}
console.log(growthRows.join('\n'));

/** Least-squares slope of log(y) against log(x): cost ~ tets^slope. */
function exponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log), ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length, my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  return sxy / sxx;
}
if (growth.length >= 2) {
  const xs = growth.map((g) => g.tets);
  const ex: Record<string, number> = {};
  for (const p of ['collision', 'detect', 'spb', 'contacts', 'material']) ex[p] = exponent(xs, growth.map((g) => g.ms[p]));
  ex.queries = exponent(xs, growth.map((g) => g.queries));
  console.log(`\nGrowth exponents (cost ~ tets^k, least squares on log-log over ${growth.length} sizes, ${xs[0]} to ${xs[xs.length - 1]} tets): ` + Object.entries(ex).map(([k, v]) => `${k} ${fx(v)}`).join(', '));
  json({ part: 'growthExponent', sizes: growth.length, tets: xs, exponents: ex });
} else console.log('\nGrowth exponent: needs at least two sizes with contacts.');
process.exit(0);
