/**
 * The runner's frame loop with two frames in flight follows the solver's wish for one
 * (Simulation.framesInFlightWanted: CCD's 'auto' job latency at 0 needs each frame's end state
 * before the next frame is recorded). Checked on the order of submissions and processed frames.
 */
import { describe, expect, it } from 'vitest';
import { runFrames } from '../../../src/runner/frameLoop';
import type { FrameStats } from '../../../src/sim/simulation';

function fakeSimulation(wantedAt: (submitted: number) => number) {
  const events: string[] = [];
  let submitted = 0;
  const sim = {
    get framesInFlightWanted(): number {
      return wantedAt(submitted);
    },
    async stepFrame(): Promise<FrameStats> {
      throw new Error('two frames in flight submit frames, they do not step them');
    },
    async submitFrame(): Promise<{ frame: number; done: Promise<FrameStats> }> {
      const frame = submitted++;
      events.push(`submit ${frame + 1}`);
      return { frame, done: Promise.resolve({ frame } as unknown as FrameStats) };
    },
  };
  return { sim, events };
}

async function run(wantedAt: (submitted: number) => number): Promise<string[]> {
  const { sim, events } = fakeSimulation(wantedAt);
  await runFrames(sim, {
    frames: 6, framesInFlight: 2, beforeFrame: () => undefined, stateDue: () => false,
    afterFrame: async (f) => {
      events.push(`after ${f}`);
    },
  });
  return events;
}

describe('runner frame loop', () => {
  it('keeps a frame queued behind the one being processed while the solver allows two', async () => {
    expect(await run(() => 2)).toEqual(['submit 1', 'submit 2', 'after 1', 'submit 3', 'after 2', 'submit 4', 'after 3', 'submit 5', 'after 4', 'submit 6', 'after 5', 'after 6']);
  });

  it('processes each frame before submitting the next while the solver wants one in flight, and goes back to two', async () => {
    // One frame in flight wanted once frames 3-4 were submitted.
    const events = await run((submitted) => (submitted >= 3 && submitted < 5 ? 1 : 2));
    expect(events).toEqual(['submit 1', 'submit 2', 'after 1', 'submit 3', 'after 2', 'after 3', 'submit 4', 'after 4', 'submit 5', 'submit 6', 'after 5', 'after 6']);
  });
});
