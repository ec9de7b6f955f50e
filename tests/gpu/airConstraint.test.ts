/**
 * The air constraint kernel (shaders/airConstraint.wgsl, the 'air' stage) on the GPU, f32,
 * against the float64 CPU twin (collision/air/airConstraintCpu.ts) on a short drop of two
 * boxes thrown onto each other in air mode, and against the method's invariant: no air tet
 * inverted after a substep's last pass (the kernel's own count), while the first passes did
 * find inverted tets (the boxes collided). Both Gauss-Seidel orders of the passes run, three
 * frames each: 'partitioned' (cells swept per workgroup) then 'coloured' (a dispatch per
 * colour), each against its twin, with the dispatches each recorded. With the mesh optimisation every other frame, the
 * topologies it installs between frames keep that invariant. Built without the other collision
 * stages (GpuSolverOptions.collisions false: air mode does not run them), which saves their
 * pipelines' compilation.
 */
import { describe, expect, it } from 'vitest';
import { airBoxesLayout } from '../../src/scenes/airBoxes';
import { containerColliders } from '../../src/scenes/container';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { buildModel } from '../../src/sim/model';
import { defaultParams, effectiveCollisionRounds } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';
import { testGpu } from '../support/gpu';

function thrownBoxes(airOptimizeFrames: number): SimSetup {
  const layout = airBoxesLayout(2, 2);
  const model = buildModel(layout.objects);
  for (let v = model.objectVertexOffsets[1]; v < model.vertexCount; v++) model.initialVelocities[3 * v + 1] = -3;
  return {
    model,
    colliders: containerColliders(layout.halfWidth, layout.halfWidth),
    handles: [],
    air: layout.air,
    params: defaultParams({ substeps: 5, iterations: 2, airIterations: 2, airOptimizeFrames, friction: 0.3, collisionMode: 'air' }),
  };
}

describe('air constraint on the GPU', () => {
  it('matches the float64 twin and leaves no air tet inverted after a substep', async () => {
    const ctx = await testGpu();
    const setup = thrownBoxes(0);
    const cpu = new CpuSolver(setup);
    const gpu = new GpuSolver(ctx, setup, { collisions: false });
    let found = 0;
    const passDispatches: Record<string, number> = {};
    for (let f = 0; f < 6; f++) {
      if (f === 3) for (const solver of [cpu, gpu]) solver.params = { ...solver.params, airSolve: 'coloured' };
      cpu.stepFrame();
      const r = await gpu.stepFrame();
      const air = r.collisions?.air;
      expect(r.collisions?.mode).toBe('air');
      const p = gpu.params;
      // After every material iteration (collideEvery 'auto' in air mode, paper 004): the passes each
      // round, the count once a substep.
      const rounds = effectiveCollisionRounds(p, gpu.model.objectNames.length);
      expect(rounds).toBe(p.iterations);
      expect(r.dispatchesByPhase.air, `frame ${f}: air dispatches`).toBe(p.substeps * (rounds * p.airIterations * air!.passDispatches + 1));
      passDispatches[p.airSolve] = air!.passDispatches;
      expect(air?.invertedAfter, `frame ${f}`).toBe(0);
      expect(cpu.collisionCounters.air?.invertedAfter).toBe(0);
      found += air!.inverted;
    }
    const x = await gpu.readPositions();
    gpu.destroy();
    let diff = 0, moved = 0;
    for (let i = 0; i < x.length; i++) {
      diff = Math.max(diff, Math.abs(x[i] - cpu.x[i]));
      moved = Math.max(moved, Math.abs(cpu.x[i] - setup.model.restPositions[i]));
    }
    console.log(`air GPU vs CPU after 6 frames (3 partitioned, 3 coloured): max difference ${diff.toExponential(2)} m, largest motion ${moved.toFixed(3)} m, ${found} inverted tets found by the first passes; dispatches a pass ${JSON.stringify(passDispatches)}`);
    expect(passDispatches.partitioned).toBeLessThan(passDispatches.coloured);
    expect(found).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0.1);
    expect(diff).toBeLessThan(1e-3);
  });

  it('installs the optimisation between frames and keeps the invariant', async () => {
    const ctx = await testGpu();
    const gpu = new GpuSolver(ctx, thrownBoxes(2), { collisions: false });
    let optimizations = 0, flips = 0;
    for (let f = 0; f < 8; f++) {
      const r = await gpu.stepFrame();
      const air = r.collisions!.air!;
      expect(air.invertedAfter, `frame ${f}`).toBe(0);
      optimizations += air.optimizations;
      flips += air.edgeRemovals + air.multiFaceRemovals;
    }
    gpu.destroy();
    expect(optimizations).toBeGreaterThanOrEqual(2);
    console.log(`air GPU with optimisation every 2 frames: ${optimizations} installed, ${flips} flips`);
  });

  it('runs air mode on the general mesher where the scene has no lattice container', async () => {
    const ctx = await testGpu();
    const setup = thrownBoxes(0);
    delete setup.air;
    const gpu = new GpuSolver(ctx, setup, { collisions: false });
    const r = await gpu.stepFrame();
    const air = r.collisions?.air;
    expect(air?.mesh.mesher).toBe('general');
    expect(air?.airTets).toBeGreaterThan(0);
    expect(air?.invertedAfter).toBe(0);
    gpu.destroy();
  });
});
