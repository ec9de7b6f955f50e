/**
 * Air meshes (paper 004) against the hybrid (paper 000 Alg. 5) on the air-boxes scene: the stack
 * pressed flat by the plate and released, run in both modes on the GPU (Dawn; timings mean
 * something only on a real GPU, ratios within one run here), with the worker pool the runner
 * uses (the air mesh's optimisation runs there). Per mode:
 *   - air mesh: air tets, air tets per object tet, wall points, particles, build time;
 *   - collision time per substep from the timestamp queries (air: the 'air' phase; hybrid:
 *     detect + spb + ccd + contacts), the material's for scale, dispatches per frame;
 *   - optimisation: calls, mean time per call in its worker, flips per call;
 *   - air mode once per order of its passes (--air-solves; dispatches per frame say what each cost);
 *   - after the run (the state at the last frame): non-finite coordinates, penetrating boundary
 *     vertices (the brute-force counter of tests/support, sharing no code with the solver) and
 *     whether each axis keeps the boxes' centroid order of the start.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/airMesh.ts [--scene air-boxes|mesh-pile|octopus-pile|cube-stack] [--mesh FILE] [--copies 3] [--resolution 2] [--frames 360] [--modes air,hybrid] [--air-solves partitioned,coloured] [--optimize-every 4]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireGpu } from '../src/gpu/device';
import { runnerCcdPool } from '../src/runner/ccdWorkerBundle';
import { airBoxes } from '../src/scenes/airBoxes';
import { cubeStack } from '../src/scenes/cubeStack';
import { meshPile } from '../src/scenes/meshPile';
import { octopusPile } from '../src/scenes/octopusPile';
import { readMeshFile } from '../src/runner/meshFile';
import type { SceneDefinition } from '../src/scenes/types';
import { GpuSolver } from '../src/sim/gpuSolver';
import { AIR_SOLVES, type AirSolve, type CollisionMode } from '../src/contract/params';
import { countIntersections } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/airMesh.ts [--scene air-boxes|mesh-pile|octopus-pile|cube-stack] [--mesh FILE] [--copies 3] [--resolution 2] [--frames 360] [--modes air,hybrid] [--air-solves partitioned,coloured] [--optimize-every 4]',
  values: ['--scene', '--mesh', '--copies', '--resolution', '--frames', '--modes', '--air-solves', '--optimize-every'],
});

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const copies = Number(arg('copies', '3'));
const resolution = Number(arg('resolution', '2'));
const frames = Number(arg('frames', '360'));
const optimizeEvery = Number(arg('optimize-every', '4'));
const modes = arg('modes', 'air,hybrid').split(',') as CollisionMode[];
const airSolves = arg('air-solves', 'partitioned').split(',') as AirSolve[];
for (const s of airSolves) if (!AIR_SOLVES.includes(s)) throw new Error(`--air-solves: each one of ${AIR_SOLVES.join(', ')}, got ${s}`);
// Any of these scenes: air-boxes (lattice mesher), or the general mesher on mesh-pile (--mesh), octopus-pile, cube-stack.
const sceneName = arg('scene', 'air-boxes');
const scenes: Record<string, SceneDefinition> = { 'air-boxes': airBoxes, 'mesh-pile': meshPile, 'octopus-pile': octopusPile, 'cube-stack': cubeStack };
const scene = scenes[sceneName];
if (!scene) throw new Error(`--scene: one of ${Object.keys(scenes).join(', ')}`);
const meshArg = arg('mesh', sceneName === 'octopus-pile' ? '../shared/meshes/octopus_2KFaces.t' : '../shared/meshes/Cube.t');

const ctx = await acquireGpu({ onLost: (r) => { throw new Error(`GPU device lost: ${r}`); } });
const pool = await runnerCcdPool(ROOT);
console.log(`${sceneName}: ${copies} copies, ${frames} frames, adapter ${ctx.description}`);

const runs: { mode: CollisionMode; airSolve: AirSolve }[] = [];
for (const mode of modes) for (const airSolve of mode === 'air' ? airSolves : airSolves.slice(0, 1)) runs.push({ mode, airSolve });
for (const { mode, airSolve } of runs) {
  const setup = sceneName === 'air-boxes' ? airBoxes.build({ copies, resolution }) : scene.build({ copies, mesh: readMeshFile(meshArg), ...(sceneName === 'cube-stack' ? { resolution } : {}) });
  setup.params = { ...setup.params, collisionMode: mode, airOptimizeFrames: optimizeEvery, airSolve };
  const solver = new GpuSolver(ctx, setup, { collisions: { workerJobs: pool.factory } });
  const m = setup.model;
  const centroids = (x: ArrayLike<number>, stride: number) => m.objectNames.map((_, o) => {
    const c = [0, 0, 0];
    const n = m.objectVertexOffsets[o + 1] - m.objectVertexOffsets[o];
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) for (let k = 0; k < 3; k++) c[k] += x[stride * v + k] / n;
    return c;
  });
  const order = (c: number[][]) => [0, 1, 2].map((k) => c.map((_, o) => o).sort((a, b) => c[a][k] - c[b][k]).join(''));
  const start = order(centroids(m.restPositions, 3));
  let collisionMs = 0, materialMs = 0, timedSubsteps = 0, dispatches = 0, airDispatches = 0;
  let optimizations = 0, optimizeMs = 0, flips = 0, wall = 0;
  let meshLine = '';
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    const r = await solver.stepFrame();
    wall += performance.now() - t0;
    dispatches += r.dispatches;
    airDispatches += r.dispatchesByPhase.air ?? 0;
    const g = r.gpuPhaseMs;
    if (g) {
      collisionMs += mode === 'air' ? (g.air ?? 0) : (g.detect ?? 0) + (g.spb ?? 0) + (g.ccd ?? 0) + (g.contacts ?? 0);
      materialMs += g.material ?? 0;
      timedSubsteps += setup.params.substeps;
    }
    const air = r.collisions?.air;
    if (air) {
      optimizations += air.optimizations;
      optimizeMs += air.optimizeMs;
      flips += air.edgeRemovals + air.multiFaceRemovals;
      const s = air.mesh;
      meshLine ||= `air mesh: ${s.airTets} air tets for ${s.objectTets} object tets (${(s.airTets / s.objectTets).toFixed(2)} per object tet), ${s.fixedPoints} wall points, ${s.particles} particles, ${s.latticeTets} lattice tets, built in ${s.buildMs.toFixed(0)} ms`;
    }
  }
  const x = await solver.readPositions();
  solver.destroy();
  const finite = x.every(Number.isFinite);
  const hits = finite ? countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }, { self: false }) : null;
  const end = order(centroids(x, 3));
  console.log(`\n${mode}: ${m.vertexCount} vertices, ${m.tetCount} object tets, ${setup.params.substeps} substeps x ${setup.params.iterations} iterations${mode === 'air' ? `, ${setup.params.airIterations} air passes in the ${airSolve} order, optimisation every ${optimizeEvery} frames` : ''}`);
  if (meshLine) console.log(`  ${meshLine}`);
  if (timedSubsteps > 0) console.log(`  collision time per substep ${(collisionMs / timedSubsteps).toFixed(3)} ms (material ${(materialMs / timedSubsteps).toFixed(3)} ms), GPU timestamps`);
  else console.log('  no timestamp queries on this adapter');
  console.log(`  frame wall time ${(wall / frames).toFixed(1)} ms, dispatches per frame ${(dispatches / frames).toFixed(0)}${mode === 'air' ? ` (air ${(airDispatches / frames).toFixed(0)})` : ''}`);
  if (mode === 'air') console.log(`  optimisation: ${optimizations} calls, ${optimizations ? (optimizeMs / optimizations).toFixed(1) : '-'} ms per call in its worker, ${optimizations ? (flips / optimizations).toFixed(1) : '-'} flips per call`);
  console.log(`  after ${frames} frames: finite ${finite}, penetrating boundary vertices ${hits ? hits.inter : 'n/a'}, centroid order (x y z) kept: ${end.map((o, k) => (o === start[k] ? 'yes' : `no (${start[k]} -> ${o})`)).join(', ')}`);
}
pool.terminate();
