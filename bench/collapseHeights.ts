/**
 * The energy law of tests/unit/sim/stiffness.test.ts's landing cube at drop heights the test does
 * not try: the 10 cm cube (3 cells across, self-collision on, frictionless ground, 3 iterations,
 * 40 frames), dropped from each height, per solver setting and Young's modulus. Prints the largest
 * energy of motion (kinetic + gravitational) over the start and its frame (the law: at most 1.01),
 * the largest elastic energy at the true stiffness over the start, and the CCD hits. Float64 CPU
 * engine; asserts nothing (docs/collisions.md "Depenetration speed").
 *
 *   node scripts/run-ts.mjs bench/collapseHeights.ts [--heights 0.04,0.05,0.06] [--young 1e3,1e5,1e7,1e9] [--depenetration-speed V|off]   # ~4 min
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import { totalEnergy, type EnergyOptions } from '../src/sim/energy';
import { DEPENETRATION_SPEED_DEFAULT, type ConstraintType, type SolveOrder } from '../src/contract/params';
import { kuhnLattice } from '../tests/support/kuhnLattice';
import { speedOrOff } from '../src/runner/args';
import { makeSetup } from '../tests/unit/sim/support/setups';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/collapseHeights.ts [--heights 0.04,0.05,0.06] [--young 1e3,1e5,1e7,1e9] [--depenetration-speed V|off]',
  values: ['--heights', '--young', '--depenetration-speed'],
});

function listFlag(name: string, fallback: string): number[] {
  const i = process.argv.indexOf(`--${name}`);
  const text = i >= 0 ? process.argv[i + 1] ?? '' : fallback;
  const values = text.split(',').map(Number);
  if (values.some((v) => !(Number.isFinite(v) && v > 0))) throw new Error(`--${name}: expected positive numbers separated by commas, got "${text}"`);
  return values;
}

/** --depenetration-speed V|off, parsed as the runner parses it. */
function depenetrationFlag(): number {
  const i = process.argv.indexOf('--depenetration-speed');
  return i < 0 ? DEPENETRATION_SPEED_DEFAULT : speedOrOff('depenetration-speed', process.argv[i + 1] ?? '');
}

const heights = listFlag('heights', '0.04,0.05,0.06');
const depenetrationSpeed = depenetrationFlag();
const moduli = listFlag('young', '1e3,1e5,1e7,1e9');
const settings: [ConstraintType, SolveOrder, number][] = [['springs', 'jacobi', 5], ['springs', 'jacobi', 20], ['neohookean', 'gauss-seidel', 20], ['neohookean', 'gauss-seidel', 5]];
const EDGE = 0.1, CELLS = 3, FRAMES = 40;

console.log(`depenetration speed ${depenetrationSpeed} m/s`);
console.log('constraint | order | substeps | drop (m) | E (Pa) | max motion / start (frame) | max elastic / start | CCD hits');
let broken = 0, runs = 0;
for (const [constraint, solveOrder, substeps] of settings) {
  for (const height of heights) {
    for (const E of moduli) {
      const lat = kuhnLattice(CELLS, CELLS, CELLS, (u, v, w) => [(u / CELLS) * EDGE, (v / CELLS) * EDGE + height, (w / CELLS) * EDGE]);
      const springCompliance = 1 / (E * (EDGE / CELLS));
      const setup = makeSetup([{ positions: lat.positions, tets: lat.tets, material: { youngsModulus: E, poissonRatio: 0.3, density: 1000 } }], {
        substeps, iterations: 3, solveOrder, constraint, springCompliance, friction: 0, collisions: true, depenetrationSpeed,
      }, [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }]);
      const s = new CpuSolver(setup);
      const opts: EnergyOptions = { constraint, springCompliance, gravity: setup.params.gravity };
      const start = totalEnergy(setup.model, s.x, s.v, opts).total;
      let motion = -Infinity, motionFrame = -1, elastic = 0, hits = 0;
      for (let f = 0; f < FRAMES; f++) {
        s.stepFrame();
        const e = totalEnergy(setup.model, s.x, s.v, opts);
        if (e.kinetic + e.gravitational > motion) { motion = e.kinetic + e.gravitational; motionFrame = f; }
        elastic = Math.max(elastic, e.elastic);
        hits += s.collisionCounters.ccd.hitsVertexFace + s.collisionCounters.ccd.hitsEdgeEdge;
      }
      runs++;
      if (motion > 1.01 * start) broken++;
      console.log(`${constraint} | ${solveOrder} | ${substeps} | ${height} | ${E.toExponential(0)} | ${(motion / start).toFixed(3)} (${motionFrame})${motion > 1.01 * start ? ' BROKEN' : ''} | ${(elastic / start).toFixed(2)} | ${hits}`);
    }
  }
}
console.log(`${broken} of ${runs} runs broke the law (energy of motion above 1.01 x the start)`);
