/**
 * Issue 19's degenerate alignment on either engine: the shoot scene's mesh (default the shared
 * Cube.t) at --speed (default 50 m/s) at the thin wall with the wall's grid NOT shifted, so the
 * mesh's edges lie on the wall's grid lines (src/scenes/shoot.ts shootSetup). Per frame: boundary
 * vertices inside the other body (the brute-force counter tests/support/intersectionCounter.ts),
 * the shot mesh's farthest x against the wall's faces, and its mean x velocity.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/alignedShoot.ts \
 *     [--engine gpu|cpu] [--frames 8] [--speed 50] [--mesh ../shared/meshes/Cube.t] [--collision-mode hybrid|dcd|ccd]
 */
import { acquireGpu } from '../src/gpu/device';
import type { CollisionMode } from '../src/contract/params';
import { readMeshFile } from '../src/runner/meshFile';
import { shootSetup } from '../src/scenes/shoot';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { Simulation } from '../src/sim/simulation';
import { countIntersections } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/alignedShoot.ts [--engine gpu|cpu] [--frames 8] [--speed 50] [--mesh ../shared/meshes/Cube.t] [--collision-mode hybrid|dcd|ccd]',
  values: ['--engine', '--frames', '--speed', '--mesh', '--collision-mode'],
});

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const engine = arg('engine', 'gpu');
if (engine !== 'gpu' && engine !== 'cpu') throw new Error(`--engine ${engine}: expected gpu or cpu`);
const frames = Number(arg('frames', '8'));
const setup = shootSetup(readMeshFile(arg('mesh', '../shared/meshes/Cube.t')), Number(arg('speed', '50')), undefined, true);
setup.params.collisionMode = arg('collision-mode', 'hybrid') as CollisionMode;
const m = setup.model;
let half = 0;
for (let i = m.objectVertexOffsets[1]; i < m.objectVertexOffsets[2]; i++) half = Math.max(half, m.restPositions[3 * i]);
const sim = engine === 'gpu' ? new Simulation(await acquireGpu(), setup) : new CpuSimulation(setup);
const a = m.objectVertexOffsets[0], b = m.objectVertexOffsets[1];
console.log(`aligned shoot, ${engine} engine, ${setup.params.collisionMode}; wall x in [${(-half * 1000).toFixed(2)}, ${(half * 1000).toFixed(2)}] mm`);
for (let f = 1; f <= frames; f++) {
  await sim.stepFrame();
  const x = Float64Array.from(await sim.readPositions());
  const v = await sim.readVelocities();
  let far = -Infinity, vx = 0;
  for (let i = a; i < b; i++) { far = Math.max(far, x[3 * i]); vx += v[3 * i] / (b - a); }
  const c = countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject });
  console.log(`frame ${f}: inside ${c.inter}, farthest x ${(far * 1000).toFixed(2)} mm, mean vx ${vx.toFixed(2)} m/s`);
}
process.exit(0);
