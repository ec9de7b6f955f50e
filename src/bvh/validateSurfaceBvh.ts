/**
 * Structural check of a surface BVH built elsewhere (a worker) before it replaces a running tree
 * on the GPU. The WGSL traversal (shaders/spbQuery.wgsl) and refit (shaders/bvhRefit.wgsl) trust
 * the node array: no bounds check on `link`, a fixed stack of BVH_STACK_CAPACITY entries. So a
 * tree is accepted only if it is exactly what buildSurfaceBvh can produce: a full binary tree
 * rooted at node 0, every node reached once, children after their parent (the level order and the
 * CPU refit rely on it), leaves of 1..MAX_LEAF_TRIANGLES triangles covering `triangleOrder` once,
 * `triangleOrder` a permutation, depth <= MAX_BVH_DEPTH, over the expected triangles.
 *
 * Boxes are not checked: every user refits them from current positions before reading them.
 * O(nodes + triangles); three byte arrays of scratch.
 */
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, MAX_BVH_DEPTH, MAX_LEAF_TRIANGLES, type SurfaceBvh } from './surfaceBvh';

/**
 * Throws a RangeError naming the first inconsistency of `bvh` as a tree over `triangles`
 * (3 vertex ids per triangle: the mesh's boundary triangles; the tree's own `triangles` must hold
 * the same ids). `where` prefixes the message (the caller's name).
 */
export function validateSurfaceBvh(bvh: SurfaceBvh, triangles: Uint32Array, where = 'validateSurfaceBvh'): void {
  const fail = (what: string): never => {
    throw new RangeError(`${where}: rejected BVH: ${what}`);
  };
  if (bvh === null || typeof bvh !== 'object') fail(`not a SurfaceBvh (${bvh})`);
  const nTri = triangles.length / 3;
  if (!(bvh.nodes instanceof Float32Array) || !(bvh.nodeWords instanceof Uint32Array)) fail('nodes must be a Float32Array and nodeWords a Uint32Array');
  if (!(bvh.triangleOrder instanceof Uint32Array) || !(bvh.triangles instanceof Uint32Array)) fail('triangleOrder and triangles must be Uint32Arrays');
  if (bvh.triangleCount !== nTri) fail(`triangleCount ${bvh.triangleCount}, but the mesh has ${nTri} boundary triangles`);
  if (bvh.triangles.length !== triangles.length) fail(`triangles holds ${bvh.triangles.length} vertex ids, the mesh's boundary ${triangles.length}`);
  for (let i = 0; i < triangles.length; i++) {
    if (bvh.triangles[i] !== triangles[i]) {
      fail(`triangle ${(i / 3) | 0} has vertex ${bvh.triangles[i]} at corner ${i % 3}, the mesh's boundary triangle has ${triangles[i]}`);
    }
  }
  if (bvh.triangleOrder.length !== nTri) fail(`triangleOrder holds ${bvh.triangleOrder.length} ids for ${nTri} triangles`);
  const n = bvh.nodeCount;
  const maxNodes = nTri === 0 ? 0 : 2 * nTri - 1;
  if (!Number.isInteger(n) || n < (nTri > 0 ? 1 : 0) || n > maxNodes) fail(`nodeCount ${n} outside [${nTri > 0 ? 1 : 0}, ${maxNodes}] for ${nTri} triangles`);
  if (bvh.nodes.length !== n * BVH_NODE_WORDS) fail(`nodes holds ${bvh.nodes.length} floats, ${n} nodes need ${n * BVH_NODE_WORDS}`);
  if (bvh.nodeWords.length !== n * BVH_NODE_WORDS) fail(`nodeWords holds ${bvh.nodeWords.length} words, ${n} nodes need ${n * BVH_NODE_WORDS}`);
  if (bvh.nodeWords.buffer !== bvh.nodes.buffer || bvh.nodeWords.byteOffset !== bvh.nodes.byteOffset) fail('nodes and nodeWords do not view the same memory');

  // triangleOrder is a permutation of [0, nTri).
  const seen = new Uint8Array(nTri);
  for (let k = 0; k < nTri; k++) {
    const t = bvh.triangleOrder[k];
    if (t >= nTri) fail(`triangleOrder[${k}] = ${t} is not a triangle id (< ${nTri})`);
    if (seen[t]) fail(`triangleOrder[${k}] = ${t} repeats an earlier entry (not a permutation)`);
    seen[t] = 1;
  }

  // Tree shape: each node is reached exactly once from the root (children strictly after their
  // parent makes a single forward sweep enough), leaves tile triangleOrder exactly.
  const depth = new Uint8Array(n);
  const reached = new Uint8Array(n);
  if (n > 0) reached[0] = 1;
  const covered = seen.fill(0); // reused: 1 per triangleOrder slot covered by a leaf
  let maxDepth = 0;
  let leafSlots = 0;
  for (let i = 0; i < n; i++) {
    if (!reached[i]) fail(`node ${i} is not reached from the root`);
    const o = i * BVH_NODE_WORDS;
    const count = bvh.nodeWords[o + BVH_COUNT];
    const link = bvh.nodeWords[o + BVH_LINK];
    if (count === 0) {
      if (!(link > i && link + 1 < n)) fail(`internal node ${i} has children ${link}, ${link + 1}: not after it and below nodeCount ${n}`);
      if (reached[link] || reached[link + 1]) fail(`node ${reached[link] ? link : link + 1} has two parents (node ${i} is one)`);
      reached[link] = 1;
      reached[link + 1] = 1;
      const d = depth[i] + 1;
      if (d > MAX_BVH_DEPTH) fail(`node ${link} at depth ${d} exceeds MAX_BVH_DEPTH ${MAX_BVH_DEPTH} (the GPU stack holds ${MAX_BVH_DEPTH + 2} entries)`);
      depth[link] = d;
      depth[link + 1] = d;
      if (d > maxDepth) maxDepth = d;
    } else {
      if (count > MAX_LEAF_TRIANGLES) fail(`leaf ${i} holds ${count} triangles, at most ${MAX_LEAF_TRIANGLES}`);
      if (link + count > nTri) fail(`leaf ${i} covers triangleOrder[${link} .. ${link + count}), beyond its ${nTri} entries`);
      for (let k = link; k < link + count; k++) {
        if (covered[k]) fail(`triangleOrder slot ${k} is covered by leaf ${i} and another leaf`);
        covered[k] = 1;
      }
      leafSlots += count;
    }
  }
  if (leafSlots !== nTri) fail(`the leaves cover ${leafSlots} of the ${nTri} triangleOrder slots`);
  if (bvh.depth !== maxDepth) fail(`depth field ${bvh.depth}, the tree's deepest node is at depth ${maxDepth}`);
}
