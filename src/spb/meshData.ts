/**
 * The flat arrays the shortest-path query reads (the same buffers the WGSL kernel binds):
 * positions in f64 for the CPU, tet topology, boundary triangles with their owning tet and
 * local face, triangle adjacency across edges and boundary vertex neighbours for the feasible
 * region (Alg. 4), a per-tet size for relative tolerances, and which tets are inverted.
 */
import { buildSurfaceBvh, refitSurfaceBvh, type SurfaceBvh } from '../bvh';
import type { TetMesh } from '../mesh/types';
import { SPB_INVERTED_LIST } from './settings';

export interface SpbMeshData {
  readonly vertexCount: number;
  readonly tetCount: number;
  readonly triangleCount: number;
  /** xyz per vertex (copied on update, f64). */
  readonly positions: Float64Array;
  readonly tets: Uint32Array;
  /** 4 per tet: neighbour across local face i, -1 on the boundary. */
  readonly tetNeighbors: Int32Array;
  /** 3 vertex ids per boundary triangle. */
  readonly triangles: Uint32Array;
  readonly triangleTet: Uint32Array;
  readonly triangleFace: Uint8Array;
  /** 3 per triangle: the boundary triangle across edge k (vertex k to k+1), -1 if not exactly one. */
  readonly triangleEdgeNeighbor: Int32Array;
  /** CSR per vertex: boundary neighbours (across boundary edges) and incident boundary triangles. */
  readonly vertexNeighborOffsets: Uint32Array;
  readonly vertexNeighbors: Uint32Array;
  readonly vertexTriangleOffsets: Uint32Array;
  readonly vertexTriangles: Uint32Array;
  /**
   * Connected component (across shared faces) per tet and per boundary triangle. A path can only
   * be valid inside one component, so triangles of other components are never candidates.
   */
  readonly tetComponent: Uint32Array;
  readonly triangleComponent: Uint32Array;
  /** Longest squared edge per tet (current positions): the local length scale h^2. */
  readonly tetSize2: Float64Array;
  /** 1 where the current signed volume is <= 0. */
  readonly tetInverted: Uint8Array;
  /** Number of inverted tets. */
  invertedCount: number;
  /**
   * Per component (indexed by its id, a tet id): 1 if it has an inverted tet. A traversal never
   * leaves its component, and only inverted tets make a ray travel backward, so the "beyond p"
   * cut of Alg. 1 line 25 stays on in every component without inversions (one inverted tet in
   * one object of a pile does not slow the others' queries).
   */
  readonly componentInverted: Uint8Array;
  /**
   * The first SPB_INVERTED_LIST inverted tets (by id; min(invertedCount, SPB_INVERTED_LIST) are
   * valid): culling is allowed only for candidates whose ball around p meets none of those in
   * p's component (query.ts cullingClearance2). The GPU prepass builds the same list (in another
   * order, which the clearance, a minimum, does not depend on).
   */
  readonly invertedTets: Uint32Array;
  /**
   * Bounding sphere of each listed inverted tet, 4 per entry: centroid xyz and the distance to
   * its farthest vertex (cullingGuard.ts; the WGSL kernel computes them on the fly).
   */
  readonly invertedSpheres: Float64Array;
  readonly bvh: SurfaceBvh;
}

/** Builds the triangle-across-edge table from the contract's boundary edges. */
function triangleEdgeNeighbors(mesh: TetMesh): Int32Array {
  const tris = mesh.boundaryTriangles;
  const out = new Int32Array(tris.length).fill(-1);
  const edges = mesh.boundaryEdges;
  const edgeTris = mesh.boundaryEdgeTriangles;
  const localEdge = (t: number, a: number, b: number): number => {
    for (let k = 0; k < 3; k++) {
      const u = tris[3 * t + k], v = tris[3 * t + ((k + 1) % 3)];
      if ((u === a && v === b) || (u === b && v === a)) return k;
    }
    throw new Error(`boundary edge (${a}, ${b}) is not an edge of its triangle ${t}`);
  };
  for (let e = 0; e < edges.length / 2; e++) {
    const a = edges[2 * e], b = edges[2 * e + 1];
    const t0 = edgeTris[2 * e], t1 = edgeTris[2 * e + 1];
    out[3 * t0 + localEdge(t0, a, b)] = t1;
    out[3 * t1 + localEdge(t1, a, b)] = t0;
  }
  return out;
}

/**
 * Face-connected components of the tets (union-find with path halving): per tet its component's
 * id, the smallest tet id in it. Also packed into the collision topology (the hash build takes
 * the shortest path's measures from there, src/collision/gpu/collisionTopology.ts).
 */
export function tetComponents(tetCount: number, neighbors: Int32Array): Uint32Array {
  const parent = new Uint32Array(tetCount);
  for (let t = 0; t < tetCount; t++) parent[t] = t;
  const find = (t: number): number => {
    while (parent[t] !== t) {
      parent[t] = parent[parent[t]];
      t = parent[t];
    }
    return t;
  };
  for (let t = 0; t < tetCount; t++) {
    for (let k = 0; k < 4; k++) {
      const n = neighbors[4 * t + k];
      if (n < 0) continue;
      const a = find(t), b = find(n);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  for (let t = 0; t < tetCount; t++) parent[t] = find(t);
  return parent;
}

export function createSpbMeshData(mesh: TetMesh): SpbMeshData {
  const tetComponent = tetComponents(mesh.tetCount, mesh.tetNeighbors);
  const triangleComponent = new Uint32Array(mesh.boundaryTriangleTet.length);
  for (let f = 0; f < triangleComponent.length; f++) triangleComponent[f] = tetComponent[mesh.boundaryTriangleTet[f]];
  const data: SpbMeshData = {
    vertexCount: mesh.vertexCount,
    tetCount: mesh.tetCount,
    triangleCount: mesh.boundaryTriangles.length / 3,
    positions: new Float64Array(mesh.positions),
    tets: mesh.tets,
    tetNeighbors: mesh.tetNeighbors,
    triangles: mesh.boundaryTriangles,
    triangleTet: mesh.boundaryTriangleTet,
    triangleFace: mesh.boundaryTriangleFace,
    triangleEdgeNeighbor: triangleEdgeNeighbors(mesh),
    vertexNeighborOffsets: mesh.vertexNeighborOffsets,
    vertexNeighbors: mesh.vertexNeighbors,
    vertexTriangleOffsets: mesh.vertexTriangleOffsets,
    vertexTriangles: mesh.vertexTriangles,
    tetComponent,
    triangleComponent,
    tetSize2: new Float64Array(mesh.tetCount),
    tetInverted: new Uint8Array(mesh.tetCount),
    invertedCount: 0,
    componentInverted: new Uint8Array(mesh.tetCount),
    invertedTets: new Uint32Array(Math.min(mesh.tetCount, SPB_INVERTED_LIST)),
    invertedSpheres: new Float64Array(4 * Math.min(mesh.tetCount, SPB_INVERTED_LIST)),
    bvh: buildSurfaceBvh(mesh.positions, mesh.boundaryTriangles),
  };
  updateTetMeasures(data);
  return data;
}

/** New vertex positions (after deformation): copy, refit the BVH, recompute sizes and inversions. */
export function updateSpbMeshData(data: SpbMeshData, positions: ArrayLike<number>): void {
  if (positions.length !== 3 * data.vertexCount) {
    throw new RangeError(`update: expected ${3 * data.vertexCount} coordinates (${data.vertexCount} vertices), got ${positions.length}`);
  }
  for (let i = 0; i < positions.length; i++) {
    const x = positions[i];
    if (!Number.isFinite(x)) throw new RangeError(`update: coordinate ${i % 3} of vertex ${Math.floor(i / 3)} is not finite (${x})`);
    data.positions[i] = x;
  }
  refitSurfaceBvh(data.bvh, data.positions);
  updateTetMeasures(data);
}

/** Centroid of the tet with vertex offsets a, b, c, d and the distance to its farthest vertex, into out[o..o+3]. */
function boundingSphere(x: Float64Array, a: number, b: number, c: number, d: number, out: Float64Array, o: number): void {
  const cx = 0.25 * (x[a] + x[b] + x[c] + x[d]);
  const cy = 0.25 * (x[a + 1] + x[b + 1] + x[c + 1] + x[d + 1]);
  const cz = 0.25 * (x[a + 2] + x[b + 2] + x[c + 2] + x[d + 2]);
  out[o] = cx;
  out[o + 1] = cy;
  out[o + 2] = cz;
  out[o + 3] = Math.sqrt(
    Math.max(
      (x[a] - cx) ** 2 + (x[a + 1] - cy) ** 2 + (x[a + 2] - cz) ** 2,
      (x[b] - cx) ** 2 + (x[b + 1] - cy) ** 2 + (x[b + 2] - cz) ** 2,
      (x[c] - cx) ** 2 + (x[c + 1] - cy) ** 2 + (x[c + 2] - cz) ** 2,
      (x[d] - cx) ** 2 + (x[d + 1] - cy) ** 2 + (x[d + 2] - cz) ** 2,
    ),
  );
}

function updateTetMeasures(data: SpbMeshData): void {
  const x = data.positions;
  const tets = data.tets;
  let inverted = 0;
  data.componentInverted.fill(0);
  for (let t = 0; t < data.tetCount; t++) {
    const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3];
    const e1x = x[b] - x[a], e1y = x[b + 1] - x[a + 1], e1z = x[b + 2] - x[a + 2];
    const e2x = x[c] - x[a], e2y = x[c + 1] - x[a + 1], e2z = x[c + 2] - x[a + 2];
    const e3x = x[d] - x[a], e3y = x[d + 1] - x[a + 1], e3z = x[d + 2] - x[a + 2];
    const vol6 = e1x * (e2y * e3z - e2z * e3y) - e1y * (e2x * e3z - e2z * e3x) + e1z * (e2x * e3y - e2y * e3x);
    const f1x = x[c] - x[b], f1y = x[c + 1] - x[b + 1], f1z = x[c + 2] - x[b + 2];
    const f2x = x[d] - x[b], f2y = x[d + 1] - x[b + 1], f2z = x[d + 2] - x[b + 2];
    const f3x = x[d] - x[c], f3y = x[d + 1] - x[c + 1], f3z = x[d + 2] - x[c + 2];
    data.tetSize2[t] = Math.max(
      e1x * e1x + e1y * e1y + e1z * e1z,
      e2x * e2x + e2y * e2y + e2z * e2z,
      e3x * e3x + e3y * e3y + e3z * e3z,
      f1x * f1x + f1y * f1y + f1z * f1z,
      f2x * f2x + f2y * f2y + f2z * f2z,
      f3x * f3x + f3y * f3y + f3z * f3z,
    );
    const inv = vol6 > 0 ? 0 : 1;
    data.tetInverted[t] = inv;
    if (inv) {
      if (inverted < data.invertedTets.length) {
        data.invertedTets[inverted] = t;
        boundingSphere(x, a, b, c, d, data.invertedSpheres, 4 * inverted);
      }
      data.componentInverted[data.tetComponent[t]] = 1;
    }
    inverted += inv;
  }
  data.invertedCount = inverted;
}
