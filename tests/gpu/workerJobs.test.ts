/**
 * The collision work off the time step's thread (collision/workerJobs.ts): BVH rebuilds on their
 * schedule, installed between frames; failed jobs reported with their error, never dropped; a bad
 * tree from a worker refused while the frame goes on with the refitted one.
 */
import { describe, expect, it } from 'vitest';
import { buildSurfaceBvh } from '../../src/bvh';
import type { CcdTopology } from '../../src/collision/ccd/broadPhase';
import { inThreadJobs, type CollisionWorkerJobs } from '../../src/collision/workerJobs';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { SolverParams } from '../../src/contract/params';
import { testGpu } from '../support/gpu';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';

function setup(params: Partial<SolverParams>) {
  // Two cubes 4 cm into each other, no gravity: DCD hits every frame.
  return bodiesSetup([{ part: cubePart(3, 0.2, [0, 0, 0]) }, { part: cubePart(3, 0.2, [0.05, 0.16, 0.03]) }], { gravity: [0, 0, 0], substeps: 2, ...params });
}

async function frames(jobs: (t: CcdTopology) => CollisionWorkerJobs, params: Partial<SolverParams>, n: number) {
  const ctx = await testGpu();
  const solver = new GpuSolver(ctx, setup(params), { collisions: { workerJobs: jobs } });
  try {
    const out = [];
    for (let f = 0; f < n; f++) out.push((await solver.stepFrame()).collisions!);
    return out;
  } finally {
    solver.destroy();
  }
}

describe('collision worker jobs', () => {
  it('BVH rebuilds run every F frames from the frame-end positions and are installed before a later frame; the shortest path answers the same', async () => {
    let rebuilds = 0;
    const counting = (t: CcdTopology): CollisionWorkerJobs => {
      const base = inThreadJobs(t);
      return { ...base, rebuildBvh: (x) => (rebuilds++, base.rebuildBvh(x)) };
    };
    const withRebuild = await frames(counting, { bvhRebuildFrames: 1, collisionMode: 'dcd' }, 4);
    const without = await frames(inThreadJobs, { bvhRebuildFrames: 0, collisionMode: 'dcd' }, 4);
    const installed = withRebuild.reduce((a, c) => a + c.bvhRebuilds, 0);
    console.log(`rebuild jobs ${rebuilds}, installed ${installed}; contacts per frame ${withRebuild.map((c) => c.contacts)} vs refit only ${without.map((c) => c.contacts)}`);
    expect(rebuilds).toBeGreaterThanOrEqual(3);
    expect(installed).toBeGreaterThanOrEqual(2);
    expect(withRebuild[0].bvhRebuilds).toBe(0);
    // The tree changes the traversal, never the answer: the same contacts frame by frame.
    expect(withRebuild.map((c) => c.contacts)).toEqual(without.map((c) => c.contacts));
    expect(without.every((c) => c.bvhRebuilds === 0)).toBe(true);
  });

  it('a rebuild that fails in its worker, or returns a malformed tree, is reported in the frame\'s warnings and the refitted tree stays', async () => {
    const failing = (t: CcdTopology): CollisionWorkerJobs => ({ ...inThreadJobs(t), rebuildBvh: async () => Promise.reject(new Error('worker ran out of memory')) });
    const malformed = (t: CcdTopology): CollisionWorkerJobs => ({
      ...inThreadJobs(t),
      // A tree over one triangle only: not the scene's boundary.
      rebuildBvh: async () => buildSurfaceBvh(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), Uint32Array.of(0, 1, 2)),
    });
    for (const [jobs, expected] of [[failing, /surface BVH rebuild failed in its worker .*worker ran out of memory/], [malformed, /surface BVH rebuild refused .*triangle/]] as const) {
      const out = await frames(jobs, { bvhRebuildFrames: 1, collisionMode: 'dcd' }, 3);
      const warnings = out.flatMap((c) => c.warnings);
      console.log(warnings[0]);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings[0]).toMatch(expected);
      expect(out.every((c) => c.bvhRebuilds === 0)).toBe(true);
      expect(out.at(-1)!.contacts).toBeGreaterThan(0);
    }
  });

  it('a CCD broad phase that fails in its worker fails the frame with the worker\'s message', async () => {
    const failing = (t: CcdTopology): CollisionWorkerJobs => ({ ...inThreadJobs(t), broadPhase: async () => Promise.reject(new Error('ccdWorker: boxes of vertex 3 are not finite')) });
    await expect(frames(failing, { collisionMode: 'hybrid', bvhRebuildFrames: 0 }, 1)).rejects.toThrow('ccdWorker: boxes of vertex 3 are not finite');
  });
});
