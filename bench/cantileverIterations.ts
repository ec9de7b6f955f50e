/**
 * The cantilever's error per Gauss-Seidel iteration count against the same solver's converged
 * run, with the solver's default settings, on the float64 CPU reference: the figure of issue 24
 * (tip error after 4 iterations, bench/xpbd.ts's setting). It uses only APIs that are also in the
 * tree before the Neo-Hookean stability fix, so the same file measures that solver too:
 *
 *   node scripts/run-ts.mjs bench/cantileverIterations.ts [--resolution 24] [--young 1e6] [--iterations 1,2,4,8]
 *     [--order gauss-seidel|partitioned] [--balance valence|count] [--anderson-depth D] [--anderson-line-search-sweeps N] [--reference coloured|same]
 *
 * --order: the solve order of the runs measured (default coloured Gauss-Seidel; the reference is
 * coloured Gauss-Seidel at 64 iterations unless --reference same). --balance
 * (with --order partitioned): how the partition picks a pass for an element interior in several
 * (src/mesh/partitionedColouring.ts PartitionOptions.balance; default the model's, 'valence').
 * --anderson-depth: the runs measured with Anderson acceleration of that depth
 * (SolverParams.andersonDepth; the reference is without it unless --reference same).
 * --anderson-line-search-sweeps: SolverParams.andersonLineSearchSweeps of the accelerated runs
 * (default the solver's; 1000: the search in every sweep).
 * --reference: coloured (default): coloured Gauss-Seidel without acceleration at 64 iterations;
 * same: the measured runs' own order and acceleration at 64 iterations, i.e. each method against
 * the state it converges to. XPBD's converged state depends on the path a little (each step moves
 * along the gradients at its own iterate: the partitioned order's differs from the coloured one's
 * by 3.5e-6 m on this cantilever, the accelerated one's by 3.5e-7 m), so below about 1e-6 only
 * `same` measures convergence (docs/benchmarks.md).
 *
 *   # the solver before the stability fix (commit 7d89b6b^, the C_D / C_H constraint pair):
 *   rm -rf /tmp/prefix && mkdir /tmp/prefix && git archive 7d89b6b^ | tar -x -C /tmp/prefix
 *   ln -s "$PWD/node_modules" /tmp/prefix/node_modules && cp bench/cantileverIterations.ts bench/cli.ts /tmp/prefix/bench/
 *   (cd /tmp/prefix && node scripts/run-ts.mjs bench/cantileverIterations.ts)
 *
 * Cantilever scene (clamped 2 x 0.25 x 0.25 beam), 10 substeps, 11 frames from rest; error =
 * |tip height - reference's| and the largest coordinate error over all vertices, against
 * coloured Gauss-Seidel with 64 iterations. Asserts nothing.
 */
import { cantilever } from '../src/scenes/cantilever';
import { CpuSolver } from '../src/sim/cpuSolver';
import { updateMaterialData } from '../src/sim/model';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/cantileverIterations.ts [--resolution 24] [--young 1e6] [--iterations 1,2,4,8] [--order gauss-seidel|partitioned] [--balance valence|count] [--anderson-depth D] [--anderson-line-search-sweeps N] [--reference coloured|same]',
  values: ['--resolution', '--young', '--iterations', '--order', '--balance', '--anderson-depth', '--anderson-line-search-sweeps', '--reference'],
});

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!(v > 0)) throw new Error(`--${name} must be a positive number, got ${args[i + 1]}`);
  return v;
};
const resolution = flag('resolution', 24);
const young = flag('young', 1e6);
const frames = 11;
const listArg = args.indexOf('--iterations');
const counts = listArg < 0 ? [1, 2, 4, 8] : args[listArg + 1].split(',').map(Number);
if (!counts.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`--iterations must be a comma-separated list of positive integers, got ${args[listArg + 1]}`);

const textFlag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const order = textFlag('order') ?? 'gauss-seidel';
if (order !== 'gauss-seidel' && order !== 'partitioned') throw new Error(`--order must be gauss-seidel or partitioned, got ${order}`);
const balance = textFlag('balance');
if (balance !== undefined && balance !== 'valence' && balance !== 'count') throw new Error(`--balance must be valence or count, got ${balance}`);

const referenceKind = textFlag('reference') ?? 'coloured';
if (referenceKind !== 'coloured' && referenceKind !== 'same') throw new Error(`--reference must be coloured or same, got ${referenceKind}`);

const andersonArg = textFlag('anderson-depth');
const andersonDepth = andersonArg === undefined ? 0 : Number(andersonArg);
if (!Number.isInteger(andersonDepth) || andersonDepth < 0) throw new Error(`--anderson-depth must be an integer >= 0, got ${andersonArg}`);
const searchedArg = textFlag('anderson-line-search-sweeps');
const searchedSweeps = searchedArg === undefined ? undefined : Number(searchedArg);
if (searchedSweeps !== undefined && !(Number.isInteger(searchedSweeps) && searchedSweeps >= 0)) throw new Error(`--anderson-line-search-sweeps must be an integer >= 0, got ${searchedArg}`);

const setup = cantilever.build({ resolution });
setup.model.materials.forEach((m) => (m.youngsModulus = young));
updateMaterialData(setup.model);
// The partition's pass rule (SolverParams.partitionBalance: the solver rebuilds the model's partition).
if (balance) setup.params = { ...setup.params, partitionBalance: balance };
const rest = setup.model.restPositions;
let xmax = -Infinity;
for (let i = 0; i < rest.length; i += 3) xmax = Math.max(xmax, rest[i]);
const tip = (x: Float64Array) => {
  let sum = 0, n = 0;
  for (let i = 0; i < rest.length; i += 3) if (rest[i] > xmax - 0.02) { sum += x[i + 1]; n++; }
  return sum / n;
};
const solve = (iterations: number, solveOrder: 'gauss-seidel' | 'partitioned' = order, anderson = andersonDepth) => {
  // andersonDepth only when asked: the tree before the stability fix has no such setting.
  const s = new CpuSolver({ ...setup, params: { ...setup.params, solveOrder, iterations, ...(anderson > 0 ? { andersonDepth: anderson } : {}), ...(searchedSweeps !== undefined ? { andersonLineSearchSweeps: searchedSweeps } : {}) } });
  for (let f = 0; f < frames; f++) s.stepFrame();
  return s.x;
};
const ref = referenceKind === 'same' ? solve(64) : solve(64, 'gauss-seidel', 0);
const refName = referenceKind === 'same' ? 'the same order and acceleration' : 'coloured Gauss-Seidel';
console.log(`cantilever resolution ${resolution} (${setup.model.tetCount} tets), E ${young.toExponential(0)}, ${setup.params.substeps} substeps, ${frames} frames, order ${order}${balance ? ` (balance ${balance})` : ''}${andersonDepth > 0 ? `, Anderson depth ${andersonDepth}${searchedSweeps !== undefined ? `, searched sweeps ${searchedSweeps}` : ''}` : ''}; reference: ${refName}, 64 iterations, tip ${(tip(ref) * 1000).toFixed(2)} mm`);
console.log('| iterations | tip error | worst vertex error |');
console.log('|---|---|---|');
for (const it of counts) {
  const x = solve(it);
  let worst = 0;
  for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - ref[i]));
  console.log(`| ${it} | ${Math.abs(tip(x) - tip(ref)).toExponential(2)} | ${worst.toExponential(2)} |`);
}
process.exit(0);
