/**
 * The collision worker jobs (collision/workerJobs.ts) in the worker pool: one CcdJobs per scene
 * topology, CCD broad phases queued one after another (a CcdJobs runs one at a time: its position
 * buffers are shared with the workers), BVH rebuilds beside them, every failure passed on to the
 * frame that awaits the job.
 */
import type { CcdTopology } from '../collision/ccd/broadPhase';
import type { CollisionWorkerJobs } from '../collision/workerJobs';
import type { CcdWorkerApi } from './ccdWorkerApi';
import { CcdJobs, type CcdJobsOptions } from './ccdJobs';
import type { WorkerPool } from './workerPool';

/** A factory of the jobs over `pool`, for GpuCollisionOptions.workerJobs. */
export function poolJobs(pool: WorkerPool<CcdWorkerApi>, options: CcdJobsOptions = {}): (topology: CcdTopology) => CollisionWorkerJobs {
  return (topology) => {
    const jobs = CcdJobs.create(pool, topology, options);
    let last: Promise<unknown> = jobs;
    return {
      broadPhase: (positions, velocities, bound, selfCollision) => {
        const next = last.catch(() => undefined).then(async () => (await jobs).broadPhase(positions, velocities, bound, selfCollision));
        last = next;
        return next;
      },
      rebuildBvh: async (positions) => (await jobs).rebuildBvh(positions),
      optimizeAir: (job) => pool.run((api) => api.optimizeAir(job)),
      buildAir: (model, spec) => pool.run((api) => api.buildAir(model, spec)),
    };
  };
}
