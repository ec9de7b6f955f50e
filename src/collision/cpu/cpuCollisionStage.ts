/**
 * The collision stage of one substep on the CPU, float64 (paper 000 section 4, supplement Alg. 5),
 * the twin of the GPU's detect, spb, ccd and contacts stages (same rules, docs/collisions.md) and
 * the oracle of their tests:
 *   hybrid  Pin = the boundary points already inside another tet at the substep's start
 *           (markPenetrating on x0); DCD + shortest path for Pin points after the material solve,
 *           CCD (ccdCpu.ts) for the others (Pout);
 *   dcd     DCD + shortest path for every point (recovery mode runs this);
 *   ccd     CCD only;
 * then the contacts of both (contactsCpu.ts), every one solved to (x - s) . n >= contactOffset.
 * The CPU engine runs it after the material iterations and before the velocity update.
 */
import { effectiveCollisionMode, effectiveFarSideContacts, type CollisionMode, type SolverParams } from '../../contract/params';
import type { SceneArrays } from '../../contract/sceneArrays';
import type { TetMesh } from '../../mesh/types';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../../spb';
import { meanBoundaryEdge, modelContactOffset, RAMP_FLOOR_CCD, RAMP_FLOOR_DCD, selfContactOffset } from '../contactOffset';
import { emptyCollisionCounters, type CollisionFrameCounters } from '../counters';
import { buildSceneMesh } from '../sceneMesh';
import { CpuCcd, type CcdNearList, type CcdPairsInContact } from './ccdCpu';
import { CpuContacts } from './contactsCpu';
import { CpuDetector } from './detectCpu';
import { inversionFloorScratch, liftInvertedTets, liftSlivers, restVolumes6, type InversionFloorScratch } from './inversionFloor';
import { dropFarSideContacts } from './farSideContacts';
import { CpuQueryList, KIND_SHIFT, KIND_VERTEX, SOURCE_INDEX_MASK } from './queryList';
import { PIN_INTER, PIN_RELEASED, PIN_SELF } from '../pinMark';
import { CpuSpb, CpuSpbResults } from './spbCpu';
import { PenetrationTargets } from '../../penetration/penetrationTargets';
import { sweptCandidates } from '../ccd/broadPhase';
import { candidateClosingSpeed } from '../ccd/impactSubsteps';
import { CCD_BASE_MARGIN_RATIO, laterRoundReach } from '../ccd/laterRounds';

export type CollisionStageParams = Pick<SolverParams, 'collisions' | 'selfCollision' | 'recovery' | 'interObject' | 'contactIterations' | 'friction'> &
  Partial<Pick<SolverParams, 'culling' | 'epsI' | 'epsR' | 'collisionMode' | 'contactOffset' | 'penetration' | 'ccdEveryRound' | 'pinByKind' | 'pinRelease' | 'ccdSkipInverted' | 'ccdEdgeInterior' | 'farSideContacts' | 'inversionFloor' | 'sliverLift'>>;

export class CpuCollisionStage {
  readonly mesh: TetMesh;
  readonly data: SpbMeshData;
  readonly detector: CpuDetector;
  readonly spb: CpuSpb;
  readonly ccd: CpuCcd;
  readonly contacts: CpuContacts;
  /** The last substep's queries and shortest-path results (for tests and the GPU comparison). */
  readonly queries = new CpuQueryList();
  readonly results = new CpuSpbResults();
  /** Hybrid: the last substep's Pin flags (1 per vertex, then per boundary edge). */
  readonly pin: Uint8Array;
  /** The scene's mean boundary edge at rest. */
  readonly meanEdge: number;
  /** The scene the stage was built for ('auto' offsets are measured on it, cached per model). */
  private readonly model: SceneArrays;
  /**
   * The offset layer's opening per step() (contactOffset.ts offsetRampStep; set by the owner for
   * the substep's length and rounds). Infinity: contacts keep delta from the first build.
   */
  offsetRamp = Infinity;
  /**
   * The most depth a contact started with that one step() removes (contactOffset.ts rampedOffset;
   * offsetRampStep of SolverParams.depenetrationSpeed, set by the owner per substep). Infinity: all of it.
   */
  depenetration = Infinity;
  private readonly markList = new CpuQueryList();
  /** Recovery's inversion floor (inversionFloor.ts): 6 V_rest per tet and scratch, made on first use. */
  private floor?: { restVolume6: Float64Array; scratch: InversionFloorScratch };
  /** closingSpeed's vec4 copies of the positions and velocities (the broad phase's layout). */
  private x4?: Float32Array;
  private v4?: Float32Array;

  constructor(model: SceneArrays) {
    this.mesh = buildSceneMesh(model);
    this.data = createSpbMeshData(this.mesh);
    this.detector = new CpuDetector(this.mesh);
    this.spb = new CpuSpb(this.data, new PenetrationTargets(this.mesh, model.restPositions));
    this.ccd = new CpuCcd(this.mesh);
    this.contacts = new CpuContacts(this.mesh, this.data);
    this.pin = new Uint8Array(this.mesh.vertexCount + this.mesh.boundaryEdges.length / 2);
    this.meanEdge = meanBoundaryEdge(model);
    this.model = model;
  }

  /** The contact offset delta in world units for these parameters (absent: 0, the paper's zero thickness). */
  offsetOf(params: CollisionStageParams): number {
    return modelContactOffset(this.model, params.contactOffset ?? 0);
  }

  /** What a contact of one object keeps for these parameters (contactOffset.ts selfContactOffset). */
  selfOffsetOf(params: CollisionStageParams): number {
    return selfContactOffset(this.model, params.contactOffset ?? 0);
  }

  /**
   * The closing speed of the frame about to start (impactSubsteps.ts): the broad phase the GPU's
   * worker runs (sweptCandidates, boxes over one frame at the GPU's base margin), on positions x
   * and velocities v, and the fastest vertex-face candidate pair that reaches its triangle
   * within the frame (0 on a non-finite state). The same candidates as the GPU's job, at float64 speeds.
   */
  closingSpeed(x: Float64Array, v: Float64Array, params: Pick<SolverParams, 'dt' | 'gravity' | 'selfCollision'> & Partial<Pick<SolverParams, 'selfPairSkin' | 'ccdSelfPairFrame'>> & CollisionStageParams): number {
    const n = this.mesh.vertexCount;
    const x4 = (this.x4 ??= new Float32Array(4 * n)), v4 = (this.v4 ??= new Float32Array(4 * n));
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        x4[4 * i + k] = x[3 * i + k];
        v4[4 * i + k] = v[3 * i + k];
        // A coordinate gone NaN/Inf: nothing closes, as step() skips such a state (the solver's
        // guard then stops that object); the broad phase would refuse it.
        if (!Number.isFinite(x[3 * i + k]) || !Number.isFinite(v[3 * i + k])) return 0;
      }
    }
    const margin = Math.max(2 * this.offsetOf(params), CCD_BASE_MARGIN_RATIO * this.meanEdge);
    const bound = { horizon: params.dt, gravity: [params.gravity[0], params.gravity[1], params.gravity[2]] as [number, number, number], margin, ...(params.selfPairSkin !== undefined ? { selfPairSkin: params.selfPairSkin } : {}),
      ...(params.ccdSelfPairFrame !== undefined ? { selfPairFrame: params.ccdSelfPairFrame } : {}) };
    const c = sweptCandidates(this.ccd.topology, x4, v4, bound, params.selfCollision);
    return candidateClosingSpeed(this.ccd.topology, c.vertexFace, x, v, 3, params.dt);
  }

  /**
   * A later round of SolverParams.collideEvery 'contacts': the contact passes again on the contacts
   * the last step() built (their records and multipliers kept; each pass reads the positions of
   * now), with no detection. Nothing when the last step() returned before its contacts. With CCD
   * (hybrid, ccd) and SolverParams.ccdEveryRound (default false), first CCD again on the motion from
   * the substep's start x0 to x, appending the contacts of pairs not yet in contact this substep
   * (the round-0 contacts keep theirs): a free point that this round's material iterations carried
   * through a surface gets its contact now, not in the next substep. Adds to `into`.
   */
  solveAgain(
    x: Float64Array, x0: Float64Array, w: Float64Array, params: CollisionStageParams,
    phaseMs?: Record<'detect' | 'spb' | 'ccd' | 'contacts', number>, held?: Uint8Array, touch?: Float64Array, into?: CollisionFrameCounters,
  ): void {
    if (!params.collisions || !this.solved || !allFinite(x, x0)) return;
    let t0 = performance.now();
    // Before this round's CCD appends: the contacts only their own round solves (apart edge pairs).
    this.contacts.retireDetectingRoundOnly();
    if ((params.ccdEveryRound ?? false) && this.solvedMode !== 'dcd' && this.roundZero) {
      const offset = this.offsetOf(params);
      const from = this.contacts.count;
      const counters = into?.ccd ?? emptyCollisionCounters().ccd;
      // Only the pairs round 0 found within the reach (its near list, ccd/laterRounds.ts); a
      // boundary vertex that moved beyond the reach since is counted.
      const reach = laterRoundReach(offset, this.meanEdge);
      const at = this.roundZero;
      for (const v of this.mesh.boundaryVertices) {
        if (Math.max(Math.abs(x[3 * v] - at[3 * v]), Math.abs(x[3 * v + 1] - at[3 * v + 1]), Math.abs(x[3 * v + 2] - at[3 * v + 2])) > reach) counters.laterRoundBeyondReach++;
      }
      this.ccd.runListed(x0, x, offset, offset, this.contacts, counters, this.ccdPairs, this.nearPairs, this.selfOffsetOf(params));
      const exits = this.ccd.exitContacts;
      this.contacts.rampOffsets(x0, this.offsetRamp, RAMP_FLOOR_CCD, this.depenetration, from, this.contacts.count, exits);
      for (const i of exits) this.contacts.rampOffset(i, x, this.offsetRamp, RAMP_FLOOR_CCD, this.depenetration);
      counters.laterRoundHits += this.contacts.count - from;
      const t1 = performance.now();
      if (phaseMs) phaseMs.ccd += t1 - t0;
      t0 = t1;
    }
    this.solveContacts(x, x0, w, params, held, touch);
    this.liftInversions(x, x0, w, params, into);
    if (phaseMs) phaseMs.contacts += performance.now() - t0;
  }

  /** The contact passes; they mark the vertices they push only for sliverLift 'holding-contacts', the marks' one reader. */
  private solveContacts(x: Float64Array, x0: Float64Array, w: Float64Array, params: CollisionStageParams, held?: Uint8Array, touch?: Float64Array): void {
    this.contacts.markPushed = params.sliverLift === 'holding-contacts';
    this.contacts.solve(x, x0, w, params.friction, params.contactIterations, held, touch);
  }

  /** Recovery: the tets the contacts turned inside out lifted back (SolverParams.inversionFloor; inversionFloor.ts). */
  private liftInversions(x: Float64Array, x0: Float64Array, w: Float64Array, params: CollisionStageParams, into?: CollisionFrameCounters): void {
    if (!params.recovery || !((params.inversionFloor ?? 0) > 0)) return;
    const m = this.mesh;
    this.floor ??= { restVolume6: restVolumes6(this.model.restPositions, m.tets), scratch: inversionFloorScratch(m.vertexCount) };
    const lifted = liftInvertedTets(x, x0, w, m.tets, this.floor.restVolume6, params.inversionFloor!, this.floor.scratch);
    if (into) into.inversionFloorTets += lifted;
  }

  /**
   * Outside recovery, once a substep after its last collision round: the sliver tets `slivers`
   * (in colourSlivers' order) below the inversion floor lifted back (SolverParams.sliverFloor; recovery
   * floors every tet in every round instead). Skipped, as step() is, on a non-finite state. With
   * sliverLift 'with-contacts' the lift is beginSliverLift's instead, and this does nothing; with
   * 'holding-contacts' the vertices a contact pushed in the substep (CpuContacts.pushed) lift with
   * inverse mass 0, then what that leaves below the floor with every corner free; with
   * 'clipped-to-contacts' each corner's gradient is kept off the way the last round's active
   * contacts between bodies hold it (CpuContacts.sumPushDirections). Ends the substep's marks of
   * pushed vertices either way (the GPU's predict clears its touch words).
   */
  liftSlivers(
    x: Float64Array, x0: Float64Array, w: Float64Array, params: SliverLiftParams, slivers: ArrayLike<number>, into?: CollisionFrameCounters,
  ): void {
    const pushed = this.contacts.pushed;
    const lifting = params.sliverLift !== 'with-contacts' && this.floorsSlivers(x, x0, params, slivers);
    let held: Float64Array | undefined;
    if (lifting && params.sliverLift === 'holding-contacts') {
      held = (this.heldInverseMass ??= new Float64Array(w.length));
      for (let i = 0; i < w.length; i++) held[i] = pushed[i] ? 0 : w[i];
    }
    pushed.fill(0);
    if (!lifting) return;
    // Holding: a sliver whose every corner a contact pushed cannot lift with them held, and one left
    // inside out hides the boundary around it from the self queries and the Pin marks (paper section
    // 3.5), so a vertex pressed into its own body there stays in; liftSlivers lifts what the held
    // sweeps leave below the floor again with every corner free.
    const pushDirection = params.sliverLift === 'clipped-to-contacts' ? this.contacts.sumPushDirections() : undefined;
    const lifted = liftSlivers(x, x0, w, this.mesh.tets, this.floor!.restVolume6, params.inversionFloor, slivers, this.floor!.scratch.grad, held, pushDirection);
    if (into) into.inversionFloorTets += lifted;
  }

  /**
   * SolverParams.sliverFloorInSweeps, after each material sweep (CpuSolver): the slivers below the
   * floor lifted on the positions alone, as a hard constraint of the material solve (its moves
   * become velocity, as the material's do). Not counted: inversionFloorTets counts the lift after
   * the contacts (or before them, 'with-contacts'), as on the GPU. No scan of the state for
   * non-finite values in every sweep: a sliver with such a corner has no volume below the floor, so
   * the lift leaves it, as the GPU's does. GPU twin: InversionFloorStage.afterSweep.
   */
  liftSliversInSweep(x: Float64Array, w: Float64Array, params: SliverLiftParams, slivers: ArrayLike<number>): void {
    if (!params.sliverFloorInSweeps || !this.floorHolds(params, slivers)) return;
    liftSlivers(x, null, w, this.mesh.tets, this.floor!.restVolume6, params.inversionFloor, slivers, this.floor!.scratch.grad);
  }

  /**
   * sliverLift 'with-contacts', in the substep's last round before its collision stage: the
   * slivers lifted on the positions x alone, the moves summed in `sliverShift`, so that the round's
   * CCD (the motion from x0 to x) tests the lift; the contacts then lift them again before each of
   * their passes after the first (CpuContacts.betweenPasses), so each pass answers what the lift
   * moved. endSliverLift gives the moves to x0 after the round (split impulse: no velocity). Only
   * this first lift counts in inversionFloorTets, as on the GPU. GPU twin: InversionFloorStage's
   * beforeCollisions, betweenPasses and its encode (applySliverShift).
   */
  beginSliverLift(x: Float64Array, x0: Float64Array, w: Float64Array, params: SliverLiftParams, slivers: ArrayLike<number>, into?: CollisionFrameCounters): void {
    if (params.sliverLift !== 'with-contacts' || !this.floorsSlivers(x, x0, params, slivers)) return;
    const shift = (this.sliverShift ??= new Float64Array(x.length));
    const { tets } = this.mesh, { restVolume6, scratch } = this.floor!, floor = params.inversionFloor;
    const lift = () => liftSlivers(x, shift, w, tets, restVolume6, floor, slivers, scratch.grad);
    const lifted = lift();
    if (into) into.inversionFloorTets += lifted;
    this.contacts.betweenPasses = () => void lift();
    this.sliverLifting = true;
  }

  /** After the round beginSliverLift went before: x0 takes the lift's moves, which are cleared. */
  endSliverLift(x0: Float64Array): void {
    if (!this.sliverLifting) return;
    const shift = this.sliverShift!;
    for (let i = 0; i < shift.length; i++) x0[i] += shift[i];
    shift.fill(0);
    this.contacts.betweenPasses = undefined;
    this.sliverLifting = false;
  }

  /** Whether the sliver floor acts on this state (and its rest volumes are ready). */
  private floorsSlivers(x: Float64Array, x0: Float64Array, params: SliverLiftParams, slivers: ArrayLike<number>): boolean {
    return this.floorHolds(params, slivers) && allFinite(x, x0);
  }

  /** Whether the settings have the sliver floor hold `slivers` (and its rest volumes are ready). */
  private floorHolds(params: SliverLiftParams, slivers: ArrayLike<number>): boolean {
    if (!params.collisions || params.recovery || !params.sliverFloor || !(params.inversionFloor > 0) || slivers.length === 0) return false;
    this.floor ??= { restVolume6: restVolumes6(this.model.restPositions, this.mesh.tets), scratch: inversionFloorScratch(this.mesh.vertexCount) };
    return true;
  }

  /** sliverLift 'with-contacts': the lift's moves of x since beginSliverLift, which endSliverLift gives to x0. */
  private sliverShift?: Float64Array;
  private sliverLifting = false;
  /** sliverLift 'holding-contacts': the lift's inverse masses, 0 at the vertices a contact pushed this substep. */
  private heldInverseMass?: Float64Array;

  /** Whether the last step() built and solved its contacts (solveAgain's guard), and in which mode. */
  private solved = false;
  private solvedMode: CollisionMode = 'dcd';
  /** With ccdEveryRound: the positions round 0's CCD tested (before its contacts), for the later rounds' far test. */
  private roundZero?: Float64Array;
  /** The CCD pairs given a contact in this substep (solveAgain's later-round CCD skips them). */
  private readonly ccdPairs: CcdPairsInContact = { vertexFace: new Set(), edgeEdge: new Set() };
  /** With ccdEveryRound: the pairs round 0 found within the later rounds' reach, which they test again. */
  private readonly nearPairs: CcdNearList = { vertexFace: [], edgeEdge: [] };

  /**
   * One substep at positions x (corrected in place); x0: positions at the substep's start, w:
   * inverse masses. Adds this substep's counters to `into` and returns it. Skipped (nothing
   * added) when collisions are off or a coordinate is not finite (the solver's guard then stops
   * that object; the next substep collides again). Without `collisionMode` the stage runs 'dcd'.
   * `held`: per-object flags of src/contract/held.ts, set by sticking contacts. `round`: the
   * collision round of the substep (SolverParams.collideEvery); hybrid marks Pin in round 0 only,
   * at the substep's start, and later rounds keep those marks (as the GPU's detect stage).
   * `touch`: the vertices a collider pushed this substep (src/contract/colliderTouch.ts), which
   * the contacts do not push into that collider.
   */
  step(
    x: Float64Array, x0: Float64Array, w: Float64Array, params: CollisionStageParams, into: CollisionFrameCounters = emptyCollisionCounters(),
    phaseMs?: Record<'detect' | 'spb' | 'ccd' | 'contacts', number>, held?: Uint8Array, round = 0, touch?: Float64Array,
  ): CollisionFrameCounters {
    this.solved = false;
    if (!params.collisions || !allFinite(x, x0)) return into;
    const mode: CollisionMode = effectiveCollisionMode({ collisionMode: params.collisionMode ?? 'dcd', recovery: params.recovery });
    into.mode = mode;
    const offset = this.offsetOf(params);
    const opts = { selfCollision: params.selfCollision, recovery: params.recovery, euclidean: params.interObject === 'euclidean' };
    const list = this.queries, res = this.results;
    this.contacts.clear();
    const m = this.mesh;
    let clock = performance.now();
    const lap = (phase: 'detect' | 'spb' | 'ccd' | 'contacts'): void => {
      const now = performance.now();
      if (phaseMs) phaseMs[phase] += now - clock;
      clock = now;
    };
    if (mode === 'hybrid' && round === 0) {
      // Alg. 5 line 1: the points penetrating at the substep's start.
      const pinned = this.detector.markPenetrating(x0, opts, this.pin, this.markList);
      into.pin += pinned;
      into.pinInFold += this.detector.pinInFoldCount;
      into.pout += m.boundaryVertices.length + m.boundaryEdges.length / 2 - pinned;
    }
    if (mode !== 'ccd') {
      updateSpbMeshData(this.data, x);
      this.spb.configure(params);
      this.detector.detect(x, { ...opts, only: mode === 'hybrid' ? this.pin : undefined }, list);
      if (mode === 'hybrid' && (params.pinRelease ?? false)) into.pinReleased += releasePins(this.pin, list, m.boundaryVertices);
      lap('detect');
      this.spb.run(list, res);
      lap('spb');
      this.contacts.appendDcd(x, list, res, offset, this.selfOffsetOf(params));
      // The shortest paths that lead out through the far side of a part the point has crossed.
      if (effectiveFarSideContacts({ farSideContacts: params.farSideContacts ?? 'auto', recovery: params.recovery }) === 'drop') {
        into.farSideDropped += dropFarSideContacts(this.contacts, x, m.vertexCount, 0, this.contacts.count, m.vertexObject);
      }
    } else {
      list.clear();
      res.found = res.none = res.skipped = res.bvhCandidates = res.traversals = res.tetsVisited = 0;
      lap('detect');
    }
    this.contacts.rampOffsets(x0, this.offsetRamp, RAMP_FLOOR_DCD, this.depenetration);
    const dcdContacts = this.contacts.count;
    this.ccdPairs.vertexFace.clear();
    this.ccdPairs.edgeEdge.clear();
    this.ccd.pinByKind = params.pinByKind ?? false;
    this.ccd.skipInverted = params.ccdSkipInverted ?? false;
    this.ccd.interiorEdges = params.ccdEdgeInterior ?? false;
    // With ccdEveryRound, round 0 also lists the pairs the later rounds test again (ccd/laterRounds.ts).
    const reach = laterRoundReach(offset, this.meanEdge);
    const near = params.ccdEveryRound ? { reach, limit: offset + 2 * reach, list: this.nearPairs } : undefined;
    if (mode !== 'dcd') this.ccd.run(x0, x, offset, offset, params.selfCollision, mode === 'hybrid' ? this.pin : null, this.contacts, into.ccd, this.ccdPairs, this.selfOffsetOf(params), near);
    // Exit contacts (pinRelease) open from the gap at the end of the motion CCD tested, where their point is outside.
    const exits = mode !== 'dcd' ? this.ccd.exitContacts : [];
    if (mode !== 'dcd' && params.ccdEveryRound) {
      if (this.roundZero?.length !== x.length) this.roundZero = new Float64Array(x.length);
      this.roundZero.set(x);
    }
    lap('ccd');
    this.contacts.rampOffsets(x0, this.offsetRamp, RAMP_FLOOR_CCD, this.depenetration, dcdContacts, this.contacts.count, exits);
    for (const i of exits) this.contacts.rampOffset(i, x, this.offsetRamp, RAMP_FLOOR_CCD, this.depenetration);
    this.solveContacts(x, x0, w, params, held, touch);
    this.liftInversions(x, x0, w, params, into);
    lap('contacts');
    this.solved = true;
    this.solvedMode = mode;
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
    if (mode !== 'dcd') {
      // Exact per-substep boxes: nothing escapes; the margin is the separation, the horizon a substep.
      into.ccd.capacity = into.contactCapacity;
      into.ccd.margin = offset;
      into.ccd.selfMargin = offset;
    }
    return into;
  }
}

/** The settings the sliver floor reads (sliverLift: 'after-contacts', sliverFloorInSweeps: false where absent). */
type SliverLiftParams = Pick<SolverParams, 'collisions' | 'recovery' | 'inversionFloor' | 'sliverFloor'> & Partial<Pick<SolverParams, 'sliverLift' | 'sliverFloorInSweeps'>>;

/**
 * SolverParams.pinRelease, after a hybrid detection of the Pin points (`list`, its queries): the
 * boundary vertices marked Pin (either kind) that no query names, found in no tet, become
 * PIN_RELEASED, so that CCD takes their pairs. Returns how many. Boundary edges keep their marks:
 * an edge's CCD side comes from its gap at the start, which for an edge that was inside points
 * back in. GPU twin: dcdDetect.wgsl (DETECT_PIN_RELEASE).
 */
function releasePins(pin: Uint8Array, list: CpuQueryList, boundaryVertices: ArrayLike<number>): number {
  // A bit above the marks flags the queried vertices for the scan (cleared by it).
  const QUERIED = 0x80;
  for (let i = 0; i < list.count; i++) {
    const s = list.source[i];
    if (((s >>> KIND_SHIFT) & 3) === KIND_VERTEX) pin[s & SOURCE_INDEX_MASK] |= QUERIED;
  }
  let released = 0;
  for (let i = 0; i < boundaryVertices.length; i++) {
    const v = boundaryVertices[i];
    if (pin[v] & QUERIED) pin[v] &= ~QUERIED;
    else if (pin[v] & (PIN_SELF | PIN_INTER)) {
      pin[v] = PIN_RELEASED;
      released++;
    }
  }
  return released;
}

/** Whether every coordinate of x and x0 is finite (the solver's guard stops the object otherwise). */
function allFinite(x: Float64Array, x0: Float64Array): boolean {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]) || !Number.isFinite(x0[i])) return false;
  return true;
}
