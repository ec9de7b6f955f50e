/**
 * The Table 1 report (issue 11): runs the scenes of paper 000's Table 1 (our registry mirrors
 * them) and prints
 *   1. a table like the paper's Table 1 (src/runner/table1.ts): vertices, tets, collisions per
 *      frame, Q / Tr / Tet per query, substep x iterations, frame time and phase shares on this
 *      adapter, beside the paper's own size and frame time;
 *   2. per frame: dispatches (counted at the compute passes), bytes moved (src/sim/traffic.ts:
 *      XPBD stages exact, collision stages estimated from the counters), blocking readbacks,
 *      encode time, GPU memory per tet;
 *   3. a projection of the frame time on named reference GPUs, bytes / bandwidth + dispatches x
 *      per-dispatch cost + the partitioned cells' serial rounds x a round's latency measured on
 *      an H100 (bench/projection.ts, constants and sources printed), with the run's
 *      solve order and with one dispatch per colour (plain Gauss-Seidel, the order before
 *      issue 11), so the gain of the dispatch cut shows.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/report.ts
 *   ... bench/report.ts --scenes octopus-box-hybrid,noodle-bowl --size default --frames 3 --out report.json
 *   ... bench/report.ts --tets 100000 --scenes squishy-squeeze
 *
 * Options: --scenes (row keys of TABLE1_ROWS, or all; default DEFAULT_ROWS), --size small|default|paper (default small)
 * or --tets N, --frames N (default 1), --order ORDER (the runner's solve orders), --substeps N
 * and --iterations N (override the scenes'), --out FILE (JSON). On a software adapter the frame
 * times are the CPU's: read the ratios and the counts, not the milliseconds.
 */
import { writeFileSync } from 'node:fs';
import { table1Row, type Table1Row } from '../src/runner/table1';
import { table1Cells } from '../src/runner/table1Format';
import { findScene } from '../src/scenes/registry';
import { planTraffic, xpbdFramePlan } from '../src/sim/traffic';
import { endBench, liveBytes, runScene, type HarnessRun } from './frameHarness';
import { DISPATCH_COSTS, PROJECTIONS, projectFrameMs, REFERENCE_GPUS, ROUND_LATENCY } from './projection';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/report.ts [--scenes all|KEY,KEY (default octopus-box-ccd,octopus-box-dcd,octopus-box-hybrid,noodle-recovery,octopus-pile,noodle-bowl)]\n' +
    '  [--size small|default|paper | --tets N] [--frames 1] [--order ORDER] [--substeps N] [--iterations N] [--out FILE]',
  values: ['--scenes', '--size', '--tets', '--frames', '--order', '--substeps', '--iterations', '--out'],
});

interface PaperRow {
  key: string;
  paper: string;
  scene: string;
  args: string[];
  /** Paper 000 Table 1: vertices, tets, step x iterations, average frame time (s). */
  vertices: string;
  tets: string;
  step: string;
  frameS: number;
}

/** Paper 000 Table 1, row by row, and the registry scene that mirrors each. */
export const TABLE1_ROWS: readonly PaperRow[] = [
  { key: 'squishy-squeeze', paper: 'Flattened Squishy Ball (Fig. 11)', scene: 'squishy-squeeze', args: [], vertices: '774K', tets: '2.81M', step: '3.3e-4 x 3', frameS: 10.89 },
  { key: 'beam-twist', paper: 'Twisted Thin Beam (Fig. 13)', scene: 'beam-twist', args: [], vertices: '400K', tets: '1.9M', step: '3.3e-4 x 3', frameS: 8.16 },
  { key: 'rods-twist', paper: 'Twisted Rods (Fig. 13)', scene: 'rods-twist', args: [], vertices: '281K', tets: '1.3M', step: '3.3e-4 x 3', frameS: 5.25 },
  { key: 'rod-knot', paper: 'Nested Knots (Fig. 14)', scene: 'rod-knot', args: [], vertices: '38.1K', tets: '103K', step: '5.5e-4 x 3', frameS: 0.25 },
  { key: 'squishy-head-on', paper: '2 Squishy Balls (Fig. 12)', scene: 'squishy-head-on', args: [], vertices: '418K', tets: '1.4M', step: '3.3e-4 x 3', frameS: 1.96 },
  { key: 'noodle-recovery', paper: 'Pre-Intersect. Noodle (Fig. 17)', scene: 'noodle-recovery', args: [], vertices: '40K', tets: '110K', step: '8.3e-4 x 3', frameS: 0.21 },
  { key: 'squishy-recovery', paper: 'Pre-Intersect. Squishy Ball (Fig. 16)', scene: 'squishy-recovery', args: [], vertices: '219K', tets: '704K', step: '3.3e-4 x 3', frameS: 1.54 },
  { key: 'octopus-pile', paper: '600 Octopi (Fig. 18)', scene: 'octopus-pile', args: [], vertices: '3.1M', tets: '8.88M', step: '8.3e-4 x 3', frameS: 16.4 },
  { key: 'squishy-bowl', paper: '16 Squishy Balls (Fig. 19)', scene: 'squishy-bowl', args: [], vertices: '3.5M', tets: '11.2M', step: '3.3e-4 x 3', frameS: 18.5 },
  { key: 'noodle-bowl', paper: 'Long Noodle (Fig. 20)', scene: 'noodle-bowl', args: [], vertices: '860K', tets: '2.29M', step: '8.3e-4 x 3', frameS: 4.1 },
  { key: 'octopus-box-ccd', paper: '8 Octopi CCD Only (Fig. 9a)', scene: 'octopus-box', args: ['--collision-mode', 'ccd'], vertices: '40K', tets: '118K', step: '3.3e-3 x 5', frameS: 0.028 },
  { key: 'octopus-box-dcd', paper: '8 Octopi DCD Only (Fig. 9b)', scene: 'octopus-box', args: ['--collision-mode', 'dcd'], vertices: '40K', tets: '118K', step: '3.3e-3 x 5', frameS: 0.038 },
  { key: 'octopus-box-hybrid', paper: '8 Octopi hybrid (Fig. 9c)', scene: 'octopus-box', args: ['--collision-mode', 'hybrid'], vertices: '40K', tets: '118K', step: '3.3e-3 x 5', frameS: 0.035 },
];

interface Options {
  rows: PaperRow[];
  size: 'small' | 'default' | 'paper';
  tets?: number;
  frames: number;
  passThrough: string[];
  out?: string;
}

/**
 * Rows of the default invocation: those at 20 substeps (the 8-octopus rows, the issue's target
 * scene, and the noodle and octopus piles), about 5 minutes at small sizes on 2 cores; the
 * 50-substep rows (squishy balls, beams, rods) take 2-5x longer each: --scenes all.
 */
const DEFAULT_ROWS = ['octopus-box-ccd', 'octopus-box-dcd', 'octopus-box-hybrid', 'noodle-recovery', 'octopus-pile', 'noodle-bowl'];

function parse(argv: string[]): Options {
  const o: Options = { rows: TABLE1_ROWS.filter((r) => DEFAULT_ROWS.includes(r.key)), size: 'small', frames: 1, passThrough: [] };
  const usage = `options: --scenes all|${TABLE1_ROWS.map((r) => r.key).join(',')} (default ${DEFAULT_ROWS.join(',')}), --size small|default|paper | --tets N, --frames N, --order O, --substeps N, --iterations N, --out FILE`;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${a} needs a value (${usage})`);
    i++;
    const int = (): number => {
      const x = Number(v);
      if (!(Number.isInteger(x) && x >= 1)) throw new Error(`${a} must be an integer >= 1, got "${v}"`);
      return x;
    };
    if (a === '--scenes' && v === 'all') o.rows = [...TABLE1_ROWS];
    else if (a === '--scenes') {
      o.rows = v.split(',').map((k) => {
        const r = TABLE1_ROWS.find((x) => x.key === k);
        if (!r) throw new Error(`--scenes: no row "${k}" (${TABLE1_ROWS.map((x) => x.key).join(', ')})`);
        return r;
      });
    } else if (a === '--size') {
      if (v !== 'small' && v !== 'default' && v !== 'paper') throw new Error(`--size must be small, default or paper, got "${v}"`);
      o.size = v;
    } else if (a === '--tets') o.tets = int();
    else if (a === '--frames') o.frames = int();
    else if (a === '--out') o.out = v;
    else if (a === '--order' || a === '--substeps' || a === '--iterations') o.passThrough.push(a, v);
    else throw new Error(`unknown option ${a} (${usage})`);
  }
  return o;
}

/** A plain text table: header and rows right-aligned, the first column left-aligned. */
function textTable(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

interface RowResult {
  key: string;
  paper: PaperRow;
  run: Omit<HarnessRun, 'frames' | 'buffers'> & { gpuBytes: number };
  table1: Table1Row;
  perFrame: {
    dispatches: number;
    xpbdDispatchesModel: number;
    xpbdDispatchesRecorded: number;
    dispatchesGaussSeidel: number;
    xpbdBytes: number;
    xpbdExtraRounds: number;
    collisionBytes: number;
    blockingReadbacks: number;
    encodeMs: number;
    /** Where encodeMs went (GpuFrameResult.encodeSplitMs), means by part. */
    encodeSplitMs: Record<string, number>;
    wallMs: number;
    /** CCD's broad-phase job in the worker pool (ms) and the frame's wait for it before recording (ms; 0 when the job fits in a frame). */
    workerJobMs: number;
    workerWaitMs: number;
    /** Compute passes a frame (TimeStep shares passes between stages) and dispatches by phase, from the solver's counters. */
    passes: number;
    byPhase: Record<string, number>;
    byPipeline: Record<string, number>;
  };
  projection: { gpu: string; cost: string; lowMs: number; highMs: number; gaussSeidelLowMs: number; gaussSeidelHighMs: number; memoryMs: number; roundsMs: number }[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function summarise(row: PaperRow, run: HarnessRun): RowResult {
  const frames = run.frames;
  const table1 = table1Row({ frames: frames.map((f) => f.entry), counts: run, params: run.startParams });
  const mesh = { vertices: run.vertices, tets: run.tets, edges: run.edges };
  // The same frame with one dispatch per colour: the XPBD stages' plan in that order, the rest as recorded.
  const gsDispatches = frames.map((f) => f.recorded.total - f.xpbd.dispatches + planTraffic(xpbdFramePlan({ ...f.xpbdInput, solveOrder: 'gauss-seidel' }), mesh).dispatches);
  const xpbdRecorded = frames.map((f) => Object.entries(f.recorded.byPipeline).reduce((a, [k, n]) => a + (k.startsWith('xpbd') ? n : 0), 0));
  const perFrame = {
    dispatches: mean(frames.map((f) => f.recorded.total)),
    xpbdDispatchesModel: mean(frames.map((f) => f.xpbd.dispatches)),
    xpbdDispatchesRecorded: mean(xpbdRecorded),
    dispatchesGaussSeidel: mean(gsDispatches),
    xpbdBytes: mean(frames.map((f) => f.xpbd.read + f.xpbd.write + f.clearBytes)),
    /** Serial rounds inside the XPBD dispatches past each one's first (the partitioned cells' local colours; traffic.ts). */
    xpbdExtraRounds: mean(frames.map((f) => f.xpbd.extraRounds)),
    collisionBytes: mean(frames.map((f) => (f.collisions ? f.collisions.read + f.collisions.write : 0))),
    blockingReadbacks: mean(frames.map((f) => f.blockingReadbacks)),
    encodeMs: mean(frames.map((f) => f.encodeMs)),
    encodeSplitMs: Object.fromEntries(
      [...new Set(frames.flatMap((f) => Object.keys(f.stats.encodeSplitMs ?? {})))].map((k): [string, number] => [k, mean(frames.map((f) => f.stats.encodeSplitMs?.[k as keyof typeof f.stats.encodeSplitMs] ?? 0))]),
    ),
    wallMs: mean(frames.map((f) => f.stats.wallMs)),
    workerJobMs: mean(frames.map((f) => f.stats.collisions?.ccd.jobMs ?? 0)),
    workerWaitMs: mean(frames.map((f) => f.stats.collisions?.ccd.waitMs ?? 0)),
    passes: mean(frames.map((f) => f.stats.passes)),
    byPhase: Object.fromEntries(
      [...new Set(frames.flatMap((f) => Object.keys(f.stats.dispatchesByPhase)))].map((k): [string, number] => [k, mean(frames.map((f) => f.stats.dispatchesByPhase[k as keyof typeof f.stats.dispatchesByPhase] ?? 0))]),
    ),
    /** Mean dispatches per frame by pipeline label, most first. */
    byPipeline: Object.fromEntries(
      [...new Set(frames.flatMap((f) => Object.keys(f.recorded.byPipeline)))]
        .map((k): [string, number] => [k, mean(frames.map((f) => f.recorded.byPipeline[k] ?? 0))])
        .sort((x, y) => y[1] - x[1]),
    ),
  };
  const bytes = perFrame.xpbdBytes + perFrame.collisionBytes;
  const projection = PROJECTIONS.map(({ gpu, cost }) => {
    const now = projectFrameMs(bytes, perFrame.dispatches, gpu, cost, perFrame.xpbdExtraRounds);
    // One dispatch per colour: each is one round, none inside.
    const before = projectFrameMs(bytes, perFrame.dispatchesGaussSeidel, gpu, cost);
    return { gpu: gpu.name, cost: cost.name, lowMs: now.low, highMs: now.high, gaussSeidelLowMs: before.low, gaussSeidelHighMs: before.high, memoryMs: now.memoryMs, roundsMs: now.roundsMs };
  });
  const { frames: _f, buffers, ...rest } = run;
  return { key: row.key, paper: row, run: { ...rest, gpuBytes: liveBytes(buffers) }, table1, perFrame, projection };
}

const range = (lo: number, hi: number, digits = 1): string => (Math.abs(hi - lo) < 0.05 * Math.max(lo, 1e-9) ? lo.toFixed(digits) : `${lo.toFixed(digits)}-${hi.toFixed(digits)}`);

const o = parse(process.argv.slice(2));
const log = (m: string): void => console.error(`report: ${m}`);
const results: RowResult[] = [];
const t0 = performance.now();
let adapter = '';
for (const [i, row] of o.rows.entries()) {
  const def = findScene(row.scene);
  const sizeArgs = o.tets !== undefined ? ['--tets', String(o.tets)] : def.size ? ['--size', String(def.size[o.size])] : [];
  log(`[${i + 1}/${o.rows.length}] ${row.key} (${row.paper}): ${[...sizeArgs, ...row.args, ...o.passThrough].join(' ')}; ${((performance.now() - t0) / 1000).toFixed(0)} s so far`);
  const run = await runScene(row.scene, [...sizeArgs, ...row.args, ...o.passThrough], o.frames, log);
  adapter = run.adapter;
  const r = summarise(row, run);
  results.push(r);
  if (r.perFrame.xpbdDispatchesModel !== r.perFrame.xpbdDispatchesRecorded) {
    log(`warning: ${row.key}: the traffic model plans ${r.perFrame.xpbdDispatchesModel} XPBD dispatches a frame, the passes recorded ${r.perFrame.xpbdDispatchesRecorded}`);
  }
  if (o.out) writeFileSync(o.out, JSON.stringify({ adapter, options: { ...o, rows: o.rows.map((x) => x.key) }, references: { gpus: REFERENCE_GPUS, dispatchCosts: DISPATCH_COSTS }, rows: results }, null, 2));
}
endBench();

console.log(`\nTable 1 (paper 000) on ${adapter}; ${o.tets !== undefined ? `--tets ${o.tets}` : `${o.size} sizes`}, ${o.frames} frame(s) a row${o.passThrough.length ? `, ${o.passThrough.join(' ')}` : ''}.`);
console.log('Frame times here are the software adapter\'s (read ratios); "paper" = the authors\' size and average frame time (s) on an RTX 3080 Ti + Ryzen 5950X.\n');
{
  const cells = results.map((r) => table1Cells(r.table1).filter((c) => !/render|other/.test(c.label)));
  const header = ['row', 'paper tets', 'paper s', ...cells[0]!.map((c) => c.label)];
  console.log(textTable(header, results.map((r, i) => [r.key, r.paper.tets, r.paper.frameS.toString(), ...cells[i]!.map((c) => c.value)])));
}

console.log('\nPer frame (means): dispatches counted at the compute passes (XPBD ones checked against the traffic model\'s plan); "GS" = the same frame with one dispatch per colour (the order before issue 11); bytes: XPBD stages exact from the counts, collision stages estimated from the counters (src/sim/traffic.ts); blocking = waits for the GPU before submitting; encode = JS time to record and submit; worker job / wait = CCD\'s broad phase in the comlink pool and the frame\'s wait for it.\n');
console.log(
  textTable(
    ['row', 'dispatches', 'per substep', 'passes', 'GS dispatches', 'XPBD MB', 'collision MB (est.)', 'blocking', 'encode ms', 'worker job ms', 'worker wait ms', 'frame ms here', 'GPU MB', 'B/tet'],
    results.map((r) => [
      r.key,
      r.perFrame.dispatches.toFixed(0),
      (r.perFrame.dispatches / r.table1.step.substeps).toFixed(1),
      r.perFrame.passes.toFixed(0),
      r.perFrame.dispatchesGaussSeidel.toFixed(0),
      (r.perFrame.xpbdBytes / 1e6).toFixed(1),
      (r.perFrame.collisionBytes / 1e6).toFixed(1),
      r.perFrame.blockingReadbacks.toFixed(1),
      r.perFrame.encodeMs.toFixed(2),
      r.perFrame.workerJobMs.toFixed(1),
      r.perFrame.workerWaitMs.toFixed(1),
      r.perFrame.wallMs.toFixed(0),
      (r.run.gpuBytes / 1e6).toFixed(1),
      (r.run.gpuBytes / r.run.tets).toFixed(0),
    ]),
  ),
);

console.log('\nDispatches a frame by phase (the solver\'s counters):');
for (const r of results) console.log(`  ${r.key}: ${Object.entries(r.perFrame.byPhase).map(([k, n]) => `${k} ${n.toFixed(0)}`).join(', ')}`);

console.log('\nJavaScript time to record and submit a frame (encode ms) by part: the collisions\' host work, the closing speed, constants and scripts, recording, readback copies, submit:');
for (const r of results) console.log(`  ${r.key}: ${Object.entries(r.perFrame.encodeSplitMs).map(([k, ms]) => `${k} ${ms.toFixed(2)}`).join(', ')}`);

console.log('\nDispatches a frame by pipeline:');
for (const r of results) console.log(`  ${r.key}: ${Object.entries(r.perFrame.byPipeline).map(([k, n]) => `${k} ${n.toFixed(0)}`).join(', ')}`);

console.log('\nProjected frame time (ms) = bytes moved / bandwidth + dispatches x per-dispatch cost + serial rounds inside dispatches x a round\'s latency; run order / plain Gauss-Seidel (GS):\n');
console.log(
  textTable(
    ['row', ...PROJECTIONS.map((p) => `${p.gpu.name}, ${p.cost.name}`)],
    results.map((r) => [r.key, ...r.projection.map((p) => `${range(p.lowMs, p.highMs)} / GS ${range(p.gaussSeidelLowMs, p.gaussSeidelHighMs)}`)]),
  ),
);
console.log('\nConstants:');
for (const g of REFERENCE_GPUS) console.log(`  ${g.name}: ${(g.bandwidth / 1e9).toFixed(0)} GB/s (${g.source})`);
for (const c of DISPATCH_COSTS) console.log(`  ${c.name}: ${range(c.low * 1e6, c.high * 1e6, 0)} us per dispatch (${c.source})`);
console.log(`  a serial round inside a dispatch: ${(ROUND_LATENCY.seconds * 1e6).toFixed(1)} us (${ROUND_LATENCY.source}); rounds a frame: ${results.map((r) => `${r.key} ${r.perFrame.xpbdExtraRounds.toFixed(0)}`).join(', ')}`);
console.log('  A lower bound: other compute and latency (the CCD narrow phase\'s tests, detection\'s list walks, the per-object finalize), the CPU\'s CCD broad phase and readback waits are not in it.');
console.log(`\n${results.length} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s${o.out ? `; JSON in ${o.out}` : ''}.`);
