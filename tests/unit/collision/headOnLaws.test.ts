import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { bodiesSetup, countOn, cubePart, momentum } from './scenes';

/**
 * Contacts cost neither momentum nor energy (issue 19), on the float64 CPU reference with every
 * collision stage (hybrid: CCD for the approach, DCD + shortest path for what got inside; the
 * contact offset, split impulse): two 10 cm cubes meet head-on at 3 m/s each, slightly offset
 * so the contacts are not symmetric, with no gravity, damping or friction. Laws: total linear
 * momentum stays zero within 1e-4 of one body's momentum; total energy (kinetic + Neo-Hookean
 * elastic, src/sim/energy.ts) never rises above its running minimum by more than 1% of the
 * energy released so far (E0 - running minimum), plus 1e-6 of E0 for rounding; and no vertex is
 * inside the other body at the end of any frame (the brute-force counter). Measured when
 * written: |p| / p_body <= 6.4e-13, 9.0 J -> 2.08 J (the contact is inelastic), no rise at all.
 */
describe('two bodies head-on: momentum kept, energy never grows through contact', () => {
  it('momentum within 1e-4 of its size, energy rises above its running minimum by < 1% of what was released, nothing inside after any frame', () => {
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.1, [-0.11, 0, 0]), velocity: [3, 0, 0], youngsModulus: 1e6 },
        { part: cubePart(2, 0.1, [0.01, 0.013, 0.007]), velocity: [-3, 0, 0], youngsModulus: 1e6 },
      ],
      { gravity: [0, 0, 0], damping: 0, friction: 0, substeps: 20, iterations: 3, collisionMode: 'hybrid' },
    );
    const s = new CpuSolver(setup);
    const m = s.model;
    const opts = { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity };
    let bodyMomentum = 0;
    for (let i = m.objectVertexOffsets[0]; i < m.objectVertexOffsets[1]; i++) bodyMomentum += 3 / m.invMass[i];
    const e0 = totalEnergy(m, s.x, s.v, opts).total;
    let low = e0, worstRise = 0, worstMomentum = 0, maxInside = 0;
    for (let f = 0; f < 30; f++) {
      s.stepFrame();
      const e = totalEnergy(m, s.x, s.v, opts).total;
      const rise = e - low - 0.01 * (e0 - low) - 1e-6 * e0;
      worstRise = Math.max(worstRise, rise);
      low = Math.min(low, e);
      const p = momentum(m, s.v);
      worstMomentum = Math.max(worstMomentum, Math.hypot(p[0], p[1], p[2]) / bodyMomentum);
      maxInside = Math.max(maxInside, countOn(m, s.x).vertices);
    }
    const ek = totalEnergy(m, s.x, s.v, opts);
    console.log(`head-on: |p| / p_body at most ${worstMomentum.toExponential(2)}; energy ${e0.toFixed(4)} J -> ${ek.total.toFixed(4)} J (lowest ${low.toFixed(4)}), worst rise beyond the allowance ${worstRise.toExponential(2)} J; at most ${maxInside} vertices inside`);
    expect(worstMomentum).toBeLessThan(1e-4);
    expect(worstRise).toBeLessThanOrEqual(0);
    // The impact leaves no vertex inside the other body at the end of any frame.
    expect(maxInside).toBe(0);
    // They did meet and bounce: the first cube's first vertex moves back.
    expect(s.v[0]).toBeLessThan(0);
  });
});
