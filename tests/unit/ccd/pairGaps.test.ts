/**
 * Kept same-object lists decide most pairs by the gap recorded when the list was first tested
 * (ccd/pairGaps.ts) instead of reading both boxes: over a rigid fall nearly no box is read, over a
 * wobble within the skin some are. Either way each job's same-object pairs are a brute force's
 * (written here: all pairs, its own union boxes and overlap test; no shared code).
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { rng } from '../../support/random';
import { bruteForce, copies, ownKeys } from '../../support/ccdPairOracle';

describe('kept same-object lists decided by recorded gaps', () => {
  it('two octopi: a rigid fall reads almost no box, a wobble within the skin reads some; pairs are the brute force\'s every job', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [1.5, 0.2, 0.1]]);
    const n = scene.vertexCount;
    const r = rng(5);
    const velocities = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) velocities[4 * i + 1] = -2;
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078, selfPairSkin: 0.5 };
    const none = new Int32Array(scene.triangles.length / 3).fill(-1);
    const jobs: { dy: number; wobble: number }[] = [{ dy: 0, wobble: 0 }, { dy: -0.05, wobble: 0 }, { dy: -0.1, wobble: 0 }, { dy: -0.15, wobble: 0.0015 }, { dy: -0.2, wobble: 0.0015 }, { dy: -0.25, wobble: 0.0002 }];
    const read: number[] = [];
    jobs.forEach(({ dy, wobble }, j) => {
      const x = scene.rest.slice();
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[4 * i + k] = Math.fround(x[4 * i + k] + (k === 1 ? dy : 0) + wobble * (r() - 0.5));
      const c = sweptCandidates(scene, x, velocities, bound, true);
      const want = bruteForce(scene, ownFrameBoxes(scene, x, velocities, bound), none);
      expect(ownKeys(scene, c.vertexFace, 'vf'), `job ${j} vertex-face`).toEqual(want.vf);
      expect(ownKeys(scene, c.edgeEdge, 'ee'), `job ${j} edge-edge`).toEqual(want.ee);
      if (j > 0) expect(c.keptPairs!.reused, `job ${j}: lists reused`).toBe(2);
      read.push(c.keptPairs!.boxTests / c.keptPairs!.tested);
    });
    // Job 0 records (every pair read); the rigid fall reads almost none; the wobble some. Job 4
    // records again (job 3 left many pairs undecided). Job 5 drifts from job 4's boxes by nearly
    // the live lists' limit (ownPairCache.ts LiveLists: half the skin; the threshold is twice the
    // drift): it reads the live lists, some boxes but not every pair, and still gives the brute
    // force's pairs, the ones left out of the live lists included.
    expect(read[0]).toBe(1);
    expect(read[1]).toBeLessThan(0.01);
    expect(read[2]).toBeLessThan(0.01);
    expect(read[3]).toBeGreaterThan(0.01);
    expect(read[5]).toBeGreaterThan(0);
    expect(read[5]).toBeLessThan(0.5);
  });
});
