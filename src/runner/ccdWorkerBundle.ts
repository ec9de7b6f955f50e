/** The CCD / collision worker entry bundled for Node worker threads (nodeWorkerBundle.ts). */
import type { CcdTopology } from '../collision/ccd/broadPhase';
import type { CollisionWorkerJobs } from '../collision/workerJobs';
import { poolJobs } from '../workers/collisionJobsPool';
import { nodeCcdPool } from '../workers/ccdNodePool';
import { nodeWorkerBundle } from './nodeWorkerBundle';

/** Path of the bundled CCD worker (built on first call); `root`: the project's root folder. */
export function ccdWorkerBundle(root: string): Promise<string> {
  return nodeWorkerBundle(root, 'src/workers/ccdWorkerNode.ts');
}

/**
 * The runner's collision worker pool (Node worker threads, sized from os.availableParallelism()) as a
 * factory of the worker jobs for GpuCollisionOptions.workerJobs; `terminate` ends its threads.
 */
export async function runnerCcdPool(root: string): Promise<{ factory: (topology: CcdTopology) => CollisionWorkerJobs; size: number; terminate(): void }> {
  const pool = nodeCcdPool(await ccdWorkerBundle(root));
  return { factory: poolJobs(pool), size: pool.size, terminate: () => pool.terminate() };
}
