/**
 * Resting contact, measured (issue 19): a registry scene (default the 3-cube stack, cube-stack
 * --copies 3) run for N seconds on the float64 CPU reference or the GPU engine, and per window of
 * `--window` seconds, for one object (default the last: the top cube):
 *   drift     sideways (x, z) and vertical motion of its centre of mass over the window (mm),
 *   rms       RMS vertex speed (mm/s), split into the rigid part (v_cm + omega x r, from linear and
 *             angular momentum and the inertia tensor) and the deformation left over,
 *   inside    boundary vertices strictly inside another tet at the window's last frame (the
 *             brute-force counter tests/support/intersectionCounter.ts, no shared code).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/restingStack.ts \
 *     [--engine cpu|gpu] [--scene cube-stack] [--copies 3] [--resolution 3] [--seconds 5] [--window 1] [--object -1]
 *     [--damping D] [--friction MU] [--substeps S] [--iterations I] [--contact-iterations N] [--contact-offset D|auto]
 *     [--collision-mode hybrid|dcd|ccd] [--young E]
 */
import { acquireGpu } from '../src/gpu/device';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { CpuSimulation } from '../src/sim/cpuSimulation';
import { setObjectMaterial } from '../src/sim/model';
import type { CollisionMode, SolverParams } from '../src/contract/params';
import { Simulation } from '../src/sim/simulation';
import { countIntersections } from '../tests/support/intersectionCounter';
import { rigidSplit } from './restingMotion';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/restingStack.ts [--engine cpu|gpu] [--scene cube-stack] [--copies 3] [--resolution 3] [--seconds 5] [--window 1] [--object -1]\n' +
    '  [--damping D] [--friction MU] [--substeps S] [--iterations I] [--contact-iterations N] [--contact-offset D|auto] [--collision-mode hybrid|dcd|ccd] [--young E]',
  values: ['--engine', '--scene', '--copies', '--resolution', '--seconds', '--window', '--object', '--damping', '--friction', '--substeps', '--iterations', '--contact-iterations', '--contact-offset', '--collision-mode', '--young'],
});
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number): number => (arg(name) === undefined ? fallback : Number(arg(name)));
const scene = findScene(arg('scene') ?? 'cube-stack');
const setup = scene.build({
  copies: scene.accepts.includes('copies') ? num('copies', 3) : undefined,
  resolution: arg('resolution') !== undefined ? num('resolution', 3) : scene.accepts.includes('resolution') ? 3 : undefined,
  meshes: readSceneMeshes(scene),
});
const overrides: Partial<SolverParams> = {};
if (arg('damping')) overrides.damping = num('damping', 0);
if (arg('friction')) overrides.friction = num('friction', 0);
if (arg('substeps')) overrides.substeps = num('substeps', 20);
if (arg('iterations')) overrides.iterations = num('iterations', 3);
if (arg('contact-iterations')) overrides.contactIterations = num('contact-iterations', 3);
if (arg('contact-offset')) overrides.contactOffset = arg('contact-offset') === 'auto' ? 'auto' : num('contact-offset', 0);
if (arg('collision-mode')) overrides.collisionMode = arg('collision-mode') as CollisionMode;
setup.params = { ...setup.params, ...overrides };
const m = setup.model;
if (arg('young')) for (let o = 0; o < m.objectNames.length; o++) setObjectMaterial(m, o, { ...m.materials[o], youngsModulus: num('young', 1e5) });
const engine = arg('engine') ?? 'cpu';
const seconds = num('seconds', 5);
const windowS = num('window', 1);
const objectArg = num('object', -1);
const object = objectArg < 0 ? m.objectNames.length + objectArg : objectArg;
const p = setup.params;
const framesPerWindow = Math.round(windowS / p.dt);
const frames = Math.round(seconds / p.dt);
console.log(`${scene.name} (${m.objectNames.length} objects, ${m.vertexCount} vertices, ${m.tetCount} tets), ${engine} engine; dt ${p.dt.toFixed(5)} x ${p.substeps} substeps x ${p.iterations} iterations, ${p.contactIterations} contact passes, mode ${p.collisionMode}, offset ${p.contactOffset}, damping ${p.damping}, friction ${p.friction}; object ${m.objectNames[object]}`);

const sim = engine === 'gpu' ? new Simulation(await acquireGpu(), setup) : new CpuSimulation(setup);
const a = m.objectVertexOffsets[object], b = m.objectVertexOffsets[object + 1];
const mass = new Float64Array(b - a);
for (let i = a; i < b; i++) mass[i - a] = m.invMass[i] > 0 ? 1 / m.invMass[i] : 0;
let windowStart: number[] | null = null;
let sum = { total: 0, rigid: 0, deform: 0, n: 0 };
const t0 = performance.now();
console.log('window (s) | sideways drift (mm) | vertical (mm) | RMS speed (mm/s): all / rigid / deformation | inside at end (self/inter) | wall s');
for (let f = 1; f <= frames; f++) {
  await sim.stepFrame();
  const x = await sim.readPositions();
  const v = await sim.readVelocities();
  const split = rigidSplit(x, v, mass, a, b);
  if (!windowStart) windowStart = split.centre;
  sum.total += split.total2;
  sum.rigid += split.rigid2;
  sum.deform += split.deform2;
  sum.n++;
  if (f % framesPerWindow !== 0 && f !== frames) continue;
  const c = split.centre;
  const side = Math.hypot(c[0] - windowStart[0], c[2] - windowStart[2]);
  const down = c[1] - windowStart[1];
  const count = countIntersections({ positions: Float64Array.from(x), tets: m.tets, tetObject: m.tetObject });
  const rms = (s: number): string => (1000 * Math.sqrt(s / sum.n)).toFixed(2);
  console.log(`${((f - framesPerWindow) * p.dt).toFixed(2)}-${(f * p.dt).toFixed(2)} | ${(1000 * side).toFixed(3)} | ${(1000 * down).toFixed(3)} | ${rms(sum.total)} / ${rms(sum.rigid)} / ${rms(sum.deform)} | ${count.vertices} (${count.self}/${count.inter}) | ${((performance.now() - t0) / 1000).toFixed(0)}`);
  windowStart = c;
  sum = { total: 0, rigid: 0, deform: 0, n: 0 };
}
process.exit(0);
