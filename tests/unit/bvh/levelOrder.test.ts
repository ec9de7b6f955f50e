import { describe, expect, it } from 'vitest';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, buildSurfaceBvh } from '../../../src/bvh';
import { levelOrder } from '../../../src/bvh/surfaceBvhGpu';
import { triangleSoup } from './support/surfaces';

describe('levelOrder (GPU refit schedule)', () => {
  it('lists every node once, each internal node in a later level than its children', () => {
    const { positions, triangles } = triangleSoup(3000, 10, 0.4, 21);
    const bvh = buildSurfaceBvh(positions, triangles);
    const { nodes, starts } = levelOrder(bvh);
    expect(starts.length).toBe(bvh.depth + 2);
    expect(starts[starts.length - 1]).toBe(bvh.nodeCount);
    const slotOf = new Int32Array(bvh.nodeCount).fill(-1);
    for (let s = 0; s + 1 < starts.length; s++) {
      for (let i = starts[s]; i < starts[s + 1]; i++) {
        expect(slotOf[nodes[i]]).toBe(-1);
        slotOf[nodes[i]] = s;
      }
    }
    expect(slotOf.every((s) => s >= 0)).toBe(true);
    expect(slotOf[0]).toBe(starts.length - 2); // the root is alone in the last level
    for (let i = 0; i < bvh.nodeCount; i++) {
      if (bvh.nodeWords[i * BVH_NODE_WORDS + BVH_COUNT] !== 0) continue;
      const l = bvh.nodeWords[i * BVH_NODE_WORDS + BVH_LINK];
      expect(slotOf[l]).toBe(slotOf[i] - 1);
      expect(slotOf[l + 1]).toBe(slotOf[i] - 1);
    }
  });
});
