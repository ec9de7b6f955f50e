/**
 * Own-frame boxes of a body that meets an obstacle (collision/ccd/obstacleGrowth.ts). The truth is
 * a motion model written here, not the box code: over the horizon every vertex and the frame's
 * reference vertex either keeps its velocity or stops on the obstacle at a time of its own (no
 * gravity: the model's pull, g H^2 / 2, is the margin's). The GPU's own-frame escape test
 * (lib/ccdBoxes.wgsl leftOwnFrameBox) is rewritten here: the vertex's position less the
 * reference's displacement since the snapshot must lie in the vertex's own-frame box.
 */
import { describe, expect, it } from 'vitest';
import { ownFrameBoxes, ownFrameReferences, sweptVertexBoxes, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { obstacleGrowth } from '../../../src/collision/ccd/obstacleGrowth';
import { collidersReached } from '../../../src/sim/colliderClosingSpeed';
import { copies } from '../../support/ccdPairOracle';

/** A reproducible uniform random number in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Vertices that leave their own-frame box at some sampled time when vertex v stops at stopTime[v] (the model above). */
function ownFrameEscapes(rest: Float32Array, velocities: Float32Array, object: Uint32Array, stopTime: number[], boxes: Float32Array, references: Uint32Array, H: number): number {
  const n = rest.length / 4;
  const at = (v: number, t: number, k: number): number => rest[4 * v + k] + velocities[4 * v + k] * Math.min(t, stopTime[v]);
  let escaped = 0;
  for (let v = 0; v < n; v++) {
    const ref = references[4 * object[v]];
    let out = false;
    for (let step = 0; step <= 16 && !out; step++) {
      const t = (step / 16) * H;
      for (let k = 0; k < 3; k++) {
        const own = at(v, t, k) - (at(ref, t, k) - rest[4 * ref + k]);
        if (own < boxes[6 * v + k] || own > boxes[6 * v + 3 + k]) out = true;
      }
    }
    if (out) escaped++;
  }
  return escaped;
}

describe('obstacleGrowth: own-frame boxes of a body meeting an obstacle', () => {
  const margin = 0.005;

  it('a body landing on the ground: stops of any vertex that can reach it, and of the reference, stay in the grown boxes; the plain boxes miss them', () => {
    const body = copies('Cube.t', [[0, 0, 0]]);
    const n = body.vertexCount;
    let lowest = Infinity, highest = -Infinity;
    for (let v = 0; v < n; v++) { lowest = Math.min(lowest, body.rest[4 * v + 1]); highest = Math.max(highest, body.rest[4 * v + 1]); }
    const velocities = new Float32Array(4 * n);
    // Falling at 3 m/s and spreading sideways about the own frame's reference vertex, so the
    // own-frame velocities are not all zero (about the reference: the frame follows that vertex,
    // the boxes its object's mean velocity, and the margin holds the difference).
    const reference = ownFrameReferences(body, body.rest)[0];
    for (let v = 0; v < n; v++) {
      velocities[4 * v] = 0.05 * (body.rest[4 * v] - body.rest[4 * reference]);
      velocities[4 * v + 1] = -3;
      velocities[4 * v + 2] = 0.05 * (body.rest[4 * v + 2] - body.rest[4 * reference + 2]);
    }
    // The ground a third of the body's height below it, so that about a third of it can reach it within H.
    const H = (0.5 * (highest - lowest)) / 3;
    const ground = lowest - (highest - lowest) / 6;
    const bound: MotionBound = { horizon: H, gravity: [0, 0, 0], margin };
    const world = sweptVertexBoxes(body.rest, velocities, bound);
    const reaches = collidersReached({
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: ground }], time: 0, horizon: H, gravity: [0, 0, 0], thickness: 0,
      positions: body.rest, velocities, stride: 4, vertexCount: n,
    });
    const reachCount = reaches.reduce((a, b) => a + b, 0);
    expect(reachCount).toBeGreaterThan(0.1 * n);
    expect(reachCount).toBeLessThan(0.7 * n);
    const references = ownFrameReferences(body, body.rest);
    const growth = obstacleGrowth({ topology: body, worldBoxes: world, velocities, references, horizon: H, reachesCollider: reaches });
    // One side only, upward, 3 m/s x H, and only where the vertex can reach the ground.
    for (let v = 0; v < n; v++) {
      expect(growth[6 * v + 4]).toBeCloseTo(reaches[v] ? 3 * H : 0, 5);
      for (const k of [0, 1, 2, 3, 5]) expect(growth[6 * v + k]).toBeLessThan(0.02 * 3 * H);
    }
    const grown = ownFrameBoxes(body, body.rest, velocities, { ...bound, ownGrowth: growth });
    const plain = ownFrameBoxes(body, body.rest, velocities, bound);
    const random = lcg(7);
    // The landing itself: each vertex that reaches the ground stops there (at gap / 3 s), the reference flies on.
    const stopsAt = Array.from({ length: n }, (_, v) => (reaches[v] ? (body.rest[4 * v + 1] - ground) / 3 : Infinity));
    expect(ownFrameEscapes(body.rest, velocities, body.vertexObject, stopsAt, grown, references, H)).toBe(0);
    expect(ownFrameEscapes(body.rest, velocities, body.vertexObject, stopsAt, plain, references, H)).toBeGreaterThan(0.1 * n);
    // Any stop times of the vertices that can reach it: still inside.
    for (let trial = 0; trial < 10; trial++) {
      const any = Array.from({ length: n }, (_, v) => (reaches[v] && random() < 0.8 ? random() * H : Infinity));
      expect(ownFrameEscapes(body.rest, velocities, body.vertexObject, any, grown, references, H)).toBe(0);
    }
    // Everything may meet something (the reference too): any stops, the reference's included.
    const everywhere = obstacleGrowth({ topology: body, worldBoxes: world, velocities, references, horizon: H, reachesCollider: new Uint8Array(n).fill(1) });
    const wide = ownFrameBoxes(body, body.rest, velocities, { ...bound, ownGrowth: everywhere });
    let plainEscapes = 0;
    for (let trial = 0; trial < 10; trial++) {
      const any = Array.from({ length: n }, () => (random() < 0.5 ? random() * H : Infinity));
      expect(ownFrameEscapes(body.rest, velocities, body.vertexObject, any, wide, references, H)).toBe(0);
      plainEscapes += ownFrameEscapes(body.rest, velocities, body.vertexObject, any, plain, references, H);
    }
    expect(plainEscapes).toBeGreaterThan(0);
  });

  it('bodies that fall together get no growth; one falling onto one at rest: the near vertices of each, along the fall, on the side of the relative motion', () => {
    const one = copies('Cube.t', [[0, 0, 0]]);
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < one.vertexCount; v++) { lo = Math.min(lo, one.rest[4 * v + 1]); hi = Math.max(hi, one.rest[4 * v + 1]); }
    const size = hi - lo, gap = 0.2 * size;
    const pair = copies('Cube.t', [[0, 0, 0], [0, size + gap, 0]]);
    const n = pair.vertexCount;
    const velocities = (lower: number, upper: number): Float32Array => {
      const vel = new Float32Array(4 * n);
      for (let v = 0; v < n; v++) vel[4 * v + 1] = pair.vertexObject[v] === 0 ? lower : upper;
      return vel;
    };
    const growthOf = (vel: Float32Array, horizon: number): Float32Array =>
      obstacleGrowth({ topology: pair, worldBoxes: sweptVertexBoxes(pair.rest, vel, { horizon, gravity: [0, 0, 0], margin }), velocities: vel, references: ownFrameReferences(pair, pair.rest), horizon, reachesCollider: null });
    // Falling together fast: their boxes overlap, their relative speed is 0.
    expect(growthOf(velocities(-3, -3), gap).every((g) => g === 0)).toBe(true);
    // The lower one resting, the upper one falling onto it at 3 m/s: a vertex of the upper one that
    // can reach the lower one stops (relative to its falling frame: upward), one of the lower one is
    // carried down (downward); where an object's reference can reach the other, all its vertices
    // grow the other way. A horizon where the boxes (the upper ones grown 3 H + margin) pass the gap.
    const horizon = gap / 2.5;
    const closing = growthOf(velocities(0, -3), horizon);
    const world = sweptVertexBoxes(pair.rest, velocities(0, -3), { horizon, gravity: [0, 0, 0], margin });
    let lowerTop = -Infinity, upperBottom = Infinity;
    for (let v = 0; v < n; v++) {
      if (pair.vertexObject[v] === 0) lowerTop = Math.max(lowerTop, world[6 * v + 4]);
      else upperBottom = Math.min(upperBottom, world[6 * v + 1]);
    }
    // A vertex reaches the other object when its swept box reaches that object's box (they share x and z).
    const reaches = (v: number): boolean => (pair.vertexObject[v] === 1 ? world[6 * v + 1] <= lowerTop : world[6 * v + 4] >= upperBottom);
    const refs = ownFrameReferences(pair, pair.rest);
    const refReaches = [reaches(refs[0]), reaches(refs[4])];
    let grownUpper = 0, grownLower = 0;
    for (let v = 0; v < n; v++) {
      const upper = pair.vertexObject[v] === 1;
      const s = 3 * horizon;
      const expected = upper ? [0, refReaches[1] ? s : 0, 0, 0, reaches(v) ? s : 0, 0] : [0, reaches(v) ? s : 0, 0, 0, refReaches[0] ? s : 0, 0];
      for (let k = 0; k < 6; k++) expect(closing[6 * v + k], `vertex ${v} (${upper ? 'upper' : 'lower'}), entry ${k}`).toBeCloseTo(expected[k], 6);
      if (reaches(v)) upper ? grownUpper++ : grownLower++;
    }
    expect(grownUpper).toBeGreaterThan(0);
    expect(grownLower).toBeGreaterThan(0);
    expect(grownUpper + grownLower).toBeLessThan(n);
    // The same speeds over a horizon too short for the boxes to meet: no obstacle.
    expect(growthOf(velocities(0, -3), 0.001).every((g) => g === 0)).toBe(true);
  });

  it('collidersReached: a vertex falling onto the ground plane reaches it exactly when gap <= c H + g H^2 / 2', () => {
    const g = 9.81, speed = 2, horizon = 0.05;
    const reach = speed * horizon + 0.5 * g * horizon * horizon;
    const gaps = [0, 0.5 * reach, 0.999 * reach, 1.001 * reach, 2 * reach];
    const positions = new Float32Array(4 * gaps.length), velocities = new Float32Array(4 * gaps.length);
    gaps.forEach((gap, i) => {
      positions[4 * i + 1] = gap;
      velocities[4 * i + 1] = -speed;
    });
    const reached = collidersReached({
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }], time: 0, horizon, gravity: [0, -g, 0], thickness: 0,
      positions, velocities, stride: 4, vertexCount: gaps.length,
    });
    expect([...reached]).toEqual([1, 1, 1, 0, 0]);
  });
});
