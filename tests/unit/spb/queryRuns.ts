/** Runs a batch of shortest-path queries and keeps everything the inversion tests check. */
import { QUERY_FOUND, SPB_DEFAULT_TOLERANCES, SpbWorkspace, shortestPathToBoundary, type SpbCapacities, type SpbMeshData } from '../../../src/spb';
import { STAT_CULLED, STAT_TETS_VISITED } from '../../../src/spb/workspace';

export interface QueryBatchIn {
  points: ArrayLike<number>;
  tets: ArrayLike<number>;
  /** Excluded vertex per query (-1 = none); all -1 when absent. */
  exclude?: ArrayLike<number>;
}

export interface QueryRun {
  status: Int32Array;
  /** |s - p| when found, else -1. */
  distance: Float64Array;
  point: Float64Array;
  triangle: Int32Array;
  culled: number;
  tetsVisited: number;
}

export function runQueries(data: SpbMeshData, q: QueryBatchIn, capacities: Readonly<SpbCapacities>, culling: boolean): QueryRun {
  const n = q.tets.length;
  const ws = new SpbWorkspace(capacities, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const out: QueryRun = { status: new Int32Array(n), distance: new Float64Array(n), point: new Float64Array(3 * n), triangle: new Int32Array(n), culled: 0, tetsVisited: 0 };
  for (let i = 0; i < n; i++) {
    const st = shortestPathToBoundary(data, ws, cfg, q.points[3 * i], q.points[3 * i + 1], q.points[3 * i + 2], q.tets[i], q.exclude ? q.exclude[i] : -1);
    out.status[i] = st;
    const found = st === QUERY_FOUND;
    out.distance[i] = found ? Math.sqrt(ws.resultDistance2) : -1;
    out.point.set(found ? [ws.resultX, ws.resultY, ws.resultZ] : [NaN, NaN, NaN], 3 * i);
    out.triangle[i] = found ? ws.resultTriangle : -1;
  }
  out.culled = ws.totals[STAT_CULLED];
  out.tetsVisited = ws.totals[STAT_TETS_VISITED];
  return out;
}
