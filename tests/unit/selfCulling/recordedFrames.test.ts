/**
 * Zero false negatives on recorded frames of the scenes the paper's self-collision culling is for
 * (tests/fixtures/selfContact/, made by scripts/recordSelfContactFrames.ts with the float64 CPU
 * reference: the frames around each scene's first self-contacts). For every pair of consecutive
 * frames, the exhaustive search (every pair of triangles without a common vertex, exact CCD of
 * their vertex-triangle and edge-edge pairs over the linear motion between the frames;
 * tests/support/bruteForceContacts.ts, which shares no code with the culling) gives the contacts;
 * each must be among the same-object candidates that the box test gives and that enhanced culling
 * keeps. The culling must also cull something (it is not allowed to pass by keeping everything).
 */
import { describe, expect, it } from 'vitest';
import { ccdCandidates } from '../../../src/collision/ccd/broadPhase';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { bruteForceContacts, candidateKeys } from '../../support/bruteForceContacts';
import { readSelfContactFrames } from '../../support/selfContactFrames';

/** Per vertex the box of its positions in both frames, grown by `margin` (6 floats: lo, hi). */
function motionBoxes(a: Float64Array, b: Float64Array, margin: number): Float32Array {
  const n = a.length / 3, out = new Float32Array(6 * n);
  for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) {
    out[6 * v + k] = Math.fround(Math.min(a[3 * v + k], b[3 * v + k]) - margin);
    out[6 * v + 3 + k] = Math.fround(Math.max(a[3 * v + k], b[3 * v + k]) + margin);
  }
  return out;
}

const SCENES = ['beam-twist', 'rod-knot', 'noodle-bowl', 'squishy-squeeze'];

describe('enhanced culling keeps every contact of recorded frames (exhaustive exact CCD)', () => {
  // fullTraversalEvery 1: every call from the roots; 4: three calls in four start from the last
  // call's culled nodes (selfCulling.ts), whose tests must still hold against the new motion.
  for (const [scene, fullTraversalEvery] of SCENES.flatMap((s) => [[s, 1], [s, 4]] as const)) {
    it(`${scene}, full traversal every ${fullTraversalEvery} calls`, () => {
      const rec = readSelfContactFrames(scene);
      const culling = new SelfCulling(rec.topology, { fullTraversalEvery });
      let contacts = 0, before = 0, after = 0, fromFrontier = 0;
      for (let f = 0; f + 1 < rec.frames.length; f++) {
        const start = rec.frames[f], end = rec.frames[f + 1];
        const hits = bruteForceContacts(rec.topology, start, end, rec.isOneTet);
        contacts += hits.size;
        const candidates = ccdCandidates(rec.topology, motionBoxes(start, end, 0.01 * rec.meanEdge), 'self');
        const boxKeys = candidateKeys(candidates);
        expect([...hits].filter((h) => !boxKeys.has(h)), `frame ${rec.frame0 + f}: contacts the box test misses`).toEqual([]);
        const stats = culling.cull({ start, move: end.map((x, i) => x - start[i]), deviation: null }, 'enhanced');
        if (stats.fullTraversals === 0) fromFrontier++;
        const kept = culling.filter(candidates);
        const keptKeys = candidateKeys(kept);
        expect([...hits].filter((h) => !keptKeys.has(h)), `frame ${rec.frame0 + f}: contacts culled`).toEqual([]);
        before += boxKeys.size;
        after += keptKeys.size;
      }
      if (process.env.SELF_CULLING_VERBOSE) console.log(`${scene}: ${contacts} contacts; candidates ${before} -> ${after}`);
      expect(contacts, 'the recorded frames have self-contacts').toBeGreaterThan(0);
      expect(after).toBeLessThan(before);
      expect(fromFrontier).toBe(fullTraversalEvery === 1 ? 0 : rec.frames.length - 1 - Math.ceil((rec.frames.length - 1) / fullTraversalEvery));
    });
  }
});
