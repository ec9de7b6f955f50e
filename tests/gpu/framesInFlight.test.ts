/**
 * Two frames in flight (GpuSolver.submitFrame, src/runner/frameLoop.ts): the same physics as one
 * frame at a time where nothing feeds back from the host, a free fall that follows the law, a ring
 * that never holds more than two frames, waits counted where they happen, and collisions (CCD
 * snapshots, BVH rebuilds, the frame readback) pipelined without a WebGPU validation error.
 */
import { describe, expect, it } from 'vitest';
import type { GpuContext } from '../../src/gpu/device';
import { runFrames } from '../../src/runner/frameLoop';
import { GpuSolver, MAX_FRAMES_IN_FLIGHT, type GpuFrameResult } from '../../src/sim/gpuSolver';
import { buildModel, vertexMasses } from '../../src/sim/model';
import { defaultParams, type SolverParams } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';
import { Simulation, type FrameStats } from '../../src/sim/simulation';
import { testGpu } from '../support/gpu';
import { kuhnLattice } from '../support/kuhnLattice';

type Vec3 = [number, number, number];

/** Cubes of side `side` (2 x 2 x 2 cells) at the given corners, each with its own initial velocity. */
function cubes(corners: Vec3[], velocities: Vec3[], params: Partial<SolverParams>): SimSetup {
  const side = 0.2;
  const model = buildModel(corners.map((c, i) => {
    const l = kuhnLattice(2, 2, 2, (u, v, w) => [c[0] + (side * u) / 2, c[1] + (side * v) / 2, c[2] + (side * w) / 2]);
    return { name: `cube${i}`, positions: Float64Array.from(l.positions), tets: l.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 }, velocity: velocities[i] };
  }));
  return { model, colliders: [], handles: [], params: defaultParams({ substeps: 4, iterations: 2, ...params }) };
}

/** Mass-weighted centre of the positions (xyz per vertex). */
function centreOfMass(mass: Float64Array, x: Float32Array): Vec3 {
  const c: Vec3 = [0, 0, 0];
  let total = 0;
  for (let v = 0; v < mass.length; v++) {
    total += mass[v];
    for (let k = 0; k < 3; k++) c[k] += mass[v] * x[3 * v + k];
  }
  return c.map((s) => s / total) as Vec3;
}

/** Frames pipelined as the runner does with --frames-in-flight 2: submit, then read the oldest back once two are queued. */
async function pipelined(solver: GpuSolver, frames: number, seen: { maxInFlight: number }): Promise<GpuFrameResult[]> {
  const queue: Promise<GpuFrameResult>[] = [];
  const out: GpuFrameResult[] = [];
  for (let f = 0; f < frames; f++) {
    queue.push((await solver.submitFrame()).done);
    seen.maxInFlight = Math.max(seen.maxInFlight, solver.framesInFlight);
    if (queue.length >= 2) out.push(await queue.shift()!);
  }
  while (queue.length > 0) out.push(await queue.shift()!);
  return out;
}

describe('frames in flight', () => {
  it('a collision-free fall: the same positions as one frame at a time, and x0 + v0 t + g t^2 / 2 within symplectic Euler\'s g t h / 2', async () => {
    const ctx = await testGpu();
    const v0: Vec3 = [0.5, 1.5, -0.25];
    const setup = cubes([[0, 1, 0]], [v0], { collisions: false });
    const frames = 8;
    const serial = new GpuSolver(ctx, setup, { collisions: false });
    const overlapped = new GpuSolver(ctx, setup, { collisions: false });
    const mass = vertexMasses(setup.model);
    const x0 = centreOfMass(mass, await serial.readPositions());
    try {
      const serialResults: GpuFrameResult[] = [];
      for (let f = 0; f < frames; f++) serialResults.push(await serial.stepFrame());
      const seen = { maxInFlight: 0 };
      const results = await pipelined(overlapped, frames, seen);
      expect(seen.maxInFlight).toBe(2);
      expect(results.map((r) => r.frame)).toEqual([...Array(frames).keys()]);
      // Nothing flows from the host back into the frames here: bit for bit the same state.
      const a = await serial.readPositions();
      const b = await overlapped.readPositions();
      expect(Array.from(b)).toEqual(Array.from(a));
      expect(Array.from(await overlapped.readVelocities())).toEqual(Array.from(await serial.readVelocities()));
      // The law (the material's internal forces cancel on the centre of mass): symplectic Euler
      // with substep h moves it by v0 t + g h^2 n (n + 1) / 2 = v0 t + g t^2 / 2 + g t h / 2.
      const p = setup.params;
      const n = frames * p.substeps;
      const h = p.dt / p.substeps;
      const t = frames * p.dt;
      const x = centreOfMass(mass, b);
      for (let k = 0; k < 3; k++) {
        const law = x0[k] + v0[k] * t + (p.gravity[k] * t * t) / 2;
        const discrete = x0[k] + v0[k] * t + (p.gravity[k] * h * h * n * (n + 1)) / 2;
        expect(Math.abs(x[k] - law), `axis ${k}`).toBeLessThanOrEqual((Math.abs(p.gravity[k]) * t * h) / 2 + 2e-5);
        expect(Math.abs(x[k] - discrete), `axis ${k}`).toBeLessThan(2e-5);
      }
      expect(results[frames - 1].time).toBeCloseTo(t, 12);
    } finally {
      serial.destroy();
      overlapped.destroy();
    }
  });

  it('never more than two frames outstanding; waits are counted where the caller had to wait for the GPU', async () => {
    const ctx = await testGpu();
    const setup = cubes([[0, 1, 0]], [[0, 0, 0]], { collisions: false });
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    try {
      // One at a time: every frame after the first waited for the one before it.
      const serial: number[] = [];
      for (let f = 0; f < 3; f++) serial.push((await solver.stepFrame()).blockingReadbacks);
      expect(serial).toEqual([0, 1, 1]);
      // Submitting without reading back: the third submission on finds the ring full and waits.
      solver.reset();
      const done: Promise<GpuFrameResult>[] = [];
      for (let f = 0; f < 5; f++) {
        done.push((await solver.submitFrame()).done);
        expect(solver.framesInFlight).toBeLessThanOrEqual(MAX_FRAMES_IN_FLIGHT);
      }
      const flooded = await Promise.all(done);
      expect(flooded.map((r) => r.blockingReadbacks)).toEqual([0, 0, 1, 1, 1]);
      // Each result says which reset it was recorded after (GpuEngine counts only the latest's frames).
      expect(flooded.map((r) => [r.frame, r.resets])).toEqual([[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]]);
      // Pipelined with room (the runner's loop): no frame waits.
      solver.reset();
      const seen = { maxInFlight: 0 };
      const results = await pipelined(solver, 6, seen);
      expect(seen.maxInFlight).toBeLessThanOrEqual(2);
      expect(results.map((r) => r.blockingReadbacks)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(results.map((r) => r.resets)).toEqual([2, 2, 2, 2, 2, 2]);
      expect(solver.resets).toBe(2);
      for (const r of results) {
        expect(r.encodeMs).toBeGreaterThan(0);
        // The parts of the frame's JavaScript time add up to it; the recording is one of them.
        const parts = Object.values(r.encodeSplitMs);
        expect(parts.every((x) => x >= 0)).toBe(true);
        expect(Math.abs(parts.reduce((a, b) => a + b, 0) - r.encodeMs)).toBeLessThan(1e-6 * (1 + r.encodeMs));
        expect(r.encodeSplitMs.record).toBeGreaterThan(0);
      }
      expect(solver.framesInFlight).toBe(0);
    } finally {
      solver.destroy();
    }
  });

  it("the runner's loop with 2 in flight reads each sampled state after its own frame (drained first), the same as one frame at a time", async () => {
    const ctx = await testGpu();
    const setup = cubes([[0, 1, 0]], [[0.3, 2, 0]], { collisions: false });
    const sampled = async (framesInFlight: 1 | 2): Promise<Map<number, Float32Array>> => {
      const sim = new Simulation(ctx, setup, { collisions: false });
      const out = new Map<number, Float32Array>();
      const order: number[] = [];
      try {
        await runFrames(sim, {
          frames: 7,
          framesInFlight,
          beforeFrame: () => undefined,
          stateDue: (f) => f % 3 === 0 || f === 7,
          afterFrame: async (f, s) => {
            order.push(f);
            expect(s.frame).toBe(f - 1);
            if (f % 3 === 0 || f === 7) out.set(f, await sim.solver.readPositions());
          },
        });
      } finally {
        sim.destroy();
      }
      expect(order).toEqual([1, 2, 3, 4, 5, 6, 7]);
      return out;
    };
    const serial = await sampled(1);
    const overlapped = await sampled(2);
    expect([...overlapped.keys()]).toEqual([3, 6, 7]);
    for (const [f, x] of serial) expect(Array.from(overlapped.get(f)!), `frame ${f}`).toEqual(Array.from(x));
    // Consecutive samples differ (a read of the next frame's state would not match the serial run).
    expect(Array.from(serial.get(6)!)).not.toEqual(Array.from(serial.get(7)!));
  });

  it('collisions on (CCD snapshots, BVH rebuilds every frame), frames flooded into the ring: no validation error, no NaN, the pair keeps falling as a whole', async () => {
    const ctx: GpuContext = await testGpu();
    const device = ctx.device;
    const errors: string[] = [];
    const onError = (e: Event): void => {
      errors.push((e as GPUUncapturedErrorEvent).error.message);
    };
    device.addEventListener('uncapturederror', onError);
    // Two cubes, the upper one 0.02 into the lower one and moving into it: contacts from the first frame.
    const setup = cubes([[0, 1, 0], [0.05, 1.18, 0.05]], [[0, 0, 0], [0, -1, 0]], { collisions: true, selfCollision: true, bvhRebuildFrames: 1 });
    const sim = new Simulation(ctx, setup);
    const mass = vertexMasses(setup.model);
    const x0 = centreOfMass(mass, await sim.solver.readPositions());
    device.pushErrorScope('validation');
    try {
      const stats: FrameStats[] = [];
      // 3 frames through the runner's loop (2 in flight from the second submission on), then 4
      // flooded: every slot of the ring is reused under load, with contacts from the first frame.
      const looped = 3, flooded = 4;
      await runFrames(sim, {
        frames: looped,
        framesInFlight: 2,
        beforeFrame: () => undefined,
        stateDue: () => false,
        afterFrame: async (_f, s) => {
          stats.push(s);
        },
      });
      // Flooded: submissions that find two frames outstanding, so snapshot and readback slots are reused under load.
      const done: Promise<FrameStats>[] = [];
      for (let f = 0; f < flooded; f++) done.push((await sim.submitFrame()).done);
      stats.push(...(await Promise.all(done)));
      await sim.drain();
      expect(await device.popErrorScope()).toBeNull();
      expect(errors).toEqual([]);
      expect(stats.map((s) => s.frame)).toEqual([...Array(looped + flooded).keys()]);
      expect(sim.stoppedMessages).toEqual([]);
      const contacts = stats.map((s) => (s.collisions ? s.collisions.contacts + (s.collisions.ccd?.hitsVertexFace ?? 0) + (s.collisions.ccd?.hitsEdgeEdge ?? 0) : 0));
      expect(Math.max(...contacts)).toBeGreaterThan(0);
      expect(stats.some((s) => (s.collisions?.bvhRebuilds ?? 0) > 0)).toBe(true);
      const x = await sim.solver.readPositions();
      expect(x.every(Number.isFinite)).toBe(true);
      // Contacts are internal to the pair: its centre of mass falls as a free body would.
      const p = setup.params;
      const t = (looped + flooded) * p.dt;
      const m1 = mass.slice(setup.model.objectVertexOffsets[1]).reduce((a, b) => a + b, 0);
      const total = mass.reduce((a, b) => a + b, 0);
      const vy = (-1 * m1) / total; // the pair's initial momentum over its mass
      const lawY = x0[1] + vy * t + (p.gravity[1] * t * t) / 2;
      const h = p.dt / p.substeps;
      expect(Math.abs(centreOfMass(mass, x)[1] - lawY)).toBeLessThan((Math.abs(p.gravity[1]) * t * h) / 2 + 1e-3);
    } finally {
      device.removeEventListener('uncapturederror', onError);
      sim.destroy();
    }
  });
});
