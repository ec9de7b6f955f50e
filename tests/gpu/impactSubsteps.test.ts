/**
 * Impact-adaptive substeps on the GPU engine (SolverParams.impactSubsteps; the closing speed comes
 * with the CCD job's candidates, ccdWorkerHandler.ts / ccdSchedule.ts): two 10 cm cubes head-on
 * at 8 m/s each at Rapier's default budget, 4 substeps x 4 iterations. Truths: they close at
 * 16 m/s (the sum of their speeds); the frames of the impact take more substeps, the frames after
 * them half the frame before, down to 4;
 * nothing is inside the other body at the end of any frame (the brute-force counter, which shares
 * no code with the collision stages). The CPU twin: tests/unit/collision/impactSubsteps.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { countIntersections } from '../support/intersectionCounter';
import { testGpu } from '../support/gpu';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';
import { totalEnergy } from '../../src/sim/energy';

describe('impact-adaptive substeps on the GPU', () => {
  it('a head-on impact at 16 m/s closing: its frames take more substeps, the closing speed is 16 m/s, nothing inside after any frame', async () => {
    const speed = 8;
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.1, [-0.25, 0, 0]), velocity: [speed, 0, 0], youngsModulus: 1e6 },
        { part: cubePart(2, 0.1, [0.15, 0.013, 0.007]), velocity: [-speed, 0, 0], youngsModulus: 1e6 },
      ],
      { gravity: [0, 0, 0], damping: 0, friction: 0, substeps: 4, iterations: 4, collisionMode: 'hybrid', impactSubsteps: 32, bvhRebuildFrames: 0 },
    );
    const ctx = await testGpu();
    const solver = new GpuSolver(ctx, setup);
    const m = setup.model;
    const substeps: number[] = [], closing: number[] = [], inside: number[] = [];
    try {
      for (let f = 0; f < 5; f++) {
        const r = await solver.stepFrame();
        substeps.push(r.substeps);
        closing.push(r.closingSpeed ?? -1);
        const x = await solver.readPositions();
        inside.push(countIntersections({ positions: Float64Array.from(x), tets: m.tets, tetObject: m.tetObject }).vertices);
      }
    } finally {
      solver.destroy();
    }
    console.log(`GPU impact substeps: per frame ${substeps.join(' ')}; closing m/s ${closing.map((c) => c.toFixed(2)).join(' ')}; inside ${inside.join(' ')}`);
    // The first frame's job runs on the state at its start (2/60 s horizon: 30 cm at 16 m/s is
    // within it); later frames measure the job's pairs on the previous frame's end state
    // (ccdSchedule.ts closingSpeedAtStart), so the frames after the bounce, closing nothing, take
    // half the frame before down to 4 (impactSubstepCount's previousSubsteps).
    // Measured: 32 32 16 8 4 (closing 16.00 16.00 0 0 0; before the halving 32 32 4 4 4; the job's
    // own figure, a frame late, gave 32 32 32 4 4).
    expect(Math.max(...substeps)).toBeGreaterThan(4);
    for (let f = 1; f < substeps.length; f++) if (closing[f] === 0) expect(substeps[f], `frame ${f + 1}`).toBe(Math.max(4, Math.ceil(substeps[f - 1] / 2)));
    expect(Math.max(...substeps)).toBeLessThanOrEqual(32);
    expect(Math.max(...closing)).toBeCloseTo(2 * speed, 3);
    expect(substeps[substeps.length - 1]).toBe(4);
    expect(Math.max(...inside)).toBe(0);
  });
});

/**
 * A landing on the ground is an impact too (sim/colliderClosingSpeed.ts, measured on the state the
 * candidates' figure was measured on): the CPU twin's cube thrown at the ground at 4 m/s, 4 x 4.
 * Truths: it lands in frame 2 at sqrt(4^2 + 2 g 0.1) = 4.24 m/s; that frame takes the 21-29
 * substeps a tenth of the mean boundary edge (between the cell, 2.5 cm, and its diagonal) asks for,
 * the next ones half the frame before down to 4; the total energy (read back, sim/energy.ts) never rises above its running minimum
 * by more than 1% of what was released.
 */
describe('impact-adaptive substeps on the GPU: a landing', () => {
  it('the landing frame takes the substeps its speed asks for, the energy never rises', async () => {
    const speed = 4;
    const setup = bodiesSetup(
      [{ part: cubePart(4, 0.1, [0, 0.1, 0]), velocity: [0, -speed, 0], youngsModulus: 1e6 }],
      { damping: 0, friction: 0, substeps: 4, iterations: 4, collisionMode: 'hybrid', impactSubsteps: 32, bvhRebuildFrames: 0 },
      [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    );
    const ctx = await testGpu();
    const solver = new GpuSolver(ctx, setup);
    const m = setup.model;
    const opts = { constraint: setup.params.constraint, springCompliance: setup.params.springCompliance, gravity: setup.params.gravity };
    const energyNow = async (): Promise<number> => totalEnergy(m, Float64Array.from(await solver.readPositions()), Float64Array.from(await solver.readVelocities()), opts).total;
    const substeps: number[] = [], closing: number[] = [];
    const e0 = await energyNow();
    let low = e0, worstRise = 0;
    try {
      for (let f = 0; f < 4; f++) {
        const r = await solver.stepFrame();
        substeps.push(r.substeps);
        closing.push(r.closingSpeed ?? -1);
        const e = await energyNow();
        worstRise = Math.max(worstRise, e - low - 0.01 * (e0 - low));
        low = Math.min(low, e);
      }
    } finally {
      solver.destroy();
    }
    console.log(`GPU landing: substeps ${substeps.join(' ')}; closing m/s ${closing.map((c) => c.toFixed(2)).join(' ')}; released ${(e0 - low).toFixed(2)} J; worst rise beyond the allowance ${worstRise.toExponential(2)} J`);
    expect(substeps[0]).toBe(4);
    expect(Math.abs(closing[1] / Math.sqrt(speed * speed + 2 * 9.81 * 0.1) - 1)).toBeLessThan(0.03);
    const travel = closing[1] * setup.params.dt;
    expect(substeps[1]).toBeGreaterThanOrEqual(Math.ceil(travel / (0.1 * 0.025 * Math.SQRT2)));
    expect(substeps[1]).toBeLessThanOrEqual(Math.ceil(travel / (0.1 * 0.025)));
    // After it the cube rests: the count halves a frame down to the base (previousSubsteps).
    for (let k = 2; k < 4; k++) expect(substeps[k], `frame ${k}`).toBe(Math.max(4, Math.ceil(substeps[k - 1] / 2)));
    // float32 energies of about 10 J: a rounding allowance of 1e-5 of them.
    expect(worstRise).toBeLessThanOrEqual(1e-5 * e0);
  });
});
