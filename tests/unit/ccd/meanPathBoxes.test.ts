/**
 * World boxes clipped to each object's mean path (collision/ccd/meanPathBoxes.ts, broadPhase.ts
 * worldBoxes with MotionBound.worldBoxes 'mean-path'). The truth is the motion itself, sampled
 * here, not the box code: a ballistic vertex (x + v t + g t^2 / 2) must stay inside its box over
 * the whole horizon, and a vertex that turns back off the ground (obstacleGrowth.ts's stop,
 * then a rebound) too once the growth is given. Then what the clip is for: bodies falling side by side share no pair, where
 * the ball's boxes pair them across the gap.
 */
import { describe, expect, it } from 'vitest';
import { ccdCandidates, ownFrameReferences, sweptCandidates, sweptVertexBoxes, worldBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { CcdSchedule, inThreadBroadPhase, type BroadPhaseRunner } from '../../../src/collision/ccd/ccdSchedule';
import { obstacleGrowth } from '../../../src/collision/ccd/obstacleGrowth';
import { collidersReached } from '../../../src/sim/colliderClosingSpeed';
import { copies } from '../../support/ccdPairOracle';

/** A reproducible uniform random number in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Vertices of `only` (all when absent) whose position at(v, t, k) leaves their box at one of 33 times in [0, H]. */
function leaving(boxes: Float32Array, n: number, H: number, at: (v: number, t: number, k: number) => number): number {
  let out = 0;
  for (let v = 0; v < n; v++) {
    let left = false;
    for (let step = 0; step <= 32 && !left; step++) {
      const t = (step / 32) * H;
      for (let k = 0; k < 3; k++) {
        const x = at(v, t, k);
        if (x < boxes[6 * v + k] || x > boxes[6 * v + 3 + k]) left = true;
      }
    }
    if (left) out++;
  }
  return out;
}

/** The cube's extent along y. */
function heightOf(rest: Float32Array): { lowest: number; highest: number } {
  let lowest = Infinity, highest = -Infinity;
  for (let v = 0; v < rest.length / 4; v++) {
    lowest = Math.min(lowest, rest[4 * v + 1]);
    highest = Math.max(highest, rest[4 * v + 1]);
  }
  return { lowest, highest };
}

describe("world boxes clipped to the mean path ('mean-path')", () => {
  const margin = 0.005;

  it('holds every ballistic path: two bodies, each with its own mean velocity and vertices deviating from it, under gravity', () => {
    const pair = copies('Cube.t', [[0, 0, 0], [3, 0.5, 0]]);
    const n = pair.vertexCount;
    const random = lcg(11);
    const means = [[0.4, -5, 1.2], [-3, -4, 0.5]];
    const velocities = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) {
      const o = pair.vertexObject[v];
      for (let k = 0; k < 3; k++) velocities[4 * v + k] = means[o][k] + 1.5 * (random() - 0.5);
    }
    const H = 1 / 30, gravity: [number, number, number] = [0, -9.81, 0];
    const vertexMargins = Float32Array.from({ length: n }, () => (random() < 0.1 ? 0.02 : 0));
    const bound: MotionBound = { horizon: H, gravity, margin, vertexMargins, worldBoxes: 'mean-path' };
    const clipped = worldBoxes(pair, pair.rest, velocities, bound);
    const ball = sweptVertexBoxes(pair.rest, velocities, bound);
    const at = (v: number, t: number, k: number): number => pair.rest[4 * v + k] + velocities[4 * v + k] * t + 0.5 * gravity[k] * t * t;
    expect(leaving(clipped, n, H, at)).toBe(0);
    // Clipped: never larger than the ball on any side, and smaller across the mean motion.
    let volumeClipped = 0, volumeBall = 0;
    for (let v = 0; v < n; v++) {
      for (let k = 0; k < 3; k++) {
        expect(clipped[6 * v + k]).toBeGreaterThanOrEqual(ball[6 * v + k]);
        expect(clipped[6 * v + 3 + k]).toBeLessThanOrEqual(ball[6 * v + 3 + k]);
      }
      const volume = (b: Float32Array): number => (b[6 * v + 3] - b[6 * v]) * (b[6 * v + 4] - b[6 * v + 1]) * (b[6 * v + 5] - b[6 * v + 2]);
      volumeClipped += volume(clipped);
      volumeBall += volume(ball);
    }
    expect(volumeClipped).toBeLessThan(0.25 * volumeBall);
  });

  it('holds a rebound once the obstacle growth is given: vertices that reach the ground turn back up at any time', () => {
    const body = copies('Cube.t', [[0, 0, 0]]);
    const n = body.vertexCount;
    const { lowest, highest } = heightOf(body.rest);
    const velocities = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) velocities[4 * v + 1] = -3;
    // The ground a sixth of the body's height below it: about a third of it can reach it within H.
    const H = (0.5 * (highest - lowest)) / 3;
    const ground = lowest - (highest - lowest) / 6;
    const bound: MotionBound = { horizon: H, gravity: [0, 0, 0], margin, worldBoxes: 'mean-path' };
    const reaches = collidersReached({
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: ground }], time: 0, horizon: H, gravity: [0, 0, 0], thickness: 0,
      positions: body.rest, velocities, stride: 4, vertexCount: n,
    });
    const growth = obstacleGrowth({ topology: body, worldBoxes: sweptVertexBoxes(body.rest, velocities, bound), velocities, references: ownFrameReferences(body, body.rest), horizon: H, reachesCollider: reaches });
    const grown = worldBoxes(body, body.rest, velocities, { ...bound, ownGrowth: growth });
    const plain = worldBoxes(body, body.rest, velocities, bound);
    const random = lcg(5);
    let plainLeft = 0;
    for (let trial = 0; trial < 10; trial++) {
      // Each vertex that can reach the ground turns back at its own time (at the latest where it
      // touches), as fast as it came (a rebound never speeds it up); the rest fall on. A stop
      // alone stays on the mean path's segment; the turn leaves it upward.
      const turn = Array.from({ length: n }, (_, v) => (reaches[v] ? random() * Math.min(H, (body.rest[4 * v + 1] - ground) / 3) : Infinity));
      const at = (v: number, t: number, k: number): number => body.rest[4 * v + k] + velocities[4 * v + k] * (t <= turn[v] ? t : 2 * turn[v] - t);
      expect(leaving(grown, n, H, at)).toBe(0);
      plainLeft += leaving(plain, n, H, at);
    }
    // Without the growth the rebounds leave the mean path's boxes: the growth is what holds them.
    expect(plainLeft).toBeGreaterThan(0);
  });

  it('bodies falling side by side share no pair, which the ball pairs across the gap; bodies closing on each other keep theirs', () => {
    const { lowest, highest } = heightOf(copies('Cube.t', [[0, 0, 0]]).rest);
    const size = highest - lowest, gap = 0.05 * size;
    const pair = copies('Cube.t', [[0, 0, 0], [size + gap, 0, 0]]);
    const n = pair.vertexCount;
    const H = 1 / 30;
    const bound: MotionBound = { horizon: H, gravity: [0, -9.81, 0], margin };
    const count = (velocities: Float32Array, kind: 'ball' | 'mean-path'): number => {
      const c = ccdCandidates(pair, worldBoxes(pair, pair.rest, velocities, { ...bound, worldBoxes: kind }), 'inter');
      return (c.vertexFace.length + c.edgeEdge.length) / 2;
    };
    // Falling together at 5 m/s: the ball is 5 H = 0.17 wide on every side, over the 0.1 gap.
    const together = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) together[4 * v + 1] = -5;
    expect(count(together, 'ball')).toBeGreaterThan(0);
    expect(count(together, 'mean-path')).toBe(0);
    // Closing at 3 m/s each across the gap (they meet within H): pairs between the facing sides either way.
    const closing = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) closing[4 * v] = pair.vertexObject[v] === 0 ? 3 : -3;
    expect(count(closing, 'mean-path')).toBeGreaterThan(0);
  });

  it("the schedule uploads for the GPU's check the boxes the worker's join uses, grown for obstacles without self-collision too", async () => {
    // One cube falling at 4 m/s onto one at rest 2 % of its size below: each is the other's obstacle.
    const { lowest, highest } = heightOf(copies('Cube.t', [[0, 0, 0]]).rest);
    const size = highest - lowest;
    const pair = copies('Cube.t', [[0, 0, 0], [0.3 * size, 1.02 * size, 0]]);
    const n = pair.vertexCount;
    const velocities = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) if (pair.vertexObject[v] === 1) velocities[4 * v + 1] = -4;
    const bounds: MotionBound[] = [];
    const inThread = inThreadBroadPhase(pair);
    const runner: BroadPhaseRunner = (x, v, bound, self, culling) => {
      bounds.push(bound);
      return inThread(x, v, bound, self, culling);
    };
    const schedule = new CcdSchedule(runner, margin, { latency: 0 }, pair);
    const p = { dt: 1 / 60, gravity: [0, -9.81, 0] as [number, number, number], selfCollision: false, ccdWorldBoxes: 'mean-path' as const };
    const input = await schedule.inputFor(0, p, async () => ({ positions: pair.rest, velocities }));
    const bound = bounds[0]!;
    expect(bound.worldBoxes).toBe('mean-path');
    expect(Array.from(bound.ownGrowth!).some((g) => g > 0)).toBe(true);
    const joined = sweptCandidates(pair, pair.rest, velocities, bound, false);
    expect(Array.from(input.boxes)).toEqual(Array.from(joined.boxes));
    // Clipped: the falling cube's boxes are narrower across its fall than the ball's.
    const ball = sweptVertexBoxes(pair.rest, velocities, bound);
    const top = Array.from({ length: n }, (_, v) => v).find((v) => pair.vertexObject[v] === 1)!;
    expect(input.boxes[6 * top + 3] - input.boxes[6 * top]).toBeLessThan(0.5 * (ball[6 * top + 3] - ball[6 * top]));
    expect(input.candidates.vertexFace.length).toBeGreaterThan(0);
  });
});
