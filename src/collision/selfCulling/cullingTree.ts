/**
 * One object's surface BVH with what the enhanced dual-cone test needs of each node, collected
 * once when the tree is built (paper 002 section 5.2.2, "Preprocessing"):
 *
 * - the node's triangles: a contiguous range of the tree's triangle order;
 * - its boundary contour: the surface edges with exactly one of their two triangles in the node,
 *   each directed as that triangle runs along it (the surface is outward oriented, so the contour
 *   is oriented too), in order along the contour and cut into chains: maximal runs of
 *   consecutive contour edges whose inner triangle lies in the same part of the node. The parts
 *   are the node's four grandchildren (section 5.2: the chains of grandchild p together are the
 *   paper's boundary-edge subset C_p, which may come in several chains); near the leaves, where a
 *   node has no grandchild above a triangle, that triangle is a part of its own, so that small
 *   nodes (the only ones with a narrow normal cone on a thin rod or shell) can be culled too.
 * - `loop`: whether that contour is one closed edge loop (every contour vertex has one contour
 *   edge in and one out, and following them visits every edge). The culling theorem
 *   (nodeTests.ts) needs it; a node whose contour is several loops (a patch with a hole, two
 *   separate patches, a ring around a rod) or none is never culled.
 *
 * Triangles move; topology does not: a new motion only needs new cones (nodeTests.ts). The tree is
 * rebuilt (SelfCulling) when the surface has moved far from where it was built.
 */
import { buildSurfaceBvh } from '../../bvh/buildSurfaceBvh';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, type SurfaceBvh } from '../../bvh/surfaceBvh';
import { runsFrom, type CullingSurface } from './surfaceTopology';

export interface CullingTree {
  object: number;
  bvh: SurfaceBvh;
  nodeCount: number;
  /** Global triangle id per position of the tree's triangle order. */
  triangleAt: Uint32Array;
  /** Per node: [rangeStart, rangeEnd) of positions in triangleAt. */
  rangeStart: Uint32Array;
  rangeEnd: Uint32Array;
  /** Per node: left child (right = left + 1), or -1 for a leaf. */
  left: Int32Array;
  /** Per node: 1 when it holds an irregular triangle (surfaceTopology.ts): never culled. */
  irregular: Uint8Array;
  /** Per node: 1 when its contour is one closed loop. */
  loop: Uint8Array;
  /** CSR per node: its contour edges contourFrom[k] -> contourTo[k] (edge contourEdge[k] of the surface), in loop order where `loop`. */
  contourOffset: Uint32Array;
  contourFrom: Uint32Array;
  contourTo: Uint32Array;
  contourEdge: Uint32Array;
  /**
   * CSR per node (where `loop`): its chains; chain c covers contour edges [chainStart[c],
   * chainEnd[c]) of part chainPart[c] (a grandchild's node id, or nodeCount + the triangle's
   * position in triangleAt).
   */
  chainOffset: Uint32Array;
  chainStart: Uint32Array;
  chainEnd: Uint32Array;
  chainPart: Uint32Array;
}

/** Scratch arrays shared by the builds on one thread (grown on demand). */
const scratch = { stampOut: new Int32Array(0), stampIn: new Int32Array(0), outEdge: new Uint32Array(0), stamp: 0 };

function ensureScratch(vertexCount: number): void {
  if (scratch.stampOut.length < vertexCount) {
    scratch.stampOut = new Int32Array(vertexCount).fill(-1);
    scratch.stampIn = new Int32Array(vertexCount).fill(-1);
    scratch.outEdge = new Uint32Array(vertexCount);
    scratch.stamp = 0;
  }
}

/**
 * Builds the tree of `object` over its triangles `objectTriangles` (global ids) at `positions`
 * (xyz per vertex, the whole scene).
 */
export function buildCullingTree(surface: CullingSurface, object: number, objectTriangles: Uint32Array, positions: ArrayLike<number>): CullingTree {
  const m = objectTriangles.length;
  const local = new Uint32Array(3 * m);
  for (let i = 0; i < m; i++) {
    const t = objectTriangles[i];
    local[3 * i] = surface.triangles[3 * t];
    local[3 * i + 1] = surface.triangles[3 * t + 1];
    local[3 * i + 2] = surface.triangles[3 * t + 2];
  }
  const bvh = buildSurfaceBvh(positions, local);
  const nodeCount = bvh.nodeCount;
  const words = bvh.nodeWords;
  const triangleAt = new Uint32Array(m);
  for (let k = 0; k < m; k++) triangleAt[k] = objectTriangles[bvh.triangleOrder[k]];
  const left = new Int32Array(nodeCount);
  const parent = new Int32Array(nodeCount).fill(-1);
  const depth = new Uint32Array(nodeCount);
  const rangeStart = new Uint32Array(nodeCount), rangeEnd = new Uint32Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    const o = node * BVH_NODE_WORDS;
    if (words[o + BVH_COUNT] > 0) {
      left[node] = -1;
      continue;
    }
    const l = words[o + BVH_LINK];
    left[node] = l;
    parent[l] = parent[l + 1] = node;
    depth[l] = depth[l + 1] = depth[node] + 1;
  }
  // Children are stored after their parent: one backward pass gives each node's range.
  const leafOf = new Int32Array(surface.triangleCount).fill(-1);
  const irregular = new Uint8Array(nodeCount);
  for (let node = nodeCount - 1; node >= 0; node--) {
    const l = left[node];
    if (l < 0) {
      const o = node * BVH_NODE_WORDS;
      rangeStart[node] = words[o + BVH_LINK];
      rangeEnd[node] = words[o + BVH_LINK] + words[o + BVH_COUNT];
      for (let k = rangeStart[node]; k < rangeEnd[node]; k++) {
        leafOf[triangleAt[k]] = node;
        if (surface.irregular[triangleAt[k]]) irregular[node] = 1;
      }
    } else {
      rangeStart[node] = rangeStart[l];
      rangeEnd[node] = rangeEnd[l + 1];
      irregular[node] = irregular[l] | irregular[l + 1];
    }
  }
  const position = new Uint32Array(surface.triangleCount);
  for (let k = 0; k < m; k++) position[triangleAt[k]] = k;

  // Contour edges: an edge whose triangles lie in leaves L1 != L2 is on the contour of every node
  // from L1 (L2) up to, not including, their lowest common ancestor, directed as the triangle on
  // that side runs along it. Two passes: count per node, then fill. (Each edge is on the contours
  // of about twice the depth of its two leaves below their common ancestor: summed over the
  // tree a few times the edge count.)
  const contourOffset = new Uint32Array(nodeCount + 1);
  const { edges, edgeTriangles, triangles } = surface;
  let contourFrom = new Uint32Array(0), contourTo = new Uint32Array(0), contourPart = new Uint32Array(0), contourEdge = new Uint32Array(0);
  let cursor = new Uint32Array(0);
  for (let pass = 0; pass < 2; pass++) {
    const fill = pass === 1;
    if (fill) {
      for (let node = 0; node < nodeCount; node++) contourOffset[node + 1] += contourOffset[node];
      const total = contourOffset[nodeCount];
      contourFrom = new Uint32Array(total);
      contourTo = new Uint32Array(total);
      contourPart = new Uint32Array(total);
      contourEdge = new Uint32Array(total);
      cursor = contourOffset.slice(0, nodeCount);
    }
    for (let e = 0; e < surface.edgeCount; e++) {
      const t1 = edgeTriangles[2 * e], t2 = edgeTriangles[2 * e + 1];
      if (t1 < 0 || surface.triangleObject[t1] !== object || (t2 < 0 && !surface.open[e])) continue;
      // An open edge is on the contour of every node holding its triangle, the root included.
      const a = leafOf[t1], b = t2 >= 0 ? leafOf[t2] : -1;
      if (a < 0 || a === b) continue;
      let lca = -1;
      if (b >= 0) {
        let x = a, y = b;
        while (depth[x] > depth[y]) x = parent[x];
        while (depth[y] > depth[x]) y = parent[y];
        while (x !== y) {
          x = parent[x];
          y = parent[y];
        }
        lca = x;
      }
      const u = edges[2 * e], v = edges[2 * e + 1];
      for (let side = 0; side < (b >= 0 ? 2 : 1); side++) {
        const forward = runsFrom(triangles, side === 0 ? t1 : t2, u, v);
        let node = side === 0 ? a : b, below1 = -1, below2 = -1;
        while (node !== lca && node >= 0) {
          if (fill) {
            const k = cursor[node]++;
            contourFrom[k] = forward ? u : v;
            contourTo[k] = forward ? v : u;
            contourEdge[k] = e;
            // The part of the node that holds the inner triangle: its grandchild (paper 002
            // section 5.2), or the triangle itself when the node is a leaf or the triangle's
            // leaf is its child.
            contourPart[k] = below2 >= 0 ? below2 : nodeCount + position[side === 0 ? t1 : t2];
          } else contourOffset[node + 1]++;
          below2 = below1;
          below1 = node;
          node = parent[node];
        }
      }
    }
  }

  // Per node: order the contour along its loop and cut it into chains.
  ensureScratch(surface.vertexCount);
  const loop = new Uint8Array(nodeCount);
  const chainOffset = new Uint32Array(nodeCount + 1);
  const chainStartList: number[] = [], chainEndList: number[] = [], chainPartList: number[] = [];
  let order = new Uint32Array(64), bufFrom = new Uint32Array(64), bufTo = new Uint32Array(64), bufPart = new Uint32Array(64), bufEdge = new Uint32Array(64);
  for (let node = 0; node < nodeCount; node++) {
    chainOffset[node + 1] = chainOffset[node];
    const begin = contourOffset[node], end = contourOffset[node + 1], count = end - begin;
    if (count < 3) continue;
    const stamp = ++scratch.stamp;
    const { stampOut, stampIn, outEdge } = scratch;
    let ok = true;
    for (let k = begin; k < end && ok; k++) {
      const f = contourFrom[k], t = contourTo[k];
      if (stampOut[f] === stamp || stampIn[t] === stamp) ok = false;
      stampOut[f] = stamp;
      stampIn[t] = stamp;
      outEdge[f] = k;
    }
    for (let k = begin; k < end && ok; k++) if (stampOut[contourTo[k]] !== stamp) ok = false;
    if (!ok) continue;
    if (order.length < count) {
      order = new Uint32Array(2 * count);
      bufFrom = new Uint32Array(2 * count);
      bufTo = new Uint32Array(2 * count);
      bufPart = new Uint32Array(2 * count);
      bufEdge = new Uint32Array(2 * count);
    }
    let k = begin, visited = 0;
    do {
      order[visited++] = k;
      k = outEdge[contourTo[k]];
    } while (k !== begin && visited <= count);
    if (visited !== count || k !== begin) continue;
    loop[node] = 1;
    // Start the loop where the part changes (if it never does, the loop is one chain).
    let first = 0;
    for (let i = 0; i < count; i++) {
      if (contourPart[order[i]] !== contourPart[order[(i + count - 1) % count]]) {
        first = i;
        break;
      }
    }
    for (let i = 0; i < count; i++) {
      const src = order[(first + i) % count];
      bufFrom[i] = contourFrom[src];
      bufTo[i] = contourTo[src];
      bufPart[i] = contourPart[src];
      bufEdge[i] = contourEdge[src];
    }
    for (let i = 0; i < count; i++) {
      contourFrom[begin + i] = bufFrom[i];
      contourTo[begin + i] = bufTo[i];
      contourPart[begin + i] = bufPart[i];
      contourEdge[begin + i] = bufEdge[i];
    }
    let chainBegin = 0;
    for (let i = 1; i <= count; i++) {
      if (i === count || bufPart[i] !== bufPart[i - 1]) {
        chainStartList.push(begin + chainBegin);
        chainEndList.push(begin + i);
        chainPartList.push(bufPart[chainBegin]);
        chainOffset[node + 1]++;
        chainBegin = i;
      }
    }
  }
  return {
    object, bvh, nodeCount, triangleAt, rangeStart, rangeEnd, left, irregular, loop,
    contourOffset, contourFrom, contourTo, contourEdge,
    chainOffset, chainStart: Uint32Array.from(chainStartList), chainEnd: Uint32Array.from(chainEndList), chainPart: Uint32Array.from(chainPartList),
  };
}
