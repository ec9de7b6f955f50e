/**
 * buildTetMesh: validate raw tet arrays and derive every piece of topology in the TetMesh
 * contract (types.ts), in linear time (hash-matched faces and edges, CSR lists).
 */
import { computeBoundaryTopology } from './boundaryTopology';
import { dropUnusedVertices } from './compact';
import { computeFaceTopology } from './faceTopology';
import { listIds } from './errors';
import { findNonManifoldVertices } from './nonManifoldVertices';
import type { MeshIssue, TetMesh, TetMeshArrays } from './types';
import { IssueCollector, validateOrientation, validateStructure, type MeshSourceInfo } from './validate';

export { mergeTetMeshes, type MergedTetMeshes } from './merge';
export { computeVertexMasses } from './mass';

export interface BuildTetMeshOptions extends MeshSourceInfo {
  /** Object id per tet (scenes with many objects in one mesh). Defaults to 0 for every tet. */
  objectIds?: Uint32Array;
}

export interface BuildTetMeshResult {
  mesh: TetMesh;
  /** Problems repaired (unused vertices dropped, inverted mesh flipped) or tolerated (pinched boundary vertices). */
  warnings: MeshIssue[];
}

const UNSET = 0xffffffff;

/**
 * Per-vertex object id from the per-tet ids. A vertex used by tets of two objects would glue
 * the objects together, contradicting "separate objects", so it is an error.
 */
function vertexObjects(vertexCount: number, tets: Uint32Array, tetObject: Uint32Array, info: MeshSourceInfo): Uint32Array {
  const out = new Uint32Array(vertexCount).fill(UNSET);
  const conflicts: number[] = [];
  for (let i = 0; i < tets.length; i++) {
    const v = tets[i], o = tetObject[i >> 2];
    if (out[v] === UNSET) out[v] = o;
    else if (out[v] !== o) conflicts.push(v);
  }
  if (conflicts.length > 0) {
    const unique = [...new Set(conflicts)].sort((x, y) => x - y);
    const collector = new IssueCollector(info);
    collector.addVertices(unique, 'shared by tets of different objects');
    collector.throwIfAny();
  }
  return out;
}

/**
 * Validates (throws MeshValidationError naming elements, and lines when `options` carries a
 * loader's vertexLines/tetLines) and derives topology. The mesh reuses the input's typed arrays
 * (and options.objectIds) when nothing had to be repaired: copy them first if the caller
 * mutates them afterwards.
 */
export function buildTetMesh(arrays: TetMeshArrays, options: BuildTetMeshOptions = {}): BuildTetMeshResult {
  const info: MeshSourceInfo = options;
  const warnings: MeshIssue[] = [];
  validateStructure(arrays, info);
  const tetCount = arrays.tets.length / 4;
  const tetObject = options.objectIds ?? new Uint32Array(tetCount);
  if (tetObject.length !== tetCount) {
    const collector = new IssueCollector(info);
    collector.addMessage(`objectIds has ${tetObject.length} entries but the mesh has ${tetCount} tets`);
    collector.throwIfAny();
  }

  const oriented = validateOrientation(arrays, info);
  if (oriented.flipped) {
    warnings.push({
      message: `every tet was inverted (negative volume); flipped all ${tetCount} tets (swapped local vertices 2 and 3)`,
    });
  }

  const compact = dropUnusedVertices(arrays.positions, oriented.tets);
  if (compact.dropped.length > 0) {
    warnings.push({
      message: `dropped ${compact.dropped.length} vertices used by no tet: ${listIds(compact.dropped)}`,
    });
  }
  const { positions, tets } = compact;
  const vertexCount = positions.length / 3;
  // Messages after compaction name tets (ids unchanged); vertex lines no longer match ids.
  const topoInfo: MeshSourceInfo = compact.remap ? { source: info.source, tetLines: info.tetLines } : info;

  const vertexObject = vertexObjects(vertexCount, tets, tetObject, topoInfo);
  const faces = computeFaceTopology(tets, topoInfo);
  const boundary = computeBoundaryTopology(vertexCount, faces.boundaryTriangles, faces.boundaryTriangleTet, topoInfo);

  const pinched = findNonManifoldVertices(
    boundary.boundaryVertices,
    faces.boundaryTriangles,
    boundary.vertexTriangleOffsets,
    boundary.vertexTriangles,
    boundary.vertexNeighborOffsets,
    boundary.vertexNeighbors,
  );
  if (pinched.length > 0) {
    warnings.push({
      message: `${pinched.length} boundary vertices where the surface touches itself (more than one triangle fan): ${listIds(pinched)}`,
    });
  }

  const restVolumes = new Float64Array(tetCount);
  for (let t = 0; t < tetCount; t++) restVolumes[t] = oriented.volumes6[t] / 6;

  const mesh: TetMesh = {
    positions,
    tets,
    vertexCount,
    tetCount,
    ...faces,
    ...boundary,
    restVolumes,
    vertexObject,
    tetObject,
  };
  return { mesh, warnings };
}
