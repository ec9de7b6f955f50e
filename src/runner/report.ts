/**
 * The runner's JSON report: what ran (scene, mesh, materials, parameters, counts), the
 * initial state, one entry per frame (timings and counters; state measures on sampled
 * frames), and a summary.
 */
import type { FrameStats } from '../sim/simulation';
import type { StateMeasures } from './measure';

export interface FrameEntry {
  /** Frames completed (1 after the first frame); the state below is at `time`. */
  frame: number;
  /** Simulated time at the end of the frame (s). */
  time: number;
  wallMs: number;
  phasesMs: Record<string, number>;
  counters: { dispatches: number; constraintIterations: number; readbacks: number };
  /** Present on frames whose state was read back (every K frames and the last). */
  state?: StateMeasures;
}

export function frameEntry(s: FrameStats, state: StateMeasures | undefined): FrameEntry {
  const entry: FrameEntry = {
    frame: s.frame + 1,
    time: s.time,
    wallMs: s.wallMs,
    phasesMs: s.gpuPhasesMs ?? { xpbd: s.wallMs },
    // The NaN guard's status word is read every frame; a sampled state adds positions and velocities.
    counters: { dispatches: s.dispatches, constraintIterations: s.constraintIterations, readbacks: state ? 3 : 1 },
  };
  if (state) entry.state = state;
  return entry;
}

export interface RunSummary {
  frames: number;
  meanFrameMs: number;
  constraintIterationsPerSecond: number;
  boundingBox: StateMeasures['boundingBox'];
  kineticEnergy: number;
  /** Energy at the end and its largest value over the sampled states (start included). */
  energy: StateMeasures['energy'];
  maxTotalEnergy: number;
  nonFiniteVertices: number;
  stoppedObjects: string[];
}

export function summarize(frames: readonly FrameEntry[], initial: StateMeasures, final: StateMeasures, stopped: string[]): RunSummary {
  const wall = frames.reduce((a, f) => a + f.wallMs, 0);
  const iterations = frames.reduce((a, f) => a + f.counters.constraintIterations, 0);
  let maxTotal = initial.energy.total;
  for (const f of frames) if (f.state && f.state.energy.total > maxTotal) maxTotal = f.state.energy.total;
  return {
    frames: frames.length,
    meanFrameMs: wall / frames.length,
    constraintIterationsPerSecond: iterations / (wall / 1000),
    boundingBox: final.boundingBox,
    kineticEnergy: final.energy.kinetic,
    energy: final.energy,
    maxTotalEnergy: maxTotal,
    nonFiniteVertices: final.nonFiniteVertices,
    stoppedObjects: stopped,
  };
}
