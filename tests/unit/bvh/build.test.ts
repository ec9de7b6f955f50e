import { describe, expect, it } from 'vitest';
import {
  BVH_COUNT,
  BVH_LINK,
  BVH_NODE_WORDS,
  BvhInputError,
  MAX_BVH_DEPTH,
  MAX_LEAF_TRIANGLES,
  buildSurfaceBvh,
  refitSurfaceBvh,
  sahCost,
  type SurfaceBvh,
} from '../../../src/bvh';
import { deform, triangleSoup, uvSphere } from './support/surfaces';

/** Walks the tree from the root and checks the structural invariants; returns leaf-triangle multiplicities. */
function checkStructure(bvh: SurfaceBvh): void {
  const seen = new Uint32Array(bvh.triangleCount);
  const reached = new Uint8Array(bvh.nodeCount);
  const stack: [number, number][] = [[0, 0]];
  let maxDepth = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    expect(reached[node]).toBe(0); // a tree: every node reached once
    reached[node] = 1;
    maxDepth = Math.max(maxDepth, depth);
    const count = bvh.nodeWords[node * BVH_NODE_WORDS + BVH_COUNT];
    const link = bvh.nodeWords[node * BVH_NODE_WORDS + BVH_LINK];
    if (count > 0) {
      expect(count).toBeLessThanOrEqual(MAX_LEAF_TRIANGLES);
      for (let k = link; k < link + count; k++) seen[bvh.triangleOrder[k]]++;
    } else {
      expect(link).toBeGreaterThan(node); // children after parents: a backward pass refits
      expect(link + 1).toBeLessThan(bvh.nodeCount);
      stack.push([link, depth + 1], [link + 1, depth + 1]);
    }
  }
  expect(reached.every((r) => r === 1)).toBe(true);
  expect(seen.every((c) => c === 1)).toBe(true); // every triangle in exactly one leaf
  expect(maxDepth).toBe(bvh.depth);
  expect(bvh.depth).toBeLessThanOrEqual(MAX_BVH_DEPTH);
}

/** Every box contains its triangles' vertices and its children's boxes (exact comparisons in f64). */
function checkBoxes(bvh: SurfaceBvh, positions: ArrayLike<number>): void {
  const n = bvh.nodes;
  let bad = 0;
  for (let node = 0; node < bvh.nodeCount; node++) {
    const o = node * BVH_NODE_WORDS;
    const count = bvh.nodeWords[o + BVH_COUNT];
    const link = bvh.nodeWords[o + BVH_LINK];
    const inside = (x: number, y: number, z: number): boolean =>
      x >= n[o] && y >= n[o + 1] && z >= n[o + 2] && x <= n[o + 4] && y <= n[o + 5] && z <= n[o + 6];
    if (count > 0) {
      for (let k = link; k < link + count; k++) {
        const t = bvh.triangleOrder[k];
        for (let c = 0; c < 3; c++) {
          const v = 3 * bvh.triangles[3 * t + c];
          if (!inside(positions[v], positions[v + 1], positions[v + 2])) bad++;
        }
      }
    } else {
      for (const child of [link, link + 1]) {
        const q = child * BVH_NODE_WORDS;
        if (!inside(n[q], n[q + 1], n[q + 2]) || !inside(n[q + 4], n[q + 5], n[q + 6])) bad++;
      }
    }
  }
  expect(bad).toBe(0);
}

describe('buildSurfaceBvh', () => {
  it('puts every triangle of a random soup in exactly one leaf, with bounded depth and contained boxes', () => {
    for (const n of [1, 2, 5, 17, 3000]) {
      const { positions, triangles } = triangleSoup(n, 10, 0.5, n);
      const bvh = buildSurfaceBvh(positions, triangles);
      expect(bvh.triangleCount).toBe(n);
      expect(bvh.nodeCount).toBeLessThanOrEqual(2 * n - 1);
      checkStructure(bvh);
      checkBoxes(bvh, positions);
    }
  });

  it('handles an empty triangle list', () => {
    const bvh = buildSurfaceBvh(new Float32Array(0), new Uint32Array(0));
    expect(bvh.nodeCount).toBe(0);
    expect(bvh.triangleCount).toBe(0);
  });

  it('keeps the depth bounded when all triangles share one centroid (degenerate input)', () => {
    const n = 5000;
    const positions = new Float32Array(9 * n);
    const triangles = new Uint32Array(3 * n);
    for (let t = 0; t < n; t++) {
      // Triangles rotating about the origin: identical centroids, different boxes.
      const a = (t / n) * Math.PI;
      positions.set([Math.cos(a), Math.sin(a), 0, -Math.cos(a), -Math.sin(a), 0, 0, 0, 0], 9 * t);
      triangles.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
    }
    const bvh = buildSurfaceBvh(positions, triangles);
    checkStructure(bvh);
    checkBoxes(bvh, positions);
    expect(bvh.depth).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 1);
  });

  it('refit after large smooth deformations keeps every triangle inside its boxes (f32 and f64 positions)', () => {
    const { positions, triangles } = uvSphere(64, 40, 2);
    const bvh = buildSurfaceBvh(positions, triangles);
    for (let seed = 1; seed <= 5; seed++) {
      const moved = deform(positions, 2, 0.8, seed);
      refitSurfaceBvh(bvh, moved);
      checkBoxes(bvh, moved);
      // Float64 positions not representable in f32: boxes must round outward.
      const moved64 = new Float64Array(moved.length);
      for (let i = 0; i < moved.length; i++) moved64[i] = moved[i] * (1 + 1e-9 * ((i % 7) - 3)) + 1e-12;
      refitSurfaceBvh(bvh, moved64);
      checkBoxes(bvh, moved64);
    }
    checkStructure(bvh);
  });

  it('refit gives the same boxes as a fresh build of the same topology', () => {
    const { positions, triangles } = uvSphere(32, 20, 1);
    const bvh = buildSurfaceBvh(positions, triangles);
    const moved = deform(positions, 1, 0.5, 9);
    refitSurfaceBvh(bvh, moved);
    refitSurfaceBvh(bvh, positions);
    const fresh = buildSurfaceBvh(positions, triangles);
    expect(Array.from(bvh.nodes)).toEqual(Array.from(fresh.nodes));
  });

  it('binned SAH gives a cheaper tree than the object-median split', () => {
    // Clustered soup: SAH should separate clusters; the median split cuts through them.
    const a = triangleSoup(2000, 1, 0.05, 3);
    const b = triangleSoup(2000, 10, 0.3, 4);
    const positions = new Float32Array(a.positions.length + b.positions.length);
    positions.set(a.positions);
    positions.set(b.positions, a.positions.length);
    const triangles = new Uint32Array(a.triangles.length + b.triangles.length);
    triangles.set(a.triangles);
    for (let i = 0; i < b.triangles.length; i++) triangles[a.triangles.length + i] = b.triangles[i] + a.positions.length / 3;
    const sah = sahCost(buildSurfaceBvh(positions, triangles));
    const median = sahCost(buildSurfaceBvh(positions, triangles, { split: 'median' }));
    expect(sah).toBeLessThan(median);
  });

  it('rejects bad input naming the triangle and vertex', () => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(() => buildSurfaceBvh(positions, new Uint32Array([0, 1, 3]))).toThrow(/triangle 0 references vertex 3/);
    expect(() => buildSurfaceBvh(positions, new Uint32Array([0, 1]))).toThrow(BvhInputError);
    expect(() => buildSurfaceBvh(new Float32Array(4), new Uint32Array(0))).toThrow(/multiple of 3/);
    const nan = new Float32Array([0, 0, 0, 1, NaN, 0, 0, 1, 0]);
    expect(() => buildSurfaceBvh(nan, new Uint32Array([0, 1, 2]))).toThrow(/vertex 1 \(used by triangle 0\)/);
  });
});
