/**
 * Bodies that sank into each other, then collisions switched on (issue 19; the page's blue-tint
 * check): copies of a generated ball (the page's mesh scene: meshPile of generateShape('sphere'))
 * fall into their box with collisions off at 2 substeps x 2 iterations until at least
 * `--sink` boundary vertices are inside another ball; then collisions go on with the given
 * settings and, per frame, the brute-force counter (tests/support/intersectionCounter.ts, no code
 * shared with detection) gives the boundary vertices inside another ball, signed volumes the
 * inverted tets, and the kinetic energy. `--engine both` runs the GPU first, hands its sunk state
 * to the CPU reference and steps both from it (the twin check: largest position difference).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/sunkRecovery.ts \
 *     [--engine cpu|gpu|both] [--copies 3] [--resolution 8] [--sink 80] [--frames 6]
 *     [--recovery on|off] [--collision-mode hybrid|dcd] [--substeps 20] [--iterations 3] [--contact-iterations 3]
 */
import { acquireGpu } from '../src/gpu/device';
import { generateShape } from '../src/mesh/procedural/catalog';
import { meshPile } from '../src/scenes/meshPile';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { GpuSolver } from '../src/sim/gpuSolver';
import type { CollisionMode, SolverParams } from '../src/contract/params';
import type { Model } from '../src/sim/model';
import { countIntersections } from '../tests/support/intersectionCounter';
import { det } from '../tests/support/tetOracle';
import { checkBenchArgs, onOffArg } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/sunkRecovery.ts [--engine cpu|gpu|both] [--copies 3] [--resolution 8] [--sink 80] [--frames 6]\n' +
    '  [--recovery on|off] [--collision-mode hybrid|dcd] [--substeps 20] [--iterations 3] [--contact-iterations 3]',
  values: ['--engine', '--copies', '--resolution', '--sink', '--frames', '--recovery', '--collision-mode', '--substeps', '--iterations', '--contact-iterations'],
});
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number): number => (arg(name) === undefined ? fallback : Number(arg(name)));
const engine = arg('engine') ?? 'cpu';
if (!['cpu', 'gpu', 'both'].includes(engine)) throw new Error(`--engine must be cpu, gpu or both, got ${engine}`);
const ball = generateShape('sphere', {}, num('resolution', 8));
const build = () => meshPile.build({ mesh: { name: 'ball', positions: ball.positions, tets: ball.tets }, copies: num('copies', 3) });
const sinking: Partial<SolverParams> = { collisions: false, recovery: false, substeps: 2, iterations: 2, contactIterations: 3, collisionMode: 'dcd' };
const after: Partial<SolverParams> = {
  collisions: true,
  recovery: onOffArg(args, '--recovery', true),
  collisionMode: (arg('collision-mode') ?? 'dcd') as CollisionMode,
  substeps: num('substeps', 20),
  iterations: num('iterations', 3),
  contactIterations: num('contact-iterations', 3),
};

function measure(m: Model, x: ArrayLike<number>, v: ArrayLike<number>): string {
  const inside = countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }).inter;
  let inverted = 0;
  for (let t = 0; t < m.tetCount; t++) if (!(det(x, m.tets[4 * t], m.tets[4 * t + 1], m.tets[4 * t + 2], m.tets[4 * t + 3]) > 0)) inverted++;
  let ke = 0;
  for (let i = 0; i < m.vertexCount; i++) if (m.invMass[i] > 0) ke += (0.5 / m.invMass[i]) * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
  return `${inside} inside, ${inverted} inverted, KE ${ke.toPrecision(3)} J`;
}

const sinkTo = num('sink', 80);
const frames = num('frames', 6);
const cpuSetup = build();
cpuSetup.params = { ...cpuSetup.params, ...sinking };
const cpu = new CpuSimulation(cpuSetup);
const m = cpuSetup.model;
const cx = cpu.solver.x, cv = cpu.solver.v;
console.log(`${m.objectNames.length} balls, ${m.tetCount} tets; sinking with collisions off to >= ${sinkTo} inside; then ${JSON.stringify(after)}`);
let gpu: GpuSolver | undefined;
let sunkFrames = 0;
if (engine === 'cpu') {
  while (sunkFrames < 200 && countIntersections({ positions: cx, tets: m.tets, tetObject: m.tetObject }).inter < sinkTo) { await cpu.stepFrame(); sunkFrames++; }
} else {
  const setup = build();
  setup.params = { ...setup.params, ...sinking };
  gpu = new GpuSolver(await acquireGpu({}), setup);
  let x = await gpu.readPositions();
  while (sunkFrames < 200 && countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }).inter < sinkTo) { await gpu.stepFrame(); sunkFrames++; x = await gpu.readPositions(); }
  // The CPU twin starts from the GPU's sunk state.
  cx.set(x);
  cv.set(await gpu.readVelocities());
  gpu.params = { ...gpu.params, ...after };
}
console.log(`sunk after ${sunkFrames} frames: ${measure(m, cx, cv)}`);
cpu.setParams(after);
for (let f = 1; f <= frames; f++) {
  const row: string[] = [`frame ${f}:`];
  if (gpu) {
    await gpu.stepFrame();
    const gx = await gpu.readPositions();
    row.push(`gpu ${measure(m, gx, await gpu.readVelocities())}`);
    if (engine === 'both') {
      await cpu.stepFrame();
      let d = 0;
      for (let i = 0; i < gx.length; i++) d = Math.max(d, Math.abs(gx[i] - cx[i]));
      row.push(`| cpu ${measure(m, cx, cv)} | max |x_gpu - x_cpu| ${d.toExponential(2)}`);
    }
  } else {
    await cpu.stepFrame();
    row.push(`cpu ${measure(m, cx, cv)}`);
  }
  console.log(row.join(' '));
}
gpu?.destroy();
process.exit(0);
