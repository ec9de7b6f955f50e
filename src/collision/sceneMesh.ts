/**
 * The scene's collision mesh: one TetMesh over the model's merged arrays (every object, model
 * vertex order), so the solver, detection and the shortest-path query share vertex ids and the
 * one GPU position buffer (contract/state.ts). Built once per scene; its topology never changes.
 */
import { buildTetMesh } from '../mesh/tetMesh';
import type { TetMesh } from '../mesh/types';
import type { SceneArrays } from '../contract/sceneArrays';

export function buildSceneMesh(model: SceneArrays): TetMesh {
  const { mesh } = buildTetMesh(
    { positions: new Float32Array(model.restPositions), tets: new Uint32Array(model.tets) },
    { objectIds: new Uint32Array(model.tetObject) },
  );
  // The model's tets are positively oriented, so nothing may have been reordered: detection's
  // tet ids and the solver's must be the same.
  if (mesh.tetCount !== model.tetCount || mesh.vertexCount !== model.vertexCount) {
    throw new Error(`buildSceneMesh: the collision mesh has ${mesh.vertexCount} vertices / ${mesh.tetCount} tets, the model ${model.vertexCount} / ${model.tetCount}`);
  }
  for (let i = 0; i < mesh.tets.length; i++) {
    if (mesh.tets[i] !== model.tets[i]) throw new Error(`buildSceneMesh: tet ${i >> 2} was reordered while building the collision mesh; the model's tets must be positively oriented`);
  }
  return mesh;
}
