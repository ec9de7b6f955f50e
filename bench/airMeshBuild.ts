/**
 * The general air mesher (collision/air/generalAirMesh.ts) on the shared meshes and the
 * procedural ones, in the container air mode derives for each scene (sim/airContainer.ts):
 * air tets, Steiner points, recovery work and build time (this thread; the page and runner
 * build it in a worker of the pool).
 *
 *   node scripts/run-ts.mjs bench/airMeshBuild.ts [--cases cube2,cube4,cuboid,octopus4,cubestack4,squishy,noodle]
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

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/airMeshBuild.ts [--cases cube2,cube4,cuboid,octopus4,cubestack4,squishy,noodle]',
  values: ['--cases'],
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
