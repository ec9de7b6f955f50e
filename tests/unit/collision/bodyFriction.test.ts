import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { slopeGravity } from '../../support/blockScenes';
import { blockOnSlab, countOn, type BlockOnSlabSolve } from './scenes';

/**
 * Coulomb friction between two soft bodies (issue 19), on the float64 CPU reference with every
 * collision stage (hybrid: DCD + shortest path, CCD): a 10 cm block on a slab whose bottom layer
 * is held (inverse mass 0; the slab's top is free and soft), friction mu = 0.5, no ground. The
 * slope is gravity tilted by theta about z (the same as the slab tilted the other way), ramped
 * in over 0.25 s after the block settled. The law: below the friction angle (tan theta < mu) the
 * block stays; above it, it slides along the slope at a = g (sin theta - mu cos theta).
 */
const MU = 0.5;
const DEG = Math.PI / 180;
const SETTLE = 0.25;
const RAMP = 0.25;

const DEFAULT_SOLVE: BlockOnSlabSolve = { iterations: 3, balance: 'valence' };

function slabRun(theta: number, solve: BlockOnSlabSolve = DEFAULT_SOLVE): { solver: CpuSolver; centreX: () => number; velocityX: () => number } {
  const { setup, blockMean } = blockOnSlab(solve, MU);
  const solver = new CpuSolver(setup);
  const step = solver.stepFrame.bind(solver);
  solver.stepFrame = () => {
    const ramp = Math.min(1, Math.max(0, (solver.time - SETTLE) / RAMP));
    solver.params.gravity = slopeGravity(theta * ramp);
    step();
  };
  return { solver, centreX: () => blockMean(solver.x, 0), velocityX: () => blockMean(solver.v, 0) };
}

describe('Coulomb friction between two soft bodies (block on a held slab, mu 0.5)', () => {
  // Whatever the material's solve: before friction had a use of its own (contactsCpu.ts
  // countUses) the block held only in the count order at 3 iterations, by luck; in the valence
  // order it slipped 5.9 mm at 3 iterations and 2.0 mm at 2 (docs/collisions.md "Static friction
  // between bodies").
  it.each<BlockOnSlabSolve>([DEFAULT_SOLVE, { iterations: 2, balance: 'valence' }, { iterations: 3, balance: 'count' }])('below the friction angle (20 deg < 26.6 deg) the block stays: < 0.1 mm along the slope over 2 s, and out of the slab ($iterations iterations, $balance order)', (solve) => {
    const { solver, centreX } = slabRun(20 * DEG, solve);
    const frames = Math.round(2 / solver.params.dt);
    while (solver.time < SETTLE + RAMP - 1e-9) solver.stepFrame();
    const start = centreX();
    let inside = 0;
    for (let f = 0; f < frames; f++) {
      solver.stepFrame();
      inside = Math.max(inside, countOn(solver.model, solver.x).vertices);
    }
    const drift = centreX() - start;
    console.log(`block on slab at 20 deg, ${solve.iterations} iterations, ${solve.balance} order: ${(drift * 1000).toFixed(4)} mm along the slope in 2 s, at most ${inside} vertices inside`);
    expect(Math.abs(drift)).toBeLessThan(1e-4);
    expect(inside).toBe(0);
  });

  it('above it (35 deg) the block slides at g (sin - mu cos) within 5%', () => {
    const theta = 35 * DEG;
    const { solver, velocityX } = slabRun(theta);
    // Slipping from the ramp's end on; the acceleration from the mean velocity over the next
    // 0.5 s (speeds up to 0.8 m/s). Before the CCD normals at internal edges stayed in their
    // cones (src/collision/ccd/featureNormal.ts) the contacts braked beyond Coulomb's law from
    // 0.45 m/s on (1.37 m/s^2 at 0.45-0.8 m/s, 0.65 at 0.8-0.95; docs/collisions.md "Friction").
    while (solver.time < SETTLE + RAMP - 1e-9) solver.stepFrame();
    const t1 = solver.time, v1 = velocityX();
    while (solver.time < t1 + 0.5 - 1e-9) solver.stepFrame();
    const a = (velocityX() - v1) / (solver.time - t1);
    const law = 9.81 * (Math.sin(theta) - MU * Math.cos(theta));
    console.log(`block on slab at 35 deg: a = ${a.toFixed(4)} m/s^2, law ${law.toFixed(4)} (${((100 * (a - law)) / law).toFixed(2)}%)`);
    expect(Math.abs(a - law)).toBeLessThan(0.05 * law);
  });
});
