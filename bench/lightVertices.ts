/**
 * Light vertices (SolverParams.vertexMassFloor; docs/collisions.md "Light vertices"). Prints
 * figures; asserts nothing.
 *
 *   node scripts/run-ts.mjs bench/lightVertices.ts [--mesh ../shared/meshes/octopus_2KFaces.t]
 *     [--floors 0,0.1] [--speeds 2,3,10,30] [--substeps 5] [--iterations 5] [--frames 10]
 *     [--line-search on|off] [--warm-start on|off] [--order partitioned|gauss-seidel|jacobi]
 *     [--vertex V] [--scenes octopus-box,squishy-squeeze,noodle-recovery,cube-stack]
 *
 * Kicks: the mesh alone (no gravity, collisions or damping), its lightest vertex against the mean
 * lumped mass of its tet neighbours (or --vertex V) kicked at each speed toward their centroid; per
 * floor the total energy at the kick and its peak over --frames frames (float64 CPU engine). A
 * body with nothing acting on it never gains energy. Scenes: per floor, how many vertices of each
 * built scene the floor raises and the share of its mass moved.
 */
import { meshDrop } from '../src/scenes/meshDrop';
import { findScene } from '../src/scenes/registry';
import { parseRunArgs } from '../src/runner/args';
import { buildScene } from '../src/runner/sceneSetup';
import { readMeshFile } from '../src/runner/meshFile';
import { CpuSolver } from '../src/sim/cpuSolver';
import { totalEnergy } from '../src/sim/energy';
import { lumpedMasses } from '../src/sim/model';
import { raiseLightVertices } from '../src/sim/vertexMassFloor';
import { SOLVE_ORDERS, type SolveOrder } from '../src/contract/params';
import { checkBenchArgs, onOffArg } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/lightVertices.ts [--mesh ../shared/meshes/octopus_2KFaces.t] [--floors 0,0.1] [--speeds 2,3,10,30] [--substeps 5] [--iterations 5] [--frames 10]\n' +
    '  [--line-search on|off] [--warm-start on|off] [--order partitioned|gauss-seidel|jacobi] [--vertex V] [--scenes octopus-box,squishy-squeeze,noodle-recovery,cube-stack]',
  values: ['--mesh', '--floors', '--speeds', '--substeps', '--iterations', '--frames', '--line-search', '--warm-start', '--order', '--vertex', '--scenes'],
});

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const numbers = (name: string, fallback: string): number[] => flag(name, fallback).split(',').map((t) => {
  const n = Number(t);
  if (!(Number.isFinite(n) && n >= 0)) throw new Error(`--${name}: numbers >= 0 separated by commas, got "${t}"`);
  return n;
});
const onOff = (name: string): boolean => onOffArg(argv, `--${name}`, true);
const floors = numbers('floors', '0,0.1');
const order = flag('order', 'partitioned') as SolveOrder;
if (!SOLVE_ORDERS.includes(order)) throw new Error(`--order must be one of ${SOLVE_ORDERS.join(', ')}, got "${order}"`);

const scenes = flag('scenes', '');
if (scenes) {
  for (const name of scenes.split(',')) {
    const parsed = parseRunArgs(['--scene', name]);
    if (parsed.kind !== 'run') throw new Error(`--scenes: ${name}`);
    const m = buildScene(findScene(name), parsed.options, undefined).model;
    const lumped = lumpedMasses(m);
    const total = lumped.reduce((a, b) => a + b, 0);
    const cells = floors.map((f) => {
      const raised = raiseLightVertices(lumped, m.tets, m.vertexTetOffsets, m.vertexTetCorners, f);
      let n = 0, moved = 0;
      for (let v = 0; v < m.vertexCount; v++) if (raised[v] > lumped[v]) { n++; moved += raised[v] - lumped[v]; }
      return `floor ${f}: ${n} raised, ${((100 * moved) / total).toFixed(3)} % of the mass moved`;
    });
    console.log(`${name} (${m.vertexCount} vertices): ${cells.join(' | ')}`);
  }
} else {
  const meshPath = flag('mesh', '../shared/meshes/octopus_2KFaces.t');
  const mesh = readMeshFile(meshPath);
  const substeps = numbers('substeps', '5')[0], iterations = numbers('iterations', '5')[0], frames = numbers('frames', '10')[0];
  for (const speed of numbers('speeds', '2,3,10,30')) {
    const row: string[] = [];
    let chosen = -1, ratio = 0;
    for (const floor of floors) {
      const setup = meshDrop.build({ mesh: { name: meshPath, positions: mesh.positions, tets: mesh.tets }, height: 1 });
      setup.params = {
        ...setup.params, collisions: false, damping: 0, gravity: [0, 0, 0], substeps, iterations, impactSubsteps: 0,
        lineSearch: onOff('line-search'), warmStart: onOff('warm-start'), solveOrder: order, vertexMassFloor: floor,
      };
      const m = setup.model;
      const lumped = lumpedMasses(m);
      // Tet neighbours' mean lumped mass, from the model's vertex-to-corner lists.
      const neighbourMean = (v: number): { mean: number; centroid: number[] } => {
        const seen = new Set<number>();
        for (let c = m.vertexTetOffsets[v]; c < m.vertexTetOffsets[v + 1]; c++) {
          const t = m.vertexTetCorners[c] >> 2;
          for (let k = 0; k < 4; k++) if (m.tets[4 * t + k] !== v) seen.add(m.tets[4 * t + k]);
        }
        let sum = 0;
        const centroid = [0, 0, 0];
        for (const u of seen) { sum += lumped[u]; for (let k = 0; k < 3; k++) centroid[k] += m.restPositions[3 * u + k] / seen.size; }
        return { mean: sum / seen.size, centroid };
      };
      if (chosen < 0) {
        chosen = Number(flag('vertex', '-1'));
        if (chosen < 0) {
          let best = Infinity;
          for (let v = 0; v < m.vertexCount; v++) { const r = lumped[v] / neighbourMean(v).mean; if (r < best) { best = r; chosen = v; } }
        }
        ratio = lumped[chosen] / neighbourMean(chosen).mean;
      }
      const { centroid } = neighbourMean(chosen);
      const d = [0, 1, 2].map((k) => centroid[k] - m.restPositions[3 * chosen + k]);
      const l = Math.hypot(d[0], d[1], d[2]);
      const v0 = m.initialVelocities as Float64Array;
      for (let k = 0; k < 3; k++) v0[3 * chosen + k] = (speed * d[k]) / l;
      const solver = new CpuSolver(setup);
      const p = solver.params;
      const energy = (): number => totalEnergy(m, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity }).total;
      const start = energy();
      let peak = start;
      for (let f = 0; f < frames; f++) { solver.stepFrame(); peak = Math.max(peak, energy()); }
      row.push(`floor ${floor}: ${start.toExponential(2)} J -> peak ${peak.toExponential(2)} J${peak > start * (1 + 1e-9) ? ' (rises)' : ''}`);
    }
    console.log(`vertex ${chosen} (lumped ${(100 * ratio).toFixed(1)} % of its neighbours' mean) kicked at ${speed} m/s, ${substeps} x ${iterations}: ${row.join(' | ')}`);
  }
}
