/**
 * Physics sanity of a registry scene on the float64 CPU reference (src/sim/cpuSolver.ts, with
 * collisions): runs it for N frames at a size, applying its schedule between frames, and
 * prints every K frames the lowest point, the largest distance from the origin and from the
 * y axis (across), the largest speed, the kinetic energy and whether any coordinate is NaN/Inf, per object.
 *
 *   node scripts/run-ts.mjs bench/sceneCheck.ts --scene squishy-head-on --size 18 --frames 30 [--every 5] [--substeps S]
 */
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { readMeshFile } from '../src/runner/meshFile';
import { findScene } from '../src/scenes/registry';
import { changesAt } from '../src/scenes/schedule';
import { CpuSolver } from '../src/sim/cpuSolver';
import { setObjectMaterial } from '../src/sim/model';
import { materialResolution, shortestEdgeOfObjects } from '../src/sim/resolution';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/sceneCheck.ts [--scene octopus-box] [--size N] [--frames 30] [--every 5] [--substeps S]\n' +
    '  [--mesh FILE] [--collisions on|off] [--young E]',
  values: ['--scene', '--size', '--frames', '--every', '--substeps', '--mesh', '--collisions', '--young'],
});
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const scene = findScene(arg('scene') ?? 'octopus-box');
const size = arg('size') !== undefined ? Number(arg('size')) : scene.size?.small;
const frames = Number(arg('frames') ?? 30);
const every = Number(arg('every') ?? 5);
const mesh = scene.accepts.includes('mesh') ? readMeshFile(arg('mesh') ?? scene.defaultMeshFile ?? '../shared/meshes/Cube.t') : undefined;
const setup = scene.build({ size, meshes: readSceneMeshes(scene), mesh });
if (arg('substeps')) setup.params = { ...setup.params, substeps: Number(arg('substeps')) };
const m = setup.model;
console.log(`${scene.name} size ${size}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.objectNames.length} objects; dt ${setup.params.dt} x ${setup.params.substeps} substeps x ${setup.params.iterations}`);
const shortest = shortestEdgeOfObjects(m, true);
m.objectNames.forEach((name, o) => {
  const { warning } = materialResolution(m.materials[o], shortest[o], setup.params);
  if (warning) console.log(`warning: ${name}: ${warning}`);
});
if (arg('collisions') === 'off') setup.params = { ...setup.params, collisions: false };
if (arg('young')) for (let o = 0; o < m.objectNames.length; o++) setObjectMaterial(m, o, { ...m.materials[o], youngsModulus: Number(arg('young')) });
const solver = new CpuSolver(setup);
console.log(`start: KE ${solver.kineticEnergy().toFixed(4)}`);
const t0 = performance.now();
for (let f = 0; f < frames; f++) {
  const change = changesAt(setup.schedule ?? [], f);
  if (change) {
    solver.params = { ...solver.params, ...change };
    console.log(`frame ${f}: ${JSON.stringify(change)}`);
  }
  solver.stepFrame();
  if ((f + 1) % every !== 0 && f + 1 !== frames) continue;
  const parts: string[] = [];
  for (let o = 0; o < m.objectNames.length; o++) {
    let minY = Infinity, far = 0, across = 0, vmax = 0, bad = 0;
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) {
      const [x, y, z] = [solver.x[3 * v], solver.x[3 * v + 1], solver.x[3 * v + 2]];
      if (!Number.isFinite(x + y + z)) bad++;
      minY = Math.min(minY, y);
      far = Math.max(far, Math.hypot(x, y, z));
      across = Math.max(across, Math.hypot(x, z));
      vmax = Math.max(vmax, Math.hypot(solver.v[3 * v], solver.v[3 * v + 1], solver.v[3 * v + 2]));
    }
    parts.push(`${m.objectNames[o]}: minY ${minY.toFixed(3)} far ${far.toFixed(2)} across ${across.toFixed(2)} vmax ${vmax.toFixed(2)}${bad ? ` NaN ${bad}` : ''}`);
  }
  const c = solver.collisionCounters;
  const hits = Object.entries(c.dcdHits).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`frame ${f + 1} (${((performance.now() - t0) / 1000).toFixed(1)} s) KE ${solver.kineticEnergy().toFixed(4)} ${solver.messages.length ? solver.messages.join('; ') : ''}\n  ${parts.join('\n  ')}\n  DCD hits this frame: ${hits}; contacts ${c.contacts}`);
}
