/**
 * CCD's same-object pairs joined per object in the frame with the smaller boxes
 * (MotionBound.selfPairFrame 'adaptive', collision/ccd/selfPairFrames.ts). Truths:
 * - the motion itself: every same-object pair whose vertex comes within the margin of a point of
 *   the triangle at some time of the horizon, along the paths the bound covers (x + v t + g t^2/2),
 *   is a candidate (sampled times and triangle points, written here);
 * - the brute-force box oracle (tests/support/ccdPairOracle.ts, no code shared with the join): the
 *   pairs are exactly those whose boxes overlap in the chosen frame, with and without kept lists;
 * - the choice itself: a landed body whose own-frame margin the landing's escapes doubled is joined
 *   in the world (far fewer pairs), a falling body in its own frame.
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, sweptCandidates, sweptVertexBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { chooseSelfPairFrames } from '../../../src/collision/ccd/selfPairFrames';
import { bruteForce, copies, ownKeys } from '../../support/ccdPairOracle';

const H = 1 / 30, G: [number, number, number] = [0, -9.81, 0], MARGIN = 0.0078;

describe('CCD same-object pairs in the smaller frame', () => {
  // Object 0 lands: its lowest 15 cm stopped, the rest still falling at 1 m/s (a ramp between),
  // its own-frame margin doubled four times by the landing's escapes. Object 1 falls whole at 2 m/s.
  const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [1.5, 0.2, 0.1]]);
  const n = scene.vertexCount, obj = scene.vertexObject;
  const low = [Infinity, Infinity];
  for (let v = 0; v < n; v++) low[obj[v]] = Math.min(low[obj[v]], scene.rest[4 * v + 1]);
  const velocities = new Float32Array(4 * n);
  for (let v = 0; v < n; v++) {
    const ramp = obj[v] === 0 ? Math.min(1, (scene.rest[4 * v + 1] - low[0]) / 0.15) : 1;
    velocities[4 * v + 1] = (obj[v] === 0 ? -1 : -2) * ramp;
    velocities[4 * v] = obj[v] === 1 ? 0.05 * Math.sin(v) : 0;
  }
  const bound: MotionBound = { horizon: H, gravity: G, margin: MARGIN, ownMargins: [16 * MARGIN, MARGIN], selfPairFrame: 'adaptive' };

  it('joins the landed body in the world and the falling one in its own frame, with the pairs the boxes of each give', () => {
    const world = sweptVertexBoxes(scene.rest, velocities, bound);
    const own = ownFrameBoxes(scene, scene.rest, velocities, bound);
    const frames = chooseSelfPairFrames(scene, own, world, [0, 2]);
    expect(Array.from(frames.world)).toEqual([1, 0]);
    expect(frames.report.worldJoined).toBe(1);

    const none = new Int32Array(scene.triangles.length / 3).fill(-1);
    const inWorld = bruteForce(scene, world, none), inOwn = bruteForce(scene, own, none);
    const T = scene.triangles, E = scene.edges, nt = T.length / 3, ne = E.length / 2;
    const vfObject = (key: number): number => obj[Math.floor(key / nt)], eeObject = (key: number): number => obj[E[2 * Math.floor(key / ne)]];
    const want = {
      vf: [...inWorld.vf.filter((k) => vfObject(k) === 0), ...inOwn.vf.filter((k) => vfObject(k) === 1)].sort((a, b) => a - b),
      ee: [...inWorld.ee.filter((k) => eeObject(k) === 0), ...inOwn.ee.filter((k) => eeObject(k) === 1)].sort((a, b) => a - b),
    };
    // The landed body's pairs in the world are a few times fewer than in its own frame.
    const ownCount = inOwn.vf.filter((k) => vfObject(k) === 0).length, worldCount = inWorld.vf.filter((k) => vfObject(k) === 0).length;
    console.log(`landed body: ${worldCount} vertex-face pairs in the world frame, ${ownCount} in its own frame`);
    expect(worldCount * 2).toBeLessThan(ownCount);

    for (const selfPairSkin of [0, 0.5]) {
      // Twice with kept lists: built, then reused.
      for (let job = 0; job < (selfPairSkin > 0 ? 2 : 1); job++) {
        const c = sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairSkin }, true);
        expect(c.selfFrames).toEqual({ worldJoined: 1 });
        expect(ownKeys(scene, c.vertexFace, 'vf')).toEqual(want.vf);
        expect(ownKeys(scene, c.edgeEdge, 'ee')).toEqual(want.ee);
      }
    }
    // Split across workers: a part without the pairs between objects sweeps its own objects' world boxes.
    for (const inter of [0, 1]) {
      const parts = [{ inter: inter === 0, objects: [0, 1] as [number, number] }, { inter: inter === 1, objects: [1, 2] as [number, number] }];
      const got = parts.map((part) => sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairSkin: 0 }, true, undefined, part));
      expect(got.map((c) => c.selfFrames!.worldJoined)).toEqual([1, 0]);
      expect(got.flatMap((c) => ownKeys(scene, c.vertexFace, 'vf')).sort((a, b) => a - b)).toEqual(want.vf);
      expect(got.flatMap((c) => ownKeys(scene, c.edgeEdge, 'ee')).sort((a, b) => a - b)).toEqual(want.ee);
    }
    // 'own' (and no setting) keeps every object in its own frame.
    const ownOnly = sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairFrame: 'own', selfPairSkin: 0 }, true);
    expect(ownOnly.selfFrames).toBeUndefined();
    expect(ownKeys(scene, ownOnly.vertexFace, 'vf')).toEqual(inOwn.vf);
  });

  it('finds every same-object pair of the landing body that comes within the margin along its paths', () => {
    const c = sweptCandidates(scene, scene.rest, velocities, { ...bound, selfPairSkin: 0 }, true);
    const T = scene.triangles, nt = T.length / 3;
    const found = new Set(ownKeys(scene, c.vertexFace, 'vf'));
    // Positions along the covered paths at sampled times; 7 points per triangle (corners, edge midpoints, centroid).
    const times = [0, 0.25, 0.5, 0.75, 1].map((f) => f * H);
    const at = times.map((t) => {
      const x = new Float64Array(3 * n);
      for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) x[3 * v + k] = scene.rest[4 * v + k] + velocities[4 * v + k] * t + 0.5 * G[k] * t * t;
      return x;
    });
    const weights = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.5, 0.5, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [1 / 3, 1 / 3, 1 / 3]];
    const vertices = Array.from(scene.boundaryVertices).filter((v) => obj[v] === 0);
    // A vertex and a face of one tet are no pair (that tet inverting is the material's to handle).
    const tets = scene.tets!, oneTet = new Set<string>();
    for (let i = 0; i < tets.length; i += 4) oneTet.add(Array.from(tets.subarray(i, i + 4)).sort((p, q) => p - q).join(','));
    // Each point's box over the sampled times: a pair whose boxes are farther apart than the margin has no sample within it.
    const span = (v: number, k: number, hi: boolean): number => {
      let m = hi ? -Infinity : Infinity;
      for (const x of at) m = hi ? Math.max(m, x[3 * v + k]) : Math.min(m, x[3 * v + k]);
      return m;
    };
    const lo = new Float64Array(3 * n), hi = new Float64Array(3 * n);
    for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) {
      lo[3 * v + k] = span(v, k, false);
      hi[3 * v + k] = span(v, k, true);
    }
    const apart = (v: number, a: number, b: number, c: number): boolean => {
      for (let k = 0; k < 3; k++) {
        if (lo[3 * v + k] > Math.max(hi[3 * a + k], hi[3 * b + k], hi[3 * c + k]) + MARGIN) return true;
        if (hi[3 * v + k] < Math.min(lo[3 * a + k], lo[3 * b + k], lo[3 * c + k]) - MARGIN) return true;
      }
      return false;
    };
    let near = 0;
    const missed: string[] = [];
    for (let t = 0; t < nt; t++) {
      const a = T[3 * t], b = T[3 * t + 1], cc = T[3 * t + 2];
      if (obj[a] !== 0) continue;
      for (const v of vertices) {
        if (v === a || v === b || v === cc || apart(v, a, b, cc) || oneTet.has([v, a, b, cc].sort((p, q) => p - q).join(','))) continue;
        for (const x of at) {
          for (const w of weights) {
            const px = w[0] * x[3 * a] + w[1] * x[3 * b] + w[2] * x[3 * cc];
            const py = w[0] * x[3 * a + 1] + w[1] * x[3 * b + 1] + w[2] * x[3 * cc + 1];
            const pz = w[0] * x[3 * a + 2] + w[1] * x[3 * b + 2] + w[2] * x[3 * cc + 2];
            const dx = x[3 * v] - px, dy = x[3 * v + 1] - py, dz = x[3 * v + 2] - pz;
            if (dx * dx + dy * dy + dz * dz > MARGIN * MARGIN) continue;
            near++;
            if (!found.has(v * nt + t) && missed.length < 5) missed.push(`vertex ${v} / triangle ${t}`);
          }
        }
      }
    }
    console.log(`landing body: ${near} (vertex, triangle point, time) samples within the margin`);
    expect(near).toBeGreaterThan(200);
    expect(missed).toEqual([]);
  });
});
