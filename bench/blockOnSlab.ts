/**
 * Static and kinetic friction between two soft bodies under the solver's settings (issue 19): the
 * scene of tests/unit/collision/bodyFriction.test.ts (a 10 cm block on a 1 m slab whose bottom
 * layer is held, mu 0.5, 10 substeps, hybrid, float64 CPU engine), gravity tilted by --angle
 * degrees about z, ramped in over 0.25 s after 0.25 s of settling. Prints the block's drift along
 * the slope over the 2 s after the ramp (the test asks < 0.1 mm below the friction angle, 26.6
 * degrees) and, above it, its acceleration over the first 0.5 s against g (sin - mu cos).
 * Asserts nothing.
 *
 *   node scripts/run-ts.mjs bench/blockOnSlab.ts [--angle 20] [--iterations 3] [--balance count|valence]
 *     [--contact-passes 3] [--contact-offset auto|METRES] [--collision-mode hybrid|dcd|ccd]
 *
 * --balance: the partition's pass rule (src/mesh/partitionedColouring.ts PartitionOptions.balance;
 * the model's default is valence). docs/collisions.md "Static friction between bodies holds by luck
 * of the solve order" has the figures.
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import { slopeGravity } from '../tests/support/blockScenes';
import { blockOnSlab } from '../tests/unit/collision/scenes';
import type { SolverParams } from '../src/contract/params';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/blockOnSlab.ts [--angle 20] [--iterations 3] [--balance count|valence] [--contact-passes 3] [--contact-offset auto|METRES] [--collision-mode hybrid|dcd|ccd]',
  values: ['--angle', '--iterations', '--balance', '--contact-passes', '--contact-offset', '--collision-mode'],
});

const args = process.argv.slice(2);
const text = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const number = (name: string, fallback: number, integer = false): number => {
  const t = text(name);
  if (t === undefined) return fallback;
  const v = Number(t);
  if (!(v > 0) || (integer && !Number.isInteger(v))) throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got ${t}`);
  return v;
};
const MU = 0.5;
const DEG = Math.PI / 180;
const angle = number('angle', 20);
if (!(angle < 90)) throw new Error(`--angle must be below 90 degrees, got ${angle}`);
const balance = text('balance') ?? 'valence';
if (balance !== 'count' && balance !== 'valence') throw new Error(`--balance must be count or valence, got ${balance}`);
const offsetText = text('contact-offset');
const contactOffset: SolverParams['contactOffset'] = offsetText === undefined || offsetText === 'auto' ? 'auto' : Number(offsetText);
if (contactOffset !== 'auto' && !(contactOffset >= 0)) throw new Error(`--contact-offset must be auto or a length >= 0, got ${offsetText}`);
const mode = text('collision-mode') ?? 'hybrid';
if (mode !== 'hybrid' && mode !== 'dcd' && mode !== 'ccd') throw new Error(`--collision-mode must be hybrid, dcd or ccd, got ${mode}`);

const { setup, blockMean: meanOf } = blockOnSlab({ iterations: number('iterations', 3, true), balance }, MU, {
  collisionMode: mode, contactOffset, contactIterations: number('contact-passes', 3, true),
});
const solver = new CpuSolver(setup);
const blockMean = (f: Float64Array): number => meanOf(f, 0);
const rampEnd = 0.5;
let x0 = 0, v0 = 0, t0 = 0, accel = NaN;
while (solver.time < rampEnd + 2 - 1e-9) {
  solver.params.gravity = slopeGravity(angle * DEG * Math.min(1, Math.max(0, (solver.time - 0.25) / 0.25)));
  solver.stepFrame();
  if (t0 === 0 && solver.time >= rampEnd - 1e-9) { x0 = blockMean(solver.x); v0 = blockMean(solver.v); t0 = solver.time; }
  if (t0 > 0 && Number.isNaN(accel) && solver.time >= t0 + 0.5 - 1e-9) accel = (blockMean(solver.v) - v0) / (solver.time - t0);
}
const law = 9.81 * (Math.sin(angle * DEG) - MU * Math.cos(angle * DEG));
const setting = `angle ${angle} deg, ${solver.params.iterations} iterations, ${balance} order, ${solver.params.contactIterations} contact passes, offset ${String(contactOffset)}, ${mode}`;
if (law <= 0) console.log(`${setting}: drift ${((blockMean(solver.x) - x0) * 1000).toFixed(4)} mm along the slope in 2 s (below the friction angle: < 0.1 mm asked)`);
else console.log(`${setting}: acceleration ${accel.toFixed(4)} m/s^2 against the law's ${law.toFixed(4)} (${((100 * (accel - law)) / law).toFixed(2)} %)`);
