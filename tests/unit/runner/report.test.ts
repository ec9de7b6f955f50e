/**
 * The report's collision entries: a frame carries the solver's collision counters when the
 * frame stats have them (and nothing when they do not), and the summary's totals and maxima
 * are those of hand-made counters, summed here by hand.
 */
import { describe, expect, it } from 'vitest';
import { emptyCollisionCounters, emptyCcdCounters, type CollisionFrameCounters } from '../../../src/collision/counters';
import { frameEntry, summarizeCollisions } from '../../../src/runner/report';
import type { FrameStats } from '../../../src/sim/simulation';

function stats(frame: number, collisions?: CollisionFrameCounters): FrameStats {
  const s = {
    frame,
    time: (frame + 1) / 60,
    wallMs: 5,
    gpuPhasesMs: null,
    timing: 'cpu-wall',
    dispatches: 10,
    substeps: 2,
    iterations: 1,
    constraintIterations: 100,
    stopped: [],
  };
  return (collisions ? { ...s, collisions } : s) as unknown as FrameStats;
}

function counters(contacts: number, vertexSelf: number, edgeInter: number, capacity: number, extra: Partial<CollisionFrameCounters> = {}): CollisionFrameCounters {
  const c = emptyCollisionCounters();
  c.contacts = contacts;
  c.dcdHits.vertexSelf = vertexSelf;
  c.dcdHits.edgeInter = edgeInter;
  c.contactCapacity = capacity;
  c.readbacks = 1;
  c.readbackBytes = 300;
  return { ...c, ...extra };
}

describe('runner report: collision counters', () => {
  it('a frame entry carries the counters and the scheduled change only when there are some', () => {
    const c = counters(3, 2, 1, 1024);
    const withC = frameEntry(stats(0, c), undefined, { selfCollision: true });
    expect(withC.collisions).toEqual(c);
    expect(withC.paramsChanged).toEqual({ selfCollision: true });
    expect(withC.frame).toBe(1);
    const without = frameEntry(stats(1), undefined);
    expect('collisions' in without).toBe(false);
    expect('paramsChanged' in without).toBe(false);
    expect(JSON.parse(JSON.stringify(withC)).collisions.dcdHits).toEqual({ vertexSelf: 2, vertexInter: 0, edgeSelf: 0, edgeInter: 1, centroidSelf: 0, centroidInter: 0 });
  });

  it('the summary sums and takes maxima over the frames with counters; null without any', () => {
    const frames = [
      frameEntry(stats(0, counters(4, 3, 2, 1024)), undefined),
      frameEntry(stats(1), undefined),
      frameEntry(stats(2, counters(10, 7, 5, 2048, { dropped: 6, hashDropped: 5, spbOverflows: 2, spbQueries: 12, noPath: 1, skipped: 3, farSideDropped: 4, inversionFloorTets: 9, pin: 4, pout: 96, pinInFold: 3, pinReleased: 2,
        ccd: { ...emptyCcdCounters(), candidatesVertexFace: 30, candidatesEdgeEdge: 60, candidatesLeftOut: 7, hitsVertexFace: 5, hitsEdgeEdge: 2, laterRoundHits: 1, exitContacts: 3, escaped: 1, jobMs: 6, waitMs: 1.5 } })), undefined),
      frameEntry(stats(3, counters(0, 0, 0, 2048)), undefined),
    ];
    expect(summarizeCollisions(frames)).toEqual({
      frames: 3,
      // DCD's contacts and CCD's (5 + 2 in the third frame).
      totalContacts: 21,
      maxContactsPerFrame: 17,
      totalDcdHits: 3 + 2 + 7 + 5,
      maxDcdHitsPerFrame: 12,
      totalSpbQueries: 12,
      spbOverflows: 2,
      noPath: 1,
      skipped: 3,
      farSideDropped: 4,
      inversionFloorTets: 9,
      dropped: 6,
      hashDropped: 5,
      maxContactCapacity: 2048,
      readbacks: 3,
      readbackBytes: 900,
      pin: 4,
      pout: 96,
      pinInFold: 3,
      pinReleased: 2,
      exitContacts: 3,
      ccd: { meanCandidates: 30, hitsVertexFace: 5, hitsEdgeEdge: 2, laterRoundHits: 1, escaped: 1, dropped: 0, candidatesLeftOut: 7, meanJobMs: 2, maxJobMs: 6, meanWaitMs: 0.5, maxWaitMs: 1.5 },
    });
    expect(summarizeCollisions([frameEntry(stats(0), undefined)])).toBeNull();
  });
});
