/**
 * Per-phase GPU timing with timestamp queries: one begin/end pair per compute pass, summed
 * per phase after the frame. Without 'timestamp-query' every call is a no-op and read()
 * returns null (callers then report CPU wall time only).
 */
import type { GpuContext } from '../gpu/device';

export type PhaseName = 'predict' | 'solve' | 'finalize';

export class PhaseTimer {
  private readonly device: GPUDevice;
  private readonly enabled: boolean;
  private querySet: GPUQuerySet | null = null;
  private resolveBuffer: GPUBuffer | null = null;
  private readBuffer: GPUBuffer | null = null;
  private capacity = 0;
  private substeps = 0;

  constructor(ctx: GpuContext, private readonly phases: PhaseName[]) {
    this.device = ctx.device;
    this.enabled = ctx.features.has('timestamp-query');
  }

  get available(): boolean {
    return this.enabled;
  }

  beginFrame(substeps: number): void {
    this.substeps = substeps;
    if (!this.enabled) return;
    const needed = 2 * this.phases.length * substeps;
    if (needed <= this.capacity) return;
    this.destroy();
    this.capacity = needed;
    this.querySet = this.device.createQuerySet({ type: 'timestamp', count: needed });
    this.resolveBuffer = this.device.createBuffer({ size: 8 * needed, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.readBuffer = this.device.createBuffer({ size: 8 * needed, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /** timestampWrites for pass `phase` of substep `s`, or undefined without timestamps. */
  writes(s: number, phase: number): GPUComputePassTimestampWrites | undefined {
    if (!this.enabled || !this.querySet) return undefined;
    const i = 2 * (s * this.phases.length + phase);
    return { querySet: this.querySet, beginningOfPassWriteIndex: i, endOfPassWriteIndex: i + 1 };
  }

  resolve(encoder: GPUCommandEncoder): void {
    if (!this.enabled || !this.querySet || !this.resolveBuffer || !this.readBuffer) return;
    const n = 2 * this.phases.length * this.substeps;
    encoder.resolveQuerySet(this.querySet, 0, n, this.resolveBuffer, 0);
    encoder.copyBufferToBuffer(this.resolveBuffer, 0, this.readBuffer, 0, 8 * n);
  }

  async read(): Promise<Record<PhaseName, number> | null> {
    if (!this.enabled || !this.readBuffer) return null;
    const n = 2 * this.phases.length * this.substeps;
    await this.readBuffer.mapAsync(GPUMapMode.READ, 0, 8 * n);
    const t = new BigInt64Array(this.readBuffer.getMappedRange(0, 8 * n).slice(0));
    this.readBuffer.unmap();
    const out = { predict: 0, solve: 0, finalize: 0 } as Record<PhaseName, number>;
    for (let s = 0; s < this.substeps; s++) {
      this.phases.forEach((name, p) => {
        const i = 2 * (s * this.phases.length + p);
        const d = Number(t[i + 1] - t[i]);
        // Some drivers report 0 or reversed stamps for empty passes; clamp.
        out[name] += Math.max(0, d) / 1e6;
      });
    }
    return out;
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
    this.querySet = null;
    this.resolveBuffer = null;
    this.readBuffer = null;
    this.capacity = 0;
  }
}
