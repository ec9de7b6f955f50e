/**
 * The nearest-first walk over the surface BVH (the node layout of src/bvh/surfaceBvh.ts) that
 * both modes of the query run (query.ts: Alg. 3's candidates, one expanding pass at a time;
 * euclideanQuery.ts: paper Fig. 15's nearest point). Its stack is the workspace's, so it is
 * fixed in the static twin of the WGSL kernel (overflow flagged) and grows in the dynamic
 * version. The caller owns the radius: it passes the current r2 to every `nextBvhLeaf`, so a
 * candidate that shrinks it cuts the boxes still stacked.
 *
 * Each stacked node carries its box distance, computed when its parent was opened; the nearer
 * child is pushed last, so it is opened first.
 */
import { BVH_COUNT, BVH_NODE_WORDS, BVH_LINK } from '../bvh/surfaceBvh';
import { boxDistance2, boxFarDistance2 } from './boxDistance';
import type { SpbMeshData } from './meshData';
import type { SpbWorkspace } from './workspace';

/** `nextBvhLeaf`: no box is left within the radius. */
export const WALK_DONE = -1;
/** `nextBvhLeaf`: the static stack is full (the query reports an overflow). */
export const WALK_OVERFLOW = -2;

/** Starts a walk from the root (nothing to walk in an empty BVH). Clears `ws.walkCut`. */
export function beginBvhWalk(data: SpbMeshData, ws: SpbWorkspace, px: number, py: number, pz: number): void {
  ws.walkCut = false;
  ws.walkTop = 0;
  if (data.bvh.nodeCount === 0) return;
  ws.bvhStack[0] = 0;
  ws.bvhDist[0] = boxDistance2(data.bvh.nodes, 0, px, py, pz);
  ws.walkTop = 1;
}

/**
 * The next leaf whose box is nearer than r2, as the offset of its node (its triangles are
 * `triangleOrder[link, link + count)`); WALK_DONE or WALK_OVERFLOW when there is none. Sets
 * `ws.walkCut` when the radius left out a box. Boxes entirely nearer than `inner2` are skipped
 * (0: none): query.ts's later passes, whose candidates there were tested in an earlier pass.
 */
export function nextBvhLeaf(data: SpbMeshData, ws: SpbWorkspace, px: number, py: number, pz: number, r2: number, inner2: number): number {
  const nodes = data.bvh.nodes;
  const words = data.bvh.nodeWords;
  let top = ws.walkTop;
  while (top > 0) {
    top--;
    if (ws.bvhDist[top] >= r2) { // the radius shrank since the push
      ws.walkCut = true;
      continue;
    }
    const o = ws.bvhStack[top] * BVH_NODE_WORDS;
    if (inner2 > 0 && boxFarDistance2(nodes, o, px, py, pz) < inner2) continue;
    const link = words[o + BVH_LINK];
    if (words[o + BVH_COUNT] !== 0) {
      ws.walkTop = top;
      return o;
    }
    const dl = boxDistance2(nodes, link * BVH_NODE_WORDS, px, py, pz);
    const dr = boxDistance2(nodes, (link + 1) * BVH_NODE_WORDS, px, py, pz);
    const nearFirst = dl <= dr;
    const dFar = nearFirst ? dr : dl;
    const dNear = nearFirst ? dl : dr;
    if (dFar < r2) {
      if (top >= ws.bvhStack.length && !ws.growBvhStack()) return WALK_OVERFLOW;
      ws.bvhStack[top] = nearFirst ? link + 1 : link;
      ws.bvhDist[top++] = dFar;
    } else ws.walkCut = true;
    if (dNear < r2) {
      if (top >= ws.bvhStack.length && !ws.growBvhStack()) return WALK_OVERFLOW;
      ws.bvhStack[top] = nearFirst ? link : link + 1;
      ws.bvhDist[top++] = dNear;
    } else ws.walkCut = true;
  }
  ws.walkTop = 0;
  return WALK_DONE;
}
