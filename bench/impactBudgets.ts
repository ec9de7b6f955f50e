/**
 * The budget the impact scenes (shoot, head-on) take for each shared mesh at its default speed
 * (scenes/resolvedBudget.ts, lever 'iterations'): the pressure wave's reach per substep (kappa) on
 * each free body at the solver's default 20 x 3 and at the budget taken. Builds scenes only.
 *
 *   node scripts/run-ts.mjs bench/impactBudgets.ts [--meshes A.t,B.t] [--speed V]
 */
import { readdirSync } from 'node:fs';
import { readMeshFile } from '../src/runner/meshFile';
import { findScene } from '../src/scenes/registry';
import { defaultParams } from '../src/contract/params';
import { materialResolution, shortestEdgeOfObjects } from '../src/sim/resolution';
import { checkBenchArgs } from './cli';

const args = process.argv.slice(2);
checkBenchArgs(args, { usage: 'node scripts/run-ts.mjs bench/impactBudgets.ts [--meshes A.t,B.t] [--speed V]', values: ['--meshes', '--speed'] });
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const folder = '../shared/meshes';
const meshes = arg('meshes')?.split(',') ?? readdirSync(folder).filter((f) => f.endsWith('.t')).sort();
const speed = arg('speed') !== undefined ? Number(arg('speed')) : undefined;
const defaults = defaultParams();

console.log('| scene | mesh | kappa at 20 x 3 | budget taken (substeps x iterations) | kappa there |');
console.log('|---|---|---|---|---|');
for (const sceneName of ['shoot', 'head-on']) {
  for (const file of meshes) {
    const mesh = readMeshFile(`${folder}/${file}`);
    const setup = findScene(sceneName).build({ mesh, speed });
    const m = setup.model;
    const shortest = shortestEdgeOfObjects(m, true);
    // The free bodies only (the shoot scene's wall is pinned whole: Infinity).
    const kappaAt = (params: typeof setup.params) =>
      Math.max(...m.materials.map((material, o) => (Number.isFinite(shortest[o]) ? materialResolution(material, shortest[o], params).kappa : 0)));
    const before = kappaAt({ ...setup.params, substeps: defaults.substeps, iterations: defaults.iterations });
    console.log(`| ${sceneName} | ${file} | ${before.toFixed(1)} | ${setup.params.substeps} x ${setup.params.iterations} | ${kappaAt(setup.params).toFixed(1)} |`);
  }
}
