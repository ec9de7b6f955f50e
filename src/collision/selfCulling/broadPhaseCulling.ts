/**
 * Self-collision culling inside CCD's broad phase (the worker job of collision/ccd/ccdSchedule.ts):
 * the nodes of each object's tree that cannot touch themselves are found first (SelfCulling), and
 * the box test of the same-object pairs (broadPhase.ts sweptCandidates) drops the pairs that lie
 * within one of them as it finds them (ccd/culledPairs.ts), before the candidates go to the GPU. Pairs of different objects are not touched.
 *
 * The motion culled over is the job's prediction: from the snapshot's positions along the
 * velocities relative to each object's mean (the same relative motion the self boxes use) for the
 * job's horizon, within the per-vertex deviation bound of deviationMonitor.ts. Without a bound (no
 * motion history yet) nothing is culled.
 *
 * One SelfCulling per topology and thread (a worker keeps its own across jobs, with its trees).
 */
import { sweptCandidates, type CandidatePart, type CcdCandidates, type CcdTopology, type MotionBound } from '../ccd/broadPhase';
import type { OwnPairReuse } from '../ccd/ownPairCache';
import type { SelfPairFrameReport } from '../ccd/selfPairFrames';
import { SELF_CULLING_MODES, type SelfCullingMode } from '../../contract/params';
import type { CullingMotion } from './motionCones';
import { SelfCulling, type SelfCullingStats } from './selfCulling';

/** What a broad-phase job is asked to cull. */
export interface SelfCullingRequest {
  mode: SelfCullingMode;
  /** Per vertex: the deviation bound (world units, deviationMonitor.ts); null: none known yet (nothing is culled). */
  deviation: Float32Array | null;
  /** Per edge of the topology: the bound on its vector's change (deviationMonitor.ts); absent or null: from `deviation`. */
  edgeDeviation?: Float32Array | null;
}

/** What the culling did in one job (collision/counters.ts shows it per frame). */
export interface SelfCullingReport {
  mode: SelfCullingMode;
  /** Whether a deviation bound was given (else nothing was culled). */
  bounded: boolean;
  /** Same-object candidate pairs (vertex-triangle + edge-edge) of the box test, and those left. */
  pairsBefore: number;
  pairsAfter: number;
  /** Worker time: normal cones (and tree rebuilds), the traversal's node tests, the pair filter (ms). */
  conesMs: number;
  traversalMs: number;
  filterMs: number;
  culledNodes: number;
  culledTriangles: number;
  rebuiltTrees: number;
}

const cache = new WeakMap<CcdTopology, SelfCulling>();
/** Per SelfCulling, the motion arrays of its jobs (reused: a job's garbage costs time). */
const motions = new WeakMap<SelfCulling, { start: Float64Array; move: Float64Array; deviation: Float64Array; edgeDeviation: Float64Array }>();

/**
 * The motion the job culls over (motionCones.ts): from the snapshot's positions along the relative
 * velocities for the horizon H, within the request's deviation bounds; float64 copies, in arrays
 * kept per SelfCulling.
 */
function cullingMotion(culling: SelfCulling, positions: Float32Array, relative: Float32Array, H: number, request: SelfCullingRequest): CullingMotion {
  const n = culling.surface.vertexCount, edges = culling.surface.edgeCount;
  let m = motions.get(culling);
  if (!m) {
    m = { start: new Float64Array(3 * n), move: new Float64Array(3 * n), deviation: new Float64Array(n), edgeDeviation: new Float64Array(edges) };
    motions.set(culling, m);
  }
  const { start, move, deviation } = m;
  const dev = request.deviation!;
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 3; k++) {
      start[3 * v + k] = positions[4 * v + k];
      move[3 * v + k] = relative[4 * v + k] * H;
    }
    deviation[v] = dev[v];
  }
  let edgeDeviation: Float64Array | null = null;
  if (request.edgeDeviation) {
    edgeDeviation = m.edgeDeviation;
    for (let e = 0; e < edges; e++) edgeDeviation[e] = request.edgeDeviation[e];
  }
  return { start, move, deviation, edgeDeviation };
}

/** The SelfCulling kept for `topology` on this thread. */
export function selfCullingFor(topology: CcdTopology): SelfCulling {
  let c = cache.get(topology);
  if (!c) {
    c = new SelfCulling(topology);
    cache.set(topology, c);
  }
  return c;
}

export function checkCullingRequest(r: SelfCullingRequest, vertexCount: number, edgeCount: number, where: string): void {
  if (!SELF_CULLING_MODES.includes(r?.mode)) throw new RangeError(`${where}: culling.mode must be one of ${SELF_CULLING_MODES.join(', ')}, got ${String(r?.mode)}`);
  if (r.deviation !== null && (!(r.deviation instanceof Float32Array) || r.deviation.length !== vertexCount)) {
    throw new RangeError(`${where}: culling.deviation must be null or a Float32Array of ${vertexCount} numbers (one per vertex), got length ${r.deviation?.length}`);
  }
  const e = r.edgeDeviation ?? null;
  if (e !== null && (!(e instanceof Float32Array) || e.length !== edgeCount)) {
    throw new RangeError(`${where}: culling.edgeDeviation must be null or a Float32Array of ${edgeCount} numbers (one per edge), got length ${e?.length}`);
  }
}

/**
 * sweptCandidates with the same-object pairs culled as `request` says ('off' or no request: the
 * box test's pairs unchanged). positions / velocities: vec4 per vertex. `part`: only that part of
 * the pairs (broadPhase.ts CandidatePart; the culling then works on that part's objects only).
 */
export function culledSweptCandidates(
  topo: CcdTopology, positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean, request?: SelfCullingRequest,
  part?: CandidatePart,
): CcdCandidates & { interPairs: number; interMs: number; interSetupMs: number; selfCulling?: SelfCullingReport; keptPairs?: OwnPairReuse; selfFrames?: SelfPairFrameReport } {
  if (!request || !selfCollision) return sweptCandidates(topo, positions, velocities, bound, selfCollision, undefined, part);
  checkCullingRequest(request, topo.vertexCount, topo.edges.length / 2, 'culledSweptCandidates');
  let report: SelfCullingReport | undefined;
  // The culling runs before the same-object pairs are found; the join drops the pairs within a
  // culled node as it tests their boxes (ccd/ownPairCache.ts), so there is no separate filter pass.
  const c = sweptCandidates(topo, positions, velocities, bound, selfCollision, (relative) => {
    report = {
      mode: request.mode, bounded: request.deviation !== null, pairsBefore: 0, pairsAfter: 0,
      conesMs: 0, traversalMs: 0, filterMs: 0, culledNodes: 0, culledTriangles: 0, rebuiltTrees: 0,
    };
    if (request.mode === 'off' || request.deviation === null) return null;
    const culling = selfCullingFor(topo);
    const stats: SelfCullingStats = culling.cull(cullingMotion(culling, positions, relative, bound.horizon, request), request.mode, part?.objects);
    report.conesMs = stats.conesMs;
    report.traversalMs = stats.traversalMs;
    report.culledNodes = stats.culledNodes;
    report.culledTriangles = stats.culledTriangles;
    report.rebuiltTrees = stats.rebuilt;
    return culling.culledNodes;
  }, part);
  if (report && c.selfPairs) {
    report.pairsBefore = c.selfPairs.before;
    report.pairsAfter = c.selfPairs.after;
  }
  return report ? { ...c, selfCulling: report } : c;
}
