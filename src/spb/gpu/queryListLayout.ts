/**
 * The query list's layout as the shortest-path kernel reads it (shaders/lib/queryList.wgsl, the
 * collisions spec's "Query list"): QL_HEADER_WORDS header words (count at QL_COUNT, capacity at
 * QL_CAPACITY), then Query[capacity] of QUERY_WORDS words:
 *   p.xyz f32, tet u32, exclude i32, exclude2 i32, source u32 (bit 31: Euclidean mode), param f32.
 * The kernel answers n = min(count, capacity) queries. tests/unit/spb/wgslLayout.test.ts checks
 * these numbers against the WGSL file.
 */
export const QL_HEADER_WORDS = 64;
export const QL_HEADER_BYTES = 4 * QL_HEADER_WORDS;
export const QL_COUNT = 0;
export const QL_CAPACITY = 1;
export const QUERY_WORDS = 8;
/** Query.source bit 31: answer in the Euclidean mode (src/spb/euclideanQuery.ts). */
export const QUERY_EUCLIDEAN = 0x80000000;

/** Byte size of a list of `capacity` queries. */
export function queryListBytes(capacity: number): number {
  return QL_HEADER_BYTES + 4 * QUERY_WORDS * capacity;
}
