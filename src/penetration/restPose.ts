/**
 * The rest pose as the penetration methods see it (paper 000 section 5.5; Fisher and Lin 2001
 * section 4): the scene mesh's arrays of src/spb at the rest positions, with its own surface BVH
 * built there and never refitted. The rest pose is the model's rest positions (the shape each
 * object has no elastic energy in), which the methods assume free of self-intersections, as the
 * paper does ("the rest shape of the model that does not contain self-collisions").
 */
import type { TetMesh } from '../mesh/types';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../spb/meshData';

export function createRestPose(mesh: TetMesh, restPositions: ArrayLike<number>): SpbMeshData {
  if (restPositions.length !== 3 * mesh.vertexCount) {
    throw new RangeError(`rest pose: ${restPositions.length} coordinates for a mesh of ${mesh.vertexCount} vertices (${3 * mesh.vertexCount} expected)`);
  }
  const rest = createSpbMeshData(mesh);
  // In float64 (the mesh holds float32 copies) and with the BVH refitted to them.
  updateSpbMeshData(rest, restPositions);
  return rest;
}
