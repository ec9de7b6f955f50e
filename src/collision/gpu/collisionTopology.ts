/**
 * The scene's static collision topology in one u32 storage buffer (the 8-storage-buffer limit of
 * SwiftShader and default browser devices leaves no room for one buffer per array), read by the
 * detection and contact kernels at the section offsets below (passed in their uniforms).
 *
 *   tets              4 vertex ids per tet
 *   vertexObject      object id per vertex
 *   boundaryVertices  sorted boundary vertex ids
 *   boundaryEdges     2 vertex ids per boundary edge (mesh order: Query.source of edge points)
 *   triangles         3 vertex ids per boundary triangle, outward wound
 *   triangleTet       owning tet per boundary triangle
 *   triangleAcross    3 per triangle: the triangle across edge k (vertex k to k + 1), for edge
 *                     normals (spec "Contact response": sum of the two triangles' normals)
 *   vtOffsets, vtList the vertex -> incident boundary triangles CSR (vertex normals, and the
 *                     inverted-boundary test of section 3.5)
 *   edgeTriangles     2 per boundary edge: its two boundary triangles (the side of an edge-edge
 *                     CCD contact from the surfaces' normals, ccdNarrow.wgsl)
 *   tetComponent      per tet its face-connected component (the smallest tet id in it; the
 *                     shortest path's numbering, src/spb/meshData.ts tetComponents): the hash
 *                     build flags the components of inverted tets from here (DETECT_MEASURE_TETS,
 *                     dcdHash.wgsl), which keeps the shortest path's own topology buffer out of
 *                     its bindings (issue 24: the kernel with the BVH refit inside fits 10)
 */
import { storageBuffer } from '../../gpu/buffers';
import type { TetMesh } from '../../mesh/types';
import { tetComponents } from '../../spb/meshData';
import { trianglesAcross } from '../trianglesAcross';

export interface TopologyOffsets {
  tets: number;
  vertexObject: number;
  boundaryVertices: number;
  boundaryEdges: number;
  triangles: number;
  triangleTet: number;
  triangleAcross: number;
  vtOffsets: number;
  vtList: number;
  edgeTriangles: number;
  tetComponent: number;
}

export interface PackedTopology {
  words: Uint32Array;
  offsets: TopologyOffsets;
}

/** `tetComponent`: the mesh's tet components when already computed (createSpbMeshData's), else computed here. */
export function packTopology(mesh: TetMesh, tetComponent?: Uint32Array): PackedTopology {
  const sections: [keyof TopologyOffsets, ArrayLike<number>][] = [
    ['tets', mesh.tets],
    ['vertexObject', mesh.vertexObject],
    ['boundaryVertices', mesh.boundaryVertices],
    ['boundaryEdges', mesh.boundaryEdges],
    ['triangles', mesh.boundaryTriangles],
    ['triangleTet', mesh.boundaryTriangleTet],
    ['triangleAcross', trianglesAcross(mesh)],
    ['vtOffsets', mesh.vertexTriangleOffsets],
    ['vtList', mesh.vertexTriangles],
    ['edgeTriangles', mesh.boundaryEdgeTriangles],
    ['tetComponent', tetComponent ?? tetComponents(mesh.tetCount, mesh.tetNeighbors)],
  ];
  let total = 0;
  for (const [, a] of sections) total += a.length;
  const words = new Uint32Array(total);
  const offsets = {} as TopologyOffsets;
  let at = 0;
  for (const [name, a] of sections) {
    offsets[name] = at;
    words.set(a, at);
    at += a.length;
  }
  return { words, offsets };
}

/** The packed topology on the GPU, shared by the detection and contact stages of one scene. */
export class CollisionTopologyGpu {
  readonly buffer: GPUBuffer;
  readonly offsets: TopologyOffsets;
  readonly vertexCount: number;
  readonly tetCount: number;
  readonly boundaryVertexCount: number;
  readonly boundaryEdgeCount: number;
  readonly triangleCount: number;

  constructor(
    device: GPUDevice,
    readonly mesh: TetMesh,
    /** The mesh's tet components when already computed (SpbMeshData.tetComponent); else computed here. */
    tetComponent?: Uint32Array,
  ) {
    if (tetComponent && tetComponent.length !== mesh.tetCount) throw new RangeError(`CollisionTopologyGpu: ${tetComponent.length} tet components for ${mesh.tetCount} tets`);
    const packed = packTopology(mesh, tetComponent);
    this.buffer = storageBuffer(device, 'collision.topology', packed.words);
    this.offsets = packed.offsets;
    this.vertexCount = mesh.vertexCount;
    this.tetCount = mesh.tetCount;
    this.boundaryVertexCount = mesh.boundaryVertices.length;
    this.boundaryEdgeCount = mesh.boundaryEdges.length / 2;
    this.triangleCount = mesh.boundaryTriangles.length / 3;
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
