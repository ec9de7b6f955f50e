/**
 * A small pool of comlink workers. Tasks go to an idle worker, or to a new one while the
 * pool is below its size, or else to the least-busy worker (fewest tasks in flight); ties
 * go round-robin so load spreads evenly. Workers start lazily: a page that only generates
 * one mesh starts one worker.
 *
 * A worker that dies (uncaught error, failed module load) would leave comlink's promises
 * pending forever; the pool rejects that worker's tasks instead and replaces the worker.
 *
 * The pool is generic over the worker so that the same code runs on browser Workers
 * (browserPoolWorker) and on Node worker_threads (comlink's node adapter, see the tests).
 */
import * as Comlink from 'comlink';

/** A worker as the pool sees it. */
export interface PoolWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Registers a listener called once if the worker dies. */
  onFailure(listener: (message: string) => void): void;
}

/** Wraps a browser (or any DOM-like) Worker. */
export function browserPoolWorker(worker: Worker): PoolWorker {
  return {
    endpoint: worker,
    terminate: () => worker.terminate(),
    onFailure(listener) {
      worker.addEventListener('error', (event) => {
        // A module that fails to load gives a plain Event with no message.
        const message = event instanceof ErrorEvent && event.message ? event.message : 'the worker script failed to load or crashed';
        listener(message);
      });
    },
  };
}

interface Slot<T> {
  worker: PoolWorker;
  remote: Comlink.Remote<T>;
  inFlight: number;
  completed: number;
  /** Rejecters of the tasks in flight, called when the worker dies or the pool terminates. */
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
  private failures = 0;
  readonly size: number;

  constructor(
    private readonly createWorker: () => PoolWorker,
    size: number = defaultPoolSize(),
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`WorkerPool: size must be a positive integer, got ${size}`);
    this.size = size;
  }

  /** Number of workers running now (<= size). */
  get started(): number {
    return this.slots.length;
  }

  /** Workers that died and were dropped. */
  get failed(): number {
    return this.failures;
  }

  /** Tasks in flight per running worker (for tests and the stats panel). */
  get load(): number[] {
    return this.slots.map((s) => s.inFlight);
  }

  /** Tasks completed per running worker. */
  get completed(): number[] {
    return this.slots.map((s) => s.completed);
  }

  /**
   * Runs `task` on one worker's remote API and resolves with its result. `prefer`: the worker
   * (index among the started ones) to use when it is running and idle, so that a task finds the
   * state an earlier one left in that worker (the CCD broad phase's kept pairs); otherwise as usual.
   */
  async run<R>(task: (api: Comlink.Remote<T>) => Promise<R>, prefer?: number): Promise<R> {
    if (this.terminated) throw new Error('WorkerPool: run() called after terminate()');
    const preferred = prefer !== undefined ? this.slots[prefer] : undefined;
    const slot = preferred && preferred.inFlight === 0 ? preferred : this.pick();
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

  private start(): Slot<T> {
    const worker = this.createWorker();
    const slot: Slot<T> = { worker, remote: Comlink.wrap<T>(worker.endpoint), inFlight: 0, completed: 0, cancels: new Set() };
    worker.onFailure((message) => this.drop(slot, new Error(`worker failed: ${message}`)));
    this.slots.push(slot);
    return slot;
  }

  /** Rejects the slot's tasks, stops its worker and forgets it (the next run may start a new one). */
  private drop(slot: Slot<T>, reason: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // already dropped
    this.slots.splice(index, 1);
    this.failures += 1;
    for (const cancel of slot.cancels) cancel(reason);
    slot.remote[Comlink.releaseProxy]();
    slot.worker.terminate();
  }

  private pick(): Slot<T> {
    const idle = this.slots.find((s) => s.inFlight === 0);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.start();
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
      slot.worker.terminate();
    }
    this.slots.length = 0;
  }
}
