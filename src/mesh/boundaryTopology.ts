/**
 * Boundary surface topology: edges with their two triangles (hash-matched in typed arrays),
 * boundary vertices, and per-vertex CSR lists of incident triangles and neighbours.
 */
import { hash3, tableSizeFor } from './faceTopology';
import { vertexIncidence } from './vertexIncidence';
import { listIds } from './errors';
import { IssueCollector, describeTet, type MeshSourceInfo } from './validate';

export interface BoundaryTopology {
  boundaryEdges: Uint32Array;
  boundaryEdgeTriangles: Uint32Array;
  boundaryVertices: Uint32Array;
  vertexTriangleOffsets: Uint32Array;
  vertexTriangles: Uint32Array;
  vertexNeighborOffsets: Uint32Array;
  vertexNeighbors: Uint32Array;
}

/**
 * The boundary of a union of tets is a closed surface, but two tets touching only along an
 * edge make that edge belong to 4 boundary triangles. Such a surface is not a 2-manifold and
 * has no single "other side" across the edge, which the shortest-path traversal relies on, so
 * it is rejected naming the tets around the edge.
 */
export function computeBoundaryTopology(
  vertexCount: number,
  triangles: Uint32Array,
  triangleTet: Uint32Array,
  info: MeshSourceInfo,
): BoundaryTopology {
  const triCount = triangles.length / 3;
  const maxEdges = 3 * triCount;
  const edgeVerts = new Uint32Array(2 * maxEdges);
  const edgeTris = new Int32Array(2 * maxEdges).fill(-1);
  const table = new Int32Array(tableSizeFor(maxEdges)).fill(-1);
  const mask = table.length - 1;
  const excess: number[] = []; // [edge, triangle] pairs beyond the second triangle
  let edgeCount = 0;
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const u = triangles[3 * t + k], w = triangles[3 * t + ((k + 1) % 3)];
      const lo = u < w ? u : w, hi = u < w ? w : u;
      let slot = hash3(lo, hi, 0x5bd1e995) & mask;
      for (;;) {
        const e = table[slot];
        if (e < 0) {
          const n = edgeCount++;
          table[slot] = n;
          edgeVerts[2 * n] = lo;
          edgeVerts[2 * n + 1] = hi;
          edgeTris[2 * n] = t;
          break;
        }
        if (edgeVerts[2 * e] === lo && edgeVerts[2 * e + 1] === hi) {
          if (edgeTris[2 * e + 1] < 0) edgeTris[2 * e + 1] = t;
          else excess.push(e, t);
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }

  const out = new IssueCollector(info);
  if (excess.length > 0) {
    const edges = new Map<number, number[]>();
    for (let i = 0; i < excess.length; i += 2) {
      const e = excess[i];
      let tris = edges.get(e);
      if (!tris) edges.set(e, (tris = [edgeTris[2 * e], edgeTris[2 * e + 1]]));
      tris.push(excess[i + 1]);
    }
    const ids = [...edges.keys()];
    const describe = (e: number): string =>
      `${edgeVerts[2 * e]}-${edgeVerts[2 * e + 1]} (tets ${edges.get(e)!.map((t) => describeTet(triangleTet[t], info)).join(', ')})`;
    out.addMessage(
      `${ids.length} boundary edges shared by more than two boundary triangles (non-manifold boundary): ${listIds(ids, describe)}`,
    );
    for (const e of ids) for (const t of edges.get(e)!) out.issues.push({ message: 'tet at a non-manifold boundary edge', element: triangleTet[t] });
  }
  const open: number[] = [];
  for (let e = 0; e < edgeCount; e++) if (edgeTris[2 * e + 1] < 0) open.push(triangleTet[edgeTris[2 * e]]);
  // Cannot happen for a face-matched tet mesh (every boundary edge has an even number of
  // triangles); checked because the contract promises two triangles per edge.
  out.addTets(open, 'owning a boundary edge with a single boundary triangle');
  out.throwIfAny();

  const boundaryEdges = edgeVerts.slice(0, 2 * edgeCount);
  const boundaryEdgeTriangles = new Uint32Array(edgeTris.subarray(0, 2 * edgeCount));

  const { offsets: vertexTriangleOffsets, ids: vertexTriangles } = vertexIncidence(triangles, 3, vertexCount);

  const vertexNeighborOffsets = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < boundaryEdges.length; i++) vertexNeighborOffsets[boundaryEdges[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) vertexNeighborOffsets[v + 1] += vertexNeighborOffsets[v];
  const vertexNeighbors = new Uint32Array(boundaryEdges.length);
  const fill = vertexNeighborOffsets.slice(0, vertexCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = boundaryEdges[2 * e], b = boundaryEdges[2 * e + 1];
    vertexNeighbors[fill[a]++] = b;
    vertexNeighbors[fill[b]++] = a;
  }
  // Ascending neighbours per vertex: deterministic and binary-searchable.
  for (let v = 0; v < vertexCount; v++) {
    const s = vertexNeighborOffsets[v], e = vertexNeighborOffsets[v + 1];
    if (e - s > 1) vertexNeighbors.subarray(s, e).sort();
  }

  let boundaryVertexCount = 0;
  for (let v = 0; v < vertexCount; v++) if (vertexTriangleOffsets[v + 1] > vertexTriangleOffsets[v]) boundaryVertexCount++;
  const boundaryVertices = new Uint32Array(boundaryVertexCount);
  let k = 0;
  for (let v = 0; v < vertexCount; v++) if (vertexTriangleOffsets[v + 1] > vertexTriangleOffsets[v]) boundaryVertices[k++] = v;

  return {
    boundaryEdges,
    boundaryEdgeTriangles,
    boundaryVertices,
    vertexTriangleOffsets,
    vertexTriangles,
    vertexNeighborOffsets,
    vertexNeighbors,
  };
}
