/**
 * Builds the surface BVH with binned SAH (surface area heuristic), typed arrays only.
 *
 * Each split tries BINS bins of the triangle-centroid bounds along x, y and z and keeps the
 * plane minimising area(L) * |L| + area(R) * |R| (the usual SAH with constant costs; the
 * parent's area is common to all candidates and dropped). Leaves hold at most
 * MAX_LEAF_TRIANGLES triangles so the GPU loop over a leaf is short and fixed. Below
 * SAH_DEPTH_LIMIT the split falls back to the object median, which bounds the depth (and so the
 * traversal stack) whatever the input: degenerate inputs (many triangles with the same
 * centroid, long thin noodles) cannot make a deep list-like tree.
 *
 * Boxes are filled by a refit after the topology is built (refitSurfaceBvh), so the build and
 * the per-step refit share one code path for boxes.
 */
import { refitSurfaceBvh } from './refitSurfaceBvh';
import {
  BVH_COUNT,
  BVH_LINK,
  BVH_NODE_WORDS,
  MAX_BVH_DEPTH,
  MAX_LEAF_TRIANGLES,
  SAH_DEPTH_LIMIT,
  type SurfaceBvh,
} from './surfaceBvh';

const BINS = 16;

export interface BuildSurfaceBvhOptions {
  /** 'sah' (default) or 'median' (object median on the widest centroid axis; a baseline for comparisons). */
  split?: 'sah' | 'median';
}

/** Thrown for malformed input, naming the triangle or vertex at fault. */
export class BvhInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BvhInputError';
  }
}

function validate(positions: ArrayLike<number>, triangles: Uint32Array): void {
  if (positions.length % 3 !== 0) {
    throw new BvhInputError(`buildSurfaceBvh: positions length ${positions.length} is not a multiple of 3 (xyz per vertex)`);
  }
  if (triangles.length % 3 !== 0) {
    throw new BvhInputError(`buildSurfaceBvh: triangles length ${triangles.length} is not a multiple of 3 (3 vertex ids per triangle)`);
  }
  const vertexCount = positions.length / 3;
  for (let i = 0; i < triangles.length; i++) {
    const v = triangles[i];
    const t = (i / 3) | 0;
    if (v >= vertexCount) {
      throw new BvhInputError(`buildSurfaceBvh: triangle ${t} references vertex ${v}, but there are only ${vertexCount} vertices`);
    }
    const x = positions[3 * v];
    const y = positions[3 * v + 1];
    const z = positions[3 * v + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new BvhInputError(`buildSurfaceBvh: vertex ${v} (used by triangle ${t}) has a non-finite position (${x}, ${y}, ${z})`);
    }
  }
}

export function buildSurfaceBvh(
  positions: ArrayLike<number>,
  triangles: Uint32Array,
  options: BuildSurfaceBvhOptions = {},
): SurfaceBvh {
  validate(positions, triangles);
  const useSah = (options.split ?? 'sah') === 'sah';
  const n = triangles.length / 3;
  const order = new Uint32Array(n);
  const centroid = new Float64Array(3 * n);
  const triLo = new Float64Array(3 * n);
  const triHi = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    order[t] = t;
    for (let a = 0; a < 3; a++) {
      const x0 = positions[3 * triangles[3 * t] + a];
      const x1 = positions[3 * triangles[3 * t + 1] + a];
      const x2 = positions[3 * triangles[3 * t + 2] + a];
      const lo = Math.min(x0, x1, x2);
      const hi = Math.max(x0, x1, x2);
      triLo[3 * t + a] = lo;
      triHi[3 * t + a] = hi;
      centroid[3 * t + a] = 0.5 * (lo + hi);
    }
  }

  const maxNodes = Math.max(1, 2 * n - 1);
  const buffer = new ArrayBuffer(maxNodes * BVH_NODE_WORDS * 4);
  const words = new Uint32Array(buffer);
  let nodeCount = 0;
  let depthMax = 0;

  // Scratch for binning, reused across splits.
  const binCount = new Int32Array(BINS);
  const binLo = new Float64Array(3 * BINS);
  const binHi = new Float64Array(3 * BINS);
  const rightArea = new Float64Array(BINS);
  const rightCount = new Int32Array(BINS);

  // Work stack: node, start, end, depth (depth-first; at most MAX_BVH_DEPTH + 2 entries).
  const workCap = MAX_BVH_DEPTH + 4;
  const wNode = new Int32Array(workCap);
  const wStart = new Int32Array(workCap);
  const wEnd = new Int32Array(workCap);
  const wDepth = new Int32Array(workCap);
  let top = 0;
  if (n > 0) {
    nodeCount = 1;
    wNode[0] = 0;
    wStart[0] = 0;
    wEnd[0] = n;
    wDepth[0] = 0;
    top = 1;
  }

  while (top > 0) {
    top--;
    const node = wNode[top];
    const start = wStart[top];
    const end = wEnd[top];
    const depth = wDepth[top];
    const count = end - start;
    const o = node * BVH_NODE_WORDS;
    if (depth > depthMax) depthMax = depth;
    if (count <= MAX_LEAF_TRIANGLES) {
      words[o + BVH_LINK] = start;
      words[o + BVH_COUNT] = count;
      continue;
    }
    if (depth >= MAX_BVH_DEPTH) {
      // Cannot happen for fewer than 2^(MAX_BVH_DEPTH - SAH_DEPTH_LIMIT) triangles.
      throw new BvhInputError(`buildSurfaceBvh: depth limit ${MAX_BVH_DEPTH} reached with ${count} triangles left (input too large)`);
    }

    // Centroid bounds of this range.
    let c0x = Infinity, c0y = Infinity, c0z = Infinity;
    let c1x = -Infinity, c1y = -Infinity, c1z = -Infinity;
    for (let i = start; i < end; i++) {
      const t = 3 * order[i];
      const x = centroid[t], y = centroid[t + 1], z = centroid[t + 2];
      if (x < c0x) c0x = x;
      if (x > c1x) c1x = x;
      if (y < c0y) c0y = y;
      if (y > c1y) c1y = y;
      if (z < c0z) c0z = z;
      if (z > c1z) c1z = z;
    }
    const ext0 = c1x - c0x, ext1 = c1y - c0y, ext2 = c1z - c0z;

    let mid = -1;
    if (useSah && depth < SAH_DEPTH_LIMIT) {
      let bestCost = Infinity;
      let bestAxis = -1;
      let bestSplit = -1;
      for (let axis = 0; axis < 3; axis++) {
        const cmin = axis === 0 ? c0x : axis === 1 ? c0y : c0z;
        const ext = axis === 0 ? ext0 : axis === 1 ? ext1 : ext2;
        if (!(ext > 0)) continue;
        const scale = BINS / ext;
        binCount.fill(0);
        binLo.fill(Infinity);
        binHi.fill(-Infinity);
        for (let i = start; i < end; i++) {
          const t = order[i];
          const b = Math.min(BINS - 1, Math.floor((centroid[3 * t + axis] - cmin) * scale));
          binCount[b]++;
          for (let a = 0; a < 3; a++) {
            const lo = triLo[3 * t + a];
            const hi = triHi[3 * t + a];
            if (lo < binLo[3 * b + a]) binLo[3 * b + a] = lo;
            if (hi > binHi[3 * b + a]) binHi[3 * b + a] = hi;
          }
        }
        // Sweep from the right: area and count of bins [i, BINS).
        let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
        let acc = 0;
        for (let i = BINS - 1; i >= 1; i--) {
          acc += binCount[i];
          if (binCount[i] > 0) {
            lx = Math.min(lx, binLo[3 * i]); ly = Math.min(ly, binLo[3 * i + 1]); lz = Math.min(lz, binLo[3 * i + 2]);
            hx = Math.max(hx, binHi[3 * i]); hy = Math.max(hy, binHi[3 * i + 1]); hz = Math.max(hz, binHi[3 * i + 2]);
          }
          rightCount[i] = acc;
          rightArea[i] = acc > 0 ? halfArea(hx - lx, hy - ly, hz - lz) : 0;
        }
        // Sweep from the left and evaluate the plane between bin i-1 and bin i.
        lx = Infinity; ly = Infinity; lz = Infinity; hx = -Infinity; hy = -Infinity; hz = -Infinity;
        acc = 0;
        for (let i = 1; i < BINS; i++) {
          const b = i - 1;
          acc += binCount[b];
          if (binCount[b] > 0) {
            lx = Math.min(lx, binLo[3 * b]); ly = Math.min(ly, binLo[3 * b + 1]); lz = Math.min(lz, binLo[3 * b + 2]);
            hx = Math.max(hx, binHi[3 * b]); hy = Math.max(hy, binHi[3 * b + 1]); hz = Math.max(hz, binHi[3 * b + 2]);
          }
          if (acc === 0 || rightCount[i] === 0) continue;
          const cost = halfArea(hx - lx, hy - ly, hz - lz) * acc + rightArea[i] * rightCount[i];
          if (cost < bestCost) {
            bestCost = cost;
            bestAxis = axis;
            bestSplit = i;
          }
        }
      }
      if (bestAxis >= 0) {
        // Partition by the same bin formula that counted the bins, so both sides are non-empty.
        const cmin = bestAxis === 0 ? c0x : bestAxis === 1 ? c0y : c0z;
        const scale = BINS / (bestAxis === 0 ? ext0 : bestAxis === 1 ? ext1 : ext2);
        let i = start;
        let j = end - 1;
        while (i <= j) {
          const b = Math.min(BINS - 1, Math.floor((centroid[3 * order[i] + bestAxis] - cmin) * scale));
          if (b < bestSplit) {
            i++;
          } else {
            const tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
            j--;
          }
        }
        if (i > start && i < end) mid = i;
      }
    }
    if (mid < 0) mid = medianSplit(order, centroid, start, end, ext0 >= ext1 && ext0 >= ext2 ? 0 : ext1 >= ext2 ? 1 : 2);

    const left = nodeCount;
    nodeCount += 2;
    words[o + BVH_LINK] = left;
    words[o + BVH_COUNT] = 0;
    // Push right first so the left subtree is built first (order is irrelevant for correctness).
    wNode[top] = left + 1; wStart[top] = mid; wEnd[top] = end; wDepth[top] = depth + 1; top++;
    wNode[top] = left; wStart[top] = start; wEnd[top] = mid; wDepth[top] = depth + 1; top++;
  }

  const nodeBuffer = buffer.slice(0, nodeCount * BVH_NODE_WORDS * 4);
  const bvh: SurfaceBvh = {
    nodes: new Float32Array(nodeBuffer),
    nodeWords: new Uint32Array(nodeBuffer),
    nodeCount,
    triangleOrder: order,
    triangles,
    triangleCount: n,
    depth: depthMax,
  };
  refitSurfaceBvh(bvh, positions);
  return bvh;
}

function halfArea(dx: number, dy: number, dz: number): number {
  return dx * dy + dy * dz + dz * dx;
}

/** Splits [start, end) in two halves ordered by centroid along `axis`; returns the middle index. */
function medianSplit(order: Uint32Array, centroid: Float64Array, start: number, end: number, axis: number): number {
  order.subarray(start, end).sort((a, b) => centroid[3 * a + axis] - centroid[3 * b + axis]);
  return (start + end) >>> 1;
}
