/**
 * Per-phase GPU timing with timestamp queries: one begin/end pair per compute pass, summed per
 * phase after the frame. The phase list is open (stage.ts PhaseName): every pass asks for its
 * pair when it is opened, so a frame may hold any number of passes of any phases. Pairs live in
 * query sets of PAIRS_PER_SET, added as a frame needs them and reused by the next frames.
 * Without 'timestamp-query' every call is a no-op and read() returns null (callers then report
 * CPU wall time only).
 */
import type { GpuContext } from '../gpu/device';
import type { PhaseName } from './stage';


/** GPU time (ms) per phase, only the phases that ran this frame. */
export type PhaseTimes = Partial<Record<PhaseName, number>>;

/** Begin/end pairs per query set (WebGPU allows 4096 queries per set). */
const PAIRS_PER_SET = 256;

interface QueryChunk {
  querySet: GPUQuerySet;
  resolve: GPUBuffer;
  read: GPUBuffer;
}

export class PhaseTimer {
  private readonly device: GPUDevice;
  private readonly enabled: boolean;
  private readonly chunks: QueryChunk[] = [];
  /** Phase of each pair opened this frame, in order. */
  private readonly pairs: PhaseName[] = [];

  constructor(ctx: GpuContext) {
    this.device = ctx.device;
    this.enabled = ctx.features.has('timestamp-query');
  }

  get available(): boolean {
    return this.enabled;
  }

  beginFrame(): void {
    this.pairs.length = 0;
  }

  /** timestampWrites for the next pass, of `phase`, or undefined without timestamps. */
  writes(phase: PhaseName): GPUComputePassTimestampWrites | undefined {
    if (!this.enabled) return undefined;
    const pair = this.pairs.length;
    this.pairs.push(phase);
    const chunk = Math.floor(pair / PAIRS_PER_SET);
    while (this.chunks.length <= chunk) this.chunks.push(this.createChunk());
    const i = 2 * (pair % PAIRS_PER_SET);
    return { querySet: this.chunks[chunk].querySet, beginningOfPassWriteIndex: i, endOfPassWriteIndex: i + 1 };
  }

  private createChunk(): QueryChunk {
    const n = 2 * PAIRS_PER_SET;
    return {
      querySet: this.device.createQuerySet({ label: 'phaseTimer', type: 'timestamp', count: n }),
      resolve: this.device.createBuffer({ label: 'phaseTimer.resolve', size: 8 * n, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
      read: this.device.createBuffer({ label: 'phaseTimer.read', size: 8 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
    };
  }

  /** Pairs used in chunk `c` this frame. */
  private used(c: number): number {
    return Math.min(PAIRS_PER_SET, this.pairs.length - c * PAIRS_PER_SET);
  }

  resolve(encoder: GPUCommandEncoder): void {
    if (!this.enabled) return;
    for (let c = 0; c * PAIRS_PER_SET < this.pairs.length; c++) {
      const n = 2 * this.used(c);
      encoder.resolveQuerySet(this.chunks[c].querySet, 0, n, this.chunks[c].resolve, 0);
      encoder.copyBufferToBuffer(this.chunks[c].resolve, 0, this.chunks[c].read, 0, 8 * n);
    }
  }

  /** Sum of the frame's passes per phase (ms), after the frame's submission completed. */
  async read(): Promise<PhaseTimes | null> {
    if (!this.enabled) return null;
    const out: PhaseTimes = {};
    for (let c = 0; c * PAIRS_PER_SET < this.pairs.length; c++) {
      const n = 2 * this.used(c);
      const read = this.chunks[c].read;
      await read.mapAsync(GPUMapMode.READ, 0, 8 * n);
      const t = new BigInt64Array(read.getMappedRange(0, 8 * n).slice(0));
      read.unmap();
      for (let p = 0; p < n / 2; p++) {
        const phase = this.pairs[c * PAIRS_PER_SET + p];
        // Some drivers report 0 or reversed stamps for empty passes; clamp.
        const ms = Math.max(0, Number(t[2 * p + 1] - t[2 * p])) / 1e6;
        out[phase] = (out[phase] ?? 0) + ms;
      }
    }
    return out;
  }

  destroy(): void {
    for (const c of this.chunks) {
      c.querySet.destroy();
      c.resolve.destroy();
      c.read.destroy();
    }
    this.chunks.length = 0;
  }
}
