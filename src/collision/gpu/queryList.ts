/**
 * The query list and the buffers that go with it (docs/collisions.md "GPU buffers"):
 * detection appends one Query per DCD hit, the shortest-path stage answers each with a Result at
 * the same index, the contacts stage builds one contact per query. One owner for all of them so
 * that growing the capacity reallocates them together; stages rebuild their bind groups when
 * `generation` changes.
 *
 *   list      64 header words (shaders/lib/queryList.wgsl QL_*), then Query[capacity] (8 words)
 *   args      indirect dispatch args [ceil(n / 64), 1, 1], n = min(count, capacity) (detection's
 *             last kernel writes them; spb and contacts dispatch with dispatchWorkgroupsIndirect)
 *   results   Result[capacity] (12 words, shaders/spbQuery.wgsl)
 *   overflow  OverflowEntry[capacity] = Query (8 words) + substep + 3 pad: queries whose
 *             shortest path overflowed the GPU stacks, kept for the CPU fallback; their count is
 *             list header word 15 (QL.overflowCount), the substep an entry records the frame's
 *             detections so far (word 20, QL.detections; in the list's header since issue 24, so
 *             that detection's kernel need not bind this buffer).
 */
import { powerOfTwoAtLeast, powerOfTwoAtMost, storageBufferLimit, WORKGROUP_SIZE } from '../../gpu/buffers';

// The list's header and Query layout are the shortest-path kernel's input format (spb is the
// lower layer): one definition, in src/spb/gpu/queryListLayout.ts; the Result layout likewise.
export { QL_HEADER_BYTES, QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_WORDS } from '../../spb/gpu/queryListLayout';
export { RESULT_WORDS } from '../../spb/gpu/packSpbBuffers';
import { QL_HEADER_BYTES, QUERY_WORDS } from '../../spb/gpu/queryListLayout';
import { RESULT_WORDS } from '../../spb/gpu/packSpbBuffers';
export const OVERFLOW_ENTRY_WORDS = 12;

/** Header word indices (the same names in shaders/lib/queryList.wgsl). */
export const QL = {
  count: 0,
  capacity: 1,
  dropped: 2,
  hitsVertexSelf: 3,
  hitsVertexInter: 4,
  hitsEdgeSelf: 5,
  hitsEdgeInter: 6,
  hitsCentroidSelf: 7,
  hitsCentroidInter: 8,
  maxCount: 9,
  contacts: 10,
  noPath: 11,
  skipped: 12,
  spbOverflows: 13,
  hashDropped: 14,
  overflowCount: 15,
  pin: 16,
  escapedTested: 17,
  escapedInside: 18,
  escapedRejected: 19,
  detections: 20,
  farSideDropped: 21,
  inversionFloorTets: 22,
  pinInFold: 23,
  pinReleased: 24,
} as const;

/** Query.source bits. */
export const QUERY_KIND_SHIFT = 29;
export const QUERY_KIND_VERTEX = 0;
export const QUERY_KIND_EDGE = 1;
export const QUERY_KIND_CENTROID = 2;
export const QUERY_ID_MASK = 0x1fffffff;

/** Largest capacity one indirect dispatch of 64-thread groups can cover (65,535 groups). */
export const MAX_QUERY_CAPACITY = 65535 * WORKGROUP_SIZE;

export class QueryList {
  capacity = 0;
  /** Bumped at every reallocation: bind groups over these buffers must be rebuilt. */
  generation = 0;
  list!: GPUBuffer;
  results!: GPUBuffer;
  overflow!: GPUBuffer;
  readonly args: GPUBuffer;
  /**
   * The most queries growFromHeader grows to: a power of two within one indirect dispatch and
   * with each of the list's buffers within one storage binding of this device. Past it a frame's
   * extra hits stay dropped and counted (counters.dropped), where a larger buffer would have had
   * WebGPU refuse the frame.
   */
  readonly maxGrowth: number;

  constructor(
    private readonly device: GPUDevice,
    initialCapacity: number,
  ) {
    const limit = storageBufferLimit(device.limits);
    const perQuery = 4 * Math.max(QUERY_WORDS, RESULT_WORDS, OVERFLOW_ENTRY_WORDS);
    this.maxGrowth = Math.max(64, powerOfTwoAtMost(Math.min(MAX_QUERY_CAPACITY, (limit - QL_HEADER_BYTES) / perQuery)));
    this.args = device.createBuffer({
      label: 'queryList.args',
      size: 16,
      usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    this.allocate(initialCapacity);
  }

  /** Reallocates for at least `capacity` queries (a power of two); contents are lost. No-op when big enough. */
  grow(capacity: number): boolean {
    if (capacity <= this.capacity) return false;
    this.allocate(capacity);
    return true;
  }

  /**
   * Capacity for the next frame from the frame's header (spec: when hits were dropped, the next
   * power of two above the frame's largest count). Returns true when it grew.
   */
  growFromHeader(header: Uint32Array): boolean {
    if (header[QL.dropped] === 0) return false;
    return this.grow(Math.min(this.maxGrowth, powerOfTwoAtLeast(header[QL.maxCount] + 1)));
  }

  private allocate(requested: number): void {
    const capacity = powerOfTwoAtLeast(Math.max(64, requested));
    if (capacity > MAX_QUERY_CAPACITY) {
      throw new RangeError(`QueryList: capacity ${capacity} exceeds ${MAX_QUERY_CAPACITY} (65,535 workgroups of ${WORKGROUP_SIZE} in one indirect dispatch)`);
    }
    this.list?.destroy();
    this.results?.destroy();
    this.overflow?.destroy();
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const d = this.device;
    this.list = d.createBuffer({ label: 'queryList.list', size: QL_HEADER_BYTES + 4 * QUERY_WORDS * capacity, usage });
    this.results = d.createBuffer({ label: 'queryList.results', size: 4 * RESULT_WORDS * capacity, usage });
    this.overflow = d.createBuffer({ label: 'queryList.overflow', size: 4 * OVERFLOW_ENTRY_WORDS * capacity, usage });
    this.capacity = capacity;
    this.generation++;
    d.queue.writeBuffer(this.list, 4 * QL.capacity, new Uint32Array([capacity]));
  }

  /** Per frame: header words 2..63 (the counters, the detections among them). */
  beginFrame(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.list, 8, QL_HEADER_BYTES - 8);
  }

  /** Per substep: header word 0 (the count) only. */
  beginSubstep(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.list, 0, 4);
  }

  destroy(): void {
    this.list?.destroy();
    this.results?.destroy();
    this.overflow?.destroy();
    this.args.destroy();
  }
}
