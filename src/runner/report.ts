/**
 * The runner's JSON report: what ran (scene, mesh, materials, parameters, counts), the
 * initial state, one entry per frame (timings and counters; state measures on sampled
 * frames), and a summary.
 */
import { totalHits, type CollisionFrameCounters } from '../collision/counters';
import type { SolverParams } from '../contract/params';
import type { FrameStats } from '../sim/simulation';
import type { StateMeasures } from './measure';

export interface FrameEntry {
  /** Frames completed (1 after the first frame); the state below is at `time`. */
  frame: number;
  /** Simulated time at the end of the frame (s). */
  time: number;
  wallMs: number;
  phasesMs: Record<string, number>;
  /**
   * encodeMs: JavaScript time to record and submit the frame (ms); blockingReadbacks: times the
   * runner waited for the GPU before it could submit the frame (0 when pipelined with room in the
   * ring). Both absent in reports older than them and in the page's recordings.
   */
  counters: {
    dispatches: number;
    constraintIterations: number;
    readbacks: number;
    encodeMs?: number;
    /** Where encodeMs went (ms: collisions' host work, closing speed, constants, recording, readbacks, submit; src/sim/gpuSolver.ts EncodeSplit); absent in older reports and on the CPU engine. */
    encodeSplitMs?: Record<string, number>;
    blockingReadbacks?: number;
    /** Dispatches per phase (predict, material, detect, ...) and compute passes of the frame; absent in older reports. */
    dispatchesByPhase?: Record<string, number>;
    passes?: number;
    /** Substeps the frame took, and the closing speed that chose them (impact-adaptive substeps); absent in older reports. */
    substeps?: number;
    closingSpeed?: number;
    /** Collision rounds a substep (SolverParams.collideEvery: 1, or the iterations when the collisions run after each); absent in older reports. */
    collisionRounds?: number;
    /** Of those, the rounds that detect ('contacts': 1, the later rounds solve its contacts again); absent in older reports. */
    detectionRounds?: number;
  };
  /** Collision counters of the frame (paper Table 1's Q, Tr, Tet among them), when the solver has collisions. */
  collisions?: CollisionFrameCounters;
  /** Parameters the schedule changed before this frame (the first frame that used them). */
  paramsChanged?: Partial<SolverParams>;
  /** Present on frames whose state was read back (every K frames and the last). */
  state?: StateMeasures;
}

/** The frame's collision counters when the solver reports them (FrameStats.collisions, optional). */
export function collisionCountersOf(s: FrameStats): CollisionFrameCounters | undefined {
  return (s as FrameStats & { collisions?: CollisionFrameCounters }).collisions;
}

export function frameEntry(s: FrameStats, state: StateMeasures | undefined, paramsChanged?: Partial<SolverParams>): FrameEntry {
  const entry: FrameEntry = {
    frame: s.frame + 1,
    time: s.time,
    wallMs: s.wallMs,
    phasesMs: s.gpuPhasesMs ?? { xpbd: s.wallMs },
    // The NaN guard's status word is read every frame; a sampled state adds positions and velocities.
    counters: { dispatches: s.dispatches, constraintIterations: s.constraintIterations, readbacks: state ? 3 : 1, encodeMs: s.encodeMs, ...(s.encodeSplitMs ? { encodeSplitMs: { ...s.encodeSplitMs } } : {}), blockingReadbacks: s.blockingReadbacks, dispatchesByPhase: { ...s.dispatchesByPhase }, passes: s.passes,
      substeps: s.substeps, ...(s.closingSpeed !== undefined ? { closingSpeed: s.closingSpeed } : {}), collisionRounds: s.collisionRounds, detectionRounds: s.detectionRounds },
  };
  const collisions = collisionCountersOf(s);
  if (collisions) entry.collisions = collisions;
  if (paramsChanged) entry.paramsChanged = paramsChanged;
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
  /** Over the frames that reported collision counters; null when none did. */
  collisions: CollisionSummary | null;
}

export interface CollisionSummary {
  /** Frames with counters. */
  frames: number;
  totalContacts: number;
  maxContactsPerFrame: number;
  totalDcdHits: number;
  maxDcdHitsPerFrame: number;
  totalSpbQueries: number;
  spbOverflows: number;
  noPath: number;
  skipped: number;
  /** Shortest-path contacts dropped as far-side contacts (SolverParams.farSideContacts). */
  farSideDropped: number;
  /** Tets lifted back to the inversion floor (SolverParams.inversionFloor), summed over the rounds: any tet in recovery mode, the slivers outside it (sliverFloor). */
  inversionFloorTets: number;
  /** Hits beyond the contact capacity (each grew the capacity for the next frame). */
  dropped: number;
  /** Spatial-hash entries dropped (counters.hashDropped). */
  hashDropped: number;
  maxContactCapacity: number;
  readbacks: number;
  readbackBytes: number;
  /** Hybrid: points penetrating at their substep's start (Pin) and free ones (Pout), summed. */
  pin: number;
  pout: number;
  pinInFold: number;
  /** Hybrid with pinRelease: Pin vertices found in no tet at detection (released to CCD), and the exit contacts CCD gave them, summed. */
  pinReleased: number;
  exitContacts: number;
  /** CCD: candidate pairs (mean per frame), contacts by kind, boxes left (escapes), the broad-phase job's time and the frame's wait for it (ms, mean and max). */
  ccd: {
    meanCandidates: number;
    hitsVertexFace: number;
    hitsEdgeEdge: number;
    /** Of those, the hits the later rounds of collideEvery 'contacts' added (SolverParams.ccdEveryRound). */
    laterRoundHits: number;
    escaped: number;
    dropped: number;
    /** Broad-phase pairs left out of the CCD of their frame, over the GPU's buffer limit (counters.ccd.candidatesLeftOut). */
    candidatesLeftOut: number;
    meanJobMs: number;
    maxJobMs: number;
    meanWaitMs: number;
    maxWaitMs: number;
  };
}

/** A frame's contacts: DCD's (shortest path) and CCD's. */
function allContacts(x: CollisionFrameCounters): number {
  return x.contacts + (x.ccd ? x.ccd.hitsVertexFace + x.ccd.hitsEdgeEdge : 0);
}

export function summarizeCollisions(frames: readonly FrameEntry[]): CollisionSummary | null {
  const c = frames.map((f) => f.collisions).filter((x): x is CollisionFrameCounters => x !== undefined);
  if (c.length === 0) return null;
  const sum = (get: (x: CollisionFrameCounters) => number): number => c.reduce((a, x) => a + get(x), 0);
  const max = (get: (x: CollisionFrameCounters) => number): number => c.reduce((a, x) => Math.max(a, get(x)), 0);
  return {
    frames: c.length,
    totalContacts: sum(allContacts),
    maxContactsPerFrame: max(allContacts),
    totalDcdHits: sum(totalHits),
    maxDcdHitsPerFrame: max(totalHits),
    totalSpbQueries: sum((x) => x.spbQueries),
    spbOverflows: sum((x) => x.spbOverflows),
    noPath: sum((x) => x.noPath),
    skipped: sum((x) => x.skipped),
    farSideDropped: sum((x) => x.farSideDropped ?? 0),
    inversionFloorTets: sum((x) => x.inversionFloorTets ?? 0),
    dropped: sum((x) => x.dropped),
    hashDropped: sum((x) => x.hashDropped ?? 0),
    maxContactCapacity: max((x) => x.contactCapacity),
    readbacks: sum((x) => x.readbacks),
    readbackBytes: sum((x) => x.readbackBytes),
    pin: sum((x) => x.pin ?? 0),
    pout: sum((x) => x.pout ?? 0),
    pinInFold: sum((x) => x.pinInFold ?? 0),
    pinReleased: sum((x) => x.pinReleased ?? 0),
    exitContacts: sum((x) => x.ccd?.exitContacts ?? 0),
    ccd: {
      meanCandidates: sum((x) => (x.ccd ? x.ccd.candidatesVertexFace + x.ccd.candidatesEdgeEdge : 0)) / c.length,
      hitsVertexFace: sum((x) => x.ccd?.hitsVertexFace ?? 0),
      hitsEdgeEdge: sum((x) => x.ccd?.hitsEdgeEdge ?? 0),
      laterRoundHits: sum((x) => x.ccd?.laterRoundHits ?? 0),
      escaped: sum((x) => x.ccd?.escaped ?? 0),
      dropped: sum((x) => x.ccd?.dropped ?? 0),
      candidatesLeftOut: sum((x) => x.ccd?.candidatesLeftOut ?? 0),
      meanJobMs: sum((x) => x.ccd?.jobMs ?? 0) / c.length,
      maxJobMs: max((x) => x.ccd?.jobMs ?? 0),
      meanWaitMs: sum((x) => x.ccd?.waitMs ?? 0) / c.length,
      maxWaitMs: max((x) => x.ccd?.waitMs ?? 0),
    },
  };
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
    collisions: summarizeCollisions(frames),
  };
}
