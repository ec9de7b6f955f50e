/**
 * The drawable surface of a scene: the boundary triangles of every object (from the scene's
 * tets, global vertex ids, grouped by object) and, for vertex normals, the CSR
 * boundary vertex -> incident boundary triangles that shaders/vertexNormals.wgsl walks (each
 * vertex sums its own triangles, so no float atomics are needed).
 *
 *   const surface = buildSceneSurface(model);
 *   surface.triangles.subarray(3 * surface.objectTriangleOffsets[o], 3 * surface.objectTriangleOffsets[o + 1])
 *     // object o's triangles, outward wound, global vertex ids
 */
import { computeFaceTopology } from '../../mesh/faceTopology';

/** What the surface needs from a Model (sim/model.ts); any object with these arrays will do. */
export interface SceneTopologySource {
  readonly vertexCount: number;
  /** 4 global vertex ids per tet, positively oriented. */
  readonly tets: Uint32Array;
  /** Objects own contiguous vertex ranges [offsets[o], offsets[o+1]). */
  readonly objectVertexOffsets: Uint32Array;
  readonly vertexObject: Uint32Array;
  /** xyz per vertex: used for the mean boundary edge length. */
  readonly restPositions: ArrayLike<number>;
}

export interface SceneSurface {
  readonly vertexCount: number;
  readonly objectCount: number;
  readonly objectVertexOffsets: Uint32Array;
  /** 3 global vertex ids per boundary triangle, outward wound, object 0's first. */
  readonly triangles: Uint32Array;
  /** Object o's triangles are [objectTriangleOffsets[o], objectTriangleOffsets[o+1]). */
  readonly objectTriangleOffsets: Uint32Array;
  /** Ascending global ids of the vertices on some boundary triangle. */
  readonly boundaryVertices: Uint32Array;
  /** CSR over boundaryVertices (length boundaryVertices.length + 1): incident triangles. */
  readonly vertexTriangleOffsets: Uint32Array;
  readonly vertexTriangles: Uint32Array;
  /** Mean length of the boundary edges at the rest positions (the tint's depth scale unit). */
  readonly meanEdgeLength: number;
}

export function buildSceneSurface(model: SceneTopologySource): SceneSurface {
  const n = model.vertexCount;
  const objectCount = model.objectVertexOffsets.length - 1;
  if (objectCount < 1) throw new Error('buildSceneSurface: the model has no objects (objectVertexOffsets needs at least 2 entries)');
  if (model.objectVertexOffsets[objectCount] !== n) {
    throw new Error(`buildSceneSurface: objectVertexOffsets ends at ${model.objectVertexOffsets[objectCount]}, the model has ${n} vertices`);
  }
  if (model.restPositions.length !== 3 * n) {
    throw new Error(`buildSceneSurface: restPositions has ${model.restPositions.length} numbers for ${n} vertices (3 each)`);
  }
  const faces = computeFaceTopology(model.tets, { source: 'scene' });
  const all = faces.boundaryTriangles;
  const triCount = all.length / 3;

  // Group by object (counting sort; objects share no vertices, so a triangle's first vertex names it).
  const objectTriangleOffsets = new Uint32Array(objectCount + 1);
  for (let t = 0; t < triCount; t++) objectTriangleOffsets[model.vertexObject[all[3 * t]] + 1]++;
  for (let o = 0; o < objectCount; o++) objectTriangleOffsets[o + 1] += objectTriangleOffsets[o];
  const cursor = objectTriangleOffsets.slice(0, objectCount);
  const triangles = new Uint32Array(all.length);
  for (let t = 0; t < triCount; t++) {
    const k = cursor[model.vertexObject[all[3 * t]]]++;
    triangles[3 * k] = all[3 * t];
    triangles[3 * k + 1] = all[3 * t + 1];
    triangles[3 * k + 2] = all[3 * t + 2];
  }

  // Incident triangles per vertex, then compacted to the boundary vertices.
  const perVertex = new Uint32Array(n + 1);
  for (let i = 0; i < triangles.length; i++) perVertex[triangles[i] + 1]++;
  let boundaryCount = 0;
  for (let v = 0; v < n; v++) if (perVertex[v + 1] > 0) boundaryCount++;
  const boundaryVertices = new Uint32Array(boundaryCount);
  const slot = new Int32Array(n).fill(-1);
  const vertexTriangleOffsets = new Uint32Array(boundaryCount + 1);
  for (let v = 0, b = 0; v < n; v++) {
    if (perVertex[v + 1] === 0) continue;
    boundaryVertices[b] = v;
    slot[v] = b;
    vertexTriangleOffsets[b + 1] = vertexTriangleOffsets[b] + perVertex[v + 1];
    b++;
  }
  const fill = vertexTriangleOffsets.slice(0, boundaryCount);
  const vertexTriangles = new Uint32Array(triangles.length);
  for (let i = 0; i < triangles.length; i++) vertexTriangles[fill[slot[triangles[i]]]++] = (i / 3) | 0;

  // Every boundary edge lies on exactly two triangles, so the mean over triangle sides is the mean over edges.
  const p = model.restPositions;
  let sum = 0;
  for (let t = 0; t < triangles.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[3 * t + k], b = triangles[3 * t + ((k + 1) % 3)];
      sum += Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
    }
  }
  const meanEdgeLength = triangles.length > 0 ? sum / triangles.length : 0;

  return {
    vertexCount: n,
    objectCount,
    objectVertexOffsets: model.objectVertexOffsets,
    triangles,
    objectTriangleOffsets,
    boundaryVertices,
    vertexTriangleOffsets,
    vertexTriangles,
    meanEdgeLength,
  };
}
