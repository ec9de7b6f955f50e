/**
 * One object's same-object pairs cut into slices (CandidatePart.slice), so that a scene with fewer
 * objects than workers spreads its broad phase over the pool (workers/ccdJobs.ts splitParts), and
 * the pairs between objects cut the same way (CandidatePart.interSlice: a landed pile's pairs are
 * mostly between bodies, too many for one worker). The
 * truth is the brute-force box oracle (tests/support/ccdPairOracle.ts, no code shared with the
 * join): the slices of an object together give exactly its pairs, each once, with fresh joins and
 * with kept lists, including boxes too large to hash (met directly).
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates, sweptVertexBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { bruteForce, bruteForceInter, copies, interKeys, landingOctopi, ownKeys } from '../../support/ccdPairOracle';

/** The first index where two key lists differ, -1 when equal. */
const firstDifference = (a: number[], b: number[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
};

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

  it('slices of unevenly numbered vertices lose none (two thirds of them in slice 0 of 2)', () => {
    const full = copies('octopus_2KFaces.t', [[0, 0, 0]]);
    // Boundary vertices with ids 0, 2 and 3 mod 4 only: 2/3 of them even.
    const scene = { ...full, boundaryVertices: full.boundaryVertices.filter((v) => v % 4 !== 1) };
    const n = scene.vertexCount;
    const velocities = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) velocities[4 * v + 1] = -2 * Math.min(1, Math.max(0, scene.rest[4 * v + 1] + 0.3));
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078 };
    const want = bruteForce(scene, ownFrameBoxes(scene, scene.rest, velocities, bound), new Int32Array(scene.triangles.length / 3).fill(-1));
    const vf: number[] = [];
    for (let k = 0; k < 2; k++) {
      const c = sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairSkin: 0 }, true, undefined, { inter: k === 0, objects: [0, 1], slice: [k, 2] });
      for (const key of ownKeys(scene, c.vertexFace, 'vf')) vf.push(key);
    }
    vf.sort((a, b) => a - b);
    expect(want.vf.length).toBeGreaterThan(1000);
    expect([vf.length, firstDifference(vf, want.vf)]).toEqual([want.vf.length, -1]);
  });

  it('K slices of the pairs between objects give exactly the brute force\'s, each once, oversized boxes included', () => {
    // Two octopi overlapping as they land, three vertices flung at 40 m/s (boxes too large to hash).
    const { scene, velocities, bound } = landingOctopi([5, 700, 1900]);
    const want = bruteForceInter(scene, sweptVertexBoxes(scene.rest, velocities, bound));
    expect(want.vf.length).toBeGreaterThan(5000);
    expect(want.ee.length).toBeGreaterThan(5000);
    const strictlyIncreasing = (a: number[]): boolean => a.every((x, i) => i === 0 || x > a[i - 1]);
    {
      for (const K of [2, 3]) {
        const vf: number[] = [], ee: number[] = [];
        let counted = 0;
        for (let k = 0; k < K; k++) {
          const c = sweptCandidates(scene, scene.rest, velocities, bound, true, undefined, { inter: true, objects: [0, 0], interSlice: [k, K] });
          for (const key of interKeys(scene, c.vertexFace, 'vf')) vf.push(key);
          for (const key of interKeys(scene, c.edgeEdge, 'ee')) ee.push(key);
          counted += c.interPairs;
          // A part of no objects has no pairs within one.
          expect(ownKeys(scene, c.vertexFace, 'vf').length + ownKeys(scene, c.edgeEdge, 'ee').length).toBe(0);
        }
        vf.sort((a, b) => a - b);
        ee.sort((a, b) => a - b);
        expect(strictlyIncreasing(vf) && strictlyIncreasing(ee), `${K} slices: a pair in two slices`).toBe(true);
        // Counts and the first difference, not a diff of 10^4 keys (which takes vitest minutes to print).
        expect([vf.length, firstDifference(vf, want.vf)], `${K} slices, vertex-face (count, first difference)`).toEqual([want.vf.length, -1]);
        expect([ee.length, firstDifference(ee, want.ee)], `${K} slices, edge-edge (count, first difference)`).toEqual([want.ee.length, -1]);
        expect(counted).toBe(want.vf.length + want.ee.length);
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
    expect(() => sweptCandidates(scene, scene.rest, v, bound, true, undefined, { inter: true, objects: [0, 1], interSlice: [0, 0] })).toThrow(
      'sweptCandidates: part.interSlice must be [k, K] with integers 0 <= k < K, got [0,0]',
    );
    expect(() => sweptCandidates(scene, scene.rest, v, bound, true, undefined, { inter: false, objects: [0, 1], interSlice: [0, 2] })).toThrow(
      'sweptCandidates: part.interSlice slices the pairs between objects, but the part has inter: false',
    );
  });
});
