/**
 * The page's collision workers (CCD's broad phase once per frame, surface BVH rebuilds): one pool
 * for the page's life, sized from navigator.hardwareConcurrency (ccdPoolSize), on
 * SharedArrayBuffer views where the page is cross-origin isolated (the dev and preview servers
 * send COOP/COEP) and on transferred copies otherwise; `ccdTransport()` says which.
 */
import type { CcdTopology } from '../collision/ccd/broadPhase';
import type { CollisionWorkerJobs } from '../collision/workerJobs';
import { poolJobs } from '../workers/collisionJobsPool';
import { ccdPoolSize, sharedMemoryAvailable } from '../workers/ccdJobs';
import type { CcdWorkerApi } from '../workers/ccdWorkerApi';
import { browserPoolWorker, WorkerPool } from '../workers/workerPool';

let shared: { pool: WorkerPool<CcdWorkerApi>; factory: (topology: CcdTopology) => CollisionWorkerJobs } | undefined;

export function pageCollisionJobs(): (topology: CcdTopology) => CollisionWorkerJobs {
  if (!shared) {
    const pool = new WorkerPool<CcdWorkerApi>(
      () => browserPoolWorker(new Worker(new URL('../workers/ccdWorker.ts', import.meta.url), { type: 'module', name: 'ccd-worker' })),
      ccdPoolSize(navigator.hardwareConcurrency || 2),
    );
    window.addEventListener('pagehide', () => pool.terminate());
    shared = { pool, factory: poolJobs(pool) };
  }
  return shared.factory;
}

/** How the page hands positions to the CCD workers. */
export function ccdTransport(): 'shared memory (cross-origin isolated)' | 'transferred copies (page not cross-origin isolated)' {
  return sharedMemoryAvailable() ? 'shared memory (cross-origin isolated)' : 'transferred copies (page not cross-origin isolated)';
}
