/**
 * The contract between the time step (page or headless runner) and the CCD worker (types only, so
importing it never pulls the worker's code into the page bundle). Hybrid CCD + DCD time step,
 * paper 000 supplement Alg. 5: once per frame the broad phase (swept boxes, candidate pairs) runs
 * off the main thread; batches of exact narrow-phase queries can be split across the pool.
 */
import type { SurfaceBvh } from '../bvh/surfaceBvh';
import type { OwnPairReuse } from '../collision/ccd/ownPairCache';
import type { SelfPairFrameReport } from '../collision/ccd/selfPairFrames';
import type { CandidatePart, CcdCandidates, CcdTopology, MotionBound } from '../collision/ccd/broadPhase';
import type { SelfCullingReport, SelfCullingRequest } from '../collision/selfCulling/broadPhaseCulling';
import type { AirOptimizeJob, AirOptimizeResult } from '../collision/air/optimizeAirMesh';
import type { AirModel, BuiltAirMesh } from '../collision/air/buildAirMesh';
import type { AirContainer } from '../collision/air/buildAir';

/** Which exact CCD query: vertex-face (v, f0, f1, f2) or edge-edge (ea0, ea1, eb0, eb1). */
export type CcdQueryKind = 'vertexFace' | 'edgeEdge';

export interface CcdBroadPhaseAnswer extends CcdCandidates {
  /** Time spent in the worker (boxes + candidates), ms. */
  jobMs: number;
  /** What self-collision culling did (when self-collision was on and culling asked for). */
  selfCulling?: SelfCullingReport;
  /** The fastest closing vertex-face candidate within the horizon (collision/ccd/impactSubsteps.ts), world units / s. */
  closingSpeed?: number;
  /** What the kept lists of same-object pairs did (collision/ccd/ownPairCache.ts; absent when none were used). */
  keptPairs?: OwnPairReuse;
  /** Which frame the same-object pairs were joined in (collision/ccd/selfPairFrames.ts; absent with MotionBound.selfPairFrame 'own'). */
  selfFrames?: SelfPairFrameReport;
  /** Of the pairs, those between objects (CcdJobs splits them across its workers when they are many). */
  interPairs?: number;
  /** The workers the pairs between objects were sliced over (set by CcdJobs, not by a worker). */
  interSlices?: number;
  /** The time of the pairs between objects (world boxes included), and of what came before their joins (ms). */
  interMs?: number;
  interSetupMs?: number;
}

export interface CcdWorkerApi {
  /**
   * A copy of the scene's CCD topology (structured clone); checked, then kept for broadPhase in
   * place of any earlier one. `key` (default 0) names it: a broadPhase posed on another key fails
   * instead of using the wrong topology (two CcdJobs sharing one pool).
   */
  init(topology: CcdTopology, key?: number): void;
  /**
   * Swept boxes (sweptVertexBoxes) and candidate pairs (ccdCandidates) of the held topology.
   * positions / velocities: vec4 per vertex, either views of SharedArrayBuffers (read in place) or
   * transferred copies. The candidate arrays are transferred back. `culling`: the same-object
   * pairs culled as it says (collision/selfCulling/broadPhaseCulling.ts); its deviation array
   * may come transferred.
   */
  broadPhase(
    positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean, key?: number, culling?: SelfCullingRequest,
    /** Only this part of the pairs (a job split across workers, ccdJobs.ts); absent: all. */
    part?: CandidatePart,
  ): CcdBroadPhaseAnswer;
  /** Exact CCD of each query (24 f64: 4 points at t0, then at t1): toi in [0, 1], or -1 when no hit. */
  narrowPhase(kind: CcdQueryKind, queries: Float64Array): Float64Array;
  /**
   * A fresh SAH surface BVH over the held topology's boundary triangles at `positions` (vec4 per
   * vertex, the GPU layout; bvh/rebuildJob.ts), for SpbStage.replaceBvh; node arrays transferred back.
   */
  rebuildBvh(positions: Float32Array, key?: number): SurfaceBvh;
  /** The air mesh's optimisation (collision/air/optimizeAirMesh.ts: edge and multi-face removal); result arrays transferred back. */
  optimizeAir(job: AirOptimizeJob): AirOptimizeResult;
  /** The air mesh of the scene's container (collision/air/buildAir.ts: lattice or general mesher); arrays transferred back. */
  buildAir(model: AirModel, container: AirContainer): BuiltAirMesh;
}
