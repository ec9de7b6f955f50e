/**
 * The collision stage of one substep on the CPU, float64 (paper 000 section 4, supplement
 * Alg. 5): detect -> shortest path to boundary per hit -> contact constraints. The CPU engine
 * runs it after the material iterations and before the velocity update; it is also the GPU
 * stage's test oracle (same rules, docs/collisions.md).
 */
import { emptyCollisionCounters, type CollisionFrameCounters } from '../counters';
import { buildSceneMesh } from '../sceneMesh';
import type { TetMesh } from '../../mesh/types';
import type { SceneArrays } from '../../contract/sceneArrays';
import type { SolverParams } from '../../contract/params';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../../spb';
import { CpuContacts } from './contactsCpu';
import { CpuDetector } from './detectCpu';
import { CpuQueryList } from './queryList';
import { CpuSpb, CpuSpbResults } from './spbCpu';
import { PenetrationTargets } from '../../penetration/penetrationTargets';

export type CollisionStageParams = Pick<SolverParams, 'collisions' | 'selfCollision' | 'recovery' | 'interObject' | 'contactIterations' | 'friction'> &
  Partial<Pick<SolverParams, 'culling' | 'epsI' | 'epsR' | 'penetration'>>;

export class CpuCollisionStage {
  readonly mesh: TetMesh;
  readonly data: SpbMeshData;
  readonly detector: CpuDetector;
  readonly spb: CpuSpb;
  readonly contacts: CpuContacts;
  /** The last substep's queries and shortest-path results (for tests and the GPU comparison). */
  readonly queries = new CpuQueryList();
  readonly results = new CpuSpbResults();

  constructor(model: SceneArrays) {
    this.mesh = buildSceneMesh(model);
    this.data = createSpbMeshData(this.mesh);
    this.detector = new CpuDetector(this.mesh);
    this.spb = new CpuSpb(this.data, new PenetrationTargets(this.mesh, model.restPositions));
    this.contacts = new CpuContacts(this.mesh, this.data);
  }

  /**
   * One substep at positions x (corrected in place); x0: positions at the substep's start, w:
   * inverse masses. Adds this substep's counters to `into` and returns it. Skipped (nothing
   * added) when collisions are off or a coordinate is not finite (the solver's guard then stops
   * that object; the next substep collides again).
   */
  step(x: Float64Array, x0: Float64Array, w: Float64Array, params: CollisionStageParams, into: CollisionFrameCounters = emptyCollisionCounters()): CollisionFrameCounters {
    if (!params.collisions) return into;
    for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return into;
    updateSpbMeshData(this.data, x);
    this.spb.configure(params);
    const list = this.queries, res = this.results;
    this.detector.detect(x, { selfCollision: params.selfCollision, recovery: params.recovery, euclidean: params.interObject === 'euclidean' }, list);
    this.spb.run(list, res);
    this.contacts.build(x, list, res);
    this.contacts.solve(x, x0, w, params.friction, params.contactIterations, !params.recovery);
    const h = into.dcdHits;
    h.vertexSelf += list.hits[0];
    h.vertexInter += list.hits[1];
    h.edgeSelf += list.hits[2];
    h.edgeInter += list.hits[3];
    h.centroidSelf += list.hits[4];
    h.centroidInter += list.hits[5];
    into.penetration = params.penetration ?? 'exact';
    into.spbQueries += list.count;
    into.bvhCandidates += res.bvhCandidates;
    into.traversals += res.traversals;
    into.tetsVisited += res.tetsVisited;
    into.contacts += res.found;
    into.noPath += res.none;
    into.skipped += res.skipped;
    // The CPU arrays grow as needed: nothing is dropped; the capacity is reported as it stands.
    into.contactCapacity = Math.max(into.contactCapacity, this.contacts.lambdaN.length);
    return into;
  }
}
