/**
 * The CCD worker (browser entry): the broad phase of continuous collision detection and batches of
 * exact narrow-phase queries, off the page's thread. Exposed through comlink; the page reaches it
 * through WorkerPool and CcdJobs (ccdJobs.ts):
 *
 *   const pool = new WorkerPool<CcdWorkerApi>(() => browserPoolWorker(
 *     new Worker(new URL('../workers/ccdWorker.ts', import.meta.url), { type: 'module', name: 'ccd-worker' })),
 *     ccdPoolSize(navigator.hardwareConcurrency));
 *   const jobs = await CcdJobs.create(pool, ccdTopologyOf(sceneMesh));
 */
import * as Comlink from 'comlink';
import { createCcdWorkerHandler } from './ccdWorkerHandler';

Comlink.expose(createCcdWorkerHandler());
