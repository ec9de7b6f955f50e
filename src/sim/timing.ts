/**
 * Per-phase GPU timing with timestamp queries: one begin/end pair per compute pass, summed per
 * phase after the frame; pairs of merged passes (phase null: TimeStep's later substeps) are
 * shared out in proportion to the phases' timed passes (read()). The phase list is open (stage.ts PhaseName): every pass asks for its
 * pair when it is opened, so a frame may hold any number of passes of any phases. Pairs live in
 * query sets of PAIRS_PER_SET, added as a frame needs them and reused by the next frames.
 * Without 'timestamp-query' every call is a no-op and read() returns null (callers then report
 * CPU wall time only).
 */
import type { GpuContext } from '../gpu/device';
import type { PhaseName } from '../contract/stage';


/** GPU time (ms) per phase, only the phases that ran this frame. */
export type PhaseTimes = Partial<Record<PhaseName, number>>;

/** Begin/end pairs per query set (WebGPU allows 4096 queries per set). */
const PAIRS_PER_SET = 256;

interface QueryChunk {
  querySet: GPUQuerySet;
  resolve: GPUBuffer;
  /** One staging buffer per frame slot: a frame's copy never targets a buffer still mapped or pending a map for an earlier frame. */
  read: GPUBuffer[];
}

export class PhaseTimer {
  private readonly device: GPUDevice;
  private readonly enabled: boolean;
  private readonly chunks: QueryChunk[] = [];
  /** Per frame slot: phase of each pair opened in the frame recorded into it, in order (null: a merged pass of several phases). */
  private readonly pairsOf: (PhaseName | null)[][];
  /** The slot of the frame being recorded. */
  private slot = 0;

  /**
   * `slots`: frames that may be in flight at once (GpuSolver keeps up to 2). The query sets and
   * resolve buffers are shared (queue order: frame N resolves and copies them out before frame
   * N + 1's passes write them again); only the mapped read buffers need a slot per frame.
   */
  constructor(ctx: GpuContext, readonly slots = 1) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`PhaseTimer: slots must be a positive integer, got ${slots}`);
    this.device = ctx.device;
    this.enabled = ctx.features.has('timestamp-query');
    this.pairsOf = Array.from({ length: slots }, () => []);
  }

  private get pairs(): (PhaseName | null)[] {
    return this.pairsOf[this.slot];
  }

  get available(): boolean {
    return this.enabled;
  }

  /** Starts recording a frame into `slot` (0..slots - 1), whose previous frame must have been read. */
  beginFrame(slot = 0): void {
    if (!(Number.isInteger(slot) && slot >= 0 && slot < this.slots)) throw new RangeError(`PhaseTimer.beginFrame: slot ${slot} is not in 0..${this.slots - 1}`);
    this.slot = slot;
    this.pairs.length = 0;
  }

  /**
   * timestampWrites for the next pass, of `phase`, or undefined without timestamps. `null`: a
   * pass holding several phases (TimeStep's merged substeps), whose time read() shares out.
   */
  writes(phase: PhaseName | null): GPUComputePassTimestampWrites | undefined {
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
      read: Array.from({ length: this.slots }, (_, k) => this.device.createBuffer({ label: `phaseTimer.read${k}`, size: 8 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST })),
    };
  }

  /** Pairs used in chunk `c` by the frame of `pairs`. */
  private used(c: number, pairs: (PhaseName | null)[] = this.pairs): number {
    return Math.min(PAIRS_PER_SET, pairs.length - c * PAIRS_PER_SET);
  }

  resolve(encoder: GPUCommandEncoder): void {
    if (!this.enabled) return;
    for (let c = 0; c * PAIRS_PER_SET < this.pairs.length; c++) {
      const n = 2 * this.used(c);
      encoder.resolveQuerySet(this.chunks[c].querySet, 0, n, this.chunks[c].resolve, 0);
      encoder.copyBufferToBuffer(this.chunks[c].resolve, 0, this.chunks[c].read[this.slot], 0, 8 * n);
    }
  }

  /**
   * Sum of the passes per phase (ms) of the frame recorded into `slot`, after its submission
   * completed. The merged passes' time (pairs of phase null) is shared out in proportion to the
   * phases' timed passes: phase ms = timed ms x (timed + merged) / timed. That is exact for the
   * frame's total and an estimate per phase (the later substeps assumed to split like the timed
   * first one; they run the same stages).
   */
  async read(slot = 0): Promise<PhaseTimes | null> {
    if (!this.enabled) return null;
    const out: PhaseTimes = {};
    const pairs = this.pairsOf[slot];
    if (!pairs) throw new RangeError(`PhaseTimer.read: slot ${slot} is not in 0..${this.slots - 1}`);
    let timed = 0;
    let merged = 0;
    for (let c = 0; c * PAIRS_PER_SET < pairs.length; c++) {
      const n = 2 * this.used(c, pairs);
      const read = this.chunks[c].read[slot];
      await read.mapAsync(GPUMapMode.READ, 0, 8 * n);
      const t = new BigInt64Array(read.getMappedRange(0, 8 * n).slice(0));
      read.unmap();
      for (let p = 0; p < n / 2; p++) {
        const phase = pairs[c * PAIRS_PER_SET + p];
        // Some drivers report 0 or reversed stamps for empty passes; clamp.
        const ms = Math.max(0, Number(t[2 * p + 1] - t[2 * p])) / 1e6;
        if (phase === null) {
          merged += ms;
          continue;
        }
        out[phase] = (out[phase] ?? 0) + ms;
        timed += ms;
      }
    }
    if (merged > 0 && timed > 0) {
      const scale = (timed + merged) / timed;
      for (const k of Object.keys(out) as PhaseName[]) out[k]! *= scale;
    }
    return out;
  }

  destroy(): void {
    for (const c of this.chunks) {
      c.querySet.destroy();
      c.resolve.destroy();
      for (const r of c.read) r.destroy();
    }
    this.chunks.length = 0;
  }
}
