/**
 * The comlink worker pool, on Node worker_threads (comlink's node adapter): the same pool
 * code the page uses with browser Workers. Truth: each worker reports its own threadId, so
 * which worker ran which task is observed, not assumed.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultPoolSize, WorkerPool, type PoolWorker } from '../../../src/workers/workerPool';

interface TestApi {
  /** Waits `ms` then answers with the value and the worker's thread id. */
  echoAfter(ms: number, value: number): Promise<{ value: number; threadId: number }>;
  fail(message: string): Promise<never>;
  /** Kills the worker thread with an uncaught error after `ms`. */
  crashAfter(ms: number, message: string): Promise<never>;
}

const require = createRequire(import.meta.url);
const WORKER_CODE = `
const { parentPort, threadId } = require('node:worker_threads');
const Comlink = require(${JSON.stringify(require.resolve('comlink/dist/umd/comlink.js'))});
const nodeEndpoint = require(${JSON.stringify(require.resolve('comlink/dist/umd/node-adapter.js'))});
Comlink.expose({
  echoAfter: (ms, value) => new Promise((done) => setTimeout(() => done({ value, threadId }), ms)),
  fail: async (message) => { throw new Error(message); },
  crashAfter: (ms, message) => new Promise(() => setTimeout(() => { throw new Error(message); }, ms)),
}, nodeEndpoint(parentPort));
`;

function nodeWorker(): PoolWorker {
  const worker = new Worker(WORKER_CODE, { eval: true });
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => void worker.terminate(),
    onFailure: (listener) => worker.once('error', (e: Error) => listener(e.message)),
  };
}

let pool: WorkerPool<TestApi> | undefined;
afterEach(() => {
  pool?.terminate();
  pool = undefined;
});

describe('defaultPoolSize', () => {
  it('is min(cores - 1, 4) and at least 1', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((c) => defaultPoolSize(c))).toEqual([1, 1, 2, 3, 4, 4, 4]);
  });
});

describe('WorkerPool', () => {
  it('rejects a size that is not a positive integer', () => {
    expect(() => new WorkerPool<TestApi>(nodeWorker, 0)).toThrow(/positive integer/);
    expect(() => new WorkerPool<TestApi>(nodeWorker, 1.5)).toThrow(/positive integer/);
  });

  it('reuses one idle worker for tasks run one after another', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 3);
    const threads = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const r = await pool.run((api) => api.echoAfter(1, i));
      expect(r.value).toBe(i);
      threads.add(r.threadId);
    }
    expect(pool.started).toBe(1);
    expect(threads.size).toBe(1);
  });

  it('spreads concurrent tasks over all workers, two each, and returns every result', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 3);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pool!.run((api) => api.echoAfter(150, i * 10))));
    expect(results.map((r) => r.value)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(pool.started).toBe(3);
    const perThread = new Map<number, number>();
    for (const r of results) perThread.set(r.threadId, (perThread.get(r.threadId) ?? 0) + 1);
    expect([...perThread.values()]).toEqual([2, 2, 2]);
    expect(pool.completed).toEqual([2, 2, 2]);
    expect(pool.load).toEqual([0, 0, 0]);
  });

  it('sends a new task to the least busy worker', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 2);
    const long = pool.run((api) => api.echoAfter(400, 1)); // worker A, busy
    const short1 = pool.run((api) => api.echoAfter(50, 2)); // worker B
    await short1; // B idle again, A still busy
    const short2 = await pool.run((api) => api.echoAfter(1, 3));
    const first = await long;
    expect(short2.threadId).toBe((await short1).threadId);
    expect(short2.threadId).not.toBe(first.threadId);
  });

  it('passes a worker error to the caller and keeps working', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 1);
    await expect(pool.run((api) => api.fail('bad mesh on line 7'))).rejects.toThrow('bad mesh on line 7');
    expect((await pool.run((api) => api.echoAfter(1, 5))).value).toBe(5);
  });

  it('a worker that dies rejects its tasks with the reason, and the pool starts a fresh one', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 2);
    const survivor = pool.run((api) => api.echoAfter(300, 1)); // worker A, busy during the crash
    const crash = pool.run((api) => api.crashAfter(20, 'out of memory in stuffing')); // worker B
    await expect(crash).rejects.toThrow('worker failed: out of memory in stuffing');
    expect(pool.failed).toBe(1);
    expect(pool.started).toBe(1);
    const a = await survivor; // the healthy worker is untouched
    expect(a.value).toBe(1);
    // Two tasks at once: A takes one, a freshly started worker the other.
    const [x, y] = await Promise.all([pool.run((api) => api.echoAfter(50, 2)), pool.run((api) => api.echoAfter(50, 3))]);
    expect([x.value, y.value]).toEqual([2, 3]);
    expect(pool.started).toBe(2);
    expect(x.threadId).toBe(a.threadId);
    expect(y.threadId).not.toBe(a.threadId);
  });

  it('terminate() rejects tasks in flight and refuses new ones', async () => {
    pool = new WorkerPool<TestApi>(nodeWorker, 2);
    const pending = pool.run((api) => api.echoAfter(10_000, 1));
    await new Promise((r) => setTimeout(r, 50));
    pool.terminate();
    await expect(pending).rejects.toThrow(/terminated/);
    await expect(pool.run((api) => api.echoAfter(1, 1))).rejects.toThrow(/after terminate/);
    expect(pool.started).toBe(0);
  });
});
