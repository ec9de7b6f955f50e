/**
 * The CCD worker pool on Node (headless runner, benchmarks, tests): sized from
 * os.availableParallelism(). Kept apart from ccdJobs.ts so that the page bundle never imports
 * node:os.
 */
import { availableParallelism } from 'node:os';
import type { CcdWorkerApi } from './ccdWorkerApi';
import { ccdPoolSize } from './ccdJobs';
import { nodePoolWorker } from './nodePoolWorker';
import { WorkerPool } from './workerPool';

/** ccdPoolSize of this machine's cores. */
export function nodePoolSize(): number {
  return ccdPoolSize(availableParallelism());
}

/** A pool of CCD workers started from `workerFile`, a bundle of ccdWorkerNode.ts. */
export function nodeCcdPool(workerFile: string | URL, size: number = nodePoolSize()): WorkerPool<CcdWorkerApi> {
  return new WorkerPool<CcdWorkerApi>(() => nodePoolWorker(workerFile), size);
}
