/**
 * Packs the query's flat arrays (SpbMeshData) into the few GPU buffers spbQuery.wgsl binds:
 * a GPU stage may bind only 8 storage buffers (SwiftShader and browsers by default), so the
 * read-only topology goes into one u32 array with sections. Layouts are documented at the top
 * of shaders/spbQuery.wgsl; this file is their single producer.
 */
import type { SpbMeshData } from '../meshData';
import { QL_CAPACITY, QL_COUNT, QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_WORDS, queryListBytes } from './queryListLayout';
import { SPB_INVERTED_LIST } from '../settings';

/** Words per boundary triangle in the topology buffer. */
export const TOPO_TRIANGLE_WORDS = 8;
/** "No triangle across this edge" in the topology buffer (-1 on the CPU side). */
export const TOPO_NONE = 0xffffffff;

export interface TopologySections {
  offOrder: number;
  offTetComponent: number;
  offVertexNeighborOffsets: number;
  offVertexNeighbors: number;
  offVertexTriangleOffsets: number;
  offVertexTriangles: number;
}

/**
 * Topology words: per triangle (v0, v1, v2, tet * 4 + face, triangle across edge k = 0..2 or
 * TOPO_NONE, component), then the BVH triangle order, tet components, vertex-neighbour CSR and
 * vertex-triangle CSR, each section at the offset returned.
 */
export function packTopology(data: SpbMeshData): { words: Uint32Array; sections: TopologySections } {
  const nTri = data.triangleCount;
  const order = data.bvh.triangleOrder;
  const sizes = [
    TOPO_TRIANGLE_WORDS * nTri,
    order.length,
    data.tetCount,
    data.vertexNeighborOffsets.length,
    data.vertexNeighbors.length,
    data.vertexTriangleOffsets.length,
    data.vertexTriangles.length,
  ];
  const offsets: number[] = [];
  let total = 0;
  for (const s of sizes) {
    offsets.push(total);
    total += s;
  }
  if (total >= 2 ** 32) throw new RangeError(`packTopology: ${total} words exceed the u32 index range`);
  const words = new Uint32Array(Math.max(total, 4));
  for (let f = 0; f < nTri; f++) {
    const o = TOPO_TRIANGLE_WORDS * f;
    words[o] = data.triangles[3 * f];
    words[o + 1] = data.triangles[3 * f + 1];
    words[o + 2] = data.triangles[3 * f + 2];
    words[o + 3] = data.triangleTet[f] * 4 + data.triangleFace[f];
    for (let k = 0; k < 3; k++) {
      const g = data.triangleEdgeNeighbor[3 * f + k];
      words[o + 4 + k] = g < 0 ? TOPO_NONE : g;
    }
    words[o + 7] = data.triangleComponent[f];
  }
  words.set(order, offsets[1]);
  words.set(data.tetComponent, offsets[2]);
  words.set(data.vertexNeighborOffsets, offsets[3]);
  words.set(data.vertexNeighbors, offsets[4]);
  words.set(data.vertexTriangleOffsets, offsets[5]);
  words.set(data.vertexTriangles, offsets[6]);
  return {
    words,
    sections: {
      offOrder: offsets[1],
      offTetComponent: offsets[2],
      offVertexNeighborOffsets: offsets[3],
      offVertexNeighbors: offsets[4],
      offVertexTriangleOffsets: offsets[5],
      offVertexTriangles: offsets[6],
    },
  };
}

/** 2 vec4<u32> per tet: the 4 vertex ids, then the 4 neighbours (-1 as i32 bits). */
export function packTets(data: SpbMeshData): Uint32Array {
  const out = new Uint32Array(8 * data.tetCount);
  const nb = new Uint32Array(data.tetNeighbors.buffer, data.tetNeighbors.byteOffset, data.tetNeighbors.length);
  for (let t = 0; t < data.tetCount; t++) {
    for (let k = 0; k < 4; k++) {
      out[8 * t + k] = data.tets[4 * t + k];
      out[8 * t + 4 + k] = nb[4 * t + k];
    }
  }
  return out;
}

export { QUERY_WORDS };
/** Words per result (struct Result): s.xyz, distance, triangle, feature, status, Q, Tr, Tet, culled, branchings. */
export const RESULT_WORDS = 12;
/**
 * counters[0] = inverted tets; counters[1 + STAT_*] = summed statistics (workspace.ts slots 0..8);
 * then, from COUNTER_WORDS on, the inverted tets (SPB_INVERTED_LIST words, INVERTED_LIST in the
 * shaders), then one flag per connected component (indexed by component id, a tet id) from
 * COMPONENT_FLAG_WORD on (COMPONENT_FLAGS in the shaders).
 */
export const COUNTER_WORDS = 10;
export const COMPONENT_FLAG_WORD = COUNTER_WORDS + SPB_INVERTED_LIST;

/** Per-query options of packQueries (absent: -1 / exact mode). */
export interface PackedQueryOptions {
  /** Edge points: the edge's second vertex (src/spb/exclusion.ts), or -1. */
  exclude2?: ArrayLike<number>;
  /** Nonzero: Euclidean mode (Query.source bit 31). */
  euclidean?: ArrayLike<number | boolean>;
}

/**
 * Queries as the shader reads them: a query list (queryListLayout.ts) holding exactly these n
 * queries (count = capacity = n). `exclude` may be omitted (no excluded vertex). Query.source is
 * 0 apart from the Euclidean bit (the kernel reads no other bit); param 0.
 */
export function packQueries(points: ArrayLike<number>, tets: ArrayLike<number>, exclude?: ArrayLike<number>, options: PackedQueryOptions = {}): ArrayBuffer {
  const n = tets.length;
  if (points.length !== 3 * n) throw new RangeError(`packQueries: ${points.length} coordinates for ${n} queries (expected ${3 * n})`);
  if (exclude && exclude.length !== n) throw new RangeError(`packQueries: ${exclude.length} excluded vertices for ${n} queries`);
  if (options.exclude2 && options.exclude2.length !== n) throw new RangeError(`packQueries: ${options.exclude2.length} second excluded vertices for ${n} queries`);
  if (options.euclidean && options.euclidean.length !== n) throw new RangeError(`packQueries: ${options.euclidean.length} Euclidean flags for ${n} queries`);
  const buf = new ArrayBuffer(queryListBytes(Math.max(1, n)));
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const i = new Int32Array(buf);
  u[QL_COUNT] = n;
  u[QL_CAPACITY] = n;
  for (let q = 0; q < n; q++) {
    const o = QL_HEADER_WORDS + QUERY_WORDS * q;
    f[o] = points[3 * q];
    f[o + 1] = points[3 * q + 1];
    f[o + 2] = points[3 * q + 2];
    u[o + 3] = tets[q];
    i[o + 4] = exclude ? exclude[q] : -1;
    i[o + 5] = options.exclude2 ? options.exclude2[q] : -1;
    u[o + 6] = options.euclidean && options.euclidean[q] ? QUERY_EUCLIDEAN : 0;
  }
  return buf;
}
