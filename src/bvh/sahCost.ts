/**
 * SAH cost of a built tree, normalised by the root's surface area: the expected number of node
 * visits plus triangle tests for a random ray (constant costs 1 per node and per triangle).
 * A quality measure for comparing builds (tests, benchmarks), not used by queries.
 */
import { BVH_COUNT, BVH_NODE_WORDS, type SurfaceBvh } from './surfaceBvh';

export function sahCost(bvh: SurfaceBvh): number {
  if (bvh.nodeCount === 0) return 0;
  const n = bvh.nodes;
  const area = (node: number): number => {
    const o = node * BVH_NODE_WORDS;
    const dx = n[o + 4] - n[o], dy = n[o + 5] - n[o + 1], dz = n[o + 6] - n[o + 2];
    return dx * dy + dy * dz + dz * dx;
  };
  const root = area(0);
  if (!(root > 0)) return bvh.triangleCount;
  let cost = 0;
  for (let node = 0; node < bvh.nodeCount; node++) {
    const count = bvh.nodeWords[node * BVH_NODE_WORDS + BVH_COUNT];
    cost += (area(node) / root) * (count === 0 ? 1 : count);
  }
  return cost;
}
