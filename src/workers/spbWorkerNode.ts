/**
 * The shortest-path worker on Node worker_threads (headless runner, benchmarks, tests): the same
 * handler as spbWorker.ts, exposed through comlink's node adapter. Node cannot load TypeScript,
 * so this entry is bundled first (e.g. Vite in SSR mode, as scripts/run-ts.mjs does) and the
 * bundle is given to nodePoolWorker().
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createSpbWorkerHandler } from './spbWorkerHandler';

if (!parentPort) throw new Error('spbWorkerNode: not running in a worker thread (start it with new Worker(file))');
Comlink.expose(createSpbWorkerHandler(), nodeEndpoint(parentPort));
