/**
 * Own-frame escapes are told apart per object (ccdNarrow.wgsl flags, ccdSchedule.ts per-object
 * scales). Physical truth: a body in free fall moves rigidly, so no vertex leaves the box of its
 * motion relative to the body's mean; a body landing does (its lower part stops while its mean
 * still falls). So with one cube landing and one falling in the air, the escapes name one object,
 * and only the landing cube's own-frame margin widens in the jobs that follow. That is with the
 * boxes' growth for obstacles off (SolverParams.ccdObstacleGrowth); with it on (the default), the
 * landing cube's stop is inside its grown boxes: no escape at all, and no margin widens.
 */
import { describe, expect, it } from 'vitest';
import type { CcdTopology, MotionBound } from '../../src/collision/ccd/broadPhase';
import { inThreadJobs, type CollisionWorkerJobs } from '../../src/collision/workerJobs';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { CollisionFrameCounters } from '../../src/collision/counters';
import { testGpu } from '../support/gpu';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';

describe('own-frame escapes per object', () => {
  /** A cube landing at 3 m/s beside one falling in the air, 4 frames: each frame's CCD counters and the jobs' bounds. */
  async function landing(ccdObstacleGrowth: boolean): Promise<{ frames: CollisionFrameCounters['ccd'][]; bounds: MotionBound[] }> {
    const bounds: MotionBound[] = [];
    const recording = (t: CcdTopology): CollisionWorkerJobs => {
      const base = inThreadJobs(t);
      return { ...base, broadPhase: (x, v, bound, self, culling) => (bounds.push(bound), base.broadPhase(x, v, bound, self, culling)) };
    };
    const setup = bodiesSetup(
      [
        { part: cubePart(3, 0.2, [0, 0.01, 0]), velocity: [0, -3, 0] }, // object 0: lands in the first frame
        { part: cubePart(3, 0.2, [1, 1.5, 0]), velocity: [0, -3, 0] }, // object 1: falls in the air throughout
      ],
      { collisionMode: 'hybrid', selfCollision: true, substeps: 5, iterations: 5, bvhRebuildFrames: 0, ccdObstacleGrowth },
      [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    );
    const ctx = await testGpu();
    const solver = new GpuSolver(ctx, setup, { collisions: { workerJobs: recording } });
    try {
      const frames = [];
      for (let f = 0; f < 4; f++) frames.push((await solver.stepFrame()).collisions!.ccd);
      console.log(`vertex margins per job: ${bounds.map((b) => (b.vertexMargins ? Array.from(b.vertexMargins).filter((m) => m > 0).map((m) => m.toFixed(4)).join(",") : "-")).join(" / ")}`);
      console.log(`growth ${ccdObstacleGrowth ? 'on' : 'off'}: own-frame escapes per frame ${frames.map((c) => c.escapedSelf)} (farthest ${frames.map((c) => c.escapeDistanceSelf.toExponential(2))}), objects ${frames.map((c) => c.escapedSelfObjects)}; own margins per job ${bounds.map((b) => Array.from(b.ownMargins ?? []).map((m) => m.toFixed(4)).join('/'))}`);
      return { frames, bounds };
    } finally {
      solver.destroy();
    }
  }

  it('a cube landing at 3 m/s escapes its own-frame boxes, a cube falling beside it in the air does not; only the landing cube\'s escaped vertices\' boxes widen', async () => {
    const { frames, bounds } = await landing(false);
    expect(frames.some((c) => c.escapedSelf > 0)).toBe(true);
    for (const c of frames) expect(c.escapedSelfObjects).toBe(c.escapedSelf > 0 ? 1 : 0);
    // Every job carries a margin per object; the GPU's escape list names the escaped vertices, so
    // those vertices' boxes widen (MotionBound.vertexMargins) and no object's margin does.
    expect(bounds.every((b) => b.ownMargins?.length === 2)).toBe(true);
    const base = bounds[0]!.ownMargins![0]!;
    for (const b of bounds) expect(Array.from(b.ownMargins!)).toEqual([base, base]);
    const widened = bounds.filter((b) => b.vertexMargins !== undefined);
    expect(widened.length).toBeGreaterThan(0);
    const vertices = widened[0]!.vertexMargins!.length;
    for (const b of widened) {
      const m = Array.from(b.vertexMargins!);
      // Only vertices of the landing cube (object 0: the first half), each at least the base margin.
      expect(m.slice(vertices / 2).every((x) => x === 0)).toBe(true);
      expect(m.slice(0, vertices / 2).some((x) => x > base)).toBe(true);
      expect(m.every((x) => x === 0 || x >= base)).toBe(true);
      // Not the whole cube: the vertices that stopped, not those above them.
      expect(m.filter((x) => x > 0).length).toBeLessThan(vertices / 2);
    }
    // How far it escaped (counters.ccd.escapeDistanceSelf): more than 0 exactly in the frames that
    // escaped, and less than the fall's speed over the job's horizon (two frames).
    expect(frames.every((c) => (c.escapedSelf > 0) === (c.escapeDistanceSelf > 0))).toBe(true);
    expect(Math.max(...frames.map((c) => c.escapeDistanceSelf))).toBeLessThan(3 * (2 / 60));
  });

  it('with the growth for obstacles, the landing stays inside the grown boxes: no escape, no margin widens; only the landing cube grows', async () => {
    const { frames, bounds } = await landing(true);
    expect(frames.every((c) => c.escapedSelf === 0)).toBe(true);
    expect(frames.some((c) => c.selfGrowth > 0)).toBe(true);
    const base = bounds[0]!.ownMargins![0]!;
    for (const b of bounds) expect(Array.from(b.ownMargins!)).toEqual([base, base]);
    // The growth names vertices of the landing cube only (object 0's vertices come first).
    const first = bounds.find((b) => b.ownGrowth && b.ownGrowth.length > 0 && Array.from(b.ownGrowth).some((g) => g > 0))!;
    const half = first.ownGrowth!.length / 2;
    expect(Array.from(first.ownGrowth!).slice(half).every((g) => g === 0)).toBe(true);
  });
});
