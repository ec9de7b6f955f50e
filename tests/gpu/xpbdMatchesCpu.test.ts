import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { twistingHandle, fixedHandle } from '../../src/sim/handles';
import type { SimSetup } from '../../src/sim/setup';
import { testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';
import { makeSetup } from '../unit/sim/support/setups';
import { defaultParams } from '../../src/contract/params';

/**
 * The GPU solver (f32) against the CPU reference (f64) with the same inputs: same colouring
 * for Gauss-Seidel, same partitioned order (the CPU runs it front to back, the GPU cell by
 * cell in passes), same averaging for Jacobi. Measured on SwiftShader (2026-11-22): 1.4e-6 to
 * 1.3e-5 on the 2-unit cube after 8 frames, 3.6e-5 on the 10.6-unit twisted beam; the bounds
 * leave room for other GPUs' rounding (fused multiply-adds) and are what src/sim/README.md states.
 */
async function maxDifference(setup: SimSetup, frames: number): Promise<{ diff: number; moved: number; cpuPositions: Float64Array }> {
  const ctx = await testGpu();
  const cpu = new CpuSolver(setup);
  const gpu = new GpuSolver(ctx, setup);
  for (let f = 0; f < frames; f++) {
    cpu.stepFrame();
    await gpu.stepFrame();
  }
  const x = await gpu.readPositions();
  gpu.destroy();
  let diff = 0;
  let moved = 0;
  for (let i = 0; i < x.length; i++) {
    diff = Math.max(diff, Math.abs(x[i] - cpu.x[i]));
    moved = Math.max(moved, Math.abs(cpu.x[i] - setup.model.restPositions[i]));
  }
  return { diff, moved, cpuPositions: cpu.x };
}

describe('GPU XPBD step matches the CPU reference', () => {
  const cube = loadSharedTetArrays('Cube.t'); // [-1, 1]^3, 234 tets
  for (const constraint of ['neohookean', 'springs'] as const) {
    for (const solveOrder of ['partitioned', 'gauss-seidel', 'jacobi'] as const) {
      it(`${constraint}, ${solveOrder}: falling onto the ground`, async () => {
        // Jacobi over-relaxed, so that where the relaxation is applied (multiplier and
        // corrections alike, in the constraint kernel) is compared too.
        const setup = makeSetup([{ ...cube, material: { youngsModulus: 2e4, poissonRatio: 0.4 } }], {
          dt: 1 / 60, substeps: 4, iterations: 3, constraint, solveOrder, springCompliance: 1e-5,
          jacobiRelaxation: solveOrder === 'jacobi' ? 1.5 : 1,
        }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]);
        const { diff, moved } = await maxDifference(setup, 8);
        // The body really moved (fell and hit the plane), and both agree.
        expect(moved).toBeGreaterThan(0.05);
        expect(diff).toBeLessThan(5e-5);
      });
    }
  }

  it("neohookean, partitioned by pass size (partitionBalance 'count', the other pass rule): falling onto the ground; a rule changed after the GPU solver is built is refused by name", async () => {
    const setup = makeSetup([{ ...cube, material: { youngsModulus: 2e4, poissonRatio: 0.4 } }], {
      dt: 1 / 60, substeps: 4, iterations: 3, partitionBalance: 'count',
    }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]);
    const { diff, moved } = await maxDifference(setup, 8);
    expect(setup.model.partitionBalance).toBe('count');
    expect(moved).toBeGreaterThan(0.05);
    expect(diff).toBeLessThan(5e-5);
    const gpu = new GpuSolver(await testGpu(), setup);
    try {
      gpu.params = { ...gpu.params, partitionBalance: 'valence' };
      await expect(gpu.stepFrame()).rejects.toThrow(/partitionBalance 'valence' differs from the 'count'/);
    } finally {
      gpu.destroy();
    }
  });

  it('neohookean, partitioned: a tet too wide for the cells, swept as a pass of its own, beside the cube', async () => {
    // One tet of side 3 beside the 234 small ones: wider than the 99th-percentile cells, so it is
    // left over and the GPU sweeps it in the fifth pass's single cell.
    const big = { positions: Float64Array.from([1.5, -1, -1, 4.5, -1, -1, 1.5, 2, -1, 1.5, -1, 2]), tets: Uint32Array.from([0, 1, 2, 3]) };
    const material = { youngsModulus: 2e4, poissonRatio: 0.4 };
    const setup = makeSetup([{ ...cube, material }, { ...big, material }], { dt: 1 / 60, substeps: 4, iterations: 3 }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]);
    const part = setup.model.tetPartition;
    expect(part.leftoverPass).toBe(true);
    expect(part.order[part.order.length - 1]).toBe(234);
    const { diff, moved } = await maxDifference(setup, 8);
    expect(moved).toBeGreaterThan(0.05);
    expect(diff).toBeLessThan(5e-5);
  });

  it('neohookean, partitioned (the default): a twisted beam held by two handles, with box and bowl colliders', async () => {
    const beam = loadSharedTetArrays('Beam.t'); // 10.6 x 2 x 2 along x
    const setup = makeSetup(
      [{ ...beam, material: { youngsModulus: 5e4, poissonRatio: 0.3 }, pin: (x) => (x < -4.5 ? 0 : x > 4.5 ? 1 : -1) }],
      { dt: 1 / 60, substeps: 4, iterations: 3, friction: 0.3 },
      [
        { kind: 'box', min: [-1, -3, -3], max: [1, -1.02, 3] },
        { kind: 'bowl', center: [0, 3, 0], radius: 6.2 },
      ],
      [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 3)],
    );
    const { diff, moved } = await maxDifference(setup, 6);
    expect(moved).toBeGreaterThan(0.1);
    expect(moved).toBeLessThan(2);
    expect(diff).toBeLessThan(1e-4);
  });

  it('neohookean with Anderson acceleration (andersonDepth 2, 6 iterations: mixes from the third), stiff enough that the iterations do not converge: a cube falling onto the ground (partitioned, Jacobi) and a twisted beam with colliders; a round begins, each sweep 1 dispatch more, each mix 2', async () => {
    const beam = loadSharedTetArrays('Beam.t');
    const cases: [string, (andersonDepth: number) => SimSetup, number][] = [
      ...(['partitioned', 'jacobi'] as const).map((solveOrder): [string, (d: number) => SimSetup, number] => [
        `cube, ${solveOrder}`,
        (andersonDepth) => makeSetup([{ ...cube, material: { youngsModulus: 2e6, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 4, iterations: 6, solveOrder, andersonDepth }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]),
        8,
      ]),
      [
        'twisted beam',
        (andersonDepth) => makeSetup(
          [{ ...beam, material: { youngsModulus: 5e7, poissonRatio: 0.3 }, pin: (x) => (x < -4.5 ? 0 : x > 4.5 ? 1 : -1) }],
          { dt: 1 / 60, substeps: 4, iterations: 6, friction: 0.3, andersonDepth },
          [{ kind: 'box', min: [-1, -3, -3], max: [1, -1.02, 3] }],
          [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 3)],
        ),
        6,
      ],
    ];
    for (const [name, setup, frames] of cases) {
      const { diff, moved, cpuPositions } = await maxDifference(setup(2), frames);
      // The acceleration acted: its frames are far from the plain iterations' (the twin bound could not tell them apart otherwise).
      const plain = new CpuSolver(setup(0));
      for (let f = 0; f < frames; f++) plain.stepFrame();
      const effect = cpuPositions.reduce((w, v, i) => Math.max(w, Math.abs(v - plain.x[i])), 0);
      console.log(`Anderson depth 2, ${name}: GPU - CPU ${diff.toExponential(2)}, accelerated - plain ${effect.toExponential(2)}, moved ${moved.toExponential(2)}`);
      expect(moved, name).toBeGreaterThan(0.05);
      expect(diff, name).toBeLessThan(1e-4);
      expect(effect, name).toBeGreaterThan(10 * diff);
    }
    // Dispatches: the same solver with the acceleration off, plus per substep 1 (begin) + 6 (the
    // sweeps' differences) + 4 (the mixes after sweeps 2-5, 0-based); with 3 iterations nothing is mixed, and nothing recorded.
    const gpu = new GpuSolver(await testGpu(), makeSetup([{ ...cube, material: { youngsModulus: 2e4, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 2, iterations: 6, andersonDepth: 2 }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]));
    try {
      const on = (await gpu.stepFrame()).dispatchesByPhase.material;
      gpu.params = { ...gpu.params, andersonDepth: 0 };
      const off = (await gpu.stepFrame()).dispatchesByPhase.material;
      expect(on! - off!).toBe(2 * (1 + 6 + 4));
      gpu.params = { ...gpu.params, iterations: 3, andersonDepth: 2 };
      const three = (await gpu.stepFrame()).dispatchesByPhase.material;
      gpu.params = { ...gpu.params, andersonDepth: 0 };
      const threeOff = (await gpu.stepFrame()).dispatchesByPhase.material;
      expect(three).toBe(threeOff);
    } finally {
      gpu.destroy();
    }
  });

  it('Anderson depth 4 over 10 iterations on a twisted beam at E 5e8 (two differences until the sixth sweep, then up to four: andersonSchedule; from the seventh sweep each tet reuses its searched step length: andersonLineSearchSweeps) matches the CPU reference and differs from depth 2 and from searching in every sweep', async () => {
    const beam = loadSharedTetArrays('Beam.t');
    const setup = (andersonDepth: number, andersonLineSearchSweeps = defaultParams().andersonLineSearchSweeps) => makeSetup(
      [{ ...beam, material: { youngsModulus: 5e8, poissonRatio: 0.3 }, pin: (x) => (x < -4.5 ? 0 : x > 4.5 ? 1 : -1) }],
      { dt: 1 / 60, substeps: 4, iterations: 10, friction: 0.3, andersonDepth, andersonLineSearchSweeps },
      [{ kind: 'box', min: [-1, -3, -3], max: [1, -1.02, 3] }],
      [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 3)],
    );
    const frames = 6;
    const { diff, moved, cpuPositions } = await maxDifference(setup(4), frames);
    const depth2 = new CpuSolver(setup(2));
    for (let f = 0; f < frames; f++) depth2.stepFrame();
    const effect = cpuPositions.reduce((w, v, i) => Math.max(w, Math.abs(v - depth2.x[i])), 0);
    const searched = new CpuSolver(setup(4, 10));
    for (let f = 0; f < frames; f++) searched.stepFrame();
    const reuseEffect = cpuPositions.reduce((w, v, i) => Math.max(w, Math.abs(v - searched.x[i])), 0);
    console.log(`Anderson depth 4, 10 iterations, twisted beam: GPU - CPU ${diff.toExponential(2)}, depth 4 - depth 2 ${effect.toExponential(2)}, lengths reused - searched ${reuseEffect.toExponential(2)}, moved ${moved.toExponential(2)}`);
    expect(moved).toBeGreaterThan(0.05);
    expect(diff).toBeLessThan(1e-4);
    expect(effect).toBeGreaterThan(10 * diff);
    expect(reuseEffect).toBeGreaterThan(10 * diff);
    // The coloured order's reuse slots (one dispatch a colour) as well as the partitioned passes'.
    const coloured = setup(4);
    coloured.params = { ...coloured.params, solveOrder: 'gauss-seidel' };
    const colouredRun = await maxDifference(coloured, frames);
    console.log(`the same, coloured Gauss-Seidel: GPU - CPU ${colouredRun.diff.toExponential(2)}`);
    expect(colouredRun.diff).toBeLessThan(1e-4);
  });

  it("colliderResponse 'multiplier' (the colliders keep a push per vertex and take it back): a cube landing on a slope with friction, coloured and partitioned (the colliders in the cells), a cube started inside a bowl landing on a box, and with Anderson acceleration mixing the kept pushes", async () => {
    // A plane tilted 0.3 rad about z: the cube lands on it and friction (0.2 < tan 0.3) lets it slide.
    // Its lowest corner starts 0.15 below the slope (n . x = -1.25 against -1.1), so the pushes act
    // from the first substep: 6 frames (10 before) hold the push-out and the slide after it.
    const slope: [number, number, number] = [Math.sin(0.3), Math.cos(0.3), 0];
    const cases: [string, SimSetup, number, number][] = [
      ...(['gauss-seidel', 'partitioned'] as const).map((solveOrder): [string, SimSetup, number, number] => [
        `cube on a slope, ${solveOrder}`,
        makeSetup([{ ...cube, material: { youngsModulus: 2e4, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 4, iterations: 4, solveOrder, friction: 0.2, colliderResponse: 'multiplier' }, [{ kind: 'plane', normal: slope, offset: -1.1 }]),
        6, 1e-4,
      ]),
      [
        'cube on the ground, Anderson depth 2',
        makeSetup([{ ...cube, material: { youngsModulus: 2e6, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 4, iterations: 6, andersonDepth: 2, friction: 0.2, colliderResponse: 'multiplier' }, [{ kind: 'plane', normal: [0, 1, 0], offset: -1.05 }]),
        8, 1e-4,
      ],
      [
        'cube started inside a bowl, landing on a post (a box)',
        // Its lower corners start 0.37 outside the bowl's radius (the split impulse's start shift),
        // the middle of its lower face lands on the post's top face.
        makeSetup([{ ...cube, material: { youngsModulus: 2e4, poissonRatio: 0.4 } }], { dt: 1 / 60, substeps: 4, iterations: 4, friction: 0.3, colliderResponse: 'multiplier' }, [
          { kind: 'bowl', center: [0, 0.9, 0], radius: 2 },
          { kind: 'box', min: [-0.4, -3, -0.4], max: [0.4, -1.05, 0.4] },
        ]),
        8, 1e-4,
      ],
    ];
    for (const [name, setup, frames, bound] of cases) {
      const { diff, moved, cpuPositions } = await maxDifference(setup, frames);
      // The kept pushes acted: the frames differ from the plain projection's by far more than the twins do.
      const projection = new CpuSolver({ ...setup, params: { ...setup.params, colliderResponse: 'projection' } });
      for (let f = 0; f < frames; f++) projection.stepFrame();
      const effect = cpuPositions.reduce((w, v, i) => Math.max(w, Math.abs(v - projection.x[i])), 0);
      console.log(`colliderResponse multiplier, ${name}: GPU - CPU ${diff.toExponential(2)}, multiplier - projection ${effect.toExponential(2)}, moved ${moved.toExponential(2)}`);
      expect(moved, name).toBeGreaterThan(0.05);
      expect(diff, name).toBeLessThan(bound);
      expect(effect, name).toBeGreaterThan(10 * diff);
    }
  });
});
