/**
 * The broad-phase job with self-collision culling (culledSweptCandidates) drops the same-object
 * pairs within a culled node as its join finds them (ccd/culledPairs.ts, ccd/ownPairCache.ts).
 * Checked against a brute force written here that shares no code with that path: every
 * same-object pair whose own-frame boxes overlap (its own union boxes and overlap test, all
 * pairs), less the pairs whose members have triangles in one culled node (found from the culling's
 * per-triangle node ids by scanning the triangle list: its own vertex -> triangles and edge ->
 * triangles maps). Over a sequence of jobs (a fall with kept lists, a wobble, a fold that rebuilds
 * a list, no skin, a job split by object), with the report's pair counts.
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { culledSweptCandidates, selfCullingFor } from '../../../src/collision/selfCulling/broadPhaseCulling';
import { rng } from '../../support/random';
import { bruteForce, copies, ownKeys } from '../../support/ccdPairOracle';

describe('culledSweptCandidates drops the pairs within a culled node as its join finds them', () => {
  it('over a fall, a wobble, a fold, no skin and a split job: the same-object pairs are the brute force\'s, and the report counts them', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [1.5, 0.2, 0.1]]);
    const n = scene.vertexCount, obj = scene.vertexObject;
    const r = rng(11);
    const velocities = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) velocities[4 * i + k] = (k === 1 ? -2 : 0) + 0.1 * (r() - 0.5);
    const base: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078, selfPairSkin: 0.5 };
    const deviation = new Float32Array(n).fill(0.0005);
    const at = (dy: number, wobble: number, fold?: number): Float32Array => {
      const x = scene.rest.slice();
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[4 * i + k] += (k === 1 ? dy : 0) + wobble * (r() - 0.5);
      if (fold !== undefined) {
        // Object 1's far end folded back over its middle: its list is joined again.
        for (let i = 0; i < n; i++) if (obj[i] === 1 && x[4 * i] > 1.5 + fold) x[4 * i] = 2 * (1.5 + fold) - x[4 * i];
      }
      return x;
    };
    const jobs: { x: Float32Array; bound: MotionBound; split?: boolean }[] = [
      { x: at(0, 0), bound: base },
      { x: at(-0.1, 0.001), bound: base },
      { x: at(-0.2, 0.001), bound: base },
      { x: at(-0.3, 0.001, 0.1), bound: base },
      { x: at(-0.4, 0.001, 0.1), bound: { ...base, selfPairSkin: 0 } },
      { x: at(-0.5, 0.001, 0.1), bound: base, split: true },
    ];
    let culledPairs = 0;
    jobs.forEach(({ x, bound, split }, j) => {
      const parts = split ? [{ inter: true, objects: [0, 1] as [number, number] }, { inter: false, objects: [1, 2] as [number, number] }] : [undefined];
      const got = { vf: [] as number[], ee: [] as number[], before: 0, after: 0 };
      const culledBy = new Int32Array(scene.triangles.length / 3).fill(-1);
      for (const part of parts) {
        const c = culledSweptCandidates(scene, x, velocities, bound, true, { mode: 'enhanced', deviation }, part);
        got.vf.push(...ownKeys(scene, c.vertexFace, 'vf'));
        got.ee.push(...ownKeys(scene, c.edgeEdge, 'ee'));
        got.before += c.selfCulling!.pairsBefore;
        got.after += c.selfCulling!.pairsAfter;
        // A part culls its own objects' trees only: their triangles' node ids are this part's.
        const by = selfCullingFor(scene).culledBy;
        for (let t = 0; t < culledBy.length; t++) if (!part || (obj[scene.triangles[3 * t]] >= part.objects[0] && obj[scene.triangles[3 * t]] < part.objects[1])) culledBy[t] = by[t];
      }
      got.vf.sort((a, b) => a - b);
      got.ee.sort((a, b) => a - b);
      const want = bruteForce(scene, ownFrameBoxes(scene, x, velocities, bound), culledBy);
      expect(got.vf, `job ${j} vertex-face`).toEqual(want.vf);
      expect(got.ee, `job ${j} edge-edge`).toEqual(want.ee);
      expect(got.before, `job ${j} pairs before culling`).toBe(want.before);
      expect(got.after, `job ${j} pairs after culling`).toBe(want.vf.length + want.ee.length);
      culledPairs += want.before - got.after;
    });
    expect(culledPairs, 'pairs culled over the jobs').toBeGreaterThan(10000);
  });
});
