/**
 * The detection's broad phase: a spatial hash of tet bounding boxes, rebuilt on the GPU every
 * substep (shaders/dcdHash.wgsl; layout in shaders/lib/spatialHash.wgsl). Chosen over a tet BVH
 * because the rebuild is one linear pass with no refit/rebuild schedule and no tree quality to
 * lose as the scene deforms (docs/architecture.md compares).
 *
 * Cell size: the median box extent of a tet at the start (tets larger than a cell span several
 * cells, at most 4 per axis; larger ones go to the oversized list every query walks). On
 * octopus_2KFaces.t it puts ~39 tets in a vertex's cell against ~118 with the largest extent,
 * and edges walk only the cells they cross, so detection is 1.2-1.5x faster on an H100
 * (bench/collisionDetect.ts, 110k-879k tets: 0.83 / 4.66 ms per substep against 1.24 / 5.63),
 * for 2.7x the pool entries (~6 per tet, 32 bytes each; 'largest' when memory is short).
 * Table: a power of two >= 2 x tets. Pool: entries for the
 * cells every tet touches, sized from the start with a margin; when a substep runs out, the
 * entries it could not store are counted (query-list header word 14) and `growFromHeader`
 * enlarges the pool for the next frame.
 */
import type { TetMesh } from '../../mesh/types';
import { QL } from './queryList';
import { powerOfTwoAtLeast, powerOfTwoAtMost, storageBufferLimit } from '../../gpu/buffers';

/** Counter words after the table's heads (shaders/lib/spatialHash.wgsl HASH_COUNTERS). */
export const HASH_COUNTERS = 4;
/** Bytes per pool entry (struct HashEntry: tet, next, the tet's box). */
export const HASH_ENTRY_BYTES = 32;
/** Cells per axis above which a tet goes to the oversized list (HASH_MAX_CELLS_PER_AXIS). */
export const HASH_MAX_CELLS_PER_AXIS = 4;

/** Per tet, its axis-aligned box (xyz positions): lo x, y, z, then hi x, y, z. */
function tetBoxes(tets: Uint32Array, positions: ArrayLike<number>): Float64Array {
  const n = tets.length / 4;
  const boxes = new Float64Array(6 * n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let c = 0; c < 4; c++) {
        const x = positions[3 * tets[4 * t + c] + k];
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      boxes[6 * t + k] = lo;
      boxes[6 * t + 3 + k] = hi;
    }
  }
  return boxes;
}

/** Per tet, the largest axis extent of its box (xyz positions). */
function tetExtents(tets: Uint32Array, positions: ArrayLike<number>): Float64Array {
  const boxes = tetBoxes(tets, positions);
  const extent = new Float64Array(tets.length / 4);
  for (let t = 0; t < extent.length; t++) {
    for (let k = 0; k < 3; k++) extent[t] = Math.max(extent[t], boxes[6 * t + 3 + k] - boxes[6 * t + k]);
  }
  return extent;
}

/** Largest axis extent of a tet's box over the mesh. */
export function largestTetExtent(tets: Uint32Array, positions: ArrayLike<number>): number {
  let largest = 0;
  for (const e of tetExtents(tets, positions)) if (e > largest) largest = e;
  return largest;
}

/** Median over the tets of the largest axis extent of its box. */
export function medianTetExtent(tets: Uint32Array, positions: ArrayLike<number>): number {
  const extent = tetExtents(tets, positions).sort();
  return extent[Math.floor((extent.length - 1) / 2)];
}

/** Pool entries the hash needs for `positions` (as the kernel counts them, in f64). */
export function hashEntriesNeeded(tets: Uint32Array, positions: ArrayLike<number>, cellSize: number): number {
  const boxes = tetBoxes(tets, positions);
  let entries = 0;
  for (let t = 0; t < tets.length / 4; t++) {
    let cells = 1;
    for (let k = 0; k < 3; k++) cells *= Math.floor(boxes[6 * t + 3 + k] / cellSize) - Math.floor(boxes[6 * t + k] / cellSize) + 1;
    entries += cells > HASH_MAX_CELLS_PER_AXIS ** 3 ? 1 : cells;
  }
  return entries;
}

export interface SpatialHashOptions {
  /** Cell side, or how to take it from the mesh's positions: the median (default) or the largest tet extent. */
  cellSize?: number | 'largest' | 'median';
  /** Pool entries (default: twice what the mesh's positions need). */
  poolCapacity?: number;
}

export class SpatialHash {
  readonly cellSize: number;
  readonly tableSize: number;
  poolCapacity = 0;
  /** Bumped when the pool is reallocated. */
  generation = 0;
  readonly heads: GPUBuffer;
  pool!: GPUBuffer;
  /** The most pool entries: a power of two within one storage binding of the device. */
  private readonly maxPool: number;

  constructor(
    private readonly device: GPUDevice,
    mesh: TetMesh,
    options: SpatialHashOptions = {},
  ) {
    const rule = options.cellSize ?? 'median';
    const cellSize = rule === 'largest' ? largestTetExtent(mesh.tets, mesh.positions) : rule === 'median' ? medianTetExtent(mesh.tets, mesh.positions) : rule;
    if (!(cellSize > 0 && Number.isFinite(cellSize))) throw new RangeError(`SpatialHash: cell size must be a positive finite number, got ${cellSize}`);
    this.cellSize = cellSize;
    this.maxPool = Math.max(64, powerOfTwoAtMost(storageBufferLimit(device.limits) / HASH_ENTRY_BYTES));
    this.tableSize = powerOfTwoAtLeast(Math.max(64, 2 * mesh.tetCount));
    this.heads = device.createBuffer({ label: 'dcd.hashHeads', size: 4 * (this.tableSize + HASH_COUNTERS), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    this.allocatePool(options.poolCapacity ?? 2 * hashEntriesNeeded(mesh.tets, mesh.positions, cellSize));
  }

  private allocatePool(capacity: number): void {
    // Within one storage binding of this device (gpu/buffers.ts storageBufferLimit): past it the
    // entries a frame drops stay dropped and counted (counters.hashDropped), where a larger pool
    // would have had WebGPU refuse the frame.
    const c = Math.min(powerOfTwoAtLeast(Math.max(64, capacity)), this.maxPool);
    this.pool?.destroy();
    this.pool = this.device.createBuffer({ label: 'dcd.hashPool', size: HASH_ENTRY_BYTES * c, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    this.poolCapacity = c;
    this.generation++;
  }

  /** Grows the pool when the frame dropped entries (header word 14): true when it grew. */
  growFromHeader(header: Uint32Array): boolean {
    const dropped = header[QL.hashDropped];
    if (dropped === 0) return false;
    if (this.poolCapacity >= this.maxPool) return false;
    this.allocatePool(this.poolCapacity + dropped);
    return true;
  }

  /** Per substep, before the build: an empty table, no entry taken (the pool needs no clear). */
  clear(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.heads);
  }

  destroy(): void {
    this.heads.destroy();
    this.pool.destroy();
  }
}
