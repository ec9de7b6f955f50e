/**
 * Scale (issue 11): each Table-1 scene at about 10k, 100k and 1M tets (the runner's --tets), one
 * frame with few substeps and iterations, collisions as the scene has them. Prints per run the
 * material phase's cost per tet-iteration (material ms / (tets x substeps x iterations)), the
 * frame's other phases, the live GPU memory per tet and by buffer kind, and per scene the growth
 * exponent of the material time (least-squares slope of log time against log tets: 1 = linear).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/scale.ts
 *   ... bench/scale.ts --scenes octopus-box,noodle-bowl --tets 10000,100000 --substeps 2 --iterations 1 --out scale.json
 *
 * On a software adapter (SwiftShader) the times are the CPU's: compare ratios, not values.
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../src/runner/args';
import { bytesByLabel, endBench, liveBytes, runScene, type HarnessRun } from './frameHarness';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/scale.ts [--scenes A,B] [--tets N,M] [--substeps 2] [--iterations 1] [--frames 1] [--order O] [--collisions on|off] [--out FILE]',
  values: ['--scenes', '--tets', '--substeps', '--iterations', '--frames', '--order', '--collisions', '--out'],
});

const DEFAULT_SCENES = ['octopus-box', 'octopus-pile', 'noodle-recovery', 'noodle-bowl', 'squishy-squeeze', 'squishy-bowl'];

function parse(argv: string[]): { scenes: string[]; targets: number[]; substeps: number; iterations: number; frames: number; out?: string; extra: string[] } {
  const o = { scenes: DEFAULT_SCENES, targets: [1e4, 1e5, 1e6], substeps: 2, iterations: 1, frames: 1, out: undefined as string | undefined, extra: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = argv[i + 1];
    const need = (): string => {
      if (v === undefined) throw new Error(`${a} needs a value`);
      i++;
      return v;
    };
    const int = (name: string, text: string): number => {
      const x = Number(text);
      if (!(Number.isInteger(x) && x >= 1)) throw new Error(`${name} must be an integer >= 1, got "${text}"`);
      return x;
    };
    if (a === '--scenes') o.scenes = need().split(',');
    else if (a === '--tets') o.targets = need().split(',').map((t) => int('--tets', t));
    else if (a === '--substeps') o.substeps = int(a, need());
    else if (a === '--iterations') o.iterations = int(a, need());
    else if (a === '--frames') o.frames = int(a, need());
    else if (a === '--out') o.out = need();
    else if (a === '--order' || a === '--collisions') o.extra.push(a, need());
    else throw new Error(`unknown option ${a} (--scenes A,B --tets N,M --substeps N --iterations N --frames N --order O --collisions on|off --out FILE)`);
  }
  return o;
}

/** Least-squares slope of log y against log x. */
export function growthExponent(x: readonly number[], y: readonly number[]): number {
  const lx = x.map(Math.log);
  const ly = y.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return num / den;
}

/** Buffer kinds: the label's name after its prefix ("xpbd.tetLambda" -> "tetLambda"), sized buffers of a growable list kept together. */
const kindOf = (label: string): string => label;

interface ScaleRow {
  scene: string;
  target: number;
  size: number | undefined;
  tets: number;
  vertices: number;
  substeps: number;
  iterations: number;
  materialMs: number;
  nsPerTetIteration: number;
  frameMs: number;
  phasesMs: Record<string, number>;
  gpuBytes: number;
  gpuBytesPerTet: number;
  topBuffers: [string, number][];
  rssBytes: number;
  buildMs: number;
}

function rowOf(run: HarnessRun, target: number): ScaleRow {
  const n = run.frames.length;
  const phases: Record<string, number> = {};
  for (const f of run.frames) for (const [k, v] of Object.entries(f.stats.gpuPhasesMs ?? { wall: f.stats.wallMs })) phases[k] = (phases[k] ?? 0) + v / n;
  const p = run.frames[0]!.params;
  const materialMs = phases.material ?? NaN;
  const gpuBytes = liveBytes(run.buffers);
  return {
    scene: run.scene,
    target,
    size: run.size,
    tets: run.tets,
    vertices: run.vertices,
    substeps: p.substeps,
    iterations: p.iterations,
    materialMs,
    nsPerTetIteration: (1e6 * materialMs) / (run.tets * p.substeps * p.iterations),
    frameMs: run.frames.reduce((a, f) => a + f.stats.wallMs, 0) / n,
    phasesMs: phases,
    gpuBytes,
    gpuBytesPerTet: gpuBytes / run.tets,
    topBuffers: [...bytesByLabel(run.buffers, kindOf)].slice(0, 8),
    rssBytes: process.memoryUsage().rss,
    buildMs: run.buildMs,
  };
}

const o = parse(process.argv.slice(2));
const log = (m: string): void => console.error(`scale: ${m}`);
const rows: ScaleRow[] = [];
const t0 = performance.now();
for (const scene of o.scenes) {
  for (const target of o.targets) {
    log(`${scene} at ~${target} tets (${((performance.now() - t0) / 1000).toFixed(0)} s so far)`);
    let run: HarnessRun;
    try {
      run = await runScene(scene, ['--tets', String(target), '--substeps', String(o.substeps), '--iterations', String(o.iterations), ...o.extra], o.frames, log);
    } catch (e) {
      // A count the scene's size range does not reach (e.g. 10k for the squishy ball, whose smallest is 16k).
      if (!(e instanceof UsageError)) throw e;
      log(`skipped: ${e.message}`);
      continue;
    }
    const r = rowOf(run, target);
    rows.push(r);
    const others = Object.entries(r.phasesMs).filter(([k]) => k !== 'material').map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
    log(`${scene} ${r.tets} tets: material ${r.materialMs.toFixed(0)} ms = ${r.nsPerTetIteration.toFixed(0)} ns per tet-iteration; frame ${r.frameMs.toFixed(0)} ms (${others}); GPU ${(r.gpuBytes / 1e6).toFixed(0)} MB = ${r.gpuBytesPerTet.toFixed(0)} B/tet; RSS ${(r.rssBytes / 1e9).toFixed(2)} GB`);
    if (o.out) writeFileSync(o.out, JSON.stringify({ adapter: run.adapter, rows }, null, 2));
  }
}
endBench();

console.log(`\nScale: ${o.substeps} substeps x ${o.iterations} iterations, ${o.frames} frame(s) each; adapter ${rows.length ? 'see JSON' : '-'}`);
console.log('scene            tets      material ms  ns/tet-it  frame ms  GPU MB  B/tet');
for (const r of rows) {
  console.log(`${r.scene.padEnd(16)} ${String(r.tets).padStart(8)}  ${r.materialMs.toFixed(0).padStart(11)}  ${r.nsPerTetIteration.toFixed(0).padStart(9)}  ${r.frameMs.toFixed(0).padStart(8)}  ${(r.gpuBytes / 1e6).toFixed(0).padStart(6)}  ${r.gpuBytesPerTet.toFixed(0).padStart(5)}`);
}
console.log('\ngrowth exponent of the material time against tets (1 = cost per tet-iteration flat):');
for (const scene of o.scenes) {
  const rs = rows.filter((r) => r.scene === scene);
  if (rs.length >= 2) console.log(`  ${scene}: ${growthExponent(rs.map((r) => r.tets), rs.map((r) => r.materialMs)).toFixed(3)} (frame: ${growthExponent(rs.map((r) => r.tets), rs.map((r) => r.frameMs)).toFixed(3)})`);
}
const big = rows.reduce<ScaleRow | undefined>((a, r) => (!a || r.tets > a.tets ? r : a), undefined);
if (big) {
  console.log(`\nGPU memory of the largest run (${big.scene}, ${big.tets} tets), top buffers:`);
  for (const [label, bytes] of big.topBuffers) console.log(`  ${label.padEnd(28)} ${(bytes / 1e6).toFixed(1).padStart(8)} MB  ${(bytes / big.tets).toFixed(1).padStart(7)} B/tet`);
}
