/**
 * The fail-safe for queries the GPU kernel flags as overflowed (a fixed stack, ring or step
 * bound was hit): they are answered again by the CPU dynamic version (shortestPathToBoundary
 * with growing stacks and an unbounded visited set), so no query is ever answered wrongly.
 *
 * The fallback is pluggable: SpbQueryGpu calls an `answerOverflowed(batch)` function. The
 * default (here) answers on the calling thread; src/workers/spbFallback.ts answers in workers
 * of the comlink pool. This file knows nothing of workers, so the dependency points down
 * (workers import spb, never the reverse).
 */
import type { SpbMeshData } from '../meshData';
import { QUERY_FOUND, QUERY_OVERFLOW, shortestPathToBoundary, type SpbQueryConfig } from '../query';
import { SPB_DYNAMIC_CAPACITIES } from '../settings';
import { SpbWorkspace } from '../workspace';

/** The overflowed queries of one GPU batch (structure of arrays, one entry per query). */
export interface SpbOverflowBatch {
  /** The mesh and the CPU copy of its current positions (what the dynamic version reads). */
  readonly data: SpbMeshData;
  /**
   * Identifies the content of data.positions: a new number each time SpbQueryGpu changes them
   * (setPositions or a readback). A worker holding a copy compares it to know whether to resend.
   */
  readonly positionsVersion: number;
  readonly config: SpbQueryConfig;
  /** Index of each query in the GPU batch (for error messages and to write the answers back). */
  readonly ids: Uint32Array;
  /** p, xyz per query (f64: the exact numbers the caller gave). */
  readonly points: Float64Array;
  /** p's tet per query. */
  readonly tets: Uint32Array;
  /** Boundary vertex whose position p is, or -1, per query. */
  readonly exclude: Int32Array;
  /** Edge points: the edge's second vertex (exclusion.ts), or -1; absent = all -1. */
  readonly exclude2?: Int32Array;
  /** 1 for a Euclidean-mode query (euclideanQuery.ts); absent = none. */
  readonly euclidean?: Uint8Array;
}

/** Answers, one entry per query of the batch, in the batch's order. */
export interface SpbOverflowAnswers {
  /** QUERY_FOUND, QUERY_NONE or QUERY_SKIPPED (never QUERY_OVERFLOW). */
  status: Uint8Array;
  /** Closest boundary point s, xyz per query (0 when not found). */
  point: Float64Array;
  /** |s - p|, or -1 when not found. */
  distance: Float64Array;
  /** Boundary triangle of s, or -1. */
  triangle: Int32Array;
  /** Feature code of s on its triangle (geometry/closestPointOnTriangle.ts), 0 when not found. */
  feature: Uint8Array;
}

/** The pluggable fallback: may answer on this thread or elsewhere. */
export type AnswerOverflowed = (batch: SpbOverflowBatch) => Promise<SpbOverflowAnswers>;

/** Empty answers for n queries. */
export function allocateOverflowAnswers(n: number): SpbOverflowAnswers {
  return {
    status: new Uint8Array(n),
    point: new Float64Array(3 * n),
    distance: new Float64Array(n),
    triangle: new Int32Array(n),
    feature: new Uint8Array(n),
  };
}

/**
 * Answers every query of the batch with the dynamic version, in `ws` (a workspace with
 * SPB_DYNAMIC_CAPACITIES sized for data.tetCount). The same function runs in the worker, so
 * both give bit-identical answers on the same positions.
 */
export function answerWithDynamicQuery(
  data: SpbMeshData,
  ws: SpbWorkspace,
  config: SpbQueryConfig,
  points: Float64Array,
  tets: Uint32Array,
  exclude: Int32Array,
  ids: Uint32Array,
  exclude2?: Int32Array,
  euclidean?: Uint8Array,
): SpbOverflowAnswers {
  const n = tets.length;
  if (points.length !== 3 * n || exclude.length !== n || ids.length !== n || (exclude2 && exclude2.length !== n) || (euclidean && euclidean.length !== n)) {
    throw new RangeError(
      `answerWithDynamicQuery: ${n} tets but ${points.length} point coordinates, ${exclude.length} exclude entries, ${ids.length} ids` +
        `, ${exclude2?.length ?? '(no)'} exclude2 entries, ${euclidean?.length ?? '(no)'} euclidean flags`,
    );
  }
  const out = allocateOverflowAnswers(n);
  for (let i = 0; i < n; i++) {
    const status = shortestPathToBoundary(data, ws, config, points[3 * i], points[3 * i + 1], points[3 * i + 2], tets[i], exclude[i], exclude2 ? exclude2[i] : -1, euclidean ? euclidean[i] !== 0 : false);
    if (status === QUERY_OVERFLOW) throw new Error(`answerWithDynamicQuery: the dynamic version overflowed on query ${ids[i]} (cannot happen with unbounded capacities)`);
    out.status[i] = status;
    if (status !== QUERY_FOUND) {
      out.distance[i] = -1;
      out.triangle[i] = -1;
      continue;
    }
    out.point[3 * i] = ws.resultX;
    out.point[3 * i + 1] = ws.resultY;
    out.point[3 * i + 2] = ws.resultZ;
    out.distance[i] = Math.sqrt(ws.resultDistance2);
    out.triangle[i] = ws.resultTriangle;
    out.feature[i] = ws.resultFeature;
  }
  return out;
}

/**
 * The default fallback: answers on the calling thread, synchronously (the promise is already
 * settled when returned). One dynamic workspace per mesh, kept between batches.
 */
export function inProcessFallback(): AnswerOverflowed {
  const workspaces = new WeakMap<SpbMeshData, SpbWorkspace>();
  return (batch) => {
    try {
      let ws = workspaces.get(batch.data);
      if (!ws) {
        ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, batch.data.tetCount);
        workspaces.set(batch.data, ws);
      }
      return Promise.resolve(answerWithDynamicQuery(batch.data, ws, batch.config, batch.points, batch.tets, batch.exclude, batch.ids, batch.exclude2, batch.euclidean));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
