/**
 * The collision work that runs off the time step's thread, once per frame or on a schedule: CCD's
 * broad phase (ccd/ccdSchedule.ts) and surface BVH rebuilds (bvh/rebuildJob.ts). The page and the
 * runner hand in the worker pool's (workers/collisionJobsPool.ts); tests and scripts without a
 * pool run the same functions on their own thread.
 */
import { rebuildSurfaceBvhFromVec4 } from '../bvh/rebuildJob';
import type { SurfaceBvh } from '../bvh/surfaceBvh';
import type { CcdTopology } from './ccd/broadPhase';
import { inThreadAirOptimizer, type AirOptimizer } from './air/optimizeAirMesh';
import { inThreadAirBuilder, type AirBuilder } from './air/buildAirMesh';
import { inThreadBroadPhase, type BroadPhaseRunner } from './ccd/ccdSchedule';

/** A fresh SAH surface BVH over the scene's boundary triangles at `positions` (vec4 per vertex). */
export type BvhRebuildRunner = (positions: Float32Array) => Promise<SurfaceBvh>;

export interface CollisionWorkerJobs {
  broadPhase: BroadPhaseRunner;
  rebuildBvh: BvhRebuildRunner;
  /** The air mesh's optimisation (collision/air/optimizeAirMesh.ts); absent: on the time step's thread. */
  optimizeAir?: AirOptimizer;
  /** The air mesh's generation (collision/air/buildAirMesh.ts); absent: on the time step's thread. */
  buildAir?: AirBuilder;
}

/** For the scene's topology: the jobs on the calling thread. */
export function inThreadJobs(topology: CcdTopology): CollisionWorkerJobs {
  return {
    broadPhase: inThreadBroadPhase(topology),
    rebuildBvh: async (positions) => rebuildSurfaceBvhFromVec4(positions, topology.triangles),
    optimizeAir: inThreadAirOptimizer,
    buildAir: inThreadAirBuilder,
  };
}
