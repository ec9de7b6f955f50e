import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { countIntersections } from '../../support/intersectionCounter';
import { bodiesSetup, cubePart } from './scenes';

/**
 * Two cubes created 2 cm into each other, at rest, no gravity, no colliders. The start has no
 * energy, so every joule after the separation was made by the contacts. The split impulse moves
 * the start positions of the contacts' own vertices with the push; what is left comes from the
 * material carrying the push into the interior (v = (x - x0) / h there), measured 1.8 J (collisions once a
 * substep) against 4.5 J when the pushes turned into velocity (as recovery mode did before issue 19's fix, after
 * which recovery mode splits too: velocity pushes wrecked sunk bodies at 20 substeps,
 * tests/unit/collision/sunkSpheresRecovery.test.ts). Recovery mode (every vertex and centroid a
 * query) must make no more energy than the ordinary contacts on the same schedule: both collide
 * after every material iteration, recovery mode's default (SolverParams.collideEvery; measured
 * 2.04 J ordinary, 2.06 J recovery; once a substep 1.83 J and 1.85 J: the material iterations
 * between the rounds carry more of the push into the interior). Momentum stays zero either way.
 */
function run(recovery: boolean): { kinetic: number; inside: number; momentum: number } {
  const setup = bodiesSetup(
    [
      { part: cubePart(3, 0.2, [0, 0, 0]) },
      { part: cubePart(3, 0.2, [0.05, 0.18, 0.03]) },
    ],
    { gravity: [0, 0, 0], substeps: 10, damping: 0, friction: 0, recovery, collideEvery: 'iteration' },
  );
  const s = new CpuSolver(setup);
  const m = s.model;
  const mass = new Float64Array(m.vertexCount);
  for (let v = 0; v < m.vertexCount; v++) mass[v] = 1 / m.invMass[v];
  for (let f = 0; f < 10; f++) s.stepFrame();
  let kinetic = 0;
  const p = [0, 0, 0];
  for (let v = 0; v < m.vertexCount; v++) {
    let v2 = 0;
    for (let k = 0; k < 3; k++) {
      v2 += s.v[3 * v + k] ** 2;
      p[k] += mass[v] * s.v[3 * v + k];
    }
    kinetic += 0.5 * mass[v] * v2;
  }
  const inside = countIntersections({ positions: s.x, tets: m.tets, tetObject: m.tetObject }).inter;
  return { kinetic, inside, momentum: Math.hypot(p[0], p[1], p[2]) };
}

describe('a penetration present at the start of a substep is separated without velocity', () => {
  it('overlapping cubes come apart in either mode, recovery making no more kinetic energy than the ordinary contacts, and zero momentum', () => {
    const split = run(false);
    const recovery = run(true);
    console.log(`overlap 2 cm: kinetic energy after 10 frames ${split.kinetic.toExponential(2)} J (recovery mode: ${recovery.kinetic.toExponential(2)} J); inside ${split.inside} / ${recovery.inside}`);
    expect(split.inside).toBe(0);
    expect(recovery.inside).toBe(0);
    expect(recovery.kinetic).toBeLessThan(1.1 * split.kinetic);
    expect(split.momentum).toBeLessThan(1e-9);
    expect(recovery.momentum).toBeLessThan(1e-9);
  });
});
