/**
 * A slow landing at small budgets, on the float64 CPU reference: a 10 cm cube of 4 x 4 x 4 lattice
 * cells dropped from 1.84 cm onto the ground (it lands at 0.6 m/s), collisions between bodies off
 * (the ground collider only), no damping or friction, for several substep x iteration budgets and
 * Young's moduli. Per run: the smallest tet volume over rest volume at any frame's end (the
 * crush), the total energy before the landing and the most it reaches after (J), and the rise
 * beyond the energy law's allowance (1% of what was released). Where the crush does not depend
 * on E, the solve's stiffness is its iterations', not the material's, and the energy priced at
 * the material's E rises with E.
 *
 *   node scripts/run-ts.mjs bench/landingCrush.ts
 */
import { CpuSolver } from '../src/sim/cpuSolver';
import { totalEnergy } from '../src/sim/energy';
import { tetVolume6 } from '../src/collision/cpu/tetGeometry';
import { bodiesSetup, cubePart } from '../tests/unit/collision/scenes';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), { usage: 'node scripts/run-ts.mjs bench/landingCrush.ts' });

interface Case { substeps: number; iterations: number; E: number; cells: number }

const cases: Case[] = [
  { substeps: 4, iterations: 4, E: 1e5, cells: 4 },
  { substeps: 4, iterations: 4, E: 1e6, cells: 4 },
  { substeps: 4, iterations: 4, E: 1e7, cells: 4 },
  { substeps: 4, iterations: 8, E: 1e6, cells: 4 },
  { substeps: 8, iterations: 4, E: 1e6, cells: 4 },
  { substeps: 20, iterations: 3, E: 1e6, cells: 4 },
  { substeps: 4, iterations: 4, E: 1e6, cells: 2 },
];

function smallestVolumeRatio(s: CpuSolver): number {
  let smallest = Infinity;
  for (let t = 0; t < s.model.tetCount; t++) smallest = Math.min(smallest, tetVolume6(s.x, s.model.tets, t) / (6 * s.model.restVolume[t]));
  return smallest;
}

console.log('| substeps x iterations | E (Pa) | cells a side | smallest volume ratio | energy before landing (J) | most after (J) | rise beyond the law (J) |');
console.log('|---|---|---|---|---|---|---|');
for (const c of cases) {
  const setup = bodiesSetup(
    [{ part: cubePart(c.cells, 0.1, [0, 0.0184, 0]), velocity: [0, 0, 0], youngsModulus: c.E }],
    { damping: 0, friction: 0, substeps: c.substeps, iterations: c.iterations, collisions: false },
    [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
  );
  const s = new CpuSolver(setup);
  const opts = { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity };
  const e0 = totalEnergy(s.model, s.x, s.v, opts).total;
  let low = e0, worst = 0, before = e0, most = -Infinity, crush = Infinity;
  for (let f = 0; f < 20; f++) {
    s.stepFrame();
    const e = totalEnergy(s.model, s.x, s.v, opts).total;
    // Frames 1-3 fall (60 ms to fall 1.84 cm: it lands in frame 4).
    if (f < 3) before = e;
    else most = Math.max(most, e);
    worst = Math.max(worst, e - low - 0.01 * (e0 - low));
    low = Math.min(low, e);
    crush = Math.min(crush, smallestVolumeRatio(s));
  }
  console.log(`| ${c.substeps} x ${c.iterations} | ${c.E.toExponential(0)} | ${c.cells} | ${crush.toFixed(3)} | ${before.toFixed(3)} | ${most.toFixed(3)} | ${worst.toFixed(3)} |`);
}
