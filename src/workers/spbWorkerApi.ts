/**
 * The contract between the page (or the headless runner) and the shortest-path worker (types
 * only, so importing it never pulls the worker's code into the page bundle).
 *
 * A worker holds copies of meshes (SpbMeshData: topology, surface BVH, positions), sent once per
 * worker and keyed by an id the main side picks; positions are resent only when their version
 * changes; batches of overflowed queries are answered by the CPU dynamic version.
 */
import type { SpbMeshData } from '../spb/meshData';
import type { SpbQueryConfig } from '../spb/query';
import type { SpbOverflowAnswers } from '../spb/gpu/overflowFallback';

/** Queries of one task, structure of arrays (their buffers are transferred, not copied). */
export interface SpbWorkerQueries {
  /** Index of each query in the caller's GPU batch (named in error messages). */
  ids: Uint32Array;
  /** p, xyz per query. */
  points: Float64Array;
  tets: Uint32Array;
  /** Boundary vertex whose position p is, or -1. */
  exclude: Int32Array;
  /** Edge points: the edge's second vertex (spb/exclusion.ts), or -1. */
  exclude2: Int32Array;
  /** 1 for a Euclidean-mode query (the closest boundary point of p's component, no path test). */
  euclidean: Uint8Array;
}

export interface SpbWorkerAnswers extends SpbOverflowAnswers {
  /** Identity of the worker that answered (random per worker start): tests observe the spread. */
  worker: string;
  /** Time spent answering in the worker. */
  milliseconds: number;
}

export interface SpbWorkerApi {
  /** A copy of the mesh data (structured clone), whose positions have version `positionsVersion`. */
  setMesh(meshId: number, data: SpbMeshData, positionsVersion: number): void;
  /** New positions (xyz f64 per vertex): refits the worker's BVH and measures. */
  setPositions(meshId: number, positionsVersion: number, positions: Float64Array): void;
  /** Answers with the dynamic version; fails if the worker's positions are not `positionsVersion`. */
  answer(meshId: number, positionsVersion: number, config: SpbQueryConfig, queries: SpbWorkerQueries): SpbWorkerAnswers;
  /** Forgets a mesh (its object was destroyed). */
  dropMesh(meshId: number): void;
  /** Ids of the meshes held now (tests and diagnostics). */
  meshes(): number[];
}
