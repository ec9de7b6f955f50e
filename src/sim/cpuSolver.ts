/**
 * CPU reference of the XPBD step (float64), the oracle the GPU solver is tested against.
 * Same algorithm, same order: per substep predict -> iterations of (material constraints,
 * colliders) -> collisions between and within the bodies (src/collision/cpu: detection, shortest
 * path to boundary, contacts) -> velocity update with damping and the NaN/Inf guard. Gauss-Seidel follows
 * the model's colouring (colours in order; constraints of one colour are independent, so
 * their order does not matter); partitioned Gauss-Seidel follows the partitioned order front to
 * back, which is exactly what the GPU's passes of independent cells execute; Jacobi computes all corrections from the same positions,
 * each constraint's step (multiplier and corrections alike) scaled by relaxation / (mean
 * count of constraints at its vertices), and applies their sum: about the average, but
 * consistent with the multipliers.
 */
import { CpuAirCollisions } from '../collision/air/cpuAirCollisions';
import { colourSlivers, flooredTets } from '../collision/cpu/inversionFloor';
import { CpuCollisionStage } from '../collision/cpu/cpuCollisionStage';
import { emptyCollisionCounters, type CollisionFrameCounters } from '../collision/counters';
import { airContainerFor } from './airContainer';
import { COLLIDER_STRIDE, colliderLayerAllowance, projectOutOfCollider } from './colliders';
import { COLLIDER_ANCHOR_STRIDE, COLLIDER_MULTIPLIER_STRIDE, COLLIDER_STICKING, COLLIDER_TOUCHING, collideWithMultiplier, colliderRampProjections } from './colliderMultiplier';
import { colliderClosingSpeed } from './colliderClosingSpeed';
import { NEO_HOOKEAN_TET_STATE, neoHookeanCorrection, neoHookeanWarmStart, springCorrection, WARM_START_SHARE } from './constraintsCpu';
import { AndersonAccelerator } from './andersonAcceleration';
import { HANDLE_STRIDE } from './handles';
import { setPartitionBalance, setSliverQuality, setVertexMassFloor, type Model } from './model';
import { checkParams, effectiveColliderResponse, effectiveCollisionMode, effectiveCollisionRounds, effectiveDepenetrationSpeed, effectiveDetectionRounds, effectiveImpactSubsteps, firstIterationOfRound, lineSearchInSweep, MIN_MIXING_SWEEPS, sliverFloorThreshold, type SolverParams, type StepLengthening } from '../contract/params';
import { dampDeformation, objectsWithHandles, RIGID_STRIDE } from './rigidDamping';
import { ageHeld, HELD_NOW, wholeBodyDamping } from '../contract/held';
import { TOUCH_STRIDE } from '../contract/colliderTouch';
import { sampleScripts } from './scripts';
import { colliderContactOffset, offsetRampStep } from '../collision/contactOffset';
import { checkSetup, nonFiniteMessage, type SimSetup } from './setup';
import { impactSubstepCount } from '../collision/ccd/impactSubsteps';

/** Milliseconds per phase of a CPU frame (the GPU's phase names, src/sim/stage.ts PhaseName). */
export interface CpuPhaseTimes {
  predict: number;
  material: number;
  detect: number;
  spb: number;
  ccd: number;
  contacts: number;
  finalize: number;
}

export function emptyPhaseTimes(): CpuPhaseTimes {
  return { predict: 0, material: 0, detect: 0, spb: 0, ccd: 0, contacts: 0, finalize: 0 };
}

export class CpuSolver {
  readonly model: Model;
  params: SolverParams;
  readonly x: Float64Array;
  readonly x0: Float64Array;
  readonly v: Float64Array;
  /** Inverse mass per vertex (0 for handles and for stopped objects). */
  readonly w: Float64Array;
  readonly tetLambda: Float64Array;
  readonly edgeLambda: Float64Array;
  /** Per object: 0 running, 1 stopped after NaN/Inf. */
  readonly objectStopped: Uint8Array;
  readonly messages: string[] = [];
  /** Called after each substep with its index (bench/impactEnergy.ts traces energy through a frame). */
  onSubstep?: (substep: number) => void;
  time = 0;
  frame = 0;
  /** Collision counters of the last frame (summed over its substeps; zero with collisions off). */
  collisionCounters: CollisionFrameCounters = emptyCollisionCounters();
  /** Substeps the last frame took (SolverParams.substeps, or more on impact: impactSubsteps). */
  frameSubstepCount = 0;
  /** The last frame's closing speed that chose its substeps (world units / s); null when not measured. */
  closingSpeed: number | null = null;
  /** Wall time of the last frame by phase (ms), the GPU's phase names: predict, material (with colliders), detect, spb, ccd, contacts, finalize. */
  phaseMs: CpuPhaseTimes = emptyPhaseTimes();
  /** Built on the first substep with collisions on (the scene mesh and the query's arrays). */
  private collision: CpuCollisionStage | null = null;
  /** Air mode (collision/air/): built on the first substep in that mode. */
  private air: CpuAirCollisions | null = null;
  private readonly setup: SimSetup;
  private readonly corrections: Float64Array;
  private readonly dx = new Float64Array(12);
  private readonly normal = new Float64Array(3);
  private readonly startScratch = new Float64Array(3);
  private readonly startNormal = new Float64Array(3);
  /** The colliders' offset ramp per projection this frame (offsetRampStep over the iterations). */
  private colliderRamp = Infinity;
  /** The depth a point started with inside a static collider that one projection may remove (depenetrationSpeed; colliderLayerAllowance). */
  private colliderDepenetration = Infinity;
  /** Per vertex the collider that pushed it this substep (src/contract/colliderTouch.ts): normal, flag. */
  private readonly colliderTouch: Float64Array;
  /**
   * Per vertex the kept collider contact of SolverParams.colliderResponse 'multiplier'
   * (colliderMultiplier.ts): friction's correction and the normal push lambda (mixed by Anderson
   * acceleration), and the start's shift and the contact's code. The push is zeroed at each
   * substep's start, which voids the rest.
   */
  private readonly colliderMultiplier: Float64Array;
  private readonly colliderAnchor: Float64Array;
  /** Per vertex: friction budget mu x (normal push so far) - (tangential correction so far), this substep. */
  private readonly frictionBudget: Float64Array;
  private readonly hasHandles: Uint8Array;
  /**
   * Per object (held.ts): bit HELD_NOW set this substep by a sticking contact with a collider or
   * with an object held in the previous substep (bit HELD_BEFORE); damping then acts on all of its
   * velocity, as for an object with handles.
   */
  readonly held: Uint8Array;
  private readonly rigid: Float64Array;
  /**
   * Share of the last substep's Neo-Hookean multipliers a warm start keeps (WARM_START_SHARE).
   * Benchmarks vary it to show why it is a half (bench/materialConvergence.ts); the GPU solver
   * always uses WARM_START_SHARE.
   */
  warmStartShare = WARM_START_SHARE;
  /** Per tet the line search's step length in this substep (neoHookeanCorrection 'search' / 'reuse'). */
  private readonly stepLengths: Float64Array;
  /** Substep length the Neo-Hookean multipliers in tetLambda were solved with (null: none since the reset, or springs ran). */
  private multipliersH: number | null = null;
  private anderson: AndersonAccelerator | null = null;

  constructor(setup: SimSetup) {
    checkSetup(setup);
    checkParams(setup.params);
    this.setup = setup;
    this.model = setup.model;
    this.params = { ...setup.params };
    setSliverQuality(this.model, this.params.sliverQuality);
    setVertexMassFloor(this.model, this.params.vertexMassFloor);
    setPartitionBalance(this.model, this.params.partitionBalance);
    const m = this.model;
    this.x = new Float64Array(3 * m.vertexCount);
    this.x0 = new Float64Array(3 * m.vertexCount);
    this.v = new Float64Array(3 * m.vertexCount);
    this.w = new Float64Array(m.vertexCount);
    this.tetLambda = new Float64Array(NEO_HOOKEAN_TET_STATE * m.tetCount);
    this.stepLengths = new Float64Array(m.tetCount);
    this.edgeLambda = new Float64Array(m.edgeCount);
    this.objectStopped = new Uint8Array(m.objectNames.length);
    this.corrections = new Float64Array(Math.max(12 * m.tetCount, 6 * m.edgeCount));
    this.frictionBudget = new Float64Array(m.vertexCount);
    this.colliderTouch = new Float64Array(TOUCH_STRIDE * m.vertexCount);
    this.colliderMultiplier = new Float64Array(COLLIDER_MULTIPLIER_STRIDE * m.vertexCount);
    this.colliderAnchor = new Float64Array(COLLIDER_ANCHOR_STRIDE * m.vertexCount);
    this.hasHandles = objectsWithHandles(m);
    this.held = new Uint8Array(m.objectNames.length);
    this.rigid = new Float64Array(RIGID_STRIDE * m.objectNames.length);
    this.reset();
  }

  reset(): void {
    const m = this.model;
    this.x.set(m.restPositions);
    this.x0.set(m.restPositions);
    this.v.set(m.initialVelocities);
    this.w.set(m.invMass);
    this.objectStopped.fill(0);
    this.held.fill(0);
    this.air?.reset(m.invMass, m.restPositions);
    this.messages.length = 0;
    this.time = 0;
    this.frame = 0;
    this.multipliersH = null;
  }

  /** Re-reads inverse masses after a material change (stopped objects stay stopped). */
  refreshMasses(): void {
    const m = this.model;
    for (let v = 0; v < m.vertexCount; v++) this.w[v] = this.objectStopped[m.vertexObject[v]] ? 0 : m.invMass[v];
  }

  stepFrame(): void {
    const p = this.params;
    checkParams(p);
    // The tet constants follow the sliver threshold (model.ts); the masses do not change with it.
    setSliverQuality(this.model, p.sliverQuality);
    // The masses follow the light-vertex floor (vertexMassFloor.ts).
    if (setVertexMassFloor(this.model, p.vertexMassFloor)) this.refreshMasses();
    // The partitioned order's pass rule: the partition is read every iteration, so it may change between frames.
    setPartitionBalance(this.model, p.partitionBalance);
    this.phaseMs = emptyPhaseTimes();
    const substeps = this.frameSubsteps();
    const h = p.dt / substeps;
    // The offset ramp (SolverParams.contactOffsetSpeed): the colliders are projected once per
    // material iteration (the contacts, built once per collision round, take theirs in substep()).
    this.colliderRamp = offsetRampStep(p.contactOffsetSpeed, h, colliderRampProjections(p));
    this.colliderDepenetration = offsetRampStep(effectiveDepenetrationSpeed(p), h, colliderRampProjections(p));
    const scripts = sampleScripts(this.setup.colliders, this.setup.handles, this.time, h, substeps, colliderContactOffset(this.model, p.contactOffset));
    this.collisionCounters = emptyCollisionCounters();
    const air = p.collisions && effectiveCollisionMode(p) === 'air' ? this.airCollisions() : null;
    air?.beginFrame(p.airSolve);
    for (let s = 0; s < substeps; s++) {
      this.substep(s, h, scripts.colliders, scripts.handles);
      this.onSubstep?.(s);
    }
    if (air) this.collisionCounters = { ...this.collisionCounters, mode: 'air', air: air.endFrame(this.frame, this.x, this.w, p) };
    this.time += p.dt;
    this.frame += 1;
  }

  /**
   * The substeps of the frame about to start: `substeps`, or with impactSubsteps on more where the
   * broad phase's candidates close fast (collision/ccd/impactSubsteps.ts); sets frameSubstepCount
   * and closingSpeed (null when not measured: impact substeps off, collisions off, or a mode without CCD).
   */
  private frameSubsteps(): number {
    const p = this.params;
    this.closingSpeed = null;
    const previous = this.frame > 0 ? this.frameSubstepCount : undefined;
    this.frameSubstepCount = p.substeps;
    // Only where CCD runs (hybrid, ccd), as on the GPU, whose closing speed comes with CCD's candidates.
    const mode = effectiveCollisionMode(p);
    if (!(effectiveImpactSubsteps(p) > p.substeps) || !p.collisions || mode === 'air' || mode === 'dcd') return p.substeps;
    const t0 = performance.now();
    this.collision ??= new CpuCollisionStage(this.model);
    // The bodies' candidates and the colliders' surfaces (colliderClosingSpeed.ts): a landing on the ground is an impact too.
    const onColliders = colliderClosingSpeed({
      colliders: this.setup.colliders, time: this.time, horizon: p.dt, gravity: p.gravity, thickness: colliderContactOffset(this.model, p.contactOffset),
      positions: this.x, velocities: this.v, stride: 3, vertexCount: this.model.vertexCount, inverseMass: this.w,
    });
    this.closingSpeed = Math.max(this.collision.closingSpeed(this.x, this.v, p), onColliders);
    this.phaseMs.ccd += performance.now() - t0;
    this.frameSubstepCount = impactSubstepCount({ closingSpeed: this.closingSpeed, dt: p.dt, substeps: p.substeps, impactSubsteps: effectiveImpactSubsteps(p), meanEdge: this.collision.meanEdge, previousSubsteps: previous });
    return this.frameSubstepCount;
  }

  private substep(s: number, h: number, colliders: Float64Array, handles: Float64Array): void {
    const m = this.model;
    const p = this.params;
    const { x, x0, v, w } = this;
    const handleCount = this.setup.handles.length;
    let clock = performance.now();
    const lap = (phase: keyof CpuPhaseTimes): void => {
      const now = performance.now();
      this.phaseMs[phase] += now - clock;
      clock = now;
    };
    // 0. The Gauss-Seidel orders' Neo-Hookean tets start from a share of the previous substep's
    // multipliers when it had the same length (SolverParams.warmStart). Their corrections are
    // taken here, at the substep's start positions (the previous substep's end), and added after
    // predict: on the GPU the warm start's gather is predict's own kernel (predictWarm), one
    // dispatch less a substep; judged at the start or at the predicted positions, the cantilever
    // converges alike (docs/benchmarks.md, issue 24).
    const warm = p.constraint === 'neohookean' && p.warmStart && p.solveOrder !== 'jacobi' && this.multipliersH === h;
    if (warm) this.warmStartCorrections(1 / (h * h));
    // 1. Predict (explicit Euler on velocity, then position); handles jump to their target.
    for (let i = 0; i < m.vertexCount; i++) {
      for (let k = 0; k < 3; k++) x0[3 * i + k] = x[3 * i + k];
      this.frictionBudget[i] = 0;
      this.colliderTouch[TOUCH_STRIDE * i + 3] = 0;
      // The kept collider contact counts only while its push is > 0 (colliderMultiplier.ts), as
      // on the GPU, where predict zeroes velocities.w.
      this.colliderMultiplier[COLLIDER_MULTIPLIER_STRIDE * i + 3] = 0;
      if (this.objectStopped[m.vertexObject[i]]) continue;
      const hd = m.handleOfVertex[i];
      if (hd >= 0) {
        const o = (s * handleCount + hd) * HANDLE_STRIDE;
        const r = m.restPositions;
        for (let k = 0; k < 3; k++) {
          x[3 * i + k] = handles[o + k] * r[3 * i] + handles[o + 4 + k] * r[3 * i + 1] + handles[o + 8 + k] * r[3 * i + 2] + handles[o + 12 + k];
        }
      } else if (w[i] > 0) {
        for (let k = 0; k < 3; k++) {
          v[3 * i + k] += h * p.gravity[k];
          x[3 * i + k] += h * v[3 * i + k];
        }
      }
    }
    lap('predict');
    // 2. Material iterations. Multipliers restart every substep (small steps, Macklin et al.
    // 2019), except where the warm start above kept a share (its corrections added now).
    const invH2 = 1 / (h * h);
    if (p.constraint === 'neohookean') {
      if (warm) this.gather(true);
      else this.tetLambda.fill(0);
      // The line search's lengths are found anew every substep (andersonLineSearchSweeps), as
      // the GPU's warm start and clear zero them.
      this.stepLengths.fill(0);
      this.multipliersH = h;
    } else {
      this.edgeLambda.fill(0);
      this.multipliersH = null;
    }
    const colliderCount = this.setup.colliders.length;
    // 2-3. Material iterations, then collisions (paper 000 section 4, supplement Alg. 5): DCD +
    // shortest path for the points already inside at the substep's start, CCD for the others; or
    // air mode's volume constraints (collision/air). In rounds (SolverParams.collideEvery): round
    // r runs iterations [r I / R, (r + 1) I / R), then the collision stage; R = 1 by default.
    // Rounds from `detecting` on (collideEvery 'contacts') solve the contacts of the last
    // detecting round again on the positions of now, with no detection.
    const rounds = effectiveCollisionRounds(p, m.objectNames.length);
    const detecting = effectiveDetectionRounds(p, m.objectNames.length);
    // Anderson acceleration (SolverParams.andersonDepth): each round's iterations are one
    // fixed-point run, restarted after the collision stage moved the points between rounds.
    const anderson = this.andersonAccelerator();
    const kept = effectiveColliderResponse(p) === 'multiplier' && colliderCount > 0 ? this.colliderMultiplier : undefined;
    // SolverParams.sliverFloorInSweeps: the slivers held at the floor after every sweep too.
    const floorInSweeps = p.collisions && p.sliverFloorInSweeps && effectiveCollisionMode(p) !== 'air' ? (this.collision ??= new CpuCollisionStage(m)) : null;
    for (let round = 0; round < rounds; round++) {
      const start = firstIterationOfRound(round, rounds, p.iterations);
      const end = firstIterationOfRound(round + 1, rounds, p.iterations);
      // A round too short to mix (MIN_MIXING_SWEEPS) runs without it, as on the GPU.
      const accelerate = end - start >= MIN_MIXING_SWEEPS ? anderson : null;
      accelerate?.begin(x, this.tetLambda, kept);
      for (let it = start; it < end; it++) {
        if (p.solveOrder !== 'jacobi') this.gaussSeidel(invH2, lineSearchInSweep(p, accelerate !== null, it - start));
        else this.jacobi(invH2);
        for (let i = 0; i < m.vertexCount; i++) {
          if (w[i] === 0) continue;
          for (let c = 0; c < colliderCount; c++) {
            const e = (s * colliderCount + c) * COLLIDER_STRIDE;
            if (kept) this.collideKept(colliders, e, c, i);
            else this.collide(colliders, e, i);
          }
        }
        floorInSweeps?.liftSliversInSweep(x, w, p, this.sliverList());
        accelerate?.afterSweep(x, this.tetLambda, kept);
      }
      lap('material');
      // sliverLift 'with-contacts': in the last round the slivers are lifted before its collision
      // stage and between its contact passes, the start positions moved after it.
      const liftingWithContacts = round === rounds - 1 && p.collisions && p.sliverLift === 'with-contacts' && effectiveCollisionMode(p) !== 'air';
      if (liftingWithContacts) {
        (this.collision ??= new CpuCollisionStage(m)).beginSliverLift(x, x0, w, p, this.sliverList(), this.collisionCounters);
        lap('material');
      }
      if (p.collisions && effectiveCollisionMode(p) === 'air') this.air!.round(x, x0, w, p, round, rounds);
      else if (p.collisions && round >= detecting && this.collision) this.collision.solveAgain(x, x0, w, p, this.phaseMs, this.held, this.colliderTouch, this.collisionCounters);
      else if (p.collisions) {
        this.collision ??= new CpuCollisionStage(m);
        this.collision.offsetRamp = offsetRampStep(p.contactOffsetSpeed, h, detecting);
        this.collision.depenetration = offsetRampStep(effectiveDepenetrationSpeed(p), h, detecting);
        this.collision.step(x, x0, w, p, this.collisionCounters, this.phaseMs, this.held, round, this.colliderTouch);
        this.collisionCounters.ccd.horizon = h;
      }
      if (liftingWithContacts) this.collision!.endSliverLift(x0);
      clock = performance.now();
    }
    // Outside recovery, the slivers an impact turned inside out lifted back once a substep
    // (SolverParams.sliverFloor, sliverLift 'after-contacts' or 'clipped-to-contacts'; recovery lifted every tet in every round).
    if (p.collisions && this.collision && effectiveCollisionMode(p) !== 'air') {
      this.collision.liftSlivers(x, x0, w, p, this.sliverList(), this.collisionCounters);
      lap('contacts');
    }
    // 4. Velocities, NaN/Inf guard. A free vertex's velocity is its predicted one plus the
    // corrections' share, v~ + (x - x~) / h with x~ = x0 + h v~: the same as (x - x0) / h, but
    // in f32 (the GPU twin) it does not round the whole substep's displacement, which at 20
    // substeps biased a free fall's momentum by 0.9% on a body 2 units from the origin.
    for (let i = 0; i < m.vertexCount; i++) {
      let finite = true;
      const predicted = m.handleOfVertex[i] < 0 && w[i] > 0;
      for (let k = 0; k < 3; k++) {
        const j = 3 * i + k;
        v[j] = predicted ? v[j] + (x[j] - (x0[j] + h * v[j])) / h : (x[j] - x0[j]) / h;
        if (!Number.isFinite(x[j]) || !Number.isFinite(v[j])) finite = false;
      }
      if (!finite) {
        const o = m.vertexObject[i];
        // Back to the substep's start, or to the rest position if that is not finite either
        // (the state was corrupted from outside).
        const back = Number.isFinite(x0[3 * i]) && Number.isFinite(x0[3 * i + 1]) && Number.isFinite(x0[3 * i + 2]) ? x0 : m.restPositions;
        for (let k = 0; k < 3; k++) { x[3 * i + k] = back[3 * i + k]; v[3 * i + k] = 0; }
        if (!this.objectStopped[o]) this.stopObject(o);
      }
    }
    // A stopped object is frozen: no velocity, no mass.
    for (let i = 0; i < m.vertexCount; i++) {
      if (this.objectStopped[m.vertexObject[i]]) {
        w[i] = 0;
        for (let k = 0; k < 3; k++) v[3 * i + k] = 0;
      }
    }
    // 5. Damping of each running object's deformation, not of its rigid motion (Müller et al.
    // 2007, section 3.5; rigidDamping.ts).
    // Objects held in place (handles, or sticking contacts reaching a collider: held.ts) are damped
    // as a whole; the flags then age by one substep.
    if (p.damping > 0) {
      dampDeformation(m, x, v, w, this.objectStopped, wholeBodyDamping(this.held, this.hasHandles), Math.max(0, 1 - p.damping * h), this.rigid);
      ageHeld(this.held, this.hasHandles);
    }
    lap('finalize');
  }

  /** Air mode's part (built on first use, and again when the mesher setting changes): the air mesh of the scene's container. */
  airCollisions(): CpuAirCollisions {
    if (this.air && this.air.mesher === this.params.airMesher) return this.air;
    this.air = new CpuAirCollisions(this.model, airContainerFor(this.setup, this.params.airMesher), this.model.invMass, this.params.airMesher);
    return this.air;
  }

  /** The tets the sliver floor holds (flooredTets) in the floor's colour order, remade when a threshold changes. */
  private slivers?: { quality: number; tets: Uint32Array };
  private sliverList(): Uint32Array {
    const q = sliverFloorThreshold(this.params);
    if (this.slivers?.quality !== q) this.slivers = { quality: q, tets: colourSlivers(this.model.tets, flooredTets(this.model.relativeQuality, this.params)).order };
    return this.slivers.tets;
  }

  /** The collision stage (null until a substep ran with collisions on). */
  get collisionStage(): CpuCollisionStage | null {
    return this.collision;
  }

  /** The accelerator of the Neo-Hookean iterations, kept while its depth stays (null: off, or springs). */
  private andersonAccelerator(): AndersonAccelerator | null {
    const p = this.params;
    if (p.andersonDepth === 0 || p.constraint !== 'neohookean') return null;
    // The colliders' kept multipliers are part of the state the iterations move (colliderMultiplier.ts).
    const extra = effectiveColliderResponse(p) === 'multiplier' && this.setup.colliders.length > 0 ? COLLIDER_MULTIPLIER_STRIDE : 0;
    if (this.anderson?.depth !== p.andersonDepth || this.anderson.vertexExtra !== extra) {
      this.anderson = new AndersonAccelerator(p.andersonDepth, this.model.vertexCount, this.model.tetCount, NEO_HOOKEAN_TET_STATE, extra);
    }
    return this.anderson;
  }

  private stopObject(o: number): void {
    this.objectStopped[o] = 1;
    this.messages.push(nonFiniteMessage(this.model, o, this.frame));
  }

  /** One Gauss-Seidel sweep; `lineSearch`: how the Neo-Hookean steps are lengthened (lineSearchInSweep). */
  private gaussSeidel(invH2: number, lineSearch: StepLengthening): void {
    const m = this.model;
    const { x, w, dx } = this;
    if (this.params.constraint === 'neohookean') {
      const { order } = this.params.solveOrder === 'partitioned' ? m.tetPartition : m.tetColouring;
      for (let n = 0; n < order.length; n++) {
        const t = order[n];
        if (!neoHookeanCorrection(m, x, w, t, this.tetLambda, invH2, dx, 0, lineSearch, this.stepLengths)) continue;
        for (let c = 0; c < 4; c++) { const vi = m.tets[4 * t + c]; for (let k = 0; k < 3; k++) x[3 * vi + k] += dx[3 * c + k]; }
      }
    } else {
      const { order } = this.params.solveOrder === 'partitioned' ? m.edgePartition : m.edgeColouring;
      const alpha = this.params.springCompliance * invH2;
      for (let n = 0; n < order.length; n++) {
        const e = order[n];
        if (!springCorrection(m, x, w, e, this.edgeLambda, alpha, dx)) continue;
        for (let c = 0; c < 2; c++) { const vi = m.edges[2 * e + c]; for (let k = 0; k < 3; k++) x[3 * vi + k] += dx[3 * c + k]; }
      }
    }
  }

  private jacobi(invH2: number): void {
    const m = this.model;
    const { x, w, dx, corrections } = this;
    const nh = this.params.constraint === 'neohookean';
    const count = nh ? m.tetCount : m.edgeCount;
    const arity = nh ? 4 : 2;
    const alpha = this.params.springCompliance * invH2;
    const relax = this.params.jacobiRelaxation;
    for (let e = 0; e < count; e++) {
      const ok = nh ? neoHookeanCorrection(m, x, w, e, this.tetLambda, invH2, dx, relax) : springCorrection(m, x, w, e, this.edgeLambda, alpha, dx, relax);
      for (let k = 0; k < 3 * arity; k++) corrections[3 * arity * e + k] = ok ? dx[k] : 0;
    }
    this.gather(nh);
  }

  /** Every tet's warm start at the substep's start positions (neoHookeanWarmStart), its corrections stored for gather after predict: the GPU's warmStart kernel (gathered by predictWarm). */
  private warmStartCorrections(invH2: number): void {
    const m = this.model;
    const { x, w, dx, corrections } = this;
    for (let t = 0; t < m.tetCount; t++) {
      const ok = neoHookeanWarmStart(m, x, w, t, this.tetLambda, this.warmStartShare, invH2, dx);
      for (let k = 0; k < 12; k++) corrections[12 * t + k] = ok ? dx[k] : 0;
    }
  }

  /** Adds each free vertex's stored corner corrections (tets' or edges') to its position. */
  private gather(nh: boolean): void {
    const m = this.model;
    const { x, w, corrections } = this;
    const offsets = nh ? m.vertexTetOffsets : m.vertexEdgeOffsets;
    const corners = nh ? m.vertexTetCorners : m.vertexEdgeCorners;
    for (let i = 0; i < m.vertexCount; i++) {
      const n = offsets[i + 1] - offsets[i];
      if (n === 0 || w[i] === 0) continue;
      let sx = 0, sy = 0, sz = 0;
      for (let j = offsets[i]; j < offsets[i + 1]; j++) {
        const c = corners[j];
        sx += corrections[3 * c]; sy += corrections[3 * c + 1]; sz += corrections[3 * c + 2];
      }
      x[3 * i] += sx; x[3 * i + 1] += sy; x[3 * i + 2] += sz;
    }
  }

  /**
   * Pushes vertex i out of one collider, then applies Coulomb friction (Macklin et al. 2014,
   * "Unified particle physics", section 6.1, eq. 24-25, with mu_s = mu_k = friction) to its
   * tangential displacement over the whole substep, x - x0. The limit mu d uses the normal
   * push d accumulated over the substep's iterations, not this iteration's depth (after the
   * first iteration that is ~0, so a block on a slope crept); the tangential correction
   * already made this substep is spent from it, so applying the rule every iteration removes
   * at most mu d in all (sliding) and everything below it (sticking).
   * Split impulse, as the contacts': where the substep's start position was inside the collider
   * (grown by the contact offset) too, it moves out with the push, so depth already there (a body
   * placed on the ground, inside its skin) is removed without launching the body.
   */
  private collide(enc: Float64Array, e: number, i: number): void {
    const { x, x0, normal: n } = this;
    let depth = projectOutOfCollider(enc, e, x, 3 * i, n);
    if (depth <= 0) return;
    const s = this.startScratch;
    s[0] = x0[3 * i]; s[1] = x0[3 * i + 1]; s[2] = x0[3 * i + 2];
    const depth0 = Math.max(0, projectOutOfCollider(enc, e, s, 0, this.startNormal));
    // The offset ramp: a start inside the skin opens it by colliderRamp per projection; the point
    // goes back to the depth it may keep, and only the rest is a push.
    const allowed = Math.min(depth, colliderLayerAllowance(enc, e, depth0, this.colliderRamp, this.colliderDepenetration));
    if (allowed > 0) {
      for (let k = 0; k < 3; k++) x[3 * i + k] -= allowed * n[k];
      depth -= allowed;
      if (depth <= 0) return;
    }
    // Pushed: the contacts between bodies treat the collider as infinite mass at this vertex.
    this.recordTouch(i, n);
    const q = Math.min(depth, depth0 - allowed);
    for (let k = 0; k < 3; k++) x0[3 * i + k] += q * n[k];
    // Friction's budget grows by the push that changes velocity (an impulse); the part removing
    // depth the start already had is a position correction, not an impulse.
    let budget = this.frictionBudget[i] + this.params.friction * (depth - q);
    const dx0 = x[3 * i] - x0[3 * i], dy0 = x[3 * i + 1] - x0[3 * i + 1], dz0 = x[3 * i + 2] - x0[3 * i + 2];
    const dn = dx0 * n[0] + dy0 * n[1] + dz0 * n[2];
    const tx = dx0 - dn * n[0], ty = dy0 - dn * n[1], tz = dz0 - dn * n[2];
    const tl = Math.hypot(tx, ty, tz);
    // Static when the displacement is within the budget (cancel it all), else kinetic.
    const cut = Math.min(tl, budget);
    if (cut > 0) {
      const f = cut / tl;
      x[3 * i] -= tx * f; x[3 * i + 1] -= ty * f; x[3 * i + 2] -= tz * f;
      budget -= cut;
    }
    this.frictionBudget[i] = budget;
    // A sticking contact with a collider (static friction held: budget left) holds the object.
    if (budget > 0) this.held[this.model.vertexObject[i]] |= HELD_NOW;
  }

  /**
   * SolverParams.colliderResponse 'multiplier': vertex i against one collider with its kept
   * contact (colliderMultiplier.ts); records the touch and the held flag as collide does.
   */
  private collideKept(enc: Float64Array, e: number, c: number, i: number): void {
    const r = collideWithMultiplier(enc, e, c, this.x, this.x0, i, this.colliderMultiplier, this.colliderAnchor, this.colliderRamp, this.colliderDepenetration, this.params.friction, this.normal);
    if (!(r & COLLIDER_TOUCHING)) return;
    this.recordTouch(i, this.normal);
    if (r & COLLIDER_STICKING) this.held[this.model.vertexObject[i]] |= HELD_NOW;
  }

  /** Vertex i was pushed by a collider with normal n this substep (src/contract/colliderTouch.ts). */
  private recordTouch(i: number, n: Float64Array): void {
    const t = TOUCH_STRIDE * i;
    this.colliderTouch[t] = n[0]; this.colliderTouch[t + 1] = n[1]; this.colliderTouch[t + 2] = n[2]; this.colliderTouch[t + 3] = 1;
  }

  /** Kinetic energy of object o (or of everything). */
  kineticEnergy(object?: number): number {
    const m = this.model;
    let e = 0;
    for (let i = 0; i < m.vertexCount; i++) {
      if (object !== undefined && m.vertexObject[i] !== object) continue;
      if (m.invMass[i] === 0) continue;
      const v2 = this.v[3 * i] ** 2 + this.v[3 * i + 1] ** 2 + this.v[3 * i + 2] ** 2;
      e += (0.5 * v2) / m.invMass[i];
    }
    return e;
  }
}
