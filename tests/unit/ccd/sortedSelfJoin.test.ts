/**
 * The sorted same-object join (src/collision/ccd/sortedSelfJoin.ts), which builds the kept lists
 * (ownPairCache.ts) already sorted, against the brute-force box oracle (tests/support/ccdPairOracle.ts,
 * no code shared with the join): per object and slice, exactly the oracle's pairs, in
 * (first, second) order; and the kept lists' answer the same, order included, when some objects
 * are too large for it and go to the hash join instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates } from '../../../src/collision/ccd/broadPhase';
import { SORTED_JOIN_LIMIT, sortedJoinFits, sortedSelfPairs } from '../../../src/collision/ccd/sortedSelfJoin';
import { bruteForce, landingOctopi, ownKeys } from '../../support/ccdPairOracle';

/** Keys (first * count + second) of `pairs` in their order. */
function keysInOrder(pairs: Uint32Array, count: number): number[] {
  const out: number[] = [];
  for (let q = 0; q < pairs.length; q += 2) out.push(pairs[q] * count + pairs[q + 1]);
  return out;
}

const increasing = (a: number[]): boolean => a.every((x, i) => i === 0 || x > a[i - 1]);

describe('sorted same-object join', () => {
  afterEach(() => {
    SORTED_JOIN_LIMIT.max = 4096;
    SORTED_JOIN_LIMIT.refuse = null;
  });

  it('gives each object\'s brute-force pairs in (first, second) order, per slice', () => {
    const { scene, velocities, bound } = landingOctopi([5, 1500, 2500]);
    const boxes = ownFrameBoxes(scene, scene.rest, velocities, bound);
    const want = bruteForce(scene, boxes, new Int32Array(scene.triangles.length / 3).fill(-1));
    const nt = scene.triangles.length / 3, ne = scene.edges.length / 2;
    expect(want.vf.length).toBeGreaterThan(20000);
    expect(want.ee.length).toBeGreaterThan(20000);
    for (const K of [1, 3]) {
      const vf: number[] = [], ee: number[] = [];
      for (let o = 0; o < 2; o++) {
        expect(sortedJoinFits(scene, o)).toBe(true);
        for (let k = 0; k < K; k++) {
          const c = sortedSelfPairs(scene, boxes, o, K > 1 ? [k, K] : undefined);
          const cv = keysInOrder(c.vertexFace, nt), ce = keysInOrder(c.edgeEdge, ne);
          expect(increasing(cv) && increasing(ce), `object ${o}, slice ${k} of ${K}: not sorted`).toBe(true);
          for (let q = 0; q < c.vertexFace.length; q += 2) expect(c.vertexFace[q] % K).toBe(k);
          for (let q = 0; q < c.edgeEdge.length; q += 2) expect(c.edgeEdge[q] % K).toBe(k);
          vf.push(...cv);
          ee.push(...ce);
        }
      }
      expect(vf.sort((a, b) => a - b), `${K} slices`).toEqual(want.vf);
      expect(ee.sort((a, b) => a - b), `${K} slices`).toEqual(want.ee);
    }
  });

  it('kept lists give the same answer, order included, with objects too large for it joined by the hash', () => {
    const { scene, velocities, bound } = landingOctopi([5, 1500, 2500]);
    const boxes = ownFrameBoxes(scene, scene.rest, velocities, bound);
    const want = bruteForce(scene, boxes, new Int32Array(scene.triangles.length / 3).fill(-1));
    // refused: the objects sent to the hash join (none, the second, both).
    const run = (refused: number[]): { vf: Uint32Array; ee: Uint32Array }[] => {
      SORTED_JOIN_LIMIT.refuse = (o) => refused.includes(o);
      // A fresh topology object: its kept lists start empty.
      const topo = { ...scene };
      expect([0, 1].map((o) => sortedJoinFits(topo, o))).toEqual([0, 1].map((o) => !refused.includes(o)));
      return [0, 1].map(() => {
        const c = sweptCandidates(topo, scene.rest, velocities, { ...bound, selfPairSkin: 0.5 }, true);
        expect(ownKeys(topo, c.vertexFace, 'vf')).toEqual(want.vf);
        expect(ownKeys(topo, c.edgeEdge, 'ee')).toEqual(want.ee);
        return { vf: c.vertexFace, ee: c.edgeEdge };
      });
    };
    const sorted = run([]);
    for (const refused of [[1], [0, 1]]) {
      const other = run(refused);
      for (let job = 0; job < 2; job++) {
        expect(Array.from(other[job].vf), `hash for ${refused}, job ${job}`).toEqual(Array.from(sorted[job].vf));
        expect(Array.from(other[job].ee), `hash for ${refused}, job ${job}`).toEqual(Array.from(sorted[job].ee));
      }
    }
    SORTED_JOIN_LIMIT.max = 0;
    expect(sortedJoinFits({ ...scene }, 0)).toBe(false);
  });
});
