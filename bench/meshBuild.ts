/**
 * Loader and topology timing on real shared meshes: parse a Gaia .t file, then derive the
 * topology (buildTetMesh) 20 times. Run: node scripts/run-ts.mjs bench/meshBuild.ts
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseGaiaT } from '../src/mesh/io/gaiaT';
import { buildTetMesh } from '../src/mesh/tetMesh';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), { usage: 'node scripts/run-ts.mjs bench/meshBuild.ts' });

const meshesDir = resolve(process.cwd(), '../shared/meshes');
const RUNS = 20;
console.log('| mesh | tets | parse (ms) | buildTetMesh first (ms) | median (ms) | tets/s (median) |');
console.log('|---|---|---|---|---|---|');
for (const name of ['OverhandKnot.t', 'Octopus_Inflated_5k_noIntersection.t', 'Spaghetti_1m_lowRes_tri.t']) {
  const text = readFileSync(resolve(meshesDir, name), 'utf8');
  let t0 = performance.now();
  const loaded = parseGaiaT(text, name);
  const parseMs = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t0 = performance.now();
    buildTetMesh(loaded, loaded);
    times.push(performance.now() - t0);
  }
  const first = times[0];
  times.sort((a, b) => a - b);
  const median = times[RUNS >> 1];
  const tets = loaded.tets.length / 4;
  console.log(
    `| ${name} | ${tets} | ${parseMs.toFixed(1)} | ${first.toFixed(1)} | ${median.toFixed(1)} | ${((tets / median) * 1000).toExponential(2)} |`,
  );
}
