/**
 * The GPU twin of tests/unit/collision/stiffContactEnergy.test.ts: two stiff cubes (E 1e6) stacked
 * at a long substep (dt 0.1, 20 substeps: a pressure wave crosses 4.6 elements a substep). With
 * the contacts solved once a substep after the material they gain 80 % of their energy in the
 * first frame (CPU reference, 6 iterations); with collideEvery 'contacts' (detection once, the
 * contact passes after every material iteration: the GPU's later rounds record the passes alone,
 * on the records the first round built) the energy law holds. Measured on SwiftShader:
 * 1,245 -> 1,263 -> 1,234 -> 1,234 -> 1,237 J over 4 frames, as the float64 reference.
 */
import { describe, expect, it } from 'vitest';
import { findScene } from '../../src/scenes/registry';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { totalEnergy } from '../../src/sim/energy';
import { testGpu } from '../support/gpu';

describe("stiff bodies in contact on the GPU, contacts after every iteration ('contacts')", () => {
  it('two stacked cubes at dt 0.1, 20 x 6: the first frame rises by less than 2 % of the start, and ends within 0.5 % of the float64 reference', async () => {
    const setup = findScene('cube-stack').build({ copies: 2 });
    setup.params = { ...setup.params, dt: 0.1, iterations: 6, collideEvery: 'contacts' };
    const ctx = await testGpu();
    const gpu = new GpuSolver(ctx, setup);
    const cpu = new CpuSolver(setup);
    try {
      const p = gpu.params;
      const energy = (x: ArrayLike<number>, v: ArrayLike<number>): number => totalEnergy(setup.model, x, v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity }).total;
      const start = energy(cpu.x, cpu.v);
      await gpu.stepFrame();
      const x = await gpu.readPositions(), v = await gpu.readVelocities();
      for (let i = 0; i < x.length; i++) expect(Number.isFinite(x[i]) && Number.isFinite(v[i])).toBe(true);
      const onGpu = energy(x, v);
      cpu.stepFrame();
      const reference = energy(cpu.x, cpu.v);
      console.log(`stiff stack, frame 1: start ${start.toFixed(1)} J, GPU ${onGpu.toFixed(1)} J, CPU reference ${reference.toFixed(1)} J`);
      expect(onGpu - start).toBeLessThan(0.02 * start);
      expect(Math.abs(onGpu - reference)).toBeLessThan(0.005 * start);
    } finally {
      gpu.destroy();
    }
  });
});
