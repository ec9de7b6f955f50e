import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { bodiesSetup, countOn, cubePart, momentum } from './scenes';

/**
 * Impact-adaptive substeps (issue 19, SolverParams.impactSubsteps) on the float64 CPU reference
 * with every collision stage (hybrid): two 10 cm cubes meet head-on at 8 m/s each at Rapier's
 * default budget, 4 substeps x 4 iterations, no gravity, damping or friction. At 4 substeps a
 * frame the pair closes 67 mm a substep, two thirds of the cube; measured when written with impact
 * substeps off, 6 to 15 boundary vertices stay inside the other cube at the end of every frame
 * from the impact on, and the energy rises 95 J above the law's allowance as they are pushed out. With up to
 * 32 substeps on impact the laws of the head-on test hold (momentum within 1e-4 of one body's,
 * energy never above its running minimum by more than 1% of what was released), nothing is inside
 * the other body at the end of any frame (the brute-force counter), and only the frames of the
 * impact take more substeps.
 */
describe('impact-adaptive substeps: a fast head-on impact at 4 x 4', () => {
  it('the impact frames take more substeps, the others 4; momentum and energy laws hold; nothing inside after any frame', () => {
    const speed = 8;
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.1, [-0.25, 0, 0]), velocity: [speed, 0, 0], youngsModulus: 1e6 },
        { part: cubePart(2, 0.1, [0.15, 0.013, 0.007]), velocity: [-speed, 0, 0], youngsModulus: 1e6 },
      ],
      { gravity: [0, 0, 0], damping: 0, friction: 0, substeps: 4, iterations: 4, collisionMode: 'hybrid', impactSubsteps: 32 },
    );
    const s = new CpuSolver(setup);
    const m = s.model;
    const opts = { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity };
    let bodyMomentum = 0;
    for (let i = m.objectVertexOffsets[0]; i < m.objectVertexOffsets[1]; i++) bodyMomentum += speed / m.invMass[i];
    const e0 = totalEnergy(m, s.x, s.v, opts).total;
    let low = e0, worstRise = 0, worstMomentum = 0;
    const substeps: number[] = [], inside: number[] = [];
    for (let f = 0; f < 14; f++) {
      s.stepFrame();
      substeps.push(s.frameSubstepCount);
      const e = totalEnergy(m, s.x, s.v, opts).total;
      worstRise = Math.max(worstRise, e - low - 0.01 * (e0 - low) - 1e-6 * e0);
      low = Math.min(low, e);
      const p = momentum(m, s.v);
      worstMomentum = Math.max(worstMomentum, Math.hypot(p[0], p[1], p[2]) / bodyMomentum);
      inside.push(countOn(m, s.x).vertices);
    }
    console.log(`impact substeps: per frame ${substeps.join(' ')}; inside ${inside.join(' ')}; |p| / p_body <= ${worstMomentum.toExponential(2)}; worst energy rise beyond the allowance ${worstRise.toExponential(2)} J`);
    // 30 cm apart closing at 16 m/s: they meet 18.75 ms in, in frame 2.
    expect(substeps[0]).toBe(4);
    expect(Math.max(...substeps.slice(1, 4))).toBeGreaterThan(4);
    expect(Math.max(...substeps.slice(1, 4))).toBeLessThanOrEqual(32);
    // Apart again, the frames go back to the budget.
    expect(substeps.slice(-4)).toEqual([4, 4, 4, 4]);
    expect(worstMomentum).toBeLessThan(1e-4);
    expect(worstRise).toBeLessThanOrEqual(0);
    expect(Math.max(...inside)).toBe(0);
    // They met and bounced: the first cube's first vertex moves back.
    expect(s.v[0]).toBeLessThan(0);
  });
});

/**
 * A landing is an impact too (sim/colliderClosingSpeed.ts): a 10 cm cube (4 cells a side) thrown
 * at the ground at 4 m/s at Rapier's default budget, 4 substeps x 4 iterations, no damping or
 * friction. Measured when written, with only CCD's candidates choosing the substeps (the ground is
 * a collider, not a body), the landing frame ran at 4 substeps and the total energy rose 44 J
 * (the cube's whole energy is about 8 J); with the ground's closing speed counted it took 26 and
 * the energy never rose. The law: total energy never above its running minimum by more than 1%
 * of what was released.
 */
describe('impact-adaptive substeps: a landing on the ground', () => {
  it('the landing frame takes the substeps its speed asks for, and the energy never rises', () => {
    const speed = 4;
    const setup = bodiesSetup(
      [{ part: cubePart(4, 0.1, [0, 0.1, 0]), velocity: [0, -speed, 0], youngsModulus: 1e6 }],
      { damping: 0, friction: 0, substeps: 4, iterations: 4, collisionMode: 'hybrid', impactSubsteps: 32 },
      [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    );
    const s = new CpuSolver(setup);
    const m = s.model;
    const opts = { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity };
    const e0 = totalEnergy(m, s.x, s.v, opts).total;
    let low = e0, worstRise = 0;
    const substeps: number[] = [], speeds: number[] = [];
    let lowest = Infinity;
    for (let f = 0; f < 6; f++) {
      s.stepFrame();
      substeps.push(s.frameSubstepCount);
      speeds.push(s.closingSpeed ?? NaN);
      const e = totalEnergy(m, s.x, s.v, opts).total;
      worstRise = Math.max(worstRise, e - low - 0.01 * (e0 - low));
      low = Math.min(low, e);
      for (let i = 1; i < s.x.length; i += 3) lowest = Math.min(lowest, s.x[i]);
    }
    console.log(`landing: substeps ${substeps.join(' ')}; closing speeds ${speeds.map((v) => v.toFixed(2)).join(' ')}; energy released ${(e0 - low).toFixed(2)} J; worst rise beyond the allowance ${worstRise.toExponential(2)} J`);
    // The cube's bottom starts 10 cm up at 4 m/s: it lands in frame 2, at sqrt(4^2 + 2 g 0.1) = 4.24 m/s.
    expect(substeps[0]).toBe(4);
    expect(Math.abs(speeds[1] / Math.sqrt(speed * speed + 2 * 9.81 * 0.1) - 1)).toBeLessThan(0.03);
    // At most a tenth of the mean boundary edge a substep: that edge lies between the cell (2.5 cm)
    // and its face diagonal (3.54 cm), so the landing frame takes between 21 and 29 substeps.
    const travel = speeds[1] * setup.params.dt;
    expect(substeps[1]).toBeGreaterThanOrEqual(Math.ceil(travel / (0.1 * 0.025 * Math.SQRT2)));
    expect(substeps[1]).toBeLessThanOrEqual(Math.ceil(travel / (0.1 * 0.025)));
    // After it the cube rests and asks for none: the count halves a frame down to the base
    // (impactSubstepCount's previousSubsteps: a landing may squash on over several frames).
    for (let k = 2; k < 6; k++) expect(substeps[k], `frame ${k}`).toBe(Math.max(4, Math.ceil(substeps[k - 1] / 2)));
    expect(substeps[5]).toBe(4);
    expect(worstRise).toBeLessThanOrEqual(0);
    // It stays on the ground: nothing below the plane by more than a hundredth of the cube.
    expect(lowest).toBeGreaterThan(-0.001);
  });
});
