/**
 * CCD's job latency (SolverParams.ccdJobLatency, ccdSchedule.ts and jobLatency.ts). The law every schedule must keep:
 * a frame's candidates come from a job whose boxes hold the motion from the job's snapshot to the
 * frame's end (horizon >= (frames from the snapshot to the frame's end) x dt), and a job is never
 * started for a frame that already has one or was already recorded. Checked on a simulated frame
 * loop: one worker runs the jobs in turn, a job over two frames' motion takes 4x one over one
 * frame's (the boxes' radii double; 2.5-9.9x measured on octopus-box's states) or, in one test,
 * 1.1x (the synthetic impact of bench/ccd.ts), the GPU's frame a fixed time.
 */
import { describe, expect, it } from 'vitest';
import { CcdSchedule, type BroadPhaseRunner, type ScheduleParams, type StateSnapshot } from '../../../src/collision/ccd/ccdSchedule';
import { AUTO_LATENCY_HOLD_FRAMES } from '../../../src/collision/ccd/jobLatency';
import type { CcdJobLatency } from '../../../src/contract/params';

const dt = 1 / 60;

interface Served { frame: number; horizon: number; framesBack: number; waitMs: number }

/**
 * Runs `frames` frames: before each, inputFor (the worker finishing jobs in order as the clock
 * reaches them), then the frame's own work, then schedule() with the frame's end state.
 * `jobMs(frame, horizonFrames)` is what a job started after `frame` costs.
 */
async function simulate(opts: {
  frames: number; latency: CcdJobLatency; workMs: number; jobMs: (frame: number, horizonFrames: number) => number; inFlight?: 1 | 2;
  /** Two frames in flight: one while the schedule asks for it (oneFrameInFlightWanted), as the page and the runner do. */
  honourWanted?: boolean;
}): Promise<{ served: Served[]; jobsStarted: number; blockingSnapshots: number; totalMs: number; oneWanted: number }> {
  let clock = 0;
  let workerFree = 0;
  const pending: { finish: number; resolve: () => void }[] = [];
  const snapshotFrame = new Map<StateSnapshot, number>();
  let jobsStarted = 0, blockingSnapshots = 0, lastScheduled = -1, oneWanted = 0;
  // Two frames in flight: frames on the GPU, each done at its time; its end state comes then (schedule()).
  const flying: { frame: number; done: number }[] = [];
  let processed = 0;
  const runner: BroadPhaseRunner = (_x, _v, bound) => {
    jobsStarted++;
    const cost = opts.jobMs(lastScheduled, Math.round(bound.horizon / dt));
    const start = Math.max(clock, workerFree);
    workerFree = start + cost;
    return new Promise((resolve) => {
      pending.push({ finish: workerFree, resolve: () => resolve({ vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: cost, closingSpeed: 0 }) });
    });
  };
  const schedule = new CcdSchedule(runner, 0.01, { now: () => clock });
  const p: ScheduleParams = { dt, gravity: [0, -9.81, 0], selfCollision: false, ccdJobLatency: opts.latency };
  const snapshotAt = (frame: number): StateSnapshot => {
    const s = { positions: new Float32Array(4), velocities: new Float32Array(4) };
    snapshotFrame.set(s, frame);
    return s;
  };
  const complete = (): void => {
    const oldest = flying.shift()!;
    clock = Math.max(clock, oldest.done);
    lastScheduled = oldest.frame;
    schedule.schedule(oldest.frame, snapshotAt(oldest.frame), p);
    processed++;
  };
  const prepare = async (frame: number): Promise<Served> => {
    let settled = false;
    const input = schedule.inputFor(frame, p, async () => {
      blockingSnapshots++;
      lastScheduled = frame - 1;
      return snapshotAt(frame - 1);
    }).finally(() => (settled = true));
    for (;;) {
      await new Promise((r) => setTimeout(r, 0));
      if (settled) break;
      const job = pending[0];
      if (!job) throw new Error(`frame ${frame} waits for a job that was never started`);
      // While it waits, frames on the GPU finish and their end states come (GpuSolver processes
      // each frame as soon as its readback maps, whatever the frame loop awaits).
      if (flying.length > 0 && flying[0].done <= job.finish) {
        complete();
        continue;
      }
      pending.shift();
      clock = Math.max(clock, job.finish);
      job.resolve();
    }
    const got = await input;
    const from = snapshotFrame.get(got.closingState!.snapshot)!;
    return { frame, horizon: got.horizon, framesBack: frame - from, waitMs: got.waitMs };
  };
  const served: Served[] = [];
  const inFlight = opts.inFlight ?? 1;
  if (inFlight === 1) {
    for (let f = 0; f < opts.frames; f++) {
      served.push(await prepare(f));
      clock += opts.workMs;
      lastScheduled = f;
      schedule.schedule(f, snapshotAt(f), p);
    }
  } else {
    // Frames submitted ahead, as the page does: a frame is recorded (2 ms of host time) once it has
    // its candidates and fewer than the wanted frames are in flight; the GPU runs the frames in
    // turn, workMs each.
    const recordMs = 2;
    let gpuFree = 0, next = 0;
    while (processed < opts.frames) {
      const wanted = opts.honourWanted === true && schedule.oneFrameInFlightWanted ? 1 : 2;
      if (next < opts.frames && flying.length < wanted) {
        if (wanted === 1) oneWanted++;
        served.push(await prepare(next));
        clock += recordMs;
        gpuFree = Math.max(clock, gpuFree) + opts.workMs;
        flying.push({ frame: next++, done: gpuFree });
      } else complete();
    }
  }
  for (const job of pending) job.resolve();
  return { served, jobsStarted, blockingSnapshots, totalMs: clock, oneWanted };
}

/** The law: the serving job's boxes hold every frame from its snapshot to the served frame's end. */
function expectCovered(served: Served[]): void {
  for (const s of served) {
    expect(s.framesBack, `frame ${s.frame}`).toBeGreaterThanOrEqual(1);
    expect(s.horizon, `frame ${s.frame}: its job's snapshot is ${s.framesBack} frames before its end`).toBeGreaterThanOrEqual(s.framesBack * dt - 1e-12);
  }
}

/** A job's cost: its boxes' radii grow with the horizon, so two frames' motion costs 4x one frame's. */
const quadratic = (oneFrameMs: number) => (_frame: number, horizonFrames: number) => oneFrameMs * horizonFrames * horizonFrames;

describe('CCD job latency', () => {
  it("'1' overlaps each job with a frame (two frames' motion) and '0' waits for it (one frame's); both cover every frame", async () => {
    const one = await simulate({ frames: 20, latency: '1', workMs: 40, jobMs: quadratic(5) });
    expectCovered(one.served);
    expect(one.served.map((s) => Math.round(s.horizon / dt))).toEqual(Array(20).fill(2));
    expect(one.served.slice(1).every((s) => s.waitMs === 0)).toBe(true);
    // A job a frame, and the first frame's blocking one (the last frame's job serves a frame not run).
    expect([one.blockingSnapshots, one.jobsStarted]).toEqual([1, 21]);
    const zero = await simulate({ frames: 20, latency: '0', workMs: 40, jobMs: quadratic(5) });
    expectCovered(zero.served);
    expect(zero.served.map((s) => Math.round(s.horizon / dt))).toEqual(Array(20).fill(1));
    expect(zero.served.every((s) => s.waitMs === 5)).toBe(true);
    expect([zero.blockingSnapshots, zero.jobsStarted]).toEqual([1, 21]);
  });

  it("'auto' keeps latency 1 while jobs fit behind a frame", async () => {
    const auto = await simulate({ frames: 40, latency: 'auto', workMs: 40, jobMs: quadratic(5) });
    expectCovered(auto.served);
    expect(auto.served.every((s) => s.horizon === 2 * dt)).toBe(true);
    expect(auto.totalMs).toBe((await simulate({ frames: 40, latency: '1', workMs: 40, jobMs: quadratic(5) })).totalMs);
  });

  it("'auto' goes to latency 0 while frames wait for their jobs, with no job started twice, and the frames get shorter", async () => {
    // A job over two frames (120 ms) is three frames of GPU work (40 ms): every frame waits 80 ms.
    const auto = await simulate({ frames: 40, latency: 'auto', workMs: 40, jobMs: quadratic(30) });
    expectCovered(auto.served);
    const horizons = auto.served.map((s) => Math.round(s.horizon / dt));
    const switched = horizons.indexOf(1);
    expect(switched).toBeGreaterThan(AUTO_LATENCY_HOLD_FRAMES);
    expect(switched).toBeLessThanOrEqual(AUTO_LATENCY_HOLD_FRAMES + 3);
    expect(horizons.slice(switched).every((h) => h === 1)).toBe(true);
    // One job fewer than at a fixed latency: at the switch the next frame keeps its job over two
    // frames and none is started beside it.
    expect([auto.blockingSnapshots, auto.jobsStarted]).toEqual([1, 40]);
    const fixed = await simulate({ frames: 40, latency: '1', workMs: 40, jobMs: quadratic(30) });
    // Latency 1: a frame every 120 ms; latency 0: 40 + 30 ms.
    expect(auto.totalMs).toBeLessThan(0.75 * fixed.totalMs);
  });

  it("'auto' returns to latency 1 once jobs would fit behind a frame again: the first frame back waits for a job over two frames, none is missing", async () => {
    const slowUntil = 25;
    const jobMs = (frame: number, horizonFrames: number) => (frame < slowUntil ? 30 : 2) * horizonFrames * horizonFrames;
    const auto = await simulate({ frames: 60, latency: 'auto', workMs: 40, jobMs });
    expectCovered(auto.served);
    const horizons = auto.served.map((s) => Math.round(s.horizon / dt));
    const down = horizons.indexOf(1);
    const back = horizons.indexOf(2, down);
    expect(down).toBeGreaterThan(0);
    expect(back).toBeGreaterThan(slowUntil);
    expect(horizons.slice(back).every((h) => h === 2)).toBe(true);
    // The frame back at latency 1 is served by a job from the frame just before it, over two frames.
    expect(auto.served[back].framesBack).toBe(1);
    expect(auto.served[back + 1].framesBack).toBe(2);
    expect(auto.blockingSnapshots).toBe(1);
    // One fewer than a job a frame (61): at the switch down; the job back at latency 1 serves two frames.
    expect(auto.jobsStarted).toBe(60);
  });

  it("'auto' measures what the shorter horizon saves: where a one-frame job costs nearly a two-frame one, it tries latency 0 once and goes back for good", async () => {
    // A job whose cost barely depends on its horizon (the synthetic impact of bench/ccd.ts: 1.1x).
    const flat = (_frame: number, horizonFrames: number) => (horizonFrames === 2 ? 110 : 100);
    const auto = await simulate({ frames: 60, latency: 'auto', workMs: 40, jobMs: flat });
    expectCovered(auto.served);
    const horizons = auto.served.map((s) => Math.round(s.horizon / dt));
    const down = horizons.indexOf(1);
    expect(down).toBeGreaterThan(0);
    const back = horizons.indexOf(2, down);
    expect(back - down).toBeLessThanOrEqual(AUTO_LATENCY_HOLD_FRAMES + 2);
    expect(horizons.slice(back).every((h) => h === 2)).toBe(true);
    const fixed = await simulate({ frames: 60, latency: '1', workMs: 40, jobMs: flat });
    // The trial costs its frames (40 + 100 against 110 ms each), nothing after.
    expect(auto.totalMs - fixed.totalMs).toBeLessThanOrEqual((back - down) * (40 + 100 - 110) + 110);
  });

  it("with frames submitted ahead (the page): 'auto' keeps two in flight while the GPU sets the frame's length, and asks for one, at latency 0, while the jobs do; frames get shorter", async () => {
    // GPU-bound: 40 ms of GPU a frame, jobs of 5 / 20 ms.
    const gpuBound = await simulate({ frames: 40, latency: 'auto', workMs: 40, jobMs: quadratic(5), inFlight: 2, honourWanted: true });
    expectCovered(gpuBound.served);
    expect(gpuBound.oneWanted).toBe(0);
    expect(gpuBound.served.every((s) => s.horizon === 2 * dt)).toBe(true);
    // Job-bound: jobs of 30 / 120 ms behind 40 ms GPU frames.
    const jobBound = await simulate({ frames: 40, latency: 'auto', workMs: 40, jobMs: quadratic(30), inFlight: 2, honourWanted: true });
    expectCovered(jobBound.served);
    const horizons = jobBound.served.map((s) => Math.round(s.horizon / dt));
    const switched = horizons.indexOf(1);
    expect(switched).toBeGreaterThan(AUTO_LATENCY_HOLD_FRAMES);
    expect(horizons.slice(switched).every((h) => h === 1)).toBe(true);
    expect(jobBound.oneWanted).toBeGreaterThan(20);
    expect(jobBound.blockingSnapshots).toBe(1);
    const fixed = await simulate({ frames: 40, latency: '1', workMs: 40, jobMs: quadratic(30), inFlight: 2 });
    // Two in flight at latency 1: a frame every 120 ms (the job); one at latency 0: 2 + 40 + 30 ms.
    console.log(`frames submitted ahead, jobs 30 / 120 ms, GPU 40 ms a frame: latency 0 from frame ${switched}, one frame in flight asked for ${jobBound.oneWanted} frames; 40 frames in ${jobBound.totalMs} ms against ${fixed.totalMs} ms at latency 1`);
    expect(jobBound.totalMs).toBeLessThan(0.8 * fixed.totalMs);
  });

  it("a loop that keeps two frames in flight whatever is asked sends 'auto' back to latency 1; every frame stays covered", async () => {
    const kept = await simulate({ frames: 40, latency: 'auto', workMs: 40, jobMs: quadratic(30), inFlight: 2 });
    expectCovered(kept.served);
    // Each try at latency 0 costs one frame a blocking job (its job could not start in time), then holds at 1.
    expect(kept.blockingSnapshots).toBeLessThanOrEqual(1 + Math.ceil(40 / (AUTO_LATENCY_HOLD_FRAMES + 1)));
  });

  it("switching to '0' together with a setting the jobs depend on: the next frame gets a job under the new settings, not the old two-frame one and not a blocking one", async () => {
    const started: { horizon: number; gravity: number }[] = [];
    const runner: BroadPhaseRunner = async (_x, _v, bound) => {
      started.push({ horizon: bound.horizon, gravity: bound.gravity[1] });
      return { vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 1, closingSpeed: 0 };
    };
    const schedule = new CcdSchedule(runner, 0.01);
    const snapshot = (): StateSnapshot => ({ positions: new Float32Array(4), velocities: new Float32Array(4) });
    let blocking = 0;
    const now = async () => {
      blocking++;
      return snapshot();
    };
    const before: ScheduleParams = { dt, gravity: [0, -9.81, 0], selfCollision: false, ccdJobLatency: '1' };
    const after: ScheduleParams = { ...before, gravity: [0, -3.7, 0], ccdJobLatency: '0' };
    for (let f = 0; f < 5; f++) {
      await schedule.inputFor(f, before, now);
      schedule.schedule(f, snapshot(), f < 4 ? before : after);
    }
    const input = await schedule.inputFor(5, after, now);
    expect(blocking).toBe(1);
    expect(input.horizon).toBe(dt);
    expect(started.at(-1)).toEqual({ horizon: dt, gravity: -3.7 });
  });

  it('rejects an unknown latency, naming it', async () => {
    const runner: BroadPhaseRunner = async () => ({ vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 });
    const schedule = new CcdSchedule(runner, 0.01);
    const snapshot = { positions: new Float32Array(4), velocities: new Float32Array(4) };
    const p = { dt, gravity: [0, -9.81, 0] as [number, number, number], selfCollision: false, ccdJobLatency: '2' as CcdJobLatency };
    expect(() => schedule.schedule(0, snapshot, p)).toThrow(/ccdJobLatency must be 'auto', '0' or '1', got 2/);
  });
});
