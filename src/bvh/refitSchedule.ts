/**
 * The surface BVH refit in two dispatches instead of one per tree level (issue 11: dispatch
 * count; 15 levels on two octopi). The tree is cut into subtrees of at most `maxSubtreeNodes`
 * nodes (each the whole subtree below its root) and the top nodes above them. Dispatch 1 runs
 * one workgroup per subtree; dispatch 2 one workgroup for the top. Inside a workgroup the nodes
 * go by height (leaves 0, a parent one more than its higher child), one round per height with a
 * storage barrier between rounds (shaders/lib/cellSweep.wgsl), so a node's children are final
 * before it is refit. A subtree's nodes read only nodes of the same subtree; the top reads the
 * subtree roots, written by the previous dispatch (WebGPU orders dispatches of one pass).
 */
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, type SurfaceBvh } from './surfaceBvh';

/** Nodes of one subtree swept by one workgroup (64 lanes, about 7 rounds for a balanced one). */
export const REFIT_SUBTREE_NODES = 511;

export interface RefitSchedule {
  /** Node ids: subtree by subtree, then the top, each by height ascending. */
  order: Uint32Array;
  /** lib/cellSweep.wgsl's cellRanges: per group [index of its round starts, round count], then the starts (into `order`). */
  ranges: Uint32Array;
  /** Groups of dispatch 1 (subtrees) and dispatch 2 (the top: 0 or 1). */
  subtrees: number;
  top: number;
  /** Largest round count of a subtree and of the top (barriers per workgroup). */
  subtreeRounds: number;
  topRounds: number;
}

export function refitSchedule(bvh: SurfaceBvh, maxSubtreeNodes = REFIT_SUBTREE_NODES): RefitSchedule {
  if (!(Number.isInteger(maxSubtreeNodes) && maxSubtreeNodes >= 1)) throw new RangeError(`refitSchedule: maxSubtreeNodes must be a positive integer, got ${maxSubtreeNodes}`);
  const n = bvh.nodeCount;
  const w = bvh.nodeWords;
  const internal = (i: number) => w[i * BVH_NODE_WORDS + BVH_COUNT] === 0;
  const left = (i: number) => w[i * BVH_NODE_WORDS + BVH_LINK];
  // Children follow their parent in the array, so a reverse sweep sees children first.
  const size = new Uint32Array(n);
  const height = new Uint32Array(n);
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (internal(i)) { parent[left(i)] = i; parent[left(i) + 1] = i; }
  for (let i = n - 1; i >= 0; i--) {
    size[i] = 1;
    if (internal(i)) {
      const l = left(i);
      size[i] += size[l] + size[l + 1];
      height[i] = 1 + Math.max(height[l], height[l + 1]);
    }
  }
  // Subtree of each node: the id of its subtree's root, or -1 for a top node.
  const subtreeOf = new Int32Array(n).fill(-1);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    if (size[i] > maxSubtreeNodes) continue;
    const p = parent[i];
    if (p >= 0 && subtreeOf[p] >= 0) subtreeOf[i] = subtreeOf[p];
    else { subtreeOf[i] = i; roots.push(i); }
  }
  const groupOfRoot = new Map(roots.map((r, g) => [r, g]));
  const groups = roots.length + (n > 0 && subtreeOf[0] < 0 ? 1 : 0);
  const groupOf = (i: number) => (subtreeOf[i] >= 0 ? groupOfRoot.get(subtreeOf[i])! : roots.length);
  // Rounds per group: its root's height + 1 (the top: the tree's root height - ... all its heights).
  const rounds = new Uint32Array(groups);
  for (let i = 0; i < n; i++) rounds[groupOf(i)] = Math.max(rounds[groupOf(i)], height[i] + 1);
  // Counting sort by (group, height).
  const firstSlot = new Uint32Array(groups + 1);
  for (let g = 0; g < groups; g++) firstSlot[g + 1] = firstSlot[g] + rounds[g];
  const slots = firstSlot[groups];
  const starts = new Uint32Array(slots + 1);
  for (let i = 0; i < n; i++) starts[firstSlot[groupOf(i)] + height[i] + 1]++;
  for (let s = 0; s < slots; s++) starts[s + 1] += starts[s];
  const cursor = starts.slice(0, slots);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[cursor[firstSlot[groupOf(i)] + height[i]]++] = i;
  // The top's heights start above the subtree roots: its empty low rounds are dropped.
  const ranges = new Uint32Array(Math.max(1, 2 * groups + slots + groups));
  let at = 2 * groups;
  let subtreeRounds = 0, topRounds = 0;
  for (let g = 0; g < groups; g++) {
    let lo = firstSlot[g];
    while (lo < firstSlot[g + 1] && starts[lo] === starts[lo + 1]) lo++;
    const count = firstSlot[g + 1] - lo;
    ranges[2 * g] = at;
    ranges[2 * g + 1] = count;
    for (let s = lo; s <= firstSlot[g + 1]; s++) ranges[at++] = starts[s];
    if (g < roots.length) subtreeRounds = Math.max(subtreeRounds, count);
    else topRounds = count;
  }
  return { order, ranges: ranges.subarray(0, Math.max(1, at)), subtrees: roots.length, top: groups - roots.length, subtreeRounds, topRounds };
}
