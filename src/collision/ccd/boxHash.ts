/**
 * A uniform grid stored as a spatial hash, for the CCD broad phase (broadPhase.ts): each box is
 * entered in every cell it covers (counting sort by bucket, typed arrays only), and pairs of
 * overlapping boxes are found per bucket: within one hash (selfJoin) or between two hashes built
 * on the same frame and table size (crossJoin).
 *
 * Each pair is reported once: from the cell holding the lower corner of the two boxes'
 * intersection. Cell coordinates are monotone in x, so on each axis that cell is the later of the
 * two boxes' first cells; a cell is the owner exactly when, on every axis, it is the first cell of
 * one box or the other (first-cell bits of the two entries OR to 7). Boxes covering more than
 * OVERSIZED_CELLS cells are kept out of the hash; the caller tests them against everything.
 */

/** Boxes covering more cells than this are left out of the hash (listed in `oversized`). */
export const OVERSIZED_CELLS = 512;
/** The cell is never smaller than the frame's extent over this, so coordinates fit in 17 bits. */
const MAX_CELLS_PER_AXIS = 1 << 16;
const KEY_BASE = 1 << 17;

/**
 * Grow-only scratch arrays by name, reused across calls (the broad phase runs once per frame and
 * fresh megabyte-sized arrays cost more in page faults than filling them). One module instance per
 * thread, and no array outlives the call that asked for it.
 */
const scratch = new Map<string, Uint32Array | Int32Array | Float64Array | Float32Array | Uint8Array>();
function scratchArray<T extends Uint32Array | Int32Array | Float64Array | Float32Array | Uint8Array>(name: string, make: (n: number) => T, length: number): T {
  let a = scratch.get(name) as T | undefined;
  if (!a || a.length < length) {
    a = make(Math.ceil(length * 1.25) + 16);
    scratch.set(name, a);
  }
  return a.subarray(0, length) as T;
}

export interface GridFrame {
  /** Lower corner: the bounds of every box entered in the grid, so cell coordinates are >= 0. */
  lo: Float64Array;
  cell: number;
}

/**
 * The frame over the boxes of `sets` (each: boxes, 6 floats per box, and the ids of the boxes
 * used, or null for all). The cell is the mean largest side of the boxes of the first set (a
 * typical box then covers at most 2 cells per axis), kept >= extent / MAX_CELLS_PER_AXIS.
 */
export function gridFrame(sets: [Float32Array, Uint32Array | null][]): GridFrame {
  const lo = new Float64Array([Infinity, Infinity, Infinity]);
  const hi = new Float64Array([-Infinity, -Infinity, -Infinity]);
  let sum = 0, count = 0;
  sets.forEach(([boxes, ids], set) => {
    const n = ids ? ids.length : boxes.length / 6;
    for (let q = 0; q < n; q++) {
      const o = 6 * (ids ? ids[q] : q);
      for (let a = 0; a < 3; a++) {
        if (boxes[o + a] < lo[a]) lo[a] = boxes[o + a];
        if (boxes[o + 3 + a] > hi[a]) hi[a] = boxes[o + 3 + a];
      }
      if (set === 0) sum += Math.max(boxes[o + 3] - boxes[o], boxes[o + 4] - boxes[o + 1], boxes[o + 5] - boxes[o + 2]);
    }
    if (set === 0) count = n;
  });
  let extent = 0;
  for (let a = 0; a < 3; a++) {
    if (!(lo[a] <= hi[a])) lo[a] = hi[a] = 0; // no boxes at all
    extent = Math.max(extent, hi[a] - lo[a]);
  }
  const mean = count > 0 ? sum / count : 0;
  return { lo, cell: Math.max(mean, extent / MAX_CELLS_PER_AXIS, 1e-30) };
}

/** Cell ranges of the boxes before hashing: what decides the table size. */
export interface CellRanges {
  /** Item per box: ids[q], or q. */
  items: Uint32Array;
  /** min ijk, max ijk per box. */
  ranges: Int32Array;
  /** Cells covered by the boxes that are not oversized. */
  entries: number;
  /** Items whose boxes are oversized. */
  oversized: Uint32Array;
  isOversized: Uint8Array;
}

/** `name`: a scratch slot; the ranges live until the next call with the same name. */
export function cellRanges(boxes: Float32Array, ids: Uint32Array | null, frame: GridFrame, name: string): CellRanges {
  const n = ids ? ids.length : boxes.length / 6;
  let items = ids;
  if (!items) {
    items = scratchArray(`${name}.items`, (m) => new Uint32Array(m), n);
    for (let q = 0; q < n; q++) items[q] = q;
  }
  const ranges = scratchArray(`${name}.ranges`, (m) => new Int32Array(m), 6 * n);
  const isOversized = scratchArray(`${name}.isOversized`, (m) => new Uint8Array(m), n).fill(0);
  const inv = 1 / frame.cell;
  const lx = frame.lo[0], ly = frame.lo[1], lz = frame.lo[2];
  const oversized: number[] = [];
  let entries = 0;
  for (let q = 0; q < n; q++) {
    const o = 6 * items[q];
    const i0 = Math.floor((boxes[o] - lx) * inv), j0 = Math.floor((boxes[o + 1] - ly) * inv), k0 = Math.floor((boxes[o + 2] - lz) * inv);
    const i1 = Math.floor((boxes[o + 3] - lx) * inv), j1 = Math.floor((boxes[o + 4] - ly) * inv), k1 = Math.floor((boxes[o + 5] - lz) * inv);
    ranges[6 * q] = i0;
    ranges[6 * q + 1] = j0;
    ranges[6 * q + 2] = k0;
    ranges[6 * q + 3] = i1;
    ranges[6 * q + 4] = j1;
    ranges[6 * q + 5] = k1;
    const cells = (i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1);
    if (cells > OVERSIZED_CELLS) {
      isOversized[q] = 1;
      oversized.push(items[q]);
    } else entries += cells;
  }
  return { items, ranges, entries, oversized: Uint32Array.from(oversized), isOversized };
}

/** A power of two >= 2 * entries (at least 16): few cells share a bucket. */
export function tableSize(entries: number): number {
  let size = 16;
  while (size < 2 * entries) size *= 2;
  return size;
}

export interface BoxHash {
  mask: number;
  /** Bucket b's entries: start[b] .. start[b + 1]. */
  start: Uint32Array;
  item: Uint32Array;
  /** Exact cell key per entry (a bucket mixes cells whose hashes collide): i + 2^17 (j + 2^17 k). */
  key: Float64Array;
  /** Per entry, bit a set when this cell is the first one of the box along axis a. */
  first: Uint8Array;
  /** The box, 6 per entry (a copy, so a bucket is scanned in memory order). */
  box: Float32Array;
}

function bucketOf(i: number, j: number, k: number, mask: number): number {
  return (Math.imul(i, 73856093) ^ Math.imul(j, 19349663) ^ Math.imul(k, 83492791)) & mask;
}

/** `name`: a scratch slot; the hash lives until the next call with the same name. */
export function buildBoxHash(boxes: Float32Array, r: CellRanges, size: number, name: string): BoxHash {
  const { items, ranges, isOversized } = r;
  const mask = size - 1;
  const start = scratchArray(`${name}.start`, (m) => new Uint32Array(m), size + 1).fill(0);
  const item = scratchArray(`${name}.item`, (m) => new Uint32Array(m), r.entries);
  const key = scratchArray(`${name}.key`, (m) => new Float64Array(m), r.entries);
  const first = scratchArray(`${name}.first`, (m) => new Uint8Array(m), r.entries);
  const box = scratchArray(`${name}.box`, (m) => new Float32Array(m), 6 * r.entries);
  const n = items.length;
  for (let q = 0; q < n; q++) {
    if (isOversized[q]) continue;
    const o = 6 * q;
    for (let i = ranges[o]; i <= ranges[o + 3]; i++)
      for (let j = ranges[o + 1]; j <= ranges[o + 4]; j++)
        for (let k = ranges[o + 2]; k <= ranges[o + 5]; k++) start[bucketOf(i, j, k, mask) + 1]++;
  }
  for (let b = 0; b < size; b++) start[b + 1] += start[b];
  for (let q = 0; q < n; q++) {
    if (isOversized[q]) continue;
    const o = 6 * q, src = 6 * items[q];
    const i0 = ranges[o], j0 = ranges[o + 1], k0 = ranges[o + 2];
    for (let i = i0; i <= ranges[o + 3]; i++)
      for (let j = j0; j <= ranges[o + 4]; j++)
        for (let k = k0; k <= ranges[o + 5]; k++) {
          const slot = start[bucketOf(i, j, k, mask)]++;
          item[slot] = items[q];
          key[slot] = i + KEY_BASE * (j + KEY_BASE * k);
          first[slot] = (i === i0 ? 1 : 0) | (j === j0 ? 2 : 0) | (k === k0 ? 4 : 0);
          for (let c = 0; c < 6; c++) box[6 * slot + c] = boxes[src + c];
        }
  }
  // The fill advanced each start[b] to the next bucket's start: shift back.
  for (let b = size; b > 0; b--) start[b] = start[b - 1];
  start[0] = 0;
  return { mask, start, item, key, first, box };
}

function overlapAt(a: Float32Array, s: number, b: Float32Array, t: number): boolean {
  const o = 6 * s, p = 6 * t;
  return a[o] <= b[p + 3] && b[p] <= a[o + 3] && a[o + 1] <= b[p + 4] && b[p + 1] <= a[o + 4] && a[o + 2] <= b[p + 5] && b[p + 2] <= a[o + 5];
}

/**
 * Groups of items (object ids) for a join that keeps only pairs of different groups ('inter') or
 * only pairs within one group ('self'). A bucket's entries come in item order, and items of one
 * object are contiguous, so a bucket is a few runs of one group each: the joins step over a whole
 * run of the wrong group at once (groupRuns), and a pile's many overlapping pairs within one
 * object cost nothing in the inter-object pass. Correct for any order (runs are found, not assumed).
 */
export interface JoinGroups {
  a: ArrayLike<number>;
  b: ArrayLike<number>;
  keep: 'inter' | 'self';
}

/** Per entry of `h`: its item's group, and the end (exclusive) of the run of its group in its bucket. */
function groupRuns(h: BoxHash, groupOf: ArrayLike<number>): { group: Uint32Array; runEnd: Uint32Array } {
  const n = h.start[h.mask + 1];
  const group = new Uint32Array(n);
  const runEnd = new Uint32Array(n);
  for (let t = 0; t < n; t++) group[t] = groupOf[h.item[t]];
  for (let bucket = 0; bucket <= h.mask; bucket++) {
    const begin = h.start[bucket];
    let end = h.start[bucket + 1];
    for (let t = end - 1; t >= begin; t--) {
      if (t + 1 < h.start[bucket + 1] && group[t + 1] !== group[t]) end = t + 1;
      runEnd[t] = end;
    }
  }
  return { group, runEnd };
}

/** The first entry s >= begin with s % K = k. */
function firstInSlice(begin: number, [k, K]: [number, number]): number {
  return begin + ((((k - begin) % K) + K) % K);
}

/**
 * Every pair of items of `h` whose boxes overlap, once: visit(itemA, itemB) (in no particular order).
 * `slice` [k, K]: only the pairs whose first entry s (the pair (s, t > s) of its owner cell's bucket)
 * has s % K = k: each pair is found once, so the K slices of one hash give each pair once, each
 * about 1/K of the work even where a few crowded buckets of a landed pile's tangle hold much of it
 * (a bucket's work grows with the square of its entries, so whole buckets split unevenly).
 */
export function selfJoin(h: BoxHash, visit: (a: number, b: number) => void, groups?: JoinGroups, slice?: [number, number]): void {
  const { start, item, key, first, box } = h;
  const same = groups?.keep === 'self';
  const runs = groups ? groupRuns(h, groups.b) : undefined;
  const ga = groups?.a;
  // Unsliced: every entry, with no division per bucket (most buckets are empty or hold one entry).
  const step = slice ? slice[1] : 1;
  for (let bucket = 0; bucket <= h.mask; bucket++) {
    const end = start[bucket + 1];
    if (start[bucket] === end) continue;
    for (let s = slice ? firstInSlice(start[bucket], slice) : start[bucket]; s < end; s += step) {
      const ks = key[s], fs = first[s];
      const gs = ga ? ga[item[s]] : 0;
      for (let t = s + 1; t < end; t++) {
        if (runs && (runs.group[t] === gs) !== same) {
          t = runs.runEnd[t] - 1;
          continue;
        }
        if (key[t] !== ks || (fs | first[t]) !== 7) continue;
        if (overlapAt(box, s, box, t)) visit(item[s], item[t]);
      }
    }
  }
}

/**
 * Every pair (item of a, item of b) whose boxes overlap, once. Both hashes must share frame and size.
 * `slice` [k, K]: only the pairs whose entry s in `a` has s % K = k (as selfJoin).
 */
export function crossJoin(a: BoxHash, b: BoxHash, visit: (itemA: number, itemB: number) => void, groups?: JoinGroups, slice?: [number, number]): void {
  if (a.mask !== b.mask) throw new Error(`crossJoin: the hashes have different table sizes (${a.mask + 1}, ${b.mask + 1})`);
  const same = groups?.keep === 'self';
  const runs = groups ? groupRuns(b, groups.b) : undefined;
  const ga = groups?.a;
  const step = slice ? slice[1] : 1;
  for (let bucket = 0; bucket <= a.mask; bucket++) {
    const endA = a.start[bucket + 1], beginB = b.start[bucket], endB = b.start[bucket + 1];
    if (beginB === endB || a.start[bucket] === endA) continue;
    for (let s = slice ? firstInSlice(a.start[bucket], slice) : a.start[bucket]; s < endA; s += step) {
      const ks = a.key[s], fs = a.first[s];
      const gs = ga ? ga[a.item[s]] : 0;
      for (let t = beginB; t < endB; t++) {
        if (runs && (runs.group[t] === gs) !== same) {
          t = runs.runEnd[t] - 1;
          continue;
        }
        if (b.key[t] !== ks || (fs | b.first[t]) !== 7) continue;
        if (overlapAt(a.box, s, b.box, t)) visit(a.item[s], b.item[t]);
      }
    }
  }
}
