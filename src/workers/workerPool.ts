/**
 * A small pool of comlink workers. Tasks go to an idle worker, or to a new one while the
 * pool is below its size, or else to the least-busy worker (fewest tasks in flight); ties
 * go round-robin so load spreads evenly. Workers start lazily: a page that only generates
 * one mesh starts one worker.
 *
 * The pool is generic over the endpoint so that the same code runs on browser Workers
 * and on Node worker_threads (wrapped with comlink's node adapter).
 */
import * as Comlink from 'comlink';

/** A worker as the pool sees it: a comlink endpoint that can be terminated. */
export type PoolEndpoint = Comlink.Endpoint & { terminate(): void };

interface Slot<T> {
  endpoint: PoolEndpoint;
  remote: Comlink.Remote<T>;
  inFlight: number;
  completed: number;
  /** Rejecters of the tasks in flight, called by terminate(). */
  cancels: Set<(reason: Error) => void>;
}

/** min(hardwareConcurrency - 1, 4), at least 1: leave one core to the page's own thread. */
export function defaultPoolSize(hardwareConcurrency?: number): number {
  const cores = hardwareConcurrency ?? (typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined) ?? 2;
  return Math.max(1, Math.min(cores - 1, 4));
}

export class WorkerPool<T> {
  private readonly slots: Slot<T>[] = [];
  private nextTie = 0;
  private terminated = false;
  readonly size: number;

  constructor(
    private readonly createEndpoint: () => PoolEndpoint,
    size: number = defaultPoolSize(),
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`WorkerPool: size must be a positive integer, got ${size}`);
    this.size = size;
  }

  /** Number of workers started so far (<= size). */
  get started(): number {
    return this.slots.length;
  }

  /** Tasks in flight per started worker (for tests and the stats panel). */
  get load(): number[] {
    return this.slots.map((s) => s.inFlight);
  }

  /** Tasks completed per started worker. */
  get completed(): number[] {
    return this.slots.map((s) => s.completed);
  }

  /** Runs `task` on one worker's remote API and resolves with its result. */
  async run<R>(task: (api: Comlink.Remote<T>) => Promise<R>): Promise<R> {
    if (this.terminated) throw new Error('WorkerPool: run() called after terminate()');
    const slot = this.pick();
    slot.inFlight += 1;
    let cancel: ((reason: Error) => void) | undefined;
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
    });
    slot.cancels.add(cancel!);
    try {
      return await Promise.race([task(slot.remote), cancelled]);
    } finally {
      slot.cancels.delete(cancel!);
      slot.inFlight -= 1;
      slot.completed += 1;
    }
  }

  private pick(): Slot<T> {
    const idle = this.slots.find((s) => s.inFlight === 0);
    if (idle) return idle;
    if (this.slots.length < this.size) {
      const endpoint = this.createEndpoint();
      const slot: Slot<T> = { endpoint, remote: Comlink.wrap<T>(endpoint), inFlight: 0, completed: 0, cancels: new Set() };
      this.slots.push(slot);
      return slot;
    }
    const least = Math.min(...this.slots.map((s) => s.inFlight));
    // Round-robin among the least busy so equal loads rotate instead of piling on slot 0.
    for (let k = 0; k < this.slots.length; k++) {
      const slot = this.slots[(this.nextTie + k) % this.slots.length]!;
      if (slot.inFlight === least) {
        this.nextTie = (this.nextTie + k + 1) % this.slots.length;
        return slot;
      }
    }
    throw new Error('WorkerPool: no worker found (unreachable)');
  }

  /** Stops every worker and rejects the tasks still in flight. The pool cannot be reused. */
  terminate(): void {
    this.terminated = true;
    for (const slot of this.slots) {
      for (const cancel of slot.cancels) cancel(new Error('WorkerPool terminated while the task was running'));
      slot.remote[Comlink.releaseProxy]();
      slot.endpoint.terminate();
    }
    this.slots.length = 0;
  }
}
