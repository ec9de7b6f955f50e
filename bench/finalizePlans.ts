/**
 * GPU time of a substep's end (finalize, damping, the next substep's predict) under each of
 * FinalizeStage's plans, on the octopus drop at several sizes (issue 24: dispatches against GPU
 * time). The plans record the same frames (tests/gpu/timeStep.test.ts):
 *   joined    finalize, damping and the next substep's predict in one workgroup per object
 *             (xpbdFinalizeDampPredict.wgsl), 1 dispatch a substep: the default up to
 *             PREDICT_JOIN_MAX_VERTICES vertices an object;
 *   warmed    the same per-object finalize and damping, the next substep's warm start in the
 *             same dispatch's other workgroups (xpbdFinalizeDampWarm.wgsl), then predict in its
 *             own per-vertex dispatch: 2 a substep, the default past that size;
 *   apart     the same per-object finalize and damping, the warm start and predict in their own
 *             per-vertex dispatches (3 a substep);
 *   chunked   finalize and damping per chunk of RIGID_DAMPING_CHUNK vertices (reduce, then
 *             solve and apply), predict apart: 3 dispatches a substep, every one spread over
 *             the whole GPU.
 * One workgroup per object holds the dispatch count down but walks a whole object's vertices on
 * one compute unit; this says what that costs as the object grows. Collisions off, partitioned
 * order, the scene's 20 substeps x 3 iterations; GPU ms from timestamp queries, medians of the
 * timed frames, the plans alternated --repeat times.
 *
 *   node scripts/run-ts.mjs bench/finalizePlans.ts [--sizes 16,24,default,42] [--frames 12] [--repeat 2]
 *   (a number: the generated octopus at that resolution; `default`: the scene's own, 4,627
 *   vertices.) On a software adapter compare ratios only.
 */
import { acquireGpu } from '../src/gpu/device';
import { findScene } from '../src/scenes/registry';
import { Simulation } from '../src/sim/simulation';
import type { SimSetup } from '../src/sim/setup';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/finalizePlans.ts [--sizes 16,24,default,42] [--frames 12] [--repeat 2]',
  values: ['--sizes', '--frames', '--repeat'],
});

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
const sizes = (flag('sizes') ?? '16,24,default,42').split(',');
for (const s of sizes) if (s !== 'default' && !(Number.isInteger(Number(s)) && Number(s) >= 4)) throw new Error(`--sizes takes octopus resolutions (integers >= 4) or 'default', got ${s}`);
const frames = Number(flag('frames') ?? 12);
if (!(Number.isInteger(frames) && frames >= 3)) throw new Error(`--frames must be an integer >= 3, got ${flag('frames')}`);
const repeat = Number(flag('repeat') ?? 2);
if (!(Number.isInteger(repeat) && repeat >= 1)) throw new Error(`--repeat must be a positive integer, got ${flag('repeat')}`);

const ctx = await acquireGpu({ onLost: (r) => { console.error(`device lost: ${r}`); process.exit(3); } });
console.log(`adapter: ${ctx.description}; timestamp queries: ${ctx.features.has('timestamp-query') ? 'yes' : 'no'}`);

type Plan = 'joined' | 'warmed' | 'apart' | 'chunked';
const PLANS: readonly Plan[] = ['joined', 'warmed', 'apart', 'chunked'];
interface FinalizeSwitches { predictNextSubstep: boolean; dampPerObject: boolean; predictJoinMaxVertices: number; warmStartNextSubstep: boolean }

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function run(setup: SimSetup, plan: Plan): Promise<{ predict: number; finalize: number; dispatches: number }> {
  const sim = new Simulation(ctx, setup);
  sim.setParams({ collisions: false, solveOrder: 'partitioned' });
  const finalize = sim.solver.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as FinalizeSwitches;
  finalize.predictNextSubstep = plan === 'joined' || plan === 'warmed';
  // Either join on any object size (the default picks by PREDICT_JOIN_MAX_VERTICES).
  finalize.predictJoinMaxVertices = plan === 'joined' ? Infinity : 0;
  finalize.warmStartNextSubstep = plan === 'warmed'; // off by default on a software adapter
  finalize.dampPerObject = plan !== 'chunked';
  const predict: number[] = [];
  const fin: number[] = [];
  let dispatches = 0;
  for (let f = 0; f < frames; f++) {
    const s = await sim.stepFrame();
    // The warm start is timed with finalize in 'warmed' and with predict otherwise: compare sums.
    if (f === 0) continue; // pipeline compilation
    predict.push(s.gpuPhasesMs?.predict ?? NaN);
    fin.push(s.gpuPhasesMs?.finalize ?? NaN);
    dispatches = (s.dispatchesByPhase.predict ?? 0) + (s.dispatchesByPhase.finalize ?? 0);
  }
  sim.destroy();
  return { predict: median(predict), finalize: median(fin), dispatches };
}

const scene = findScene('octopus-drop');
console.log(`\nOctopus drop, collisions off, partitioned, 20 substeps x 3 iterations; ${frames - 1} timed frames a run, plans alternated ${repeat} time(s)`);
console.log('| mesh | vertices | plan | predict + finalize dispatches / frame | predict GPU ms / frame | finalize GPU ms / frame | sum |');
console.log('|---|---|---|---|---|---|---|');
for (const size of sizes) {
  const setup = size === 'default' ? scene.build({}) : scene.build({ resolution: Number(size) });
  for (let r = 0; r < repeat; r++) {
    for (const plan of PLANS) {
      const t = await run(setup, plan);
      const label = size === 'default' ? 'default' : `resolution ${size}`;
      console.log(`| ${label} | ${setup.model.vertexCount} | ${plan} | ${t.dispatches} | ${t.predict.toFixed(2)} | ${t.finalize.toFixed(2)} | ${(t.predict + t.finalize).toFixed(2)} |`);
    }
  }
}
ctx.device.destroy();
