/**
 * The memory-traffic model's figures without a GPU (src/sim/traffic.ts): bytes per invocation of
 * every kernel (from the WGSL declarations), and for a scene the XPBD stages' bytes and
 * dispatches per frame in each solve order, per tet-iteration and per frame.
 *
 *   node scripts/run-ts.mjs bench/traffic.ts                       # octopus-box at 8 octopi
 *   node scripts/run-ts.mjs bench/traffic.ts --scene noodle-bowl --size 200
 */
import { readMeshFile } from '../src/runner/meshFile';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { SOLVE_ORDERS } from '../src/contract/params';
import { collidersRunInCells } from '../src/sim/stages/materialStage';
import { dampsPerObject, predictJoinsFinalize, warmStartJoinsFinalize } from '../src/sim/stages/finalizeStage';
import { predictClearsPushDirections } from '../src/sim/stages/xpbdFrame';
import { KERNEL_TRAFFIC, kernelBytes, partitionShape, planTraffic, xpbdClearBytes, xpbdFramePlan, type KernelName } from '../src/sim/traffic';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/traffic.ts [--scene octopus-box] [--size N (default the scene\'s paper size)]',
  values: ['--scene', '--size'],
});
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const sceneName = arg('scene', 'octopus-box');
const scene = findScene(sceneName);
const size = Number(arg('size', String(scene.size?.paper ?? 1)));
// Scenes that take a mesh read their default file (octopus-pile's shared octopus), as the runner does.
const meshFile = scene.accepts.includes('mesh') ? scene.defaultMeshFile : undefined;
const setup = scene.build({ size, meshes: readSceneMeshes(scene), mesh: meshFile !== undefined ? readMeshFile(meshFile) : undefined });
const m = setup.model;
const mesh = { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount };

console.log('Bytes per invocation (read / written), from the WGSL declarations:');
for (const k of Object.keys(KERNEL_TRAFFIC) as KernelName[]) {
  const b = kernelBytes(k, mesh);
  console.log(`  ${k.padEnd(20)} per ${KERNEL_TRAFFIC[k].per.padEnd(30)} ${b.read.toFixed(1).padStart(7)} / ${b.write.toFixed(1).padStart(6)}`);
}

const p = setup.params;
console.log(`\n${sceneName} size ${size}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.tetColouring.colourCount} colours; ${p.substeps} substeps x ${p.iterations} iterations, ${setup.colliders.length} colliders, damping ${p.damping}`);
const shape = partitionShape(m.tetPartition);
console.log(`partition: ${shape.passDispatches} passes, ${shape.cells} cells (${(shape.cellColours / Math.max(1, shape.cells)).toFixed(1)} local colours each), ${m.tetPartition.leftoverCount} leftover tets ${m.tetPartition.leftoverPass ? `swept as the last pass's one cell (${m.tetPartition.passes[m.tetPartition.passes.length - 1].maxColours} colours)` : `in ${shape.leftoverColours} colour dispatches`}`);
console.log('order          dispatches  material MB  frame MB (XPBD)  material B per tet-iteration');
for (const order of SOLVE_ORDERS) {
  const input = { mesh, colours: m.tetColouring.colourCount, partition: shape, substeps: p.substeps, iterations: p.iterations, solveOrder: order, constraint: p.constraint, colliders: setup.colliders.length, damping: p.damping, warmStart: p.warmStart, collidersInCells: collidersRunInCells(m), dampingPerObject: dampsPerObject(m), predictInFinalize: predictJoinsFinalize(m), warmStartInFinalize: warmStartJoinsFinalize(m), pushDirections: predictClearsPushDirections(p, m.objectNames.length) };
  const t = planTraffic(xpbdFramePlan(input), mesh);
  const material = t.byPhase.material!;
  // The collide pass is part of the material phase; per tet-iteration counts the constraint kernels only.
  const collide = t.byKernel.collide ? t.byKernel.collide.read + t.byKernel.collide.write : 0;
  const perTetIt = (material.read + material.write - collide) / (m.tetCount * p.substeps * p.iterations);
  const frame = t.read + t.write + xpbdClearBytes(input);
  console.log(`${order.padEnd(14)} ${String(t.dispatches).padStart(10)}  ${((material.read + material.write) / 1e6).toFixed(1).padStart(11)}  ${(frame / 1e6).toFixed(1).padStart(15)}  ${perTetIt.toFixed(1).padStart(28)}`);
}
