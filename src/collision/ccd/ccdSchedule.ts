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
 * The boxes (broadPhase.ts sweptVertexBoxes: the ballistic path grown by margin + |v| horizon;
 * pairs within one object from boxes in the object's own moving frame, sweptCandidates) bound
 * motion that the material solve and contacts may bend; the GPU checks every substep that each
 * boundary vertex stayed inside its world box and counts escapes. An escape doubles the margin of
 * the jobs started from then on (up to 64 x); frames without escapes let it shrink back by 5 %
 * per frame. A missing job (first frame, a reset, changed settings) is run at once from a
 * blocking snapshot (counted in the wait); its boxes also serve the frames up to the latency.
 */
import { ownFrameBoxes, ownFrameReferences, sweptCandidates, sweptVertexBoxes, type CcdCandidates, type CcdTopology, type MotionBound } from './broadPhase';

/** Positions and velocities in the GPU layout (vec4 per vertex, xyz used). */
export interface StateSnapshot {
  positions: Float32Array;
  velocities: Float32Array;
}

export type BroadPhaseRunner = (positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean) => Promise<CcdCandidates & { jobMs: number }>;

/** The broad phase on the calling thread (tests, and where no pool is given). */
export function inThreadBroadPhase(topo: CcdTopology): BroadPhaseRunner {
  return async (positions, velocities, bound, selfCollision) => {
    const t0 = performance.now();
    const c = sweptCandidates(topo, positions, velocities, bound, selfCollision);
    return { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge, jobMs: performance.now() - t0 };
  };
}

/** What the schedule's jobs depend on (a change drops jobs started under other values). */
export interface ScheduleParams {
  dt: number;
  gravity: [number, number, number];
  selfCollision: boolean;
}

export interface CcdScheduleOptions {
  /** Frames between the snapshot and the frame its candidates serve: 1 (default) overlaps the job with a frame of GPU work; 0 waits for it. */
  latency?: 0 | 1;
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
  horizon: number;
  jobMs: number;
  waitMs: number;
}

interface Job {
  key: string;
  boxes: Float32Array;
  own?: { boxes: Float32Array; references: Uint32Array };
  margin: number;
  horizon: number;
  result: Promise<CcdCandidates & { jobMs: number }>;
}

const MAX_MARGIN_SCALE = 64;

export class CcdSchedule {
  readonly latency: 0 | 1;
  private readonly jobs = new Map<number, Job>();
  private marginScale = 1;

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
  }

  get margin(): number {
    return this.baseMargin * this.marginScale;
  }

  private key(p: ScheduleParams): string {
    return `${p.dt}/${p.gravity.join(',')}/${p.selfCollision}/${this.baseMargin}`;
  }

  private start(snapshot: StateSnapshot, p: ScheduleParams): Job {
    const horizon = (1 + this.latency) * p.dt;
    const bound: MotionBound = { horizon, gravity: [...p.gravity], margin: this.margin };
    const boxes = sweptVertexBoxes(snapshot.positions, snapshot.velocities, bound);
    const own = p.selfCollision && this.topology
      ? { boxes: ownFrameBoxes(this.topology, snapshot.positions, snapshot.velocities, bound), references: ownFrameReferences(this.topology, snapshot.positions) }
      : undefined;
    const result = this.runner(snapshot.positions, snapshot.velocities, bound, p.selfCollision);
    // A rejected job is reported when its frame awaits it; never an unhandled rejection before that.
    result.catch(() => undefined);
    return { key: this.key(p), boxes, own, margin: bound.margin, horizon, result };
  }

  /** After frame `frame` ended in `snapshot`: starts the job for frame + 1 + latency. */
  schedule(frame: number, snapshot: StateSnapshot, p: ScheduleParams): void {
    this.jobs.set(frame + 1 + this.latency, this.start(snapshot, p));
  }

  /**
   * Before frame `frame` is recorded: its candidates (awaiting its job; a failed job rejects with
   * the worker's error). Without a usable job, one runs now on `snapshotNow()`.
   */
  async inputFor(frame: number, p: ScheduleParams, snapshotNow: () => Promise<StateSnapshot>): Promise<ScheduledInput> {
    for (const f of [...this.jobs.keys()]) if (f < frame) this.jobs.delete(f);
    const t0 = performance.now();
    let job = this.jobs.get(frame);
    this.jobs.delete(frame);
    if (!job || job.key !== this.key(p)) {
      job = this.start(await snapshotNow(), p);
      // Its boxes cover (1 + latency) frames from now: the next frames' too, until their own jobs.
      for (let f = frame + 1; f <= frame + this.latency; f++) if (!this.jobs.has(f)) this.jobs.set(f, job);
    }
    const c = await job.result;
    return { candidates: { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge }, boxes: job.boxes, own: job.own, margin: job.margin, horizon: job.horizon, jobMs: c.jobMs, waitMs: performance.now() - t0 };
  }

  /** The GPU's escape count of a frame (world and own-frame boxes): widen the boxes of the jobs started from now on, or let them shrink back. */
  noteEscapes(escaped: number): void {
    this.marginScale = escaped > 0 ? Math.min(MAX_MARGIN_SCALE, this.marginScale * 2) : Math.max(1, this.marginScale * 0.95);
  }

  /** Drops every job (the state was reset or replaced). */
  reset(): void {
    this.jobs.clear();
  }
}
