/**
 * Pin release on the GPU (SolverParams.pinRelease; shaders/dcdDetect.wgsl DETECT_PIN_RELEASE,
 * shaders/ccdNarrow.wgsl's exit contacts; docs/collisions.md "A Pin point outside at detection"),
 * the scene of the float64 test (tests/unit/collision/pinRelease.test.ts) run as one frame of one
 * substep through both engines: a cube A moving up at 0.5 m/s from a billion-times denser cube B,
 * the middle vertex p of A's bottom face starting 3 mm inside B (Pin), carried out by the
 * prediction and the material before detection. Both engines release the same vertices and give
 * them exit contacts; the brute-force counter (tests/support/intersectionCounter.ts) finds no
 * vertex of one cube inside the other after the frame. Off, nothing is released and no exit
 * contact is made (the check can fail).
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { SimSetup } from '../../src/sim/setup';
import { modelContactOffset } from '../../src/collision/contactOffset';
import { testGpu } from '../support/gpu';
import { bodiesSetup, countOn, cubePart } from '../unit/collision/scenes';

function releaseSetup(pinRelease: boolean): { setup: SimSetup; start: Float64Array } {
  const setup = bodiesSetup([{ part: cubePart(2, 0.1, [0.011, 0, 0.013]), density: 1e12 }, { part: cubePart(2, 0.1, [0, 0.1, 0]), velocity: [0, 0.5, 0] }], {
    dt: 1 / 60, substeps: 1, iterations: 3, gravity: [0, 0, 0], friction: 0, damping: 0, collisionMode: 'hybrid', selfCollision: false, impactSubsteps: 0, pinRelease,
  });
  const m = setup.model;
  const delta = modelContactOffset(m, setup.params.contactOffset);
  const firstA = m.objectVertexOffsets[1];
  const start = Float64Array.from(m.restPositions);
  for (let v = firstA; v < m.vertexCount; v++) {
    const r = m.restPositions;
    start[3 * v + 1] += 3 * delta;
    if (Math.abs(r[3 * v] - 0.05) + Math.abs(r[3 * v + 1] - 0.1) + Math.abs(r[3 * v + 2] - 0.05) < 1e-9) start[3 * v + 1] = 0.1 - 0.003;
  }
  return { setup, start };
}

describe('Pin release on the GPU', () => {
  it('a Pin vertex carried out before detection is released and gets exit contacts on both engines; no vertex ends inside the other cube', async () => {
    const ctx = await testGpu();
    const onGpu = async (pinRelease: boolean) => {
      const { setup, start } = releaseSetup(pinRelease);
      const gpu = new GpuSolver(ctx, setup);
      try {
        gpu.writePositions(start);
        const c = (await gpu.stepFrame()).collisions!;
        return { released: c.pinReleased, exits: c.ccd.exitContacts, pin: c.pin, inside: countOn(setup.model, Float64Array.from(await gpu.readPositions())).inter };
      } finally {
        gpu.destroy();
      }
    };
    const on = await onGpu(true);
    const off = await onGpu(false);
    const { setup, start } = releaseSetup(true);
    const cpu = new CpuSolver(setup);
    cpu.x.set(start);
    cpu.x0.set(start);
    cpu.stepFrame();
    const cpuCounters = cpu.collisionCounters;
    const cpuRun = { released: cpuCounters.pinReleased, exits: cpuCounters.ccd.exitContacts, pin: cpuCounters.pin, inside: countOn(setup.model, cpu.x).inter };
    console.log(`pin release: GPU ${JSON.stringify(on)}, CPU ${JSON.stringify(cpuRun)}, GPU off ${JSON.stringify(off)}`);
    expect(on.pin).toBeGreaterThan(0);
    expect(on.released).toBeGreaterThan(0);
    expect(on.released).toBe(cpuRun.released);
    expect(on.exits).toBeGreaterThan(0);
    expect(cpuRun.exits).toBeGreaterThan(0);
    expect(on.inside).toBe(0);
    expect(cpuRun.inside).toBe(0);
    expect(off.pin).toBe(on.pin);
    expect(off.released).toBe(0);
    expect(off.exits).toBe(0);
  }, 120_000);
});
