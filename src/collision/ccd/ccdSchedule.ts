/**
 * When CCD's broad phase runs, on what, and how its motion bound adapts (docs/architecture.md
 * "CCD in the time step"). Once per frame, never per substep:
 *
 *   after frame k   the frame's end positions and velocities come back with the frame's
 *                   readback (a snapshot); a broad-phase job starts in the worker pool on boxes
 *                   swept from that snapshot over the horizon (1 + latency) x dt, and is meant
 *                   for frame k + 1 + latency.
 *   before frame j  its job's candidates are awaited (the time spent waiting is measured: with
 *                   latency 1 the job had a whole frame of the GPU's time to finish) and handed
 *                   to the GPU stage (collision/gpu/ccdStage.ts), which tests them every substep.
 *
 * The latency is SolverParams.ccdJobLatency: 1 overlaps the job with a frame, 0 makes the next frame
 * wait for it with boxes over one frame's motion instead of two (2-5x fewer pairs in a fast pile);
 * 'auto' takes 0 while frames wait for their jobs anyway (jobLatency.ts). Whichever it takes, each
 * job serves only frames its horizon reaches.
 *
 * The boxes (broadPhase.ts sweptVertexBoxes: the gravity arc grown by margin + |v| horizon;
 * pairs within one object from boxes in the object's own moving frame, sweptCandidates) bound
 * motion that the material solve and contacts may bend; the GPU checks every substep that each
 * boundary vertex stayed inside its world box, counts escapes, lists the vertices that escaped
 * and how far (up to 4,096 a frame) and measures how far the farthest one lay outside. A listed
 * vertex's boxes widen in the jobs started from then on by twice its distance, at most doubled
 * (MotionBound.vertexMargins), and no other box does; only a full list widens the margins below
 * (by the farthest distance, likewise). Margins shrink back by 5 % per frame without escapes.
 * World boxes and own-frame boxes keep their own margin scale, each widened by its own escapes:
 * a pile of 4 octopi landing escaped only its own-frame boxes (16-202 a frame), and one
 * shared scale widened every box, the jobs going from 0.2 s to 1.05 s (docs/benchmarks.md "CCD's
 * broad phase"). With the topology, the own-frame scale is per object, from the GPU's per-object
 * escape flags (ccdNarrow.wgsl: bit object % 64 of two words): a body landing widens its own boxes,
 * not those of the bodies still falling or resting. A missing job (first frame, a reset, changed settings) is run at once from a
 * blocking snapshot (counted in the wait); its boxes also serve the frames up to the latency.
 *
 * Self-collision culling (collision/selfCulling/, SolverParams.selfCulling): each job also drops
 * the same-object pairs that cannot touch under the deviation bound that the schedule's
 * DeviationMonitor learns from the snapshots (checked against every new snapshot; escapes counted).
 */
import type { OwnPairReuse } from './ownPairCache';
import { objectCount } from './objectMeans';
import { ownFrameBoxes, ownFrameReferences, sweptVertexBoxes, worldBoxes, type CcdCandidates, type CcdTopology, type MotionBound, type WorldBoxes } from './broadPhase';
import { culledSweptCandidates, type SelfCullingReport, type SelfCullingRequest } from '../selfCulling/broadPhaseCulling';
import type { DeviationMonitor, DeviationObservation } from '../selfCulling/deviationMonitor';
import type { CcdJobLatency, SelfCullingMode } from '../../contract/params';
import { candidateClosingSpeed } from './impactSubsteps';
import { obstacleGrowth } from './obstacleGrowth';
import { JobLatencyChoice, LONGEST_JOB_FRAMES } from './jobLatency';
import type { SelfPairFrame, SelfPairFrameReport } from './selfPairFrames';

/** Positions and velocities in the GPU layout (vec4 per vertex, xyz used). */
export interface StateSnapshot {
  positions: Float32Array;
  velocities: Float32Array;
}

export type BroadPhaseRunner = (
  positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean, culling?: SelfCullingRequest,
) => Promise<CcdCandidates & { jobMs: number; selfCulling?: SelfCullingReport; closingSpeed?: number; keptPairs?: OwnPairReuse; selfFrames?: SelfPairFrameReport; interPairs?: number; interSlices?: number }>;

/** The broad phase on the calling thread (tests, and where no pool is given). */
export function inThreadBroadPhase(topo: CcdTopology): BroadPhaseRunner {
  return async (positions, velocities, bound, selfCollision, culling) => {
    const t0 = performance.now();
    const c = culledSweptCandidates(topo, positions, velocities, bound, selfCollision, culling);
    const closingSpeed = candidateClosingSpeed(topo, c.vertexFace, positions, velocities, 4, bound.horizon);
    return { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge, jobMs: performance.now() - t0, closingSpeed, interPairs: c.interPairs, interSlices: 1, ...(c.selfCulling ? { selfCulling: c.selfCulling } : {}),
      ...(c.keptPairs ? { keptPairs: c.keptPairs } : {}), ...(c.selfFrames ? { selfFrames: c.selfFrames } : {}),
    };
  };
}

/** What the schedule's jobs depend on (a change drops jobs started under other values). */
export interface ScheduleParams {
  dt: number;
  gravity: [number, number, number];
  selfCollision: boolean;
  /** Absent: 'off'. */
  selfCulling?: SelfCullingMode;
  /** MotionBound.selfPairSkin (SolverParams.selfPairSkin); absent: the broad phase's default. */
  selfPairSkin?: number;
  /** SolverParams.ccdObstacleGrowth: own-frame boxes grow for obstacles (obstacleGrowth.ts); absent: true. */
  ccdObstacleGrowth?: boolean;
  /** SolverParams.ccdSelfPairFrame: the frame same-object pairs are joined in (MotionBound.selfPairFrame, selfPairFrames.ts); absent: 'own'. */
  ccdSelfPairFrame?: SelfPairFrame;
  /** SolverParams.ccdWorldBoxes: the world boxes' prediction (MotionBound.worldBoxes, meanPathBoxes.ts); absent: 'ball'. */
  ccdWorldBoxes?: WorldBoxes;
  /** SolverParams.ccdJobLatency: frames between a job's snapshot and the frame it serves (jobLatency.ts); absent: the schedule's options.latency. */
  ccdJobLatency?: CcdJobLatency;
}

export interface CcdScheduleOptions {
  /** Frames between the snapshot and the frame its candidates serve: 1 (default) overlaps the job with a frame of GPU work; 0 waits for it. */
  latency?: 0 | 1;
  /** Learns the self-collision culling's deviation bound from the snapshots (without one, nothing is culled). */
  deviation?: DeviationMonitor;
  /**
   * Per vertex of a snapshot, non-zero where it may reach a collider within `horizon` seconds
   * (sim/colliderClosingSpeed.ts collidersReached), or null without colliders: the own-frame
   * boxes of an object that may land grow along its speed (obstacleGrowth.ts).
   */
  collidersReached?: (snapshot: StateSnapshot, horizon: number) => Uint8Array | null;
  /** The clock waits and frame work are measured with (ms); absent: performance.now. */
  now?: () => number;
}

/** A frame's candidates, the world boxes they were found with (6 floats per vertex: lo xyz, hi xyz), and what the job cost. */
export interface ScheduledInput {
  candidates: CcdCandidates;
  boxes: Float32Array;
  /**
   * With self-collision: the boxes the pairs within an object were found with (broadPhase.ts
   * ownFrameBoxes) and each object's reference vertex (ownFrameReferences), so the GPU checks
   * those boxes too; absent without self-collision.
   */
  own?: { boxes: Float32Array; references: Uint32Array };
  margin: number;
  /** The own-frame boxes' margin (MotionBound.ownMargin: the largest object's). */
  ownMargin: number;
  /** Per object, the own-frame boxes' margin (MotionBound.ownMargins); absent without the topology. */
  ownMargins?: Float64Array;
  /** Per vertex and side, the own-frame boxes' growth for obstacles (MotionBound.ownGrowth, obstacleGrowth.ts); absent: none. */
  ownGrowth?: ArrayLike<number>;
  /** Per vertex, the least margin of its boxes after its own escapes (MotionBound.vertexMargins); absent: none. */
  vertexMargins?: Float32Array;
  horizon: number;
  jobMs: number;
  waitMs: number;
  /** What self-collision culling did in the job (absent without self-collision). */
  selfCulling?: SelfCullingReport;
  /** What the job's kept lists of same-object pairs did (ownPairCache.ts; absent when none were used). */
  keptPairs?: OwnPairReuse;
  /** Which frame the job joined same-object pairs in (selfPairFrames.ts; absent with 'own'). */
  selfFrames?: SelfPairFrameReport;
  /** The job's pairs between objects, and the workers they were sliced over (workers/ccdJobs.ts splitParts); absent when the runner gave none. */
  interPairs?: number;
  interSlices?: number;
  /** The job's fastest closing vertex-face candidate (impactSubsteps.ts), world units / s; absent when the runner gave none. */
  closingSpeed?: number;
  /**
   * The state the closing speed was measured on and how many frames before the served frame's
   * start it was taken (0: the previous frame's end, closingSpeedAtStart), so that the owner can
   * measure the colliders' closing speed on the same state (sim/colliderClosingSpeed.ts).
   */
  closingState?: { snapshot: StateSnapshot; framesBefore: number };
}

/** A job in flight: the boxes and margins it was swept with, as ScheduledInput gives them to the frame it serves. */
interface Job extends Pick<ScheduledInput, 'boxes' | 'own' | 'margin' | 'ownMargin' | 'ownMargins' | 'ownGrowth' | 'vertexMargins' | 'horizon'> {
  key: string;
  /** The frame whose end state the job's snapshot is (frame - 1 for a job run at frame's start). */
  from: number;
  snapshot: StateSnapshot;
  result: ReturnType<BroadPhaseRunner>;
}

const MAX_MARGIN_SCALE = 64;

/** The margins a frame's job was swept with (ScheduledInput's), for noteEscapes. */
export interface EscapedJobMargins {
  margin: number;
  ownMargin: number;
  ownMargins?: ArrayLike<number>;
  vertexMargins?: ArrayLike<number>;
}

/** The vertices that escaped their boxes in a frame, each once with how far (world units), from the GPU's escape list (ccdStage.ts escapedVertices). */
export interface EscapedVertexList {
  vertices: ArrayLike<number>;
  distances: ArrayLike<number>;
  /** The GPU's list was full: escaped vertices are missing from it. */
  overflowed: boolean;
}

/** How far the farthest escape of a frame lay outside its box (world units): the GPU's counters.ccd.escapeDistance and escapeDistanceSelf. */
export interface EscapeDistances {
  world: number;
  own: number;
}

/**
 * The margin scale after an escape from boxes swept at scale `usedAt`: the used margin plus twice
 * the distance the farthest escape lay outside (so that motion deviating as far again fits), at
 * most twice the used margin; twice it where the distance is unknown (absent, zero or not finite).
 */
export function widenedScale(usedAt: number, distance: number | undefined, baseMargin: number): number {
  if (distance === undefined || !(distance > 0) || !Number.isFinite(distance) || !(baseMargin > 0)) return 2 * usedAt;
  return Math.min(2 * usedAt, usedAt + (2 * distance) / baseMargin);
}

/** Whether object o's bit is set in the GPU's per-object own-frame escape flags (bit o % 64 of two u32 words). */
export function ownEscapeFlagged(words: ArrayLike<number>, o: number): boolean {
  const bit = o % 64;
  return ((words[bit >> 5] >>> (bit & 31)) & 1) === 1;
}

export class CcdSchedule {
  /** The latency when ScheduleParams.ccdJobLatency is absent (options.latency). */
  readonly latency: 0 | 1;
  /** The latency of each job started (SolverParams.ccdJobLatency; 'auto' measures, jobLatency.ts). */
  private readonly latencyChoice: JobLatencyChoice;
  /** The frame last handed its candidates (inputFor): no job is started for it or earlier frames. */
  private lastPrepared = -Infinity;
  private readonly now: () => number;
  private readonly jobs = new Map<number, Job>();
  /** Scales of the base margin: world boxes, own-frame boxes (each widened by its own escapes). */
  private worldScale = 1;
  private ownScale = 1;
  /** With the topology: the own-frame scale per object (ownScale is then their largest). */
  private readonly ownScales?: Float64Array;
  /** With the topology: per vertex, the least margin of its boxes after its own escapes (world units; 0: none). */
  private readonly vertexMarginsNow?: Float32Array;
  private vertexMarginCount = 0;
  private readonly deviation?: DeviationMonitor;
  private readonly collidersReached?: (snapshot: StateSnapshot, horizon: number) => Uint8Array | null;
  /** The deviation check of the last snapshot scheduled (null when culling was off for it). */
  lastDeviation: DeviationObservation | null = null;
  /** The newest snapshot scheduled and the frame it ended (closingSpeedAtStart). */
  private newest: { frame: number; snapshot: StateSnapshot } | null = null;

  constructor(
    private readonly runner: BroadPhaseRunner,
    /**
     * Margin at scale 1 (world units); at least CCD's contact separation. The owner may change it
     * (a new contact offset): jobs started under another margin are then not used.
     */
    public baseMargin: number,
    options: CcdScheduleOptions = {},
    /** The CCD topology: with it, jobs also carry the own-frame boxes and references the GPU checks (ScheduledInput.own). */
    private readonly topology?: CcdTopology,
  ) {
    if (!(baseMargin >= 0)) throw new RangeError(`CcdSchedule: baseMargin must be >= 0, got ${baseMargin}`);
    this.latency = options.latency ?? 1;
    this.now = options.now ?? (() => performance.now());
    this.latencyChoice = new JobLatencyChoice(this.latency, this.now);
    if (topology) {
      this.ownScales = new Float64Array(objectCount(topology)).fill(1);
      this.vertexMarginsNow = new Float32Array(topology.vertexCount);
    }
    this.deviation = options.deviation;
    this.collidersReached = options.collidersReached;
    // The culling's deviation bound must reach as far as the longest job's horizon (jobLatency.ts).
    if (this.deviation && this.deviation.horizonFrames < LONGEST_JOB_FRAMES) {
      throw new RangeError(`CcdSchedule: the deviation monitor predicts ${this.deviation.horizonFrames} frames ahead; a job may hold ${LONGEST_JOB_FRAMES} (ccdJobLatency)`);
    }
  }

  /** The world boxes' margin of the jobs started now. */
  get margin(): number {
    return this.baseMargin * this.worldScale;
  }

  /** The own-frame boxes' margin of the jobs started now (the largest object's, with per-object scales). */
  get ownMargin(): number {
    return this.baseMargin * this.ownScale;
  }

  /** Per object, the own-frame boxes' margin of the jobs started now; undefined without the topology. */
  get ownMargins(): Float64Array | undefined {
    return this.ownScales?.map((scale) => this.baseMargin * scale);
  }

  /** Per vertex, the least margin of the jobs started now (world units; 0: none); undefined without the topology or while no vertex has one. */
  get vertexMargins(): Float32Array | undefined {
    return this.vertexMarginCount > 0 ? this.vertexMarginsNow!.slice() : undefined;
  }

  private key(p: ScheduleParams): string {
    return `${p.dt}/${p.gravity.join(',')}/${p.selfCollision}/${p.selfCulling ?? 'off'}/${this.baseMargin}`;
  }

  private start(snapshot: StateSnapshot, from: number, p: ScheduleParams, deviation: Float32Array | null, edgeDeviation: Float32Array | null, latency: 0 | 1): Job {
    const horizon = (1 + latency) * p.dt;
    const ownMargins = this.ownMargins;
    const vertexMargins = this.vertexMargins;
    const bound: MotionBound = { horizon, gravity: [...p.gravity], margin: this.margin, ownMargin: this.ownMargin, ...(ownMargins ? { ownMargins } : {}),
      ...(vertexMargins ? { vertexMargins } : {}),
      ...(p.selfPairSkin !== undefined ? { selfPairSkin: p.selfPairSkin } : {}), ...(p.ccdSelfPairFrame !== undefined ? { selfPairFrame: p.ccdSelfPairFrame } : {}),
      // The mean path needs each vertex's object: without the topology the worker's boxes stay the ball too.
      ...(p.ccdWorldBoxes !== undefined && this.topology ? { worldBoxes: p.ccdWorldBoxes } : {}),
    };
    const ball = sweptVertexBoxes(snapshot.positions, snapshot.velocities, bound);
    const meanPath = bound.worldBoxes === 'mean-path';
    const references = p.selfCollision && this.topology ? ownFrameReferences(this.topology, snapshot.positions) : null;
    // Own-frame boxes, and world boxes clipped to the mean path, of bodies that may meet a collider
    // or another body grow along the relative speed (found on the balls, before any clip).
    if (this.topology && (references || meanPath) && p.ccdObstacleGrowth !== false) {
      const reachesCollider = this.collidersReached?.(snapshot, horizon) ?? null;
      bound.ownGrowth = obstacleGrowth({ topology: this.topology, worldBoxes: ball, velocities: snapshot.velocities,
        references: references ?? ownFrameReferences(this.topology, snapshot.positions), horizon, reachesCollider });
    }
    // The boxes the GPU checks: the ones the worker's sweptCandidates joins on, from the same bound.
    const boxes = meanPath ? worldBoxes(this.topology!, snapshot.positions, snapshot.velocities, bound, undefined, ball) : ball;
    const culling: SelfCullingRequest | undefined = p.selfCollision ? { mode: p.selfCulling ?? 'off', deviation, edgeDeviation } : undefined;
    const own = this.topology && references ? { boxes: ownFrameBoxes(this.topology, snapshot.positions, snapshot.velocities, bound), references } : undefined;
    const result = this.runner(snapshot.positions, snapshot.velocities, bound, p.selfCollision, culling);
    // A rejected job is reported when its frame awaits it; never an unhandled rejection before that.
    result.catch(() => undefined);
    return { key: this.key(p), boxes, own, margin: bound.margin, ownMargin: this.ownMargin, ...(ownMargins ? { ownMargins } : {}), ...(bound.ownGrowth ? { ownGrowth: bound.ownGrowth } : {}),
      ...(vertexMargins ? { vertexMargins } : {}), horizon, from, snapshot, result };
  }

  /** After frame `frame` ended in `snapshot`: starts the job for frame + 1 + latency. */
  schedule(frame: number, snapshot: StateSnapshot, p: ScheduleParams): void {
    let deviation: Float32Array | null = null, edgeDeviation: Float32Array | null = null;
    this.lastDeviation = null;
    if (this.deviation && p.selfCollision && (p.selfCulling ?? 'off') !== 'off') {
      const seen = this.deviation.observe(frame, snapshot.positions, snapshot.velocities, p.dt);
      deviation = seen.bound;
      edgeDeviation = seen.edgeBound;
      this.lastDeviation = seen.observation;
    }
    this.newest = { frame, snapshot };
    const latency = this.latencyChoice.next(frame, p.ccdJobLatency);
    const target = frame + 1 + latency;
    // Going to latency 0, the next frame already has its job (from the frame before, over two
    // frames): none is started beside it, unless that one was started under other settings. With
    // two frames in flight the frame may be recorded already.
    if (target <= this.lastPrepared || this.jobs.get(target)?.key === this.key(p)) return;
    const job = this.start(snapshot, frame, p, deviation, edgeDeviation, latency);
    this.jobs.set(target, job);
    // Going back to latency 1, the next frame has no job: this one's boxes cover it too.
    for (let f = frame + 1; f < target; f++) if (f > this.lastPrepared && this.jobs.get(f)?.key !== this.key(p)) this.jobs.set(f, job);
  }

  /**
   * Before frame `frame` is recorded: its candidates (awaiting its job; a failed job rejects with
   * the worker's error). Without a usable job, one runs now on `snapshotNow()`. The closing
   * speed is measured again at the frame's start when a newer snapshot came in (closingSpeedAtStart),
   * unless `options.closingSpeed` is false (impact substeps off: the job's figure is passed on).
   */
  async inputFor(frame: number, p: ScheduleParams, snapshotNow: () => Promise<StateSnapshot>, options: { closingSpeed?: boolean } = {}): Promise<ScheduledInput> {
    for (const f of [...this.jobs.keys()]) if (f < frame) this.jobs.delete(f);
    const t0 = this.now();
    let job = this.jobs.get(frame);
    this.jobs.delete(frame);
    this.lastPrepared = frame;
    if (!job || job.key !== this.key(p)) {
      // No deviation bound for a state that did not come through schedule(): nothing is culled.
      // A fixed latency as asked; 'auto' the one it runs at now.
      const latency = this.latencyChoice.now(p.ccdJobLatency);
      job = this.start(await snapshotNow(), frame - 1, p, null, null, latency);
      // Its boxes cover (1 + latency) frames from now: the next frames' too, until their own jobs.
      for (let f = frame + 1; f <= frame + latency; f++) if (!this.jobs.has(f)) this.jobs.set(f, job);
    }
    const c = await job.result;
    this.latencyChoice.served(frame, c.jobMs, this.now() - t0, Math.round(job.horizon / p.dt));
    const atStart = c.closingSpeed === undefined || options.closingSpeed === false ? null : this.closingSpeedAtStart(frame, job, c.vertexFace, p);
    const closingSpeed = atStart ?? c.closingSpeed;
    const closingState = atStart !== null ? { snapshot: this.newest!.snapshot, framesBefore: 0 } : { snapshot: job.snapshot, framesBefore: frame - 1 - job.from };
    return {
      candidates: { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge }, boxes: job.boxes, own: job.own, margin: job.margin, ownMargin: job.ownMargin,
      ...(job.ownMargins ? { ownMargins: job.ownMargins } : {}), ...(job.ownGrowth ? { ownGrowth: job.ownGrowth } : {}),
      ...(job.vertexMargins ? { vertexMargins: job.vertexMargins } : {}), horizon: job.horizon, jobMs: c.jobMs, waitMs: this.now() - t0,
      ...(c.selfCulling ? { selfCulling: c.selfCulling } : {}), ...(c.keptPairs ? { keptPairs: c.keptPairs } : {}), ...(c.selfFrames ? { selfFrames: c.selfFrames } : {}), ...(closingSpeed !== undefined ? { closingSpeed, closingState } : {}),
      ...(c.interPairs !== undefined ? { interPairs: c.interPairs } : {}), ...(c.interSlices !== undefined ? { interSlices: c.interSlices } : {}),
    };
  }

  /**
   * The closing speed of `frame`'s candidates at the frame's start (impactSubsteps.ts), when a
   * snapshot newer than the job's came in: the end of frame - 1, which with latency 1 and one
   * frame in flight is a frame newer than the job's. The job's own figure is a frame late at
   * the start of an impact: in octopus-box the first octopus lands in frame 14 and the one
   * above closes on it from frame 15's start, which the job (from frame 13's end, all falling
   * together) read as 0, so frame 15 ran at 5 substeps (the CPU engine, measuring at the
   * frame's start, took 16). The same pairs and horizon (one frame) as the CPU engine's
   * measure. Null when there is no newer snapshot (the job's figure stands), without the topology.
   */
  private closingSpeedAtStart(frame: number, job: Job, vertexFace: Uint32Array, p: ScheduleParams): number | null {
    const newest = this.newest;
    if (!this.topology || !newest || newest.frame !== frame - 1 || job.from >= newest.frame) return null;
    return candidateClosingSpeed(this.topology, vertexFace, newest.snapshot.positions, newest.snapshot.velocities, 4, p.dt);
  }

  /**
   * The GPU's escape counts of a frame, from the world boxes and from the own-frame boxes: each
   * widens its own boxes in the jobs started from now on, or lets them shrink back.
   * `escapedOwnObjects`: which objects' own-frame boxes escaped, as bits (bit o % 64 of the two
   * words: objects 64 apart share one); absent: every object's, when any escaped. `used`: the
   * margins of the job the frame ran with (its ScheduledInput); absent: the current ones.
   */
  noteEscapes(
    escapedWorld: number, escapedOwn = 0, escapedOwnObjects?: ArrayLike<number>, used?: EscapedJobMargins, outside?: EscapeDistances, escapedVertices?: EscapedVertexList,
  ): void {
    // With the GPU's list of the vertices that escaped (and the topology), those vertices' boxes
    // widen and no other's: a whole list says which ones escaped, so the world and object scales
    // only shrink back. A full list (or none) leaves vertices unnamed: then the scales widen too.
    const perVertex = escapedVertices !== undefined && this.vertexMarginsNow !== undefined;
    this.shrinkVertexMargins(perVertex ? this.widenVertices(escapedVertices, used) : undefined);
    const named = perVertex && !escapedVertices.overflowed;
    const worldEscaped = !named && escapedWorld > 0, ownEscaped = !named && escapedOwn > 0;
    // An escape says the margin the frame's job used was too small: widen that one, not the
    // current scale, which may already have grown for a frame still in flight (with latency 1 a
    // landing body escapes for 2 frames before the first wider job arrives; compounding took one
    // octopus's own margin from 7.8 mm to 12.5 cm and the job from 0.2 to 2.2 s). By twice what
    // the farthest escape lay outside, at most doubling: before, every escape doubled, and on the
    // H100 one world escape 0.6 mm outside took the 4-octopus box's world margin from 83 to 184 mm
    // (docs/benchmarks.md "On a real GPU: NVIDIA H100, main at 8594c15"). Without a distance, doubling.
    const base = this.baseMargin;
    const usedScale = (margin: number | undefined, scale: number): number => (used && base > 0 && margin !== undefined ? margin / base : scale);
    const next = (scale: number, escaped: boolean, usedAt: number, distance: number | undefined): number =>
      escaped ? Math.min(MAX_MARGIN_SCALE, Math.max(scale, widenedScale(usedAt, distance, base))) : Math.max(1, scale * 0.95);
    this.worldScale = next(this.worldScale, worldEscaped, usedScale(used?.margin, this.worldScale), outside?.world);
    const scales = this.ownScales;
    if (!scales) {
      this.ownScale = next(this.ownScale, ownEscaped, usedScale(used?.ownMargin, this.ownScale), outside?.own);
      return;
    }
    let largest = 1;
    for (let o = 0; o < scales.length; o++) {
      const flagged = escapedOwnObjects ? ownEscapeFlagged(escapedOwnObjects, o) : true;
      // The GPU measures the farthest own-frame escape over all objects: each flagged object takes it.
      scales[o] = next(scales[o], ownEscaped && flagged, usedScale(used?.ownMargins?.[o] ?? used?.ownMargin, scales[o]), outside?.own);
      largest = Math.max(largest, scales[o]);
    }
    this.ownScale = largest;
  }

  /**
   * Each listed vertex's least margin becomes its used margin widened by twice how far it lay
   * outside (widenedScale: at most doubling). Returns which vertices it widened (1 each).
   */
  private widenVertices(list: EscapedVertexList, used?: EscapedJobMargins): Uint8Array {
    const margins = this.vertexMarginsNow!, topo = this.topology!;
    const base = this.baseMargin;
    const escaped = new Uint8Array(margins.length);
    for (let k = 0; k < list.vertices.length; k++) {
      const v = list.vertices[k];
      if (!(v < margins.length)) continue;
      const o = topo.vertexObject[v];
      // The margin its boxes had in the escaping frame's job: the largest of world, own and its own.
      const usedMargin = Math.max(
        used?.margin ?? this.margin, used?.ownMargins?.[o] ?? used?.ownMargin ?? this.ownMargins?.[o] ?? this.ownMargin,
        used?.vertexMargins?.[v] ?? margins[v],
      );
      const widened = base > 0 ? base * widenedScale(usedMargin / base, list.distances[k], base) : usedMargin;
      margins[v] = Math.min(MAX_MARGIN_SCALE * base, Math.max(margins[v], widened));
      escaped[v] = 1;
    }
    return escaped;
  }

  /** Every vertex margin but those `escaped` marks shrinks by 5 %, and is dropped once under the base margin (the scales' floor). */
  private shrinkVertexMargins(escaped?: Uint8Array): void {
    const margins = this.vertexMarginsNow;
    if (!margins || (this.vertexMarginCount === 0 && !escaped)) return;
    let count = 0;
    for (let v = 0; v < margins.length; v++) {
      if (margins[v] === 0) continue;
      if (!escaped?.[v]) margins[v] = margins[v] * 0.95 < this.baseMargin ? 0 : margins[v] * 0.95;
      if (margins[v] > 0) count++;
    }
    this.vertexMarginCount = count;
  }

  /**
   * Whether the frame loop should keep one frame in flight (ccdJobLatency 'auto' at latency 0: each
   * frame waits for a job started from the frame before it). The page and the runner's
   * --frames-in-flight 2 read it (GpuSolver.framesInFlightWanted).
   */
  get oneFrameInFlightWanted(): boolean {
    return this.latencyChoice.oneFrameInFlightWanted;
  }

  /** Drops every job (the state was reset or replaced). */
  reset(): void {
    this.jobs.clear();
    this.newest = null;
    this.lastPrepared = -Infinity;
    this.latencyChoice.reset();
    this.deviation?.reset();
    this.lastDeviation = null;
  }
}
