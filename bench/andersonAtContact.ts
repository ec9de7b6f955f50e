/**
 * Anderson acceleration (SolverParams.andersonDepth) at a contact with a collider: where does one
 * frame of N accelerated iterations end, against N plain iterations and the converged (64-iteration)
 * plain frame, all from the same state? And the same with the ground taken away, so that the
 * material alone decides the frame.
 *
 *   node scripts/run-ts.mjs bench/andersonAtContact.ts [--young 2e6] [--order partitioned|gauss-seidel|jacobi] [--from 6]
 *     [--iterations 6,12,64] [--anderson-depth 2] [--friction 0.2] [--collider-response projection|multiplier]
 *
 * Scene: the shared Cube.t (2 units wide, Poisson 0.4) dropped onto the ground plane y = -1.05,
 * 4 substeps a frame at 1/60 s, run with 64 plain iterations for --from frames (it lands in frame
 * 5). From that state (positions and velocities copied into fresh solvers, so every run below
 * starts its multipliers cold alike), one frame each: plain N, accelerated N, plain 64. Prints the
 * largest vertex difference (world units) of each against plain 64, on the ground and without it.
 * Then the same frame converged (64 plain iterations) in the other Gauss-Seidel order (coloured
 * for partitioned and back), against this order's: the plain sweeps' own answer at a contact
 * depends on their path (docs/benchmarks.md "Anderson acceleration at a collider").
 * --collider-response: how the ground acts (SolverParams.colliderResponse; default projection for
 * every run, what the solver's 'auto' gives the plain ones): 'multiplier' keeps the push per vertex
 * and takes it back (what 'auto' gives the accelerated ones); 'auto' gives each run its own.
 * The float64 CPU reference; asserts nothing.
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import { COLLIDER_RESPONSES, type SolverParams } from '../src/contract/params';
import type { Collider } from '../src/sim/colliders';
import { makeSetup } from '../tests/unit/sim/support/setups';
import { loadSharedTetArrays } from '../tests/support/sharedMeshes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/andersonAtContact.ts [--young 2e6] [--order partitioned|gauss-seidel|jacobi] [--from 6] [--iterations 6,12,64] [--anderson-depth 2] [--friction 0.2] [--collider-response projection|multiplier]',
  values: ['--young', '--order', '--from', '--iterations', '--anderson-depth', '--friction', '--collider-response'],
});

const args = process.argv.slice(2);
const text = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const number = (name: string, fallback: number, ok: (v: number) => boolean, what: string): number => {
  const raw = text(name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!ok(v)) throw new Error(`--${name} must be ${what}, got ${raw}`);
  return v;
};
const young = number('young', 2e6, (v) => v > 0, 'a positive number');
const from = number('from', 6, (v) => Number.isInteger(v) && v >= 0, 'an integer >= 0');
const depth = number('anderson-depth', 2, (v) => Number.isInteger(v) && v >= 1 && v <= 4, 'an integer in [1, 4]');
const friction = number('friction', 0.2, (v) => v >= 0, 'a number >= 0');
const orderArg = text('order') ?? 'partitioned';
if (orderArg !== 'partitioned' && orderArg !== 'gauss-seidel' && orderArg !== 'jacobi') throw new Error(`--order must be partitioned, gauss-seidel or jacobi, got ${orderArg}`);
const order: SolverParams['solveOrder'] = orderArg;
const responseArg = text('collider-response') ?? 'projection';
if (!(COLLIDER_RESPONSES as readonly string[]).includes(responseArg)) throw new Error(`--collider-response must be one of ${COLLIDER_RESPONSES.join(', ')}, got ${responseArg}`);
const colliderResponse = responseArg as SolverParams['colliderResponse'];
const counts = (text('iterations') ?? '6,12,64').split(',').map(Number);
if (!counts.every((n) => Number.isInteger(n) && n >= 1)) throw new Error(`--iterations must be a comma-separated list of positive integers, got ${text('iterations')}`);

const cube = loadSharedTetArrays('Cube.t');
const ground: Collider[] = [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }];
const solver = (colliders: Collider[], params: Partial<SolverParams>) =>
  new CpuSolver(makeSetup([{ ...cube, material: { youngsModulus: young, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 4, solveOrder: order, friction, colliderResponse, ...params }, colliders));
const otherOrder: SolverParams['solveOrder'] = order === 'partitioned' ? 'gauss-seidel' : 'partitioned';

const trajectory = solver(ground, { iterations: 64 });
for (let f = 0; f < from; f++) trajectory.stepFrame();

/** One frame from the trajectory's state with these colliders and settings: the positions after it. */
function frameFrom(colliders: Collider[], iterations: number, andersonDepth: number, solveOrder: SolverParams['solveOrder'] = order): Float64Array {
  const s = solver(colliders, { iterations, andersonDepth, solveOrder });
  s.x.set(trajectory.x);
  s.v.set(trajectory.v);
  s.time = trajectory.time;
  s.stepFrame();
  return s.x;
}
const worst = (a: Float64Array, b: Float64Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

console.log(`Cube.t, E ${young.toExponential(0)}, ${order}, friction ${friction}, colliders by ${colliderResponse}, one frame (4 substeps) from frame ${from} of a 64-iteration run; Anderson depth ${depth}`);
console.log('| colliders | iterations | plain vs 64 plain | accelerated vs 64 plain |');
console.log('|---|---|---|---|');
const cases: [string, Collider[]][] = [['ground', ground], ['none', []]];
for (const [name, colliders] of cases) {
  const reference = frameFrom(colliders, 64, 0);
  for (const n of counts) {
    const plain = worst(frameFrom(colliders, n, 0), reference);
    const accelerated = worst(frameFrom(colliders, n, depth), reference);
    console.log(`| ${name} | ${n} | ${plain.toExponential(2)} | ${accelerated.toExponential(2)} |`);
  }
}
// Jacobi is far from converged at 64 iterations (the table above), so only the Gauss-Seidel orders compare.
if (order !== 'jacobi') {
  console.log(`\nconverged (64 plain iterations) in the ${otherOrder} order against the ${order} order, same frame:`);
  for (const [name, colliders] of cases) console.log(`  ${name}: ${worst(frameFrom(colliders, 64, 0, otherOrder), frameFrom(colliders, 64, 0)).toExponential(2)}`);
}
