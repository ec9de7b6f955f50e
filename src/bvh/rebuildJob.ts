/**
 * The BVH rebuild as a worker runs it (DESIGN.md: rebuilds in a worker pool on a schedule, GPU
 * refits in between): pure, no DOM, no GPU. Input is the GPU position layout (vec4 per vertex:
 * xyz + inverse mass, contract/state.ts) as read back from state.positions, so nothing is repacked on
 * the main thread; the result goes back with Comlink.transfer(bvh, surfaceBvhTransferables(bvh))
 * and is installed with SpbStage.replaceBvh.
 *
 * A refit keeps the tree's shape, so after a large deformation (a twist, a pile) sibling boxes
 * overlap more and more and the traversal visits more nodes; a rebuild restores a tight SAH tree
 * (README.md has the measured SAH costs).
 */
import { dropW } from '../gpu/buffers';
import { buildSurfaceBvh, BvhInputError } from './buildSurfaceBvh';
import type { SurfaceBvh } from './surfaceBvh';

/**
 * Builds a fresh SAH tree over `triangles` (3 global vertex ids per boundary triangle) at
 * `positions` (4 floats per vertex; w ignored). Throws BvhInputError naming the vertex or triangle
 * at fault (length not a multiple of 4, id out of range, non-finite coordinate).
 * The returned tree keeps `triangles` by reference.
 */
export function rebuildSurfaceBvhFromVec4(positions: Float32Array, triangles: Uint32Array): SurfaceBvh {
  if (!(positions instanceof Float32Array)) throw new BvhInputError('rebuildSurfaceBvhFromVec4: positions must be a Float32Array (vec4 per vertex)');
  if (!(triangles instanceof Uint32Array)) throw new BvhInputError('rebuildSurfaceBvhFromVec4: triangles must be a Uint32Array (3 vertex ids per triangle)');
  if (positions.length % 4 !== 0) {
    throw new BvhInputError(`rebuildSurfaceBvhFromVec4: positions length ${positions.length} is not a multiple of 4 (xyz + inverse mass per vertex)`);
  }
  // xyz in f32: the boxes are then exactly those the GPU refit computes from the same positions.
  return buildSurfaceBvh(dropW(positions), triangles);
}

/**
 * The buffers to transfer (not copy) when a worker returns `bvh`: the node array (nodes and
 * nodeWords share it) and triangleOrder, both fresh per build. Not `triangles`: it is the
 * caller's array, which a worker keeps across rebuilds (it is copied by the structured clone).
 * Distinct, and never a SharedArrayBuffer (postMessage rejects those in a transfer list).
 */
export function surfaceBvhTransferables(bvh: SurfaceBvh): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const b of [bvh.nodes.buffer, bvh.nodeWords.buffer, bvh.triangleOrder.buffer]) {
    if (b instanceof ArrayBuffer && b !== bvh.triangles.buffer && !out.includes(b)) out.push(b);
  }
  return out;
}
