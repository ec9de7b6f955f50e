/**
 * Escaped free points tested at the substep's end (SolverParams.escapedToDcd, issue 19), on and
 * off, on the knocked-cubes scene (tests/unit/collision/scenes.ts knockedCubes: a cube at 12 m/s
 * knocks a resting cube into a third one; the resting cube's vertices leave their CCD boxes). Per
 * frame: CCD's escapes, the points tested at the end for them and found inside, and the boundary
 * vertices inside another cube at the frame's end by the brute-force counter
 * (tests/support/intersectionCounter.ts). SwiftShader on this machine; counts, not times.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/escapedToDcd.ts [--cells 3] [--frames 4] [--speed 12] [--gap 0.1]
 */
import { acquireGpu } from '../src/gpu/device';
import { GpuSolver } from '../src/sim/gpuSolver';
import { countIntersections } from '../tests/support/intersectionCounter';
import { knockedCubes } from '../tests/unit/collision/scenes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/escapedToDcd.ts [--cells 3] [--frames 4] [--speed 12] [--gap 0.1]',
  values: ['--cells', '--frames', '--speed', '--gap'],
});

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`bench/escapedToDcd: --${name} needs a positive number, got ${process.argv[i + 1]}`);
  return v;
}

const cells = flag('cells', 3);
const frames = flag('frames', 4);
const speed = flag('speed', 12);
const gap = flag('gap', 0.1);
const ctx = await acquireGpu();
console.log(`knocked cubes, ${cells} cells a side, ${speed} m/s, gap ${gap} m, ${frames} frames, hybrid 4 x 4; adapter ${ctx.description}`);
console.log('| escapedToDcd | frame | escapes | tested at the end | inside there | boundary vertices inside another cube at the frame\'s end |');
console.log('|---|---|---|---|---|---|');
const totals: Record<string, number> = {};
for (const escapedToDcd of [true, false]) {
  const setup = knockedCubes(cells, speed, gap, { escapedToDcd });
  const solver = new GpuSolver(ctx, setup);
  try {
    let sum = 0;
    for (let f = 0; f < frames; f++) {
      const c = (await solver.stepFrame()).collisions!.ccd;
      const x = await solver.readPositions();
      const inside = countIntersections({ positions: Float64Array.from(x), tets: setup.model.tets, tetObject: setup.model.tetObject }).inter;
      sum += inside;
      console.log(`| ${escapedToDcd ? 'on' : 'off'} | ${f} | ${c.escaped} | ${c.escapedTested} | ${c.escapedInside} | ${inside} |`);
    }
    totals[escapedToDcd ? 'on' : 'off'] = sum;
  } finally {
    solver.destroy();
  }
}
console.log(`boundary vertices inside at the frames' ends, summed: on ${totals.on}, off ${totals.off}`);
ctx.device.destroy();
