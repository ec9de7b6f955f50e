/**
 * The page's one per-frame GPU->CPU readback while the GPU solver runs: after a frame, the
 * positions (vec4 per vertex) and the per-object NaN/Inf flags are copied into one staging
 * buffer and mapped asynchronously. At most one readback is in flight; the next frames do
 * not wait for it, so the lowest point it yields may lag the frame on screen (it carries the
 * frame it belongs to). Drawing never uses it: positions reach the screen GPU-side.
 */
import { STATUS_STOPPED } from '../contract/held';

export interface StateSnapshot {
  /** The frame whose end state this is. */
  frame: number;
  /** Lowest y over all vertices. */
  minY: number;
  /** Per object: 0 running, non-zero stopped (NaN/Inf). */
  objectStatus: Uint32Array;
}

export class GpuStateReadback {
  private readonly positionBytes: number;
  private readonly statusBytes: number;
  private staging: GPUBuffer | undefined;
  private inFlight: Promise<StateSnapshot | undefined> | undefined;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly positions: GPUBuffer,
    private readonly status: GPUBuffer,
    private readonly vertexCount: number,
    objectCount: number,
  ) {
    this.positionBytes = 16 * vertexCount;
    this.statusBytes = 4 * objectCount;
  }

  /** True while a readback is pending. */
  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * Starts a readback of the current state (encoded after everything submitted so far), or
   * returns undefined when one is already in flight.
   */
  start(frame: number): Promise<StateSnapshot | undefined> | undefined {
    if (this.inFlight || this.destroyed) return undefined;
    const staging = (this.staging ??= this.device.createBuffer({
      label: 'page.stateReadback',
      size: this.positionBytes + this.statusBytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
    const encoder = this.device.createCommandEncoder({ label: 'page.stateReadback' });
    encoder.copyBufferToBuffer(this.positions, 0, staging, 0, this.positionBytes);
    encoder.copyBufferToBuffer(this.status, 0, staging, this.positionBytes, this.statusBytes);
    this.device.queue.submit([encoder.finish()]);
    const pending = staging.mapAsync(GPUMapMode.READ).then(
      () => {
        if (this.destroyed) return undefined;
        const mapped = staging.getMappedRange();
        const xyzw = new Float32Array(mapped, 0, 4 * this.vertexCount);
        let minY = Infinity;
        for (let i = 1; i < xyzw.length; i += 4) if (xyzw[i]! < minY) minY = xyzw[i]!;
        // Bit 0 of a status word: stopped after NaN/Inf; the held bits (src/contract/held.ts) are
        // the solver's own and say nothing to the page.
        const objectStatus = new Uint32Array(mapped.slice(this.positionBytes, this.positionBytes + this.statusBytes)).map((s) => s & STATUS_STOPPED);
        staging.unmap();
        return { frame, minY, objectStatus };
      },
      (error: unknown) => {
        if (this.destroyed) return undefined; // the buffer was destroyed with the engine
        throw error;
      },
    );
    this.inFlight = pending.finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  destroy(): void {
    this.destroyed = true;
    this.staging?.destroy();
  }
}
