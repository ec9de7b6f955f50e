/**
 * The device's uncaptured WebGPU errors (validation, out of memory, internal). A kernel that does
 * not compile on this device, or a binding past one of its limits, raises no exception: the
 * pipeline and every command buffer that records it are invalid, the frame's work is dropped,
 * and its readback returns stale words. Pipelines are built when a frame first records them
 * (lazyPipelines.ts), so such an error shows up during a run, not when the solver is built. The
 * solver asks this log after each frame (GpuSolver) and fails the frame with the device's message,
 * so that the runner exits with it and the page shows it, instead of stepping on with frames
 * that did nothing.
 */
/** A frame failed because the device rejected work (GpuErrorLog): a problem of this device and driver, not of the scene. */
export class GpuRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpuRejectedError';
  }
}

export class GpuErrorLog {
  /** Errors seen so far on the device. */
  count = 0;
  /** The first few messages, in order (the first is usually the cause of the rest). */
  readonly messages: string[] = [];
  private static readonly KEPT = 8;

  /** Starts listening to `device`'s uncaptured errors. */
  constructor(device: GPUDevice) {
    device.addEventListener('uncapturederror', (event) => this.add((event as GPUUncapturedErrorEvent).error.message));
  }

  add(message: string): void {
    this.count += 1;
    if (this.messages.length < GpuErrorLog.KEPT) this.messages.push(message);
  }

  /**
   * The first message of the errors after the first `seen` ones, or null when none came since;
   * with the count of them. Messages past the kept ones are counted, not kept.
   */
  since(seen: number): { first: string; count: number } | null {
    if (this.count <= seen) return null;
    const first = this.messages[seen] ?? this.messages[this.messages.length - 1] ?? '(message not kept)';
    return { first, count: this.count - seen };
  }
}
