import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { SimSetup } from '../../src/sim/setup';
import { angularMomentum, blockSetup, centreOfMass, G, slopeGravity } from '../support/blockScenes';
import { testGpu } from '../support/gpu';

/**
 * The damping and friction laws of tests/unit/sim/damping.test.ts and friction.test.ts, shorter,
 * on the WebGPU solver (xpbdRigidDamping.wgsl, collide in xpbdIntegrate.wgsl), plus agreement
 * with the float64 CPU reference.
 */

const deg = Math.PI / 180;
const norm = (a: readonly number[]): number => Math.hypot(...a);

/** Runs `frames` frames; `before` may change parameters, positions are read back after the frames in `readAt`. */
async function runGpu(
  setup: SimSetup, frames: number, before?: (s: GpuSolver) => void, readAt: number[] = [], after?: (s: GpuSolver, x: Float32Array) => void,
): Promise<{ x: Float32Array; v: Float32Array }> {
  // Damping and collider friction of one body: the collision stages are off (collisionScenes.test.ts).
  const solver = new GpuSolver(await testGpu(), setup, { collisions: false });
  try {
    for (let f = 0; f < frames; f++) {
      before?.(solver);
      await solver.stepFrame();
      if (after && readAt.includes(solver.frame)) after(solver, await solver.readPositions());
    }
    return { x: await solver.readPositions(), v: await solver.readVelocities() };
  } finally {
    solver.destroy();
  }
}

/**
 * SwiftShader is slow: Jacobi (few dispatches), 10 substeps x 3 iterations per 1/60 s frame,
 * for damping; Gauss-Seidel for friction, where the old per-iteration limit crept most, at
 * the solver's default 20 substeps on the slope (at 10 the soft block's uphill edge slips
 * ~0.1 mm before it holds, on the CPU as on the GPU).
 */
const FAST = { substeps: 10, solveOrder: 'jacobi' } as const;
const FAST_GS = { substeps: 10, solveOrder: 'gauss-seidel' } as const;

describe('GPU damping slows deformation, not rigid motion', () => {
  it('a damped body in free fall drops g t^2 / 2 (0.5 s at 2/s)', async () => {
    const setup = blockSetup({ ground: false }, { ...FAST, damping: 2 });
    const y0 = centreOfMass(setup, setup.model.restPositions)[1];
    const { x } = await runGpu(setup, 30);
    // Symplectic Euler: g h^2 n (n + 1) / 2 exactly; f32 positions and velocities over 300
    // substeps leave ~1e-4. (Damping all velocity at 2/s would give 0.78 of it.)
    const n = 300, h = 1 / 600;
    const drop = y0 - centreOfMass(setup, x)[1];
    expect(Math.abs(drop / ((G * h * h * n * (n + 1)) / 2) - 1)).toBeLessThan(5e-4);
  });

  it('a spinning, vibrating body keeps its angular momentum (0.5 s at 2/s) and matches the CPU', async () => {
    const make = (damping: number) => {
      const setup = blockSetup({ ground: false, spin: [0, 3, 2], youngsModulus: 1e3 }, { ...FAST, damping, gravity: [0, 0, 0] });
      const { restPositions: x, initialVelocities: v } = setup.model;
      const c = centreOfMass(setup, x);
      for (let i = 0; i < setup.model.vertexCount; i++) for (let k = 0; k < 3; k++) v[3 * i + k] += 2 * (x[3 * i + k] - c[k]);
      return setup;
    };
    const damped = make(2), undamped = make(0);
    const l0 = angularMomentum(damped, damped.model.restPositions, damped.model.initialVelocities);
    const d = await runGpu(damped, 30);
    const u = await runGpu(undamped, 30);
    const ld = angularMomentum(damped, d.x, d.v), lu = angularMomentum(undamped, u.x, u.v);
    expect(norm(ld.map((a, k) => a - lu[k])) / norm(l0)).toBeLessThan(1e-3);
    // Damping did act (the vibration, ~0.1 m/s, is smaller), and as on the CPU.
    let diff = 0, err = 0, speed = 0;
    // The CPU twin without body contacts, as runGpu builds the GPU solver.
    const cpu = new CpuSolver({ ...damped, params: { ...damped.params, collisions: false } });
    for (let f = 0; f < 30; f++) cpu.stepFrame();
    for (let i = 0; i < d.v.length; i++) {
      diff = Math.max(diff, Math.abs(d.v[i] - u.v[i]));
      err = Math.max(err, Math.abs(d.v[i] - cpu.v[i]));
      speed = Math.max(speed, Math.abs(cpu.v[i]));
    }
    expect(diff).toBeGreaterThan(1e-2);
    // f32 against f64 over 300 substeps of a soft body.
    expect(err).toBeLessThan(1e-3 * speed);
  });
});

describe('GPU friction', () => {
  const FLAT_BLOCK = { size: [0.5, 0.25, 0.5], cells: [2, 1, 2] } as { size: [number, number, number]; cells: [number, number, number] };

  // The stiffer block only: before the normal push was accumulated over the substep it crept most
  // (0.75 mm; 0.13 mm at E 1e6). The float64 reference holds both over 2 s (tests/unit/sim/friction.test.ts).
  for (const youngsModulus of [1e7]) {
    it(`a block on a 20 deg slope, mu 0.5, E = ${youngsModulus.toExponential(0)}: contact vertices drift < 0.1 mm over 0.5 s`, async () => {
      const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus }, { substeps: 20, solveOrder: 'gauss-seidel', friction: 0.5, damping: 2 });
      const bottom: number[] = [];
      for (let i = 0; i < setup.model.vertexCount; i++) if (setup.model.restPositions[3 * i + 1] === 0) bottom.push(i);
      let start: number[] = [];
      // 0.25 s settling on flat ground, 0.25 s ramp to the slope, then 0.5 s.
      const { x } = await runGpu(
        setup,
        60,
        (s) => (s.params.gravity = slopeGravity(20 * deg * Math.min(1, Math.max(0, (s.time - 0.25) / 0.25)))),
        [30],
        (_, xs) => (start = bottom.map((i) => xs[3 * i])),
      );
      let drift = 0;
      bottom.forEach((i, k) => (drift = Math.max(drift, Math.abs(x[3 * i] - start[k]))));
      expect(drift).toBeLessThan(1e-4);
    });
  }

  it('above the friction angle (35 deg, mu 0.5) it slides with a = g (sin - mu cos) within 3%', async () => {
    const theta = 35 * deg;
    const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus: 1e6 }, { ...FAST_GS, friction: 0.5, damping: 2, gravity: slopeGravity(theta) });
    // After the landing transient, a from the second difference x(t2) - 2 x(t1) + x(t0) = a T^2
    // over frames 6, 21, 36 (T = 0.25 s).
    const xs: number[] = [];
    await runGpu(setup, 36, undefined, [6, 21, 36], (_, x) => xs.push(centreOfMass(setup, x)[0]));
    const a = (xs[2] - 2 * xs[1] + xs[0]) / 0.25 ** 2;
    expect(Math.abs(a / (G * (Math.sin(theta) - 0.5 * Math.cos(theta))) - 1)).toBeLessThan(0.03);
  });
});
