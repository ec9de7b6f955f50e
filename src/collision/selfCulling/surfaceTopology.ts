/**
 * The surface facts self-collision culling needs beyond the CCD topology (collision/ccd/
 * broadPhase.ts CcdTopology): each boundary edge's two triangles (with the direction each one
 * runs along it), each vertex's triangles, each triangle's object. Computed once per topology from
 * its own arrays (no trust in other tables), typed arrays only.
 *
 * The boundary of a tet mesh is closed: every edge has two triangles, running along it in
 * opposite directions. The culling also takes open surfaces (a sheet, a pipe: the paper's cloth
 * and pipe benchmarks): an edge with one triangle is an `open` edge of the surface (the paper's
 * "original boundary edge"). An edge with more than two triangles, or two running the same way (a
 * non-manifold or inconsistently wound surface), marks its triangles `irregular`: a BVH node that
 * holds one is never culled, since the culling theorem needs a consistently oriented manifold
 * surface whose node boundaries are edge loops.
 */
import type { CcdTopology } from '../ccd/broadPhase';
import { vertexIncidence } from '../../mesh/vertexIncidence';

export interface CullingSurface {
  vertexCount: number;
  /** 3 vertex ids per triangle (CcdTopology.triangles, by reference). */
  triangles: Uint32Array;
  triangleCount: number;
  /** 2 vertex ids per edge (CcdTopology.edges, by reference). */
  edges: Uint32Array;
  edgeCount: number;
  /** Per edge its two triangles (the second is -1 for an open edge, or when the edge is irregular). */
  edgeTriangles: Int32Array;
  /** 1 for an edge with exactly one triangle (the surface's own boundary). */
  open: Uint8Array;
  /** Per triangle (a, b, c) the edges ab, bc, ca (-1 where the edge list lacks one). */
  triangleEdges: Int32Array;
  /** CSR vertex -> triangles. */
  vertexTriangleOffsets: Uint32Array;
  vertexTriangles: Uint32Array;
  /** Object id per triangle (its first vertex's). */
  triangleObject: Uint32Array;
  objectCount: number;
  /** 1 for a triangle on an edge with more than two triangles or two running the same way, or on an edge missing from the list. */
  irregular: Uint8Array;
}

/** Whether triangle t = (a, b, c) runs from u to v along one of its sides. */
export function runsFrom(triangles: Uint32Array, t: number, u: number, v: number): boolean {
  const a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
  return (a === u && b === v) || (b === u && c === v) || (c === u && a === v);
}

export function cullingSurfaceOf(topo: CcdTopology): CullingSurface {
  const { triangles, edges, vertexObject } = topo;
  const n = topo.vertexCount;
  const triangleCount = triangles.length / 3, edgeCount = edges.length / 2;
  const { offsets: vertexTriangleOffsets, ids: vertexTriangles } = vertexIncidence(triangles, 3, n);

  const triangleObject = new Uint32Array(triangleCount);
  let objectCount = 0;
  for (let t = 0; t < triangleCount; t++) {
    triangleObject[t] = vertexObject[triangles[3 * t]];
    objectCount = Math.max(objectCount, triangleObject[t] + 1);
  }

  // Edge -> triangles through the triangles at the edge's first vertex (CSR above): no hash.
  const edgeTriangles = new Int32Array(2 * edgeCount).fill(-1);
  const irregular = new Uint8Array(triangleCount);
  const open = new Uint8Array(edgeCount);
  const sides = new Uint8Array(triangleCount); // edges of the triangle found in the edge list
  const triangleEdges = new Int32Array(3 * triangleCount).fill(-1);
  for (let e = 0; e < edgeCount; e++) {
    const u = edges[2 * e], v = edges[2 * e + 1];
    let found = 0, forward = 0;
    for (let j = vertexTriangleOffsets[u]; j < vertexTriangleOffsets[u + 1]; j++) {
      const t = vertexTriangles[j];
      const f = runsFrom(triangles, t, u, v), b = runsFrom(triangles, t, v, u);
      if (!f && !b) continue;
      if (found < 2) edgeTriangles[2 * e + found] = t;
      found++;
      for (let k = 0; k < 3; k++) {
        const p = triangles[3 * t + k], q = triangles[3 * t + ((k + 1) % 3)];
        if ((p === u && q === v) || (p === v && q === u)) triangleEdges[3 * t + k] = e;
      }
      if (f) forward++;
      sides[t]++;
    }
    if (found === 1) {
      open[e] = 1;
      continue;
    }
    if (found !== 2 || forward !== 1) {
      edgeTriangles[2 * e + 1] = -1;
      for (let j = vertexTriangleOffsets[u]; j < vertexTriangleOffsets[u + 1]; j++) {
        const t = vertexTriangles[j];
        if (runsFrom(triangles, t, u, v) || runsFrom(triangles, t, v, u)) irregular[t] = 1;
      }
    }
  }
  for (let t = 0; t < triangleCount; t++) if (sides[t] !== 3) irregular[t] = 1;
  return {
    vertexCount: n, triangles, triangleCount, edges, edgeCount, edgeTriangles, open, triangleEdges,
    vertexTriangleOffsets, vertexTriangles, triangleObject, objectCount, irregular,
  };
}
