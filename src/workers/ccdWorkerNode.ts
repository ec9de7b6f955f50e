/**
 * The CCD worker on Node worker_threads (headless runner, benchmarks, tests): the same handler as
 * ccdWorker.ts, exposed through comlink's node adapter. Node cannot load TypeScript, so this entry
 * is bundled first (e.g. Vite in SSR mode) and the bundle is given to nodePoolWorker() (see
 * ccdNodePool.ts).
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createCcdWorkerHandler } from './ccdWorkerHandler';

if (!parentPort) throw new Error('ccdWorkerNode: not running in a worker thread (start it with new Worker(file))');
Comlink.expose(createCcdWorkerHandler(), nodeEndpoint(parentPort));
