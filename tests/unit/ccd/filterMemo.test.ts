/**
 * A kept same-object list's filtered answer is replayed from the last job's when it is provably
 * the same (ownPairCache.ts FilterMemo: same list and gaps, threshold within the memo's cap, same
 * culled nodes, the few pairs near the threshold answering as before). Checked against the brute
 * force of tests/support/ccdPairOracle.ts (no shared code) over a sequence of jobs that replay
 * (a rigid fall), that change the culled nodes (a wider deviation bound, culling off), that drift
 * past the cap (one body wobbling by 0.2 mm; one vertex moved onto a triangle), and whose near
 * pairs answer otherwise (a body wobbling by 20 micrometres each job). Each of the three checks
 * of a replay (culled nodes, cap, near pairs), left out, fails it.
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { culledSweptCandidates, selfCullingFor } from '../../../src/collision/selfCulling/broadPhaseCulling';
import { rng } from '../../support/random';
import { bruteForce, copies, ownKeys } from '../../support/ccdPairOracle';

describe('kept lists replay their last answer only when it is this job\'s', () => {
  it('two octopi: a rigid fall replays, new culled nodes, a drift past the cap and changed near pairs do not; pairs are the brute force\'s every job', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [1.5, 0.2, 0.1]]);
    const n = scene.vertexCount, obj = scene.vertexObject;
    const r = rng(23);
    const velocities = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) velocities[4 * i + 1] = -2;
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.0078, selfPairSkin: 0.5 };
    const narrow = new Float32Array(n).fill(0.0005), wide = new Float32Array(n).fill(0.002);
    const none = new Int32Array(scene.triangles.length / 3).fill(-1);
    // Each job: the fall so far (m), a wobble of object 1's vertices (m, each coordinate), the deviation bound (null: culling off).
    const jobs: { dy: number; wobble: number; deviation: Float32Array | null; replayed?: number; nudge?: number }[] = [
      { dy: 0, wobble: 0, deviation: narrow },
      { dy: -0.05, wobble: 0, deviation: narrow },
      // Both objects' lists (vertex-face and edge-edge) replayed.
      { dy: -0.1, wobble: 0, deviation: narrow, replayed: 4 },
      { dy: -0.15, wobble: 0, deviation: narrow, replayed: 4 },
      // A wider bound: other culled nodes, nothing replayed; then replayed again.
      { dy: -0.2, wobble: 0, deviation: wide, replayed: 0 },
      { dy: -0.25, wobble: 0, deviation: wide, replayed: 4 },
      // No culling (the culled nodes change: nothing replayed), then replayed without culling.
      { dy: -0.3, wobble: 0, deviation: null, replayed: 0 },
      { dy: -0.35, wobble: 0, deviation: null, replayed: 4 },
      // Object 1 wobbles by 0.2 mm: its threshold is past its memos' cap; object 0 still replays.
      { dy: -0.4, wobble: 0.0002, deviation: null, replayed: 2 },
      { dy: -0.45, wobble: 0, deviation: null },
      { dy: -0.5, wobble: 0, deviation: null },
      // One vertex of object 1 moved by 0.6 mm onto a triangle whose box its box missed by 0.1-0.4
      // mm: past the cap, and that pair is no near pair, so only the cap tells.
      { dy: -0.55, wobble: 0, deviation: null, nudge: 0.0006, replayed: 2 },
      // Object 1 wobbling by 20 micrometres each job: its memos hold a few hundred near pairs, some of
      // which answer otherwise the next job (not replayed then).
      ...Array.from({ length: 8 }, (_, k) => ({ dy: -0.6 - 0.05 * k, wobble: 2e-5, deviation: null })),
    ];
    let replayed = 0, wobbleReplayed = 0;
    jobs.forEach(({ dy, wobble, deviation, replayed: want, nudge }, j) => {
      const x = scene.rest.slice();
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[4 * i + k] = Math.fround(x[4 * i + k] + (k === 1 ? dy : 0) + (obj[i] === 1 ? wobble * (r() - 0.5) : 0));
      if (nudge) {
        const [v, axis] = nudgeOnto(scene, ownFrameBoxes(scene, x, velocities, bound), 1, nudge);
        x[4 * v + (axis % 3)] += axis < 3 ? -nudge : nudge;
      }
      const c = culledSweptCandidates(scene, x, velocities, bound, true, { mode: deviation ? 'enhanced' : 'off', deviation: deviation ?? narrow });
      const oracle = bruteForce(scene, ownFrameBoxes(scene, x, velocities, bound), deviation ? selfCullingFor(scene).culledBy : none);
      expect(ownKeys(scene, c.vertexFace, 'vf'), `job ${j} vertex-face`).toEqual(oracle.vf);
      expect(ownKeys(scene, c.edgeEdge, 'ee'), `job ${j} edge-edge`).toEqual(oracle.ee);
      if (deviation) expect(c.selfCulling!.pairsBefore, `job ${j} pairs before culling`).toBe(oracle.before);
      expect(c.keptPairs!.reused, `job ${j} lists reused`).toBe(j === 0 ? 0 : 2);
      if (want !== undefined) expect(c.keptPairs!.replayed, `job ${j} answers replayed`).toBe(want);
      replayed += c.keptPairs!.replayed;
      if (j >= jobs.length - 7) wobbleReplayed += c.keptPairs!.replayed;
    });
    expect(replayed).toBeGreaterThan(12);
    // Over the 20-micrometre wobble object 0 (falling rigidly) replays its lists every job; object
    // 1's near pairs answer otherwise from job to job, so its memos are made and not replayed.
    expect(wobbleReplayed, 'answers replayed over the 20-micrometre wobble').toBe(14);
  });
});

/**
 * A boundary vertex v of `object` and a side (0-2: its box's min on axis 0-2 lies above a
 * triangle's box; 3-5: its max below) such that moving v by `move` toward that triangle makes
 * their boxes (corner unions of `boxes`) overlap where they missed by 0.1-0.4 mm: the pair's gap
 * is negative on that side only, and the opposite side has room.
 */
function nudgeOnto(scene: ReturnType<typeof copies>, boxes: Float32Array, object: number, move: number): [number, number] {
  const T = scene.triangles, obj = scene.vertexObject, tets = scene.tets!;
  const tetKeys = new Set<string>();
  for (let i = 0; i < tets.length; i += 4) tetKeys.add([tets[i], tets[i + 1], tets[i + 2], tets[i + 3]].sort((a, b) => a - b).join(','));
  for (const v of scene.boundaryVertices) {
    if (obj[v] !== object) continue;
    for (let t = 0; t < T.length / 3; t++) {
      const c = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
      if (obj[c[0]] !== object || c.includes(v) || tetKeys.has([v, ...c].sort((a, b) => a - b).join(','))) continue;
      const lo = [0, 1, 2].map((k) => Math.min(...c.map((u) => boxes[6 * u + k])));
      const hi = [0, 1, 2].map((k) => Math.max(...c.map((u) => boxes[6 * u + 3 + k])));
      // The six differences of the overlap test: hi_t - min_v per axis, then max_v - lo_t.
      const d = [0, 1, 2].map((k) => hi[k] - boxes[6 * v + k]).concat([0, 1, 2].map((k) => boxes[6 * v + 3 + k] - lo[k]));
      const negative = d.filter((g) => g < 0);
      const side = d.findIndex((g) => g < 0);
      if (negative.length !== 1 || !(d[side] < -1e-4 && d[side] > -4e-4)) continue;
      if (d[(side + 3) % 6] > 2 * move) return [v, side];
    }
  }
  throw new Error('no vertex to nudge');
}
