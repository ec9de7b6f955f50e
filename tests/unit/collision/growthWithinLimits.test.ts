/**
 * Buffers that grow with a frame's counts stay within the device's limits: the shortest-path
 * query list (queryList.ts) and detection's spatial-hash pool (spatialHash.ts). Truth: WebGPU's
 * own rule, that createBuffer refuses a buffer over maxBufferSize and a binding over
 * maxStorageBufferBindingSize (a refused buffer had WebGPU reject a whole frame of the inflated
 * octopi, docs/collisions.md "Candidates over the device's buffer limit"), enforced here by a
 * device that records every buffer and refuses as WebGPU does; and the query list's one indirect
 * dispatch of 65,535 workgroups, which threw a RangeError past it before.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CAPACITY, QL, QueryList } from '../../../src/collision/gpu/queryList';
import { HASH_ENTRY_BYTES, SpatialHash } from '../../../src/collision/gpu/spatialHash';
import { QL_HEADER_WORDS } from '../../../src/spb/gpu/queryListLayout';
import type { TetMesh } from '../../../src/mesh/types';

// Node has no WebGPU globals outside the GPU tests: the flags' values do not matter here.
const g = globalThis as Record<string, unknown>;
if (!('GPUBufferUsage' in g)) g.GPUBufferUsage = { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, INDEX: 16, VERTEX: 32, UNIFORM: 64, STORAGE: 128, INDIRECT: 256, QUERY_RESOLVE: 512 };

/** A device with `limit` bytes for a buffer and a binding, refusing larger buffers as WebGPU does; `sizes` by label, the latest. */
function limitedDevice(limit: number): { device: GPUDevice; sizes: Map<string, number> } {
  const sizes = new Map<string, number>();
  const device = {
    limits: { maxBufferSize: limit, maxStorageBufferBindingSize: limit },
    createBuffer(d: GPUBufferDescriptor) {
      if (d.size > limit) throw new Error(`${d.label}: ${d.size} bytes, over the device's ${limit}`);
      sizes.set(d.label ?? '', d.size);
      return { size: d.size, destroy() {} };
    },
    queue: { writeBuffer() {} },
  };
  return { device: device as unknown as GPUDevice, sizes };
}

function header(words: Partial<Record<keyof typeof QL, number>>): Uint32Array {
  const h = new Uint32Array(QL_HEADER_WORDS);
  for (const [k, v] of Object.entries(words)) h[QL[k as keyof typeof QL]] = v!;
  return h;
}

const isPowerOfTwo = (n: number) => n >= 1 && 2 ** Math.round(Math.log2(n)) === n;

describe('buffers that grow with a frame stay within the device', () => {
  it('the query list after a frame of 10 M hits: the largest power of two whose buffers fit 1 MiB, then no more growth', () => {
    const { device, sizes } = limitedDevice(2 ** 20);
    const list = new QueryList(device, 1024);
    expect(() => list.growFromHeader(header({ dropped: 5, maxCount: 10_000_000 }))).not.toThrow();
    expect(isPowerOfTwo(list.capacity)).toBe(true);
    expect(list.capacity).toBeGreaterThan(1024);
    for (const [label, size] of sizes) expect(size, label).toBeLessThanOrEqual(2 ** 20);
    // The largest: twice the room would not fit one of the three buffers.
    const per = Math.max(...['queryList.list', 'queryList.results', 'queryList.overflow'].map((l) => sizes.get(l)! / list.capacity));
    expect(2 * list.capacity * per).toBeGreaterThan(2 ** 20);
    expect(list.growFromHeader(header({ dropped: 5, maxCount: 10_000_000 }))).toBe(false);
  });

  it('the query list on a device of 4 GiB: growth stops at one indirect dispatch (65,535 workgroups of 64) instead of throwing', () => {
    const { device } = limitedDevice(2 ** 32);
    const list = new QueryList(device, 1024);
    expect(() => list.growFromHeader(header({ dropped: 1, maxCount: 10_000_000 }))).not.toThrow();
    expect(list.capacity).toBeLessThanOrEqual(MAX_QUERY_CAPACITY);
    expect(2 * list.capacity).toBeGreaterThan(MAX_QUERY_CAPACITY);
  });

  it('the hash pool after a frame that dropped 10^9 entries: the largest power of two of entries within 1 MiB, then no more growth', () => {
    const { device, sizes } = limitedDevice(2 ** 20);
    const mesh = { tets: Uint32Array.from([0, 1, 2, 3]), positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), tetCount: 1, vertexCount: 4 } as unknown as TetMesh;
    const hash = new SpatialHash(device, mesh);
    expect(hash.growFromHeader(header({ hashDropped: 1e9 }))).toBe(true);
    expect(sizes.get('dcd.hashPool')).toBe(2 ** 20);
    expect(hash.poolCapacity * HASH_ENTRY_BYTES).toBe(2 ** 20);
    expect(hash.growFromHeader(header({ hashDropped: 1e9 }))).toBe(false);
  });
});
