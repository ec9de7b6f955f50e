/**
 * The runner's frame loop, with one or two frames in flight (--frames-in-flight).
 *
 *   await runFrames(sim, { frames: 60, framesInFlight: 2,
 *     beforeFrame: (f) => change,                     // parameters for frame f (1-based), applied at its submission
 *     stateDue: (f) => f % every === 0,               // frame f's state is read back after it
 *     afterFrame: async (f, stats, change) => {...} }); // in frame order
 *
 * One frame in flight: each frame is recorded, submitted and awaited before the next
 * (Simulation.stepFrame, the behaviour of every run before this option). Two: frame f + 1 is
 * submitted while frame f runs (Simulation.submitFrame), and frame f is processed after that, so
 * the GPU has the next frame queued while JavaScript reads one back and records another. A frame
 * whose state is due is drained before the next is submitted: the state read back must be that
 * frame's, not the next one's. While the solver asks for one frame in flight (framesInFlightWanted:
 * CCD's 'auto' job latency at 0), each frame is processed before the next is submitted.
 */
import type { SolverParams } from '../contract/params';
import type { FrameStats, Simulation } from '../sim/simulation';

export interface FrameLoop {
  frames: number;
  framesInFlight: 1 | 2;
  /** Called just before frame f (1-based) is submitted: apply and return its parameter change, if any. */
  beforeFrame(f: number): Partial<SolverParams> | undefined;
  /** Whether frame f's state is read back in afterFrame (then no later frame is submitted before it). */
  stateDue(f: number): boolean;
  /** Frame f's stats, in frame order, once it completed; may read the state when stateDue(f). */
  afterFrame(f: number, stats: FrameStats, change: Partial<SolverParams> | undefined): Promise<void>;
}

type Submitted = { f: number; change: Partial<SolverParams> | undefined; done: Promise<FrameStats> };

export async function runFrames(sim: Pick<Simulation, 'stepFrame' | 'submitFrame'> & Partial<Pick<Simulation, 'framesInFlightWanted'>>, loop: FrameLoop): Promise<void> {
  if (loop.framesInFlight !== 1 && loop.framesInFlight !== 2) throw new RangeError(`runFrames: framesInFlight must be 1 or 2, got ${String(loop.framesInFlight)}`);
  if (loop.framesInFlight === 1) {
    for (let f = 1; f <= loop.frames; f++) {
      const change = loop.beforeFrame(f);
      await loop.afterFrame(f, await sim.stepFrame(), change);
    }
    return;
  }
  const queue: Submitted[] = [];
  const processOldest = async (): Promise<void> => {
    const s = queue.shift()!;
    await loop.afterFrame(s.f, await s.done, s.change);
  };
  try {
    for (let f = 1; f <= loop.frames; f++) {
      const change = loop.beforeFrame(f);
      const { done } = await sim.submitFrame();
      queue.push({ f, change, done });
      if (loop.stateDue(f)) while (queue.length > 0) await processOldest();
      // Keep one frame queued behind the one being read: the next submission finds room in the ring.
      // None while the solver has each frame wait for a CCD job from the frame before it (ccdJobLatency auto).
      else while (queue.length >= Math.min(loop.framesInFlight, sim.framesInFlightWanted ?? loop.framesInFlight)) await processOldest();
    }
    while (queue.length > 0) await processOldest();
  } finally {
    // A failure leaves frames in flight: wait for them so nothing rejects unobserved.
    await Promise.allSettled(queue.map((s) => s.done));
  }
}
