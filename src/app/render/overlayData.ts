/**
 * Overlay arrays (for OverlayView) from buffers the page reads back asynchronously:
 *
 *   const { points, segments } = penetrationOverlay(positionsVec4, depthVec4);
 *   overlays.setPoints(points); overlays.setSegments('paths', segments);
 *   overlays.setBoxes(bvhLevelBoxes(nodesReadBack, 4));
 *
 * penetrationOverlay: per vertex with depth w > 0 in the depth buffer (vec4: xyz the boundary
 * target of its shortest path, w the depth), the point and the segment point -> target.
 * bvhLevelBoxes: the boxes of the surface BVH nodes at one depth (root = 0), in the flat node
 * layout of src/bvh/surfaceBvh.ts (8 words per node, children after their parent).
 */
import { BVH_COUNT, BVH_HI, BVH_LINK, BVH_LO, BVH_NODE_WORDS } from '../../bvh/surfaceBvh';

export function penetrationOverlay(positions: Float32Array, depth: Float32Array): { points: Float32Array; segments: Float32Array } {
  if (positions.length % 4 !== 0 || depth.length % 4 !== 0) {
    throw new Error(`penetrationOverlay: positions (${positions.length}) and depth (${depth.length}) need 4 floats per vertex`);
  }
  const n = Math.min(positions.length, depth.length) / 4;
  let count = 0;
  for (let v = 0; v < n; v++) if (depth[4 * v + 3] > 0) count++;
  const points = new Float32Array(3 * count);
  const segments = new Float32Array(6 * count);
  for (let v = 0, k = 0; v < n; v++) {
    if (!(depth[4 * v + 3] > 0)) continue;
    for (let c = 0; c < 3; c++) {
      points[3 * k + c] = positions[4 * v + c];
      segments[6 * k + c] = positions[4 * v + c];
      segments[6 * k + 3 + c] = depth[4 * v + c];
    }
    k++;
  }
  return { points, segments };
}

/**
 * Boxes (min xyz, max xyz) of the nodes at depth `level`; a leaf above that depth has no node
 * there and contributes nothing. `nodes` is the node array as read back (ArrayBuffer or a
 * Float32Array view of it).
 */
export function bvhLevelBoxes(nodes: ArrayBuffer | Float32Array, level: number): Float32Array {
  if (!(Number.isInteger(level) && level >= 0)) throw new RangeError(`bvhLevelBoxes: level ${level} must be an integer >= 0`);
  const f = nodes instanceof Float32Array ? nodes : new Float32Array(nodes);
  const w = new Uint32Array(f.buffer, f.byteOffset, f.length);
  const nodeCount = Math.floor(f.length / BVH_NODE_WORDS);
  if (nodeCount === 0) return new Float32Array(0);
  let frontier = [0];
  for (let d = 0; d < level && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const node of frontier) {
      const o = node * BVH_NODE_WORDS;
      if (w[o + BVH_COUNT] !== 0) continue; // a leaf: nothing below it
      const left = w[o + BVH_LINK];
      if (!(left > node && left + 1 < nodeCount)) throw new Error(`bvhLevelBoxes: node ${node} names child ${left}, outside (${node}, ${nodeCount})`);
      next.push(left, left + 1);
    }
    frontier = next;
  }
  const boxes = new Float32Array(6 * frontier.length);
  frontier.forEach((node, i) => {
    const o = node * BVH_NODE_WORDS;
    for (let c = 0; c < 3; c++) {
      boxes[6 * i + c] = f[o + BVH_LO + c];
      boxes[6 * i + 3 + c] = f[o + BVH_HI + c];
    }
  });
  return boxes;
}
