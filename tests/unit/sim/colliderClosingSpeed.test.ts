import { describe, expect, it } from 'vitest';
import { colliderClosingSpeed, collidersReached, type ColliderClosingInput } from '../../../src/sim/colliderClosingSpeed';
import type { Collider } from '../../../src/sim/colliders';

/**
 * The colliders' closing speed (impact-adaptive substeps) against kinematics worked by hand: a
 * point at gap g closing at c with gravity's pull a toward the surface reaches it within H
 * exactly when c H + a H^2 / 2 >= g, and then at sqrt(c^2 + 2 a g) (energy conservation).
 */
const G = 9.81;
const one = (x: [number, number, number], v: [number, number, number], colliders: Collider[], extra: Partial<ColliderClosingInput> = {}): number =>
  colliderClosingSpeed({ colliders, time: 0, horizon: 0.02, gravity: [0, -G, 0], thickness: 0, positions: x, velocities: v, stride: 3, vertexCount: 1, ...extra });
const ground: Collider = { kind: 'plane', normal: [0, 1, 0], offset: 0 };

describe('colliderClosingSpeed', () => {
  it('a point falling on the ground: counted exactly when it reaches the plane within the horizon, at the speed it can reach', () => {
    const H = 0.02, c = 3;
    const reach = c * H + 0.5 * G * H * H;
    expect(one([0, 0.999 * reach, 0], [0, -c, 0], [ground])).toBeCloseTo(Math.sqrt(c * c + 2 * G * 0.999 * reach), 12);
    expect(one([0, 1.001 * reach, 0], [0, -c, 0], [ground])).toBe(0);
    // Rising away: gravity alone brings it back only if the gap is within a H^2 / 2.
    expect(one([0, 0.001, 0], [0, 0.5, 0], [ground])).toBe(0);
    expect(one([0, 0.0001, 0], [0, 0.001, 0], [ground])).toBeCloseTo(Math.sqrt(0.001 ** 2 + 2 * G * 0.0001), 12);
    // Resting on the ground or sliding along it at 10 m/s: no impact, whatever gravity's pull.
    expect(one([0, 0, 0], [0, 0, 0], [ground])).toBe(0);
    expect(one([0, 0, 0], [10, 0, 0], [ground])).toBe(0);
  });

  it('the contact offset moves the surface out; a tilted plane uses its unit normal', () => {
    // 2 m/s down reaches 4 cm in the 0.02 s horizon: with a 1 cm offset, from 4.9 cm above y = 0 but not from 5.1 cm.
    expect(one([0, 0.049, 0], [0, -2, 0], [ground], { thickness: 0.01, gravity: [0, 0, 0] })).toBeCloseTo(2, 12);
    expect(one([0, 0.051, 0], [0, -2, 0], [ground], { thickness: 0.01, gravity: [0, 0, 0] })).toBe(0);
    // Normal (1, 1, 0) not unit: the closing speed along the unit normal.
    const tilted: Collider = { kind: 'plane', normal: [1, 1, 0], offset: 0 };
    expect(one([0.001, 0.001, 0], [-3, -1, 0], [tilted], { gravity: [0, 0, 0] })).toBeCloseTo(4 / Math.SQRT2, 12);
  });

  it('a scripted plane closing on a resting point counts its own speed; one switched off does not', () => {
    // The plane y = 0.5 t rises at 0.5 m/s toward a point resting 5 mm above its start.
    const rising: Collider = { kind: 'plane', normal: [0, 1, 0], offset: (t) => 0.5 * t };
    expect(one([0, 0.005, 0], [0, 0, 0], [rising], { gravity: [0, 0, 0] })).toBeCloseTo(0.5, 9);
    expect(one([0, 0.02, 0], [0, 0, 0], [rising], { gravity: [0, 0, 0] })).toBe(0);
    const off: Collider = { kind: 'plane', normal: [0, 1, 0], offset: () => null };
    expect(one([0, 0, 0], [0, -5, 0], [off])).toBe(0);
  });

  it('a box from outside: the distance to its nearest point and the speed along it; a bowl below its centre', () => {
    const box: Collider = { kind: 'box', min: [0, 0, 0], max: [1, 1, 1] };
    // 3 mm off the edge x = 1, y = 1 along the diagonal, closing at 1 m/s along it.
    const d = 0.003 / Math.SQRT2;
    expect(one([1 + d, 1 + d, 0.5], [-1 / Math.SQRT2, -1 / Math.SQRT2, 0], [box], { gravity: [0, 0, 0] })).toBeCloseTo(1, 12);
    // The same speed along x only: its share along the diagonal.
    expect(one([1 + d, 1 + d, 0.5], [-1, 0, 0], [box], { gravity: [0, 0, 0] })).toBeCloseTo(1 / Math.SQRT2, 12);
    // On the face y = 1 (no depth), falling onto it at 3 m/s.
    expect(one([0.5, 1, 0.5], [0, -3, 0], [box], { gravity: [0, 0, 0] })).toBeCloseTo(3, 12);
    // Inside, moving deeper through the nearest face (x = 0): counted at its speed.
    expect(one([0.01, 0.5, 0.5], [2, 0, 0], [box], { gravity: [0, 0, 0] })).toBeCloseTo(2, 12);
    const bowl: Collider = { kind: 'bowl', center: [0, 1, 0], radius: 1 };
    // 1 cm inside the wall straight below the centre, falling at 1 m/s; above the centre: no wall.
    expect(one([0, 0.01, 0], [0, -1, 0], [bowl], { gravity: [0, 0, 0] })).toBeCloseTo(1, 12);
    expect(one([0.995, 1.01, 0], [1, 0, 0], [bowl], { gravity: [0, 0, 0] })).toBe(0);
  });

  it('takes the fastest vertex, skips fixed ones, reads vec4 layouts, and names bad input', () => {
    const x = new Float32Array([0, 0.001, 0, 0, 0, 0.001, 0, 0]);
    const v = new Float32Array([0, -1, 0, 0, 0, -4, 0, 0]);
    const base = { colliders: [ground], time: 0, horizon: 0.02, gravity: [0, 0, 0] as [number, number, number], thickness: 0, positions: x, velocities: v, stride: 4 as const, vertexCount: 2 };
    expect(colliderClosingSpeed(base)).toBeCloseTo(4, 6);
    expect(colliderClosingSpeed({ ...base, inverseMass: [1, 0] })).toBeCloseTo(1, 6);
    expect(() => colliderClosingSpeed({ ...base, vertexCount: 3 })).toThrow(/fewer than 3 vertices of 4 floats/);
    expect(() => colliderClosingSpeed({ ...base, horizon: -1 })).toThrow(/horizon must be a finite number >= 0, got -1/);
  });

  it('collidersReached on random points about tilted planes, a moving one too: the hand-worked kinematics above decide each point', () => {
    let seed = 12345;
    const random = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const H = 0.02, count = 2000;
    const tilt = Math.SQRT1_2;
    // The moving plane: y = 0.1 t (its offset rises toward the points at 0.1 m/s).
    const planes: { collider: Collider; n: [number, number, number]; d: number; speed: number }[] = [
      { collider: { kind: 'plane', normal: [0, 1, 0], offset: 0 }, n: [0, 1, 0], d: 0, speed: 0 },
      { collider: { kind: 'plane', normal: [tilt, tilt, 0], offset: -0.05 }, n: [tilt, tilt, 0], d: -0.05, speed: 0 },
      { collider: { kind: 'plane', normal: [0, 1, 0], offset: (t: number) => 0.1 * t }, n: [0, 1, 0], d: 0, speed: 0.1 },
    ];
    for (const plane of planes) {
      const x = new Float32Array(4 * count), v = new Float32Array(4 * count);
      for (let p = 0; p < count; p++) {
        // Within 0.2 of the plane; speeds up to 5 m/s in any direction, often mostly along it.
        for (let k = 0; k < 3; k++) { x[4 * p + k] = (random() - 0.5) * 0.4; v[4 * p + k] = (random() - 0.5) * 10; }
      }
      const reached = collidersReached({ colliders: [plane.collider], time: 0, horizon: H, gravity: [0, -G, 0], thickness: 0, positions: x, velocities: v, stride: 4, vertexCount: count });
      let landing = 0;
      for (let p = 0; p < count; p++) {
        const gap = Math.max(0, plane.n[0] * x[4 * p] + plane.n[1] * x[4 * p + 1] + plane.n[2] * x[4 * p + 2] - plane.d);
        const c = plane.speed - (plane.n[0] * v[4 * p] + plane.n[1] * v[4 * p + 1] + plane.n[2] * v[4 * p + 2]);
        const a = G * plane.n[1];
        // Sampled, not solved: the gap left after flying t toward the plane, gap - (c t + a t^2 / 2),
        // at 400 times in (0, H]; it lands when that reaches 0. Points whose closest approach is
        // within 1e-6 of the surface are left out (the samples' spacing, float32 inputs).
        let closest = Infinity;
        for (let j = 1; j <= 400; j++) {
          const t = (j / 400) * H;
          closest = Math.min(closest, gap - (c * t + 0.5 * a * t * t));
        }
        if (Math.abs(closest) < 1e-6) continue;
        const expected = closest <= 0;
        expect(reached[p] === 1, `plane ${planes.indexOf(plane)}, point ${p}: gap ${gap}, closing ${c}`).toBe(expected);
        if (expected) landing++;
      }
      expect(landing).toBeGreaterThan(0.05 * count);
      expect(landing).toBeLessThan(0.95 * count);
    }
  });
});
