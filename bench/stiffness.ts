/**
 * Stability at any stiffness, on the float64 CPU reference: a free 10 cm cube (4 cells across)
 * with random 1 cm/s velocities and no gravity, and the same cube dropped 5 cm onto frictionless
 * ground, for E = 1e3..1e10, both solve orders, both constraint types, 20 and 5 substeps x 3
 * iterations. Prints, per case, the largest total energy (kinetic + elastic + gravitational)
 * and the largest energy of motion (kinetic, + gravitational for the drop) over the start.
 * The material alone by default (the cube's self-collision off, as before the CPU reference had
 * collisions); --self-collision on runs the solver's defaults, self-collision included.
 *
 *   node scripts/run-ts.mjs bench/stiffness.ts [--self-collision on|off]    # ~2 min
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import { totalEnergy, type EnergyOptions } from '../src/sim/energy';
import type { ConstraintType, SolveOrder } from '../src/contract/params';
import { kuhnLattice } from '../tests/support/kuhnLattice';
import { rng } from '../tests/support/random';
import { makeSetup } from '../tests/unit/sim/support/setups';
import { checkBenchArgs, onOffArg } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/stiffness.ts [--self-collision on|off]',
  values: ['--self-collision'],
});
const selfCollision = onOffArg(process.argv.slice(2), '--self-collision', false);

const CELLS = 4;
const EDGE = 0.1;

function run(kind: 'free' | 'drop', E: number, solveOrder: SolveOrder, constraint: ConstraintType, substeps: number): { total: number; motion: number } {
  const drop = kind === 'drop';
  const lat = kuhnLattice(CELLS, CELLS, CELLS, (u, v, w) => [(u / CELLS) * EDGE, (v / CELLS) * EDGE + (drop ? 0.05 : 0), (w / CELLS) * EDGE]);
  const springCompliance = 1 / (E * (EDGE / CELLS));
  const setup = makeSetup([{ positions: lat.positions, tets: lat.tets, material: { youngsModulus: E, poissonRatio: 0.3, density: 1000 } }], {
    substeps, solveOrder, constraint, springCompliance, friction: 0, selfCollision, ...(drop ? {} : { gravity: [0, 0, 0] as [number, number, number] }),
  }, drop ? [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }] : []);
  const s = new CpuSolver(setup);
  if (!drop) {
    const r = rng(1);
    for (let i = 0; i < s.v.length; i++) s.v[i] = (r() - 0.5) * 0.02;
  }
  const opts: EnergyOptions = { constraint, springCompliance, gravity: setup.params.gravity };
  const start = totalEnergy(setup.model, s.x, s.v, opts).total;
  let total = -Infinity, motion = -Infinity;
  for (let f = 0; f < (drop ? 60 : 30); f++) {
    s.stepFrame();
    const e = totalEnergy(setup.model, s.x, s.v, opts);
    total = Math.max(total, e.total);
    motion = Math.max(motion, e.kinetic + e.gravitational);
  }
  return { total: total / start, motion: motion / start };
}

console.log(`self-collision ${selfCollision ? 'on' : 'off'}`);
for (const kind of ['free', 'drop'] as const) {
  console.log(`\n## ${kind === 'free' ? 'Free cube, random 1 cm/s' : 'Cube dropped 5 cm, frictionless ground'}: max over frames / start`);
  console.log('| constraint | order | substeps | ' + [1e3, 1e5, 1e7, 1e9, 1e10].map((e) => `E ${e.toExponential(0)} total / motion`).join(' | ') + ' |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const constraint of ['neohookean', 'springs'] as const) for (const order of ['gauss-seidel', 'jacobi'] as const) for (const substeps of [20, 5]) {
    const cells = [1e3, 1e5, 1e7, 1e9, 1e10].map((E) => {
      const r = run(kind, E, order, constraint, substeps);
      return `${r.total.toPrecision(3)} / ${r.motion.toPrecision(3)}`;
    });
    console.log(`| ${constraint} | ${order} | ${substeps} | ${cells.join(' | ')} |`);
  }
}
