/**
 * The shortest-path worker (browser entry): answers the queries the GPU kernel flagged as
 * overflowed with the CPU dynamic version, off the page's thread. Exposed through comlink; the
 * page reaches it through WorkerPool and SpbWorkerFallback (spbFallback.ts).
 *
 *   new WorkerPool<SpbWorkerApi>(() => browserPoolWorker(
 *     new Worker(new URL('../workers/spbWorker.ts', import.meta.url), { type: 'module', name: 'spb-worker' })))
 */
import * as Comlink from 'comlink';
import { createSpbWorkerHandler } from './spbWorkerHandler';

Comlink.expose(createSpbWorkerHandler());
