/**
 * The page's workers for shortest-path queries that overflowed the GPU's static stacks: one
 * pool for the page's life (workers start on the first overflow, not before), answering with the
 * CPU dynamic version off the page's thread (src/workers/spbFallback.ts). GpuEngine passes its
 * `answerOverflowed` to the solver's collision stages.
 */
import { SpbWorkerFallback } from '../workers/spbFallback';
import type { SpbWorkerApi } from '../workers/spbWorkerApi';
import { browserPoolWorker, WorkerPool } from '../workers/workerPool';

let shared: { pool: WorkerPool<SpbWorkerApi>; fallback: SpbWorkerFallback } | undefined;

export function pageSpbFallback(): SpbWorkerFallback {
  if (!shared) {
    const pool = new WorkerPool<SpbWorkerApi>(() =>
      browserPoolWorker(new Worker(new URL('../workers/spbWorker.ts', import.meta.url), { type: 'module', name: 'spb-worker' })),
    );
    window.addEventListener('pagehide', () => pool.terminate());
    shared = { pool, fallback: new SpbWorkerFallback(pool) };
  }
  return shared.fallback;
}
