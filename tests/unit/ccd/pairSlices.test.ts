/**
 * One object's same-object pairs cut into slices (CandidatePart.slice), so that a scene with fewer
 * objects than workers spreads its broad phase over the pool (workers/ccdJobs.ts splitParts). The
 * truth is the brute-force box oracle (tests/support/ccdPairOracle.ts, no code shared with the
 * join): the slices of an object together give exactly its pairs, each once, with fresh joins and
 * with kept lists, including boxes too large to hash (met directly).
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { bruteForce, copies, ownKeys } from '../../support/ccdPairOracle';

describe('slices of one object\'s CCD pairs', () => {
  it('K slices give exactly the brute force\'s pairs, each once, fresh and from kept lists, oversized boxes included', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0]]);
    const n = scene.vertexCount;
    let low = Infinity;
    for (let v = 0; v < n; v++) low = Math.min(low, scene.rest[4 * v + 1]);
    // Landing: the lowest 15 cm stopped, the rest falling at 2 m/s; three vertices flung at 40 m/s
    // (their boxes cover too many cells to hash).
    const velocities = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) velocities[4 * v + 1] = -2 * Math.min(1, (scene.rest[4 * v + 1] - low) / 0.15);
    for (const v of [scene.boundaryVertices[5], scene.boundaryVertices[500], scene.boundaryVertices[1500]]) velocities[4 * v] = 40;
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078 };
    const want = bruteForce(scene, ownFrameBoxes(scene, scene.rest, velocities, bound), new Int32Array(scene.triangles.length / 3).fill(-1));
    expect(want.vf.length).toBeGreaterThan(10000);
    expect(want.ee.length).toBeGreaterThan(10000);
    const strictlyIncreasing = (a: number[]): boolean => a.every((x, i) => i === 0 || x > a[i - 1]);
    for (const selfPairSkin of [0, 0.5]) {
      for (const K of [1, 2, 3, 5]) {
        for (let job = 0; job < (selfPairSkin > 0 ? 2 : 1); job++) {
          const vf: number[] = [], ee: number[] = [];
          for (let k = 0; k < K; k++) {
            const c = sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairSkin }, true, undefined, { inter: k === 0, objects: [0, 1], slice: [k, K] });
            vf.push(...ownKeys(scene, c.vertexFace, 'vf'));
            ee.push(...ownKeys(scene, c.edgeEdge, 'ee'));
          }
          vf.sort((a, b) => a - b);
          ee.sort((a, b) => a - b);
          expect(strictlyIncreasing(vf) && strictlyIncreasing(ee), `skin ${selfPairSkin}, ${K} slices, job ${job}: a pair in two slices`).toBe(true);
          expect(vf, `skin ${selfPairSkin}, ${K} slices, job ${job}`).toEqual(want.vf);
          expect(ee, `skin ${selfPairSkin}, ${K} slices, job ${job}`).toEqual(want.ee);
        }
      }
    }
  });

  it('rejects a slice out of range, naming it', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0]]);
    const v = new Float32Array(scene.rest.length);
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078 };
    expect(() => sweptCandidates(scene, scene.rest, v, bound, true, undefined, { inter: false, objects: [0, 1], slice: [3, 3] })).toThrow(
      'sweptCandidates: part.slice must be [k, K] with integers 0 <= k < K, got [3,3]',
    );
  });
});
