import { describe, expect, it } from 'vitest';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, buildSurfaceBvh } from '../../../src/bvh';
import { refitSchedule } from '../../../src/bvh/refitSchedule';
import { triangleSoup } from './support/surfaces';

/**
 * The two-dispatch refit schedule, checked by brute force on the tree's links: every node
 * once; a node's children are refit before it, either earlier in its own group (a lower round)
 * or, for a top node, in the first dispatch; a subtree group reads nothing outside itself, so
 * its workgroup never races another.
 */
describe('refitSchedule (GPU refit in two dispatches)', () => {
  for (const [label, triangles, maxNodes] of [
    ['3000 triangles, default subtrees', 3000, undefined],
    ['3000 triangles, subtrees of 15 nodes', 3000, 15],
    ['20 triangles: one subtree, no top', 20, undefined],
  ] as const) {
    it(label, () => {
      const soup = triangleSoup(triangles, 10, 0.4, 21);
      const bvh = buildSurfaceBvh(soup.positions, soup.triangles);
      const s = refitSchedule(bvh, maxNodes);
      const groups = s.subtrees + s.top;
      const groupOf = new Int32Array(bvh.nodeCount).fill(-1);
      const roundOf = new Int32Array(bvh.nodeCount).fill(-1);
      let listed = 0;
      for (let g = 0; g < groups; g++) {
        const first = s.ranges[2 * g], rounds = s.ranges[2 * g + 1];
        for (let r = 0; r < rounds; r++) {
          for (let k = s.ranges[first + r]; k < s.ranges[first + r + 1]; k++) {
            const node = s.order[k];
            expect(groupOf[node]).toBe(-1);
            groupOf[node] = g;
            roundOf[node] = r;
            listed++;
          }
        }
      }
      expect(listed).toBe(bvh.nodeCount);
      for (let i = 0; i < bvh.nodeCount; i++) {
        if (bvh.nodeWords[i * BVH_NODE_WORDS + BVH_COUNT] !== 0) continue;
        const l = bvh.nodeWords[i * BVH_NODE_WORDS + BVH_LINK];
        for (const c of [l, l + 1]) {
          const topNode = groupOf[i] >= s.subtrees;
          if (groupOf[c] === groupOf[i]) expect(roundOf[c]).toBeLessThan(roundOf[i]);
          else {
            // Only a top node may read another group, and only a subtree (the first dispatch).
            expect(topNode).toBe(true);
            expect(groupOf[c]).toBeLessThan(s.subtrees);
          }
        }
      }
      if (maxNodes !== undefined) for (let g = 0; g < s.subtrees; g++) expect(groupOf.filter((x) => x === g).length).toBeLessThanOrEqual(maxNodes);
      if (triangles === 20) expect([s.subtrees, s.top]).toEqual([1, 0]);
      else expect(s.top).toBe(1);
    });
  }

  it('refuses a subtree size that is not a positive integer', () => {
    const soup = triangleSoup(20, 10, 0.4, 21);
    const bvh = buildSurfaceBvh(soup.positions, soup.triangles);
    expect(() => refitSchedule(bvh, 0)).toThrow(/maxSubtreeNodes must be a positive integer/);
  });
});
