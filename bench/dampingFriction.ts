/**
 * Damping and friction laws on the float64 CPU reference: the figures behind
 * tests/unit/sim/damping.test.ts and friction.test.ts (same scenes, tests/support/blockScenes.ts),
 * printed. Solver defaults (dt 1/60, 20 substeps x 3 Gauss-Seidel iterations) unless named.
 *   node scripts/run-ts.mjs bench/dampingFriction.ts
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import type { SimSetup } from '../src/sim/setup';
import { angularMomentum, blockSetup, centreOfMass, G, slopeGravity, type BlockOptions } from '../tests/support/blockScenes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), { usage: 'node scripts/run-ts.mjs bench/dampingFriction.ts' });

const deg = Math.PI / 180;
const FLAT_BLOCK: BlockOptions = { size: [0.5, 0.25, 0.5], cells: [2, 1, 2] };

function run(setup: SimSetup, frames: number, each?: (s: CpuSolver) => void): CpuSolver {
  const s = new CpuSolver(setup);
  for (let f = 0; f < frames; f++) {
    each?.(s);
    s.stepFrame();
  }
  return s;
}

// 1. Free fall of the 0.1 x 0.05 x 0.1 m block with damping 2/s: drop after 1 s.
{
  const setup = blockSetup({ ground: false }, { damping: 2 });
  const y0 = centreOfMass(setup, setup.model.restPositions)[1];
  const s = run(setup, 60);
  console.log(`free fall, damping 2/s, 1 s: drop ${(y0 - centreOfMass(setup, s.x)[1]).toFixed(4)} m (g t^2/2 (1 + h/t) = ${((G / 2) * (1 + 1 / 1200)).toFixed(4)})`);
}
// 2. Spin (0, 3, 2) rad/s, no gravity: |L| after 1 s, damped (2/s) and undamped.
for (const damping of [0, 2]) {
  const setup = blockSetup({ ground: false, spin: [0, 3, 2], youngsModulus: 1e3 }, { damping, gravity: [0, 0, 0] });
  const l0 = angularMomentum(setup, setup.model.restPositions, setup.model.initialVelocities);
  const s = run(setup, 60);
  console.log(`spin, damping ${damping}/s, 1 s: |L| / |L0| = ${(Math.hypot(...angularMomentum(setup, s.x, s.v)) / Math.hypot(...l0)).toFixed(6)}`);
}
// 3. Flat block, mu 0.5: settles 0.25 s, slope ramped to 20 deg over 0.25 s, contact vertices'
//    displacement along the slope from 0.5 s to 2.5 s (largest and mean).
for (const E of [1e6, 1e7]) {
  const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus: E }, { friction: 0.5, damping: 2 });
  const bottom: number[] = [];
  for (let i = 0; i < setup.model.vertexCount; i++) if (setup.model.restPositions[3 * i + 1] === 0) bottom.push(i);
  let start: number[] = [];
  const s = run(setup, 150, (sv) => {
    sv.params.gravity = slopeGravity(20 * deg * Math.min(1, Math.max(0, (sv.time - 0.25) / 0.25)));
    if (sv.frame === 30) start = bottom.map((i) => sv.x[3 * i]);
  });
  const d = bottom.map((i, k) => s.x[3 * i] - start[k]);
  console.log(`slope 20 deg, mu 0.5, E ${E.toExponential(0)}: contact drift over 2 s max ${(Math.max(...d.map(Math.abs)) * 1e3).toFixed(4)} mm, mean ${((d.reduce((a, b) => a + b) / d.length) * 1e3).toFixed(4)} mm`);
}
// 4. Slopes above the friction angle: acceleration from the second difference of the centre
//    of mass over 0.1..1.1 s.
for (const [theta, E] of [[35, 1e6], [35, 1e7], [45, 1e6]]) {
  const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus: E }, { friction: 0.5, damping: 2, gravity: slopeGravity(theta * deg) });
  const xs: number[] = [];
  run(setup, 67, (sv) => { if (sv.frame === 6 || sv.frame === 36 || sv.frame === 66) xs.push(centreOfMass(setup, sv.x)[0]); });
  const a = (xs[2] - 2 * xs[1] + xs[0]) / 0.5 ** 2;
  const expected = G * (Math.sin(theta * deg) - 0.5 * Math.cos(theta * deg));
  console.log(`slope ${theta} deg, mu 0.5, E ${E.toExponential(0)}: a = ${a.toFixed(4)} m/s^2, g (sin - mu cos) = ${expected.toFixed(4)} (${((a / expected - 1) * 100).toFixed(2)}%)`);
}
// 5. Sliding at 1 m/s on flat ground, mu 0.5: stopping distance, 3 and 10 iterations.
for (const iterations of [3, 10]) {
  const setup = blockSetup({ ...FLAT_BLOCK, velocity: [1, 0, 0] }, { friction: 0.5, damping: 2, iterations });
  const x0 = centreOfMass(setup, setup.model.restPositions)[0];
  const s = run(setup, 30);
  const d = centreOfMass(setup, s.x)[0] - x0, expected = 1 / (2 * 0.5 * G);
  console.log(`slide 1 m/s, mu 0.5, ${iterations} iterations: stops after ${d.toFixed(4)} m, v^2/(2 mu g) = ${expected.toFixed(4)} (${((d / expected - 1) * 100).toFixed(2)}%)`);
}
