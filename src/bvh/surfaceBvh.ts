/**
 * Surface BVH over boundary triangles: the data type and its flat node layout.
 *
 * The node array is read as-is by WGSL (shaders/spbQuery.wgsl), so the layout is fixed here
 * and mirrored there. One node = 8 words = 32 bytes:
 *
 *   word 0..2  lo.xyz   f32  box minimum
 *   word 3     link     u32  internal: index of the left child (the right child is link + 1)
 *                            leaf: first index into `triangleOrder`
 *   word 4..6  hi.xyz   f32  box maximum
 *   word 7     count    u32  0 for an internal node, 1..MAX_LEAF_TRIANGLES for a leaf
 *
 * In WGSL: `struct BvhNode { lo: vec3f, link: u32, hi: vec3f, count: u32 }` (vec3f has
 * 16-byte alignment, so the struct is exactly 32 bytes with no padding).
 *
 * Children are always stored after their parent (index > parent index), so a refit walks the
 * array backwards once (children before parents). Node 0 is the root. The tree depth is
 * bounded by MAX_BVH_DEPTH, so a nearest-first traversal never needs more than
 * BVH_STACK_CAPACITY stack entries: the GPU's fixed BVH stack cannot overflow.
 */

export const BVH_NODE_WORDS = 8;
export const BVH_NODE_BYTES = BVH_NODE_WORDS * 4;
/** Word offsets inside one node. */
export const BVH_LO = 0;
export const BVH_LINK = 3;
export const BVH_HI = 4;
export const BVH_COUNT = 7;

/** Leaves hold 1..4 triangles (a small fixed loop on the GPU). */
export const MAX_LEAF_TRIANGLES = 4;
/** Below this depth splits use binned SAH; deeper subtrees split at the object median (bounded depth). */
export const SAH_DEPTH_LIMIT = 32;
/** Root has depth 0; the build guarantees every leaf's depth <= MAX_BVH_DEPTH. */
export const MAX_BVH_DEPTH = 62;
/**
 * Stack entries a nearest-first traversal needs at most: each internal node pops one entry and
 * pushes two, so the stack never exceeds depth + 1 entries.
 */
export const BVH_STACK_CAPACITY = 64;

export interface SurfaceBvh {
  /** BVH_NODE_WORDS floats per node (boxes); link/count words are read through `nodeWords`. */
  readonly nodes: Float32Array;
  /** The same memory as `nodes`, viewed as u32 for the link and count words. */
  readonly nodeWords: Uint32Array;
  readonly nodeCount: number;
  /** Triangle ids in leaf order: leaf n covers triangleOrder[link .. link + count). */
  readonly triangleOrder: Uint32Array;
  /** 3 vertex ids per triangle (the caller's array, kept by reference for refits). */
  readonly triangles: Uint32Array;
  readonly triangleCount: number;
  /** Deepest leaf (root = 0). */
  readonly depth: number;
}

/** A node's words as a readable record (tests and debugging; never in hot loops). */
export function describeNode(bvh: SurfaceBvh, node: number): {
  lo: [number, number, number];
  hi: [number, number, number];
  leaf: boolean;
  link: number;
  count: number;
} {
  if (!(node >= 0 && node < bvh.nodeCount)) throw new RangeError(`BVH node ${node} out of range [0, ${bvh.nodeCount})`);
  const o = node * BVH_NODE_WORDS;
  const n = bvh.nodes;
  const count = bvh.nodeWords[o + BVH_COUNT];
  return {
    lo: [n[o], n[o + 1], n[o + 2]],
    hi: [n[o + 4], n[o + 5], n[o + 6]],
    leaf: count > 0,
    link: bvh.nodeWords[o + BVH_LINK],
    count,
  };
}
