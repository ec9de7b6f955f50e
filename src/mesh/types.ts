/**
 * The tet-mesh data contract shared by every layer. Structure-of-arrays, typed arrays only.
 *
 * Local face convention (used everywhere: topology, traversal, shaders). For a positively
 * oriented tet (a, b, c, d), det[b-a, c-a, d-a] > 0, face i is the face opposite local vertex i,
 * wound so that its normal (v1-v0) x (v2-v0) points out of the tet:
 *   face 0 = (b, c, d), face 1 = (a, d, c), face 2 = (a, b, d), face 3 = (a, c, b).
 */
export const TET_FACES: readonly (readonly [number, number, number])[] = [
  [1, 2, 3],
  [0, 3, 2],
  [0, 1, 3],
  [0, 2, 1],
];

/** Plain arrays as they come from a loader or a generator, before topology is derived. */
export interface TetMeshArrays {
  /** xyz per vertex. */
  positions: Float32Array;
  /** 4 vertex ids per tet. */
  tets: Uint32Array;
}

/** A validated tet mesh with its derived topology (computed once). */
export interface TetMesh extends TetMeshArrays {
  readonly vertexCount: number;
  readonly tetCount: number;
  /** 4 per tet: the tet across local face i, or -1 on the boundary. */
  readonly tetNeighbors: Int32Array;
  /** 3 vertex ids per boundary triangle, outward oriented. */
  readonly boundaryTriangles: Uint32Array;
  /** Per boundary triangle: the tet that owns it and the local face index (0..3) in that tet. */
  readonly boundaryTriangleTet: Uint32Array;
  readonly boundaryTriangleFace: Uint8Array;
  /** 2 vertex ids per boundary edge (smaller id first), and its 2 adjacent boundary triangles. */
  readonly boundaryEdges: Uint32Array;
  readonly boundaryEdgeTriangles: Uint32Array;
  /** Sorted ids of the vertices on the boundary. */
  readonly boundaryVertices: Uint32Array;
  /** CSR per vertex (length vertexCount + 1 offsets): incident boundary triangles. Empty for interior vertices. */
  readonly vertexTriangleOffsets: Uint32Array;
  readonly vertexTriangles: Uint32Array;
  /** CSR per vertex: neighbouring boundary vertices (across boundary edges). */
  readonly vertexNeighborOffsets: Uint32Array;
  readonly vertexNeighbors: Uint32Array;
  /** Signed rest volume per tet (positive after validation). */
  readonly restVolumes: Float64Array;
  /** Object id per vertex and per tet (scenes with many objects share one mesh). */
  readonly vertexObject: Uint32Array;
  readonly tetObject: Uint32Array;
}

/** A problem found while reading or validating a mesh. */
export interface MeshIssue {
  message: string;
  /** 1-based line in the source file, when known. */
  line?: number;
  /** Element (tet) or vertex id, when the problem is one element. */
  element?: number;
}
