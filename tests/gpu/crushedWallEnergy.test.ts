/**
 * The GPU twin of tests/unit/collision/crushedWallEnergy.test.ts: the shared GlassBox.t thrown onto
 * the ground at 30 m/s crushes its bottom wall thinner than the CCD separation, and the CCD pairs
 * of inner-surface vertices directly behind the outer faces across it get no contact
 * (ccdNarrow.wgsl vertexFaceContact, BEHIND_FACE_REL; contact.wgsl rampedOffset keeps a negative start gap
 * where it started). Before, SwiftShader's run rose from 22.9 to 44.7 MJ over the 40 frames after
 * the impact, as the CPU reference did; now both fall to 13.9 MJ and never rise. Hybrid, the default.
 */
import { describe, expect, it } from 'vitest';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { totalEnergy } from '../../src/sim/energy';
import { testGpu } from '../support/gpu';
import { crushedContainer } from '../unit/collision/scenes';

describe('a container crushed by its impact on the GPU', () => {
  it('the total energy never rises above its running minimum by more than 1 % of the energy released', async () => {
    const setup = crushedContainer('hybrid');
    const ctx = await testGpu();
    const gpu = new GpuSolver(ctx, setup);
    const p = gpu.params;
    const energy = (x: ArrayLike<number>, v: ArrayLike<number>): number => totalEnergy(setup.model, x, v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity }).total;
    const start = energy(setup.model.restPositions, setup.model.initialVelocities!);
    let lowest = start, rise = 0;
    const totals: number[] = [];
    for (let f = 0; f < 36; f++) {
      await gpu.stepFrame();
      const x = await gpu.readPositions(), v = await gpu.readVelocities();
      const e = energy(x, v);
      totals.push(e);
      rise = Math.max(rise, e - lowest);
      lowest = Math.min(lowest, e);
    }
    gpu.destroy();
    console.log(`GPU: total energy every 4 frames (MJ) ${totals.filter((_, i) => i % 4 === 3).map((e) => (e / 1e6).toFixed(2)).join(' ')}; largest rise ${(rise / 1e6).toFixed(4)} MJ`);
    expect(start - lowest).toBeGreaterThan(0.3 * start);
    expect(rise).toBeLessThanOrEqual(0.01 * (start - lowest));
  });
});
