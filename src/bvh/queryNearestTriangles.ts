/**
 * Nearest-first point query with a shrinking radius (the BVH side of paper 001, Alg. 3 line 4):
 * visits every triangle whose leaf box lies within the current radius of p, nearer child boxes
 * first, and lets the visitor shrink the radius after each triangle (|s - p|^2 of a valid path).
 *
 * Allocation-free: a depth-first stack of node ids (the caller's, or a module scratch), and box
 * distances recomputed on pop rather than stored, exactly as the WGSL kernel does. A popped node
 * is skipped if its box has moved out of the (shrunk) radius.
 */
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, BVH_STACK_CAPACITY, type SurfaceBvh } from './surfaceBvh';

/** Called once per candidate triangle; returns the new squared radius (return radius2 to keep it). */
export type TriangleVisitor = (triangle: number, radius2: number) => number;

const defaultStack = new Int32Array(BVH_STACK_CAPACITY);

/** Squared distance from p to the box of `node` (0 inside). */
export function boxDistance2(nodes: Float32Array, node: number, px: number, py: number, pz: number): number {
  const o = node * BVH_NODE_WORDS;
  const dx = Math.max(nodes[o] - px, 0, px - nodes[o + 4]);
  const dy = Math.max(nodes[o + 1] - py, 0, py - nodes[o + 5]);
  const dz = Math.max(nodes[o + 2] - pz, 0, pz - nodes[o + 6]);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Returns true when the query completed; false when the stack was too small (the result is
 * then incomplete and the caller must flag the query). With the default stack, or any stack of
 * at least BVH_STACK_CAPACITY entries, it always completes (the build bounds the depth).
 * Pass Infinity as radius2 to start unbounded. Not re-entrant with the default stack: a visitor
 * that starts another query must pass its own stack.
 */
export function queryNearestTriangles(
  bvh: SurfaceBvh,
  px: number,
  py: number,
  pz: number,
  radius2: number,
  visit: TriangleVisitor,
  stack: Int32Array = defaultStack,
): boolean {
  if (bvh.nodeCount === 0) return true;
  const nodes = bvh.nodes;
  const words = bvh.nodeWords;
  const order = bvh.triangleOrder;
  const capacity = stack.length;
  if (capacity === 0) return false;
  let r2 = radius2;
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const node = stack[--top];
    if (boxDistance2(nodes, node, px, py, pz) > r2) continue;
    const o = node * BVH_NODE_WORDS;
    const count = words[o + BVH_COUNT];
    const link = words[o + BVH_LINK];
    if (count > 0) {
      for (let k = link; k < link + count; k++) r2 = visit(order[k], r2);
      continue;
    }
    const dl = boxDistance2(nodes, link, px, py, pz);
    const dr = boxDistance2(nodes, link + 1, px, py, pz);
    // Push the farther child first so the nearer one is popped next.
    const near = dl <= dr ? link : link + 1;
    const far = dl <= dr ? link + 1 : link;
    const dNear = dl <= dr ? dl : dr;
    const dFar = dl <= dr ? dr : dl;
    if (dFar <= r2) {
      if (top >= capacity) return false;
      stack[top++] = far;
    }
    if (dNear <= r2) {
      if (top >= capacity) return false;
      stack[top++] = near;
    }
  }
  return true;
}
