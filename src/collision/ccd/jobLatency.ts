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
/**
 * The most frames a job's boxes hold (latency 1). The setting may change between frames, so the
 * self-collision culling's deviation bound is learnt this far ahead whatever latency runs: a bound
 * over two frames also holds a one-frame job, not the other way round.
 */
export const LONGEST_JOB_FRAMES = 2;

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
 * the pairs of one frame's), latency 0 is the shorter frame. Measured per frame f when its end state
 * comes (schedule(), as soon as the GPU finished it): the period P since frame f - 1's end; its own
 * work W, since it got its candidates or frame f - 1 ended, whichever was later (with two frames in
 * flight, the GPU's time on it); its wait and its job J; and the rest o = max(0, P - W - wait). With
 * r the two-frame job's time over the one-frame job's (AUTO_LATENCY_FIRST_RATIO until measured):
 *   at latency 1 a frame at 0 would last W + o + J / r: go to 0 when that is less than P;
 *   at latency 0 a frame at 1 would last max(W + o, r J0): back when that is less than P.
 * Latency 0 needs each frame's end state before the next frame is recorded: oneFrameInFlightWanted
 * asks the frame loop for one frame in flight, and a loop that keeps two sends 'auto' back to 1.
 */
export class JobLatencyChoice {
  /** The latency of the jobs started now. */
  private current: 0 | 1;
  private framesAtLatency = 0;
  /** Per frame that got its candidates (the last few), what it measured. */
  private readonly servedFrames = new Map<number, ServedFrame>();
  /** The newest frame that got its candidates. */
  private newestServed = -Infinity;
  /** The last frame end schedule() saw, and when. */
  private lastEnd: { frame: number; at: number } | null = null;
  /** The last two-frame job's time before going to latency 0 (ms; 0: none pending), and r as last measured. */
  private twoFrameJobMs = 0;
  private jobRatio = AUTO_LATENCY_FIRST_RATIO;
  private autoNow = false;

  constructor(
    /** The latency where ccdJobLatency is absent (CcdScheduleOptions.latency). */
    private readonly fixed: 0 | 1,
    private readonly clock: () => number,
  ) {
    this.current = fixed;
  }

  /** inputFor: `frame` got its candidates after waiting `waitMs` for a job of `jobMs` whose boxes held `horizonFrames` frames. */
  served(frame: number, jobMs: number, waitMs: number, horizonFrames: number): void {
    this.servedFrames.set(frame, { frame, jobMs, waitMs, readyAt: this.clock(), horizonFrames });
    this.newestServed = Math.max(this.newestServed, frame);
    for (const f of this.servedFrames.keys()) if (f < frame - 3) this.servedFrames.delete(f);
  }

  /** schedule(): the latency of the job started from `frame`'s end state. */
  next(frame: number, wanted: CcdJobLatency | undefined): 0 | 1 {
    const at = this.clock();
    const previous = this.lastEnd;
    this.lastEnd = { frame, at };
    const s = this.servedFrames.get(frame);
    const measured = s && previous && previous.frame === frame - 1
      ? { s, period: at - previous.at, work: at - Math.max(s.readyAt, previous.at) }
      : null;
    this.autoNow = wanted === 'auto';
    const latency = this.chosen(frame, wanted, measured);
    if (latency !== this.current) this.framesAtLatency = 0;
    this.current = latency;
    this.framesAtLatency++;
    return latency;
  }

  /** Whether the frame loop should keep one frame in flight: 'auto' at latency 0 (each frame waits for a job from the frame before it). */
  get oneFrameInFlightWanted(): boolean {
    return this.autoNow && this.current === 0;
  }

  /** The latency of a job started at a frame's start (no job was ready for it): a fixed one as asked, 'auto' the one it runs at. */
  now(wanted: CcdJobLatency | undefined): 0 | 1 {
    return wanted === 'auto' ? this.current : this.asked(wanted);
  }

  /** A latency the setting fixes ('0', '1'; absent: the schedule's own); throws on an unknown one. */
  private asked(wanted: Exclude<CcdJobLatency, 'auto'> | undefined): 0 | 1 {
    if (wanted === undefined) return this.fixed;
    if (wanted !== '0' && wanted !== '1') throw new RangeError(`CcdSchedule: ccdJobLatency must be 'auto', '0' or '1', got ${String(wanted)}`);
    return wanted === '0' ? 0 : 1;
  }

  reset(): void {
    this.servedFrames.clear();
    this.newestServed = -Infinity;
    this.lastEnd = null;
    this.twoFrameJobMs = 0;
  }

  private chosen(frame: number, wanted: CcdJobLatency | undefined, m: { s: ServedFrame; period: number; work: number } | null): 0 | 1 {
    if (wanted !== 'auto') return this.asked(wanted);
    // At latency 0 the loop kept two frames in flight: the next frame was recorded before this end state came.
    if (this.current === 0 && this.newestServed > frame) return 1;
    if (!m) return this.current;
    const { s, period, work } = m;
    // The first one-frame job after going to 0 measures r against the last two-frame job.
    if (this.current === 0 && s.horizonFrames === 1 && this.twoFrameJobMs > 0 && s.jobMs > 0) {
      this.jobRatio = Math.max(1, this.twoFrameJobMs / s.jobMs);
      this.twoFrameJobMs = 0;
    }
    if (this.framesAtLatency < AUTO_LATENCY_HOLD_FRAMES) return this.current;
    const rest = Math.max(0, period - work - s.waitMs);
    if (this.current === 1) {
      if (s.horizonFrames === 2 && s.waitMs >= AUTO_LATENCY_MIN_WAIT_MS && work + rest + s.jobMs / this.jobRatio < period) {
        this.twoFrameJobMs = s.jobMs;
        return 0;
      }
      return 1;
    }
    if (s.horizonFrames !== 1) return 0;
    return Math.max(work + rest, this.jobRatio * s.jobMs) < period ? 1 : 0;
  }
}
