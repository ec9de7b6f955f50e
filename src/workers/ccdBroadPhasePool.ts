/**
 * CCD's broad phase in the worker pool, as the time step asks for it (collision/ccd/ccdSchedule.ts
 * BroadPhaseRunner): one CcdJobs per scene topology, jobs queued one after another (a CcdJobs runs
 * one broad phase at a time: its position buffers are shared with the workers), every failure
 * passed on to the frame that awaits the job.
 */
import type { CcdTopology } from '../collision/ccd/broadPhase';
import type { BroadPhaseRunner } from '../collision/ccd/ccdSchedule';
import type { CcdWorkerApi } from './ccdWorkerApi';
import { CcdJobs, type CcdJobsOptions } from './ccdJobs';
import type { WorkerPool } from './workerPool';

/** A factory of broad-phase runners over `pool`, for GpuCollisionOptions.ccdBroadPhase. */
export function poolBroadPhase(pool: WorkerPool<CcdWorkerApi>, options: CcdJobsOptions = {}): (topology: CcdTopology) => BroadPhaseRunner {
  return (topology) => {
    const jobs = CcdJobs.create(pool, topology, options);
    let last: Promise<unknown> = jobs;
    return (positions, velocities, bound, selfCollision) => {
      const next = last.catch(() => undefined).then(async () => (await jobs).broadPhase(positions, velocities, bound, selfCollision));
      last = next;
      return next;
    };
  };
}
