/**
 * The float64 CPU twin of the 'restClosest' and 'ddf' kernels (shaders/restClosestQuery.wgsl,
 * shaders/ddfQuery.wgsl): what the CPU engine's collision stage answers its queries with when
 * SolverParams.penetration is not 'exact', and what the GPU time step answers its rare
 * overflowed queries with. The rest pose and the distance field are built on first use (a scene
 * that never leaves 'exact' pays nothing).
 */
import type { TetMesh } from '../mesh/types';
import { allocateOverflowAnswers, type SpbOverflowAnswers } from '../spb/gpu/overflowFallback';
import type { SpbMeshData } from '../spb/meshData';
import { QUERY_FOUND, QUERY_OVERFLOW } from '../spb/query';
import { SPB_DYNAMIC_CAPACITIES } from '../spb/settings';
import { STAT_OVERFLOWS, SpbWorkspace } from '../spb/workspace';
import { buildRestDistanceField, type RestDistanceField } from './distanceField';
import { ddfTarget } from './deformedDistance';
import type { PenetrationMethod } from './methods';
import { restClosestTarget } from './restClosest';
import { createRestPose } from './restPose';
import { TetFrame } from './tetFrame';

export class PenetrationTargets {
  private restData: SpbMeshData | null = null;
  private fieldData: RestDistanceField | null = null;
  private readonly frame = new TetFrame();
  private batchWorkspace: SpbWorkspace | null = null;
  /** Time spent building the rest pose and the field (ms), for the counters and benchmarks. */
  setupMs = 0;

  constructor(
    private readonly mesh: TetMesh,
    private readonly restPositions: ArrayLike<number>,
  ) {}

  /** The rest pose (built on first use). */
  get rest(): SpbMeshData {
    if (!this.restData) {
      const t0 = performance.now();
      this.restData = createRestPose(this.mesh, this.restPositions);
      this.setupMs += performance.now() - t0;
    }
    return this.restData;
  }

  /** The rest distance field (built on first use). */
  get field(): RestDistanceField {
    if (!this.fieldData) {
      const rest = this.rest;
      const t0 = performance.now();
      this.fieldData = buildRestDistanceField(rest);
      this.setupMs += performance.now() - t0;
    }
    return this.fieldData;
  }

  /**
   * The target of p (the point of tet `tet`, excluded vertices e1, e2) by `method` at the
   * positions of `current` (the scene mesh's arrays, src/spb/meshData.ts); result in ws.result*
   * as the shortest path's, counters in ws.stats / ws.totals. Returns a QUERY_* code.
   */
  answer(method: Exclude<PenetrationMethod, 'exact'>, current: SpbMeshData, ws: SpbWorkspace, px: number, py: number, pz: number, tet: number, e1: number, e2: number): number {
    ws.beginQuery();
    const status = method === 'ddf'
      ? ddfTarget(this.field, current, ws, this.frame, px, py, pz, tet, e1, e2)
      : restClosestTarget(this.rest, current, ws, this.frame, px, py, pz, tet, e1, e2);
    if (status === QUERY_OVERFLOW) ws.stats[STAT_OVERFLOWS]++;
    ws.endQuery();
    return status;
  }

  /**
   * A batch of queries answered by `method` at the positions of `current` (the GPU's overflowed
   * queries, tests and benchmarks): points xyz per query, their tets and excluded vertices.
   */
  answerBatch(method: Exclude<PenetrationMethod, 'exact'>, current: SpbMeshData, points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number>, exclude2: ArrayLike<number>): SpbOverflowAnswers {
    const n = tets.length;
    const out = allocateOverflowAnswers(n);
    this.batchWorkspace ??= new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, current.tetCount);
    const ws = this.batchWorkspace;
    for (let i = 0; i < n; i++) {
      const status = this.answer(method, current, ws, points[3 * i], points[3 * i + 1], points[3 * i + 2], tets[i], exclude[i], exclude2[i]);
      out.status[i] = status;
      if (status !== QUERY_FOUND) {
        out.distance[i] = -1;
        out.triangle[i] = -1;
        continue;
      }
      out.point.set([ws.resultX, ws.resultY, ws.resultZ], 3 * i);
      out.distance[i] = Math.sqrt(ws.resultDistance2);
      out.triangle[i] = ws.resultTriangle;
      out.feature[i] = ws.resultFeature;
    }
    return out;
  }
}
