/**
 * A Node worker_threads Worker as the pool sees it (the Node twin of browserPoolWorker): comlink
 * through its node adapter, and a failure reported once whether the thread throws an uncaught
 * error or exits on its own (a thread that exits silently would leave comlink's promises
 * pending forever).
 */
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import type { PoolWorker } from './workerPool';

/** `file`: a JavaScript module (path or file: URL), e.g. a bundle of spbWorkerNode.ts. */
export function nodePoolWorker(file: string | URL): PoolWorker {
  const worker = new Worker(file);
  let terminating = false;
  let failed = false;
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => {
      terminating = true;
      void worker.terminate();
    },
    onFailure(listener) {
      const fail = (message: string): void => {
        if (failed || terminating) return;
        failed = true;
        listener(message);
      };
      worker.once('error', (e: Error) => fail(e.message));
      worker.once('exit', (code: number) => fail(`the worker thread exited (code ${code})`));
    },
  };
}
