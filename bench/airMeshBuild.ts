/**
 * The general air mesher (collision/air/generalAirMesh.ts) on the shared meshes and the
 * procedural ones, in the container air mode derives for each scene (sim/airContainer.ts):
 * air tets, Steiner points, recovery work and build time (this thread; the page and runner
 * build it in a worker of the pool).
 *
 *   node scripts/run-ts.mjs bench/airMeshBuild.ts [--cases cube2,cube4,cuboid,octopus4,cubestack4,squishy,noodle]
 *   node scripts/run-ts.mjs bench/airMeshBuild.ts --sweep
 *
 * --sweep: every scene of the registry at its smallest, small and (up to twice small) default
 * sizes, cube stacks of 2-5 cubes at resolutions 2-10, and every shared mesh dropped alone and
 * piled 2 and 3 high, built in the mesher the runner's --air-mesher auto picks; a row each, then
 * how many were built, refused and built on a retry.
 */
import { buildAir } from '../src/collision/air/buildAir';
import { readMeshFile } from '../src/runner/meshFile';
import { meshPile } from '../src/scenes/meshPile';
import { octopusPile } from '../src/scenes/octopusPile';
import { cubeStack } from '../src/scenes/cubeStack';
import { squishyBowl } from '../src/scenes/squishyBowl';
import { airContainerFor } from '../src/sim/airContainer';
import type { SimSetup } from '../src/sim/setup';
import { checkBenchArgs } from './cli';
import { readdirSync } from 'node:fs';
import { findScene, scenes } from '../src/scenes/registry';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/airMeshBuild.ts [--cases cube2,cube4,cuboid,octopus4,cubestack4,squishy,noodle] [--sweep]',
  values: ['--cases'],
  switches: ['--sweep'],
});

const args = process.argv.slice(2);
const arg = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const wanted = arg('cases', 'cube2,cube4,cuboid,octopus4,cubestack4,squishy,noodle').split(',');
const mesh = (f: string) => readMeshFile(`../shared/meshes/${f}`);
const cases: Record<string, () => SimSetup> = {
  cube2: () => meshPile.build({ mesh: mesh('Cube.t'), copies: 2 }),
  cube4: () => meshPile.build({ mesh: mesh('Cube.t'), copies: 4 }),
  cuboid: () => meshPile.build({ mesh: mesh('Cuboid.t'), copies: 1 }),
  octopus4: () => octopusPile.build({ mesh: mesh('octopus_2KFaces.t'), copies: 4 }),
  cubestack4: () => cubeStack.build({ copies: 4 }),
  squishy: () => squishyBowl.build({}),
  noodle: () => meshPile.build({ mesh: mesh('Spaghetti_1m_lowRes_tri.t'), copies: 1 }),
};
if (args.includes('--sweep')) {
  sweep();
  process.exit(0);
}
console.log('| case | object vertices / tets | air tets | air tets per object tet | wall points | particles | missing edges / faces after Delaunay | flips | Steiner points | cones | build ms |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const name of wanted) {
  const make = cases[name];
  if (!make) throw new Error(`unknown case ${name}; cases: ${Object.keys(cases).join(', ')}`);
  const setup = make();
  const m = setup.model;
  try {
    const { stats: s } = buildAir(m, airContainerFor(setup, 'general'));
    const r = s.recovery!;
    console.log(`| ${name} | ${m.vertexCount} / ${m.tetCount} | ${s.airTets} | ${(s.airTets / m.tetCount).toFixed(2)} | ${s.fixedPoints} | ${s.particles} | ${r.missingEdges} / ${r.missingFaces} | ${r.flips} | ${r.steinerPoints} | ${r.cones} | ${s.buildMs.toFixed(0)} |`);
  } catch (e) {
    console.log(`| ${name} | ${m.vertexCount} / ${m.tetCount} | refused: ${(e as Error).message} |`);
  }
}

/** The --sweep of the header: every scene and shared mesh in air mode's mesher, built or refused. */
function sweep(): void {
  const setups: [string, () => SimSetup][] = [];
  for (const scene of scenes) {
    if (scene.accepts.includes('mesh') && !scene.defaultMeshFile) continue;
    const meshes = Object.fromEntries(Object.entries(scene.meshFiles ?? {}).map(([key, file]) => [key, readMeshFile(file)]));
    const sceneMesh = scene.defaultMeshFile ? readMeshFile(scene.defaultMeshFile) : undefined;
    const size = scene.size;
    const sizes = size ? [...new Set([size.min, size.small, Math.min(size.default, 2 * size.small)])] : [undefined];
    for (const value of sizes) setups.push([`${scene.name}${value === undefined ? '' : ` size ${value}`}`, () => scene.build({ size: value, meshes, mesh: sceneMesh })]);
  }
  // Cube stacks over copies and resolutions: lattice faces 5 mm apart, each turned against the next.
  for (const copies of [2, 3, 4, 5]) for (const resolution of [2, 3, 4, 5, 6, 7, 8, 10]) setups.push([`cube-stack --copies ${copies} --resolution ${resolution}`, () => cubeStack.build({ copies, resolution })]);
  const drop = findScene('drop');
  for (const file of readdirSync('../shared/meshes').filter((f) => f.endsWith('.t')).sort()) {
    if (file === 'OverhandKnot.t') continue; // 22,830 tets: minutes here, and a knot's own contacts only
    setups.push([`drop ${file}`, () => drop.build({ mesh: mesh(file) })]);
    for (const copies of [2, 3]) setups.push([`mesh-pile ${file} x ${copies}`, () => meshPile.build({ mesh: mesh(file), copies })]);
  }
  console.log('| case | mesher | air tets | particles | Steiner points | recovery attempts | build ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  let built = 0;
  const refused: string[] = [], retried: string[] = [];
  for (const [name, make] of setups) {
    const setup = make();
    try {
      const container = airContainerFor(setup, 'auto');
      const { stats: s } = buildAir(setup.model, container);
      built++;
      if ((s.recovery?.attempts ?? 1) > 1) retried.push(name);
      console.log(`| ${name} | ${container.mesher} | ${s.airTets} | ${s.particles} | ${s.recovery?.steinerPoints ?? '-'} | ${s.recovery?.attempts ?? '-'} | ${s.buildMs.toFixed(0)} |`);
    } catch (e) {
      refused.push(name);
      console.log(`| ${name} | refused: ${(e as Error).message} |`);
    }
  }
  console.log(`${built} built (${retried.length} on a retry${retried.length > 0 ? `: ${retried.join('; ')}` : ''}), ${refused.length} refused${refused.length > 0 ? `: ${refused.join('; ')}` : ''}`);
}
