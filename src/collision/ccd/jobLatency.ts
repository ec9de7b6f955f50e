/**
 * The latency of CCD's broad-phase jobs (SolverParams.ccdJobLatency; ccdSchedule.ts starts the
 * jobs): frames between the state a job starts from and the frame it serves. '1' overlaps the job
 * with a frame of GPU work, its boxes holding two frames' motion; '0' makes the next frame wait for
 * it, its boxes holding one frame's; 'auto' chooses from what the frames measure (docs/collisions.md
 * "The job's latency").
 */
import type { CcdJobLatency } from '../../contract/params';

/**
 * 'auto' (SolverParams.ccdJobLatency) guesses, until it has measured one, that a job over two
 * frames' motion costs this many times one over one frame's: the boxes' radii double with the
 * horizon. Measured on the float64 reference's octopus-box states (frames 16-50,
 * bench/ccdJobLatency.ts, docs/benchmarks.md "CCD's job over one frame's motion"): 2.5-9.9x; on
 * the synthetic 8-octopus impact of bench/ccd.ts 1.1x (its join costs the same whatever its output).
 */
export const AUTO_LATENCY_FIRST_RATIO = 2;
/** 'auto' switches only on a wait of at least this long (ms): a short wait is the pool's own latency. */
export const AUTO_LATENCY_MIN_WAIT_MS = 4;
/** Frames 'auto' keeps a latency it switched to before it may switch back. */
export const AUTO_LATENCY_HOLD_FRAMES = 8;

/** What a frame that got its candidates measured (ms, on the schedule's clock). */
interface ServedFrame {
  frame: number;
  jobMs: number;
  waitMs: number;
  /** When it got them. */
  readyAt: number;
  /** The frames its job's boxes held (1 or 2). */
  horizonFrames: number;
}

/**
 * 'auto': latency 1 overlaps a job with a frame of the GPU's work, but its boxes cover two frames'
 * motion; latency 0 makes the frame wait for its job, whose boxes cover one. Where the frame waits
 * anyway (a job longer than the frame: a pile landing at 4-7 m/s, whose two-frame boxes hold 2-5x
 * the pairs of one frame's), latency 0 is the shorter frame. With r the two-frame job's time over
 * the one-frame job's (AUTO_LATENCY_FIRST_RATIO until measured), from the last served frame (its
 * own work W, from getting its candidates to its end state's schedule(); its wait; its job J):
 *   at latency 1 a frame lasts W + wait; at 0 it would last W + J / r: go to 0 when J / r < wait;
 *   at latency 0 a frame lasts W + J0; at 1 it would last max(W, r J0): back when r J0 < W + J0.
 * With two frames in flight the next frame is recorded before a frame's end state comes, so no frame
 * can wait for a job from the frame before it: 'auto' stays at 1 there.
 */
export class JobLatencyChoice {
  /** The latency of the jobs started now. */
  private current: 0 | 1;
  private framesAtLatency = 0;
  private last: ServedFrame | null = null;
  /** The last served frame's own work (ms), once its end state came (null before). */
  private frameWorkMs: number | null = null;
  /** The last two-frame job's time before going to latency 0 (ms; 0: none pending), and r as last measured. */
  private twoFrameJobMs = 0;
  private jobRatio = AUTO_LATENCY_FIRST_RATIO;

  constructor(
    /** The latency where ccdJobLatency is absent (CcdScheduleOptions.latency). */
    private readonly fixed: 0 | 1,
    private readonly clock: () => number,
  ) {
    this.current = fixed;
  }

  /** inputFor: `frame` got its candidates after waiting `waitMs` for a job of `jobMs` whose boxes held `horizonFrames` frames. */
  served(frame: number, jobMs: number, waitMs: number, horizonFrames: number): void {
    this.last = { frame, jobMs, waitMs, readyAt: this.clock(), horizonFrames };
  }

  /** schedule(): the latency of the job started from `frame`'s end state. */
  next(frame: number, wanted: CcdJobLatency | undefined): 0 | 1 {
    const s = this.last;
    if (s?.frame === frame) this.frameWorkMs = this.clock() - s.readyAt;
    const latency = this.chosen(frame, wanted);
    if (latency !== this.current) this.framesAtLatency = 0;
    this.current = latency;
    this.framesAtLatency++;
    return latency;
  }

  /** The latency of a job started at a frame's start (no job was ready for it): a fixed one as asked, 'auto' the one it runs at. */
  now(wanted: CcdJobLatency | undefined): 0 | 1 {
    if (wanted === undefined) return this.fixed;
    if (wanted === 'auto') return this.current;
    return wanted === '0' ? 0 : 1;
  }

  reset(): void {
    this.last = null;
    this.frameWorkMs = null;
    this.twoFrameJobMs = 0;
  }

  private chosen(frame: number, wanted: CcdJobLatency | undefined): 0 | 1 {
    if (wanted === undefined) return this.fixed;
    if (wanted === '0' || wanted === '1') return wanted === '0' ? 0 : 1;
    if (wanted !== 'auto') throw new RangeError(`CcdSchedule: ccdJobLatency must be 'auto', '0' or '1', got ${String(wanted)}`);
    const s = this.last;
    if (s && s.frame !== frame) return 1;
    if (!s) return this.current;
    // The first one-frame job after going to 0 measures r against the last two-frame job.
    if (this.current === 0 && s.horizonFrames === 1 && this.twoFrameJobMs > 0 && s.jobMs > 0) {
      this.jobRatio = Math.max(1, this.twoFrameJobMs / s.jobMs);
      this.twoFrameJobMs = 0;
    }
    if (this.framesAtLatency < AUTO_LATENCY_HOLD_FRAMES) return this.current;
    if (this.current === 1) {
      if (s.horizonFrames === 2 && s.waitMs >= AUTO_LATENCY_MIN_WAIT_MS && s.jobMs / this.jobRatio < s.waitMs) {
        this.twoFrameJobMs = s.jobMs;
        return 0;
      }
      return 1;
    }
    if (s.horizonFrames !== 1 || this.frameWorkMs === null) return 0;
    return this.jobRatio * s.jobMs < this.frameWorkMs + s.jobMs ? 1 : 0;
  }
}
