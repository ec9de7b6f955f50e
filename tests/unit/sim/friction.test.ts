import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import type { SolverParams } from '../../../src/contract/params';
import { blockSetup, centreOfMass, G, slopeGravity, type BlockOptions } from '../../support/blockScenes';

/**
 * Coulomb friction of the colliders (Macklin et al. 2014, section 6.1, with the normal push
 * accumulated over the substep) on the float64 CPU reference, against the laws of a rigid
 * block: it sticks below the friction angle (tan theta < mu), slides with acceleration
 * g (sin theta - mu cos theta) above it, and from speed v stops after v^2 / (2 mu g). Each law
 * for both colliderResponse settings: the projection, and the kept multiplier whose friction is
 * clamped to the cone of the push (src/sim/colliderMultiplier.ts).
 * Longer runs: bench/dampingFriction.ts.
 *
 * Body contacts off (collisions: false) in every run: the laws are the colliders' (one block on a
 * plane collider, which stays), and the block never meets itself. Every measured value (drifts,
 * fitted accelerations, speeds, stopping distances) was the same bit for bit with them on
 * (2026-12-07), at under half the time.
 */

const deg = Math.PI / 180;
const MU = 0.5;

/** A flat block (height half its width, so no edge lifts on the slope): 2 x 1 x 2 cells. */
const FLAT_BLOCK: BlockOptions = { size: [0.5, 0.25, 0.5], cells: [2, 1, 2] };

function bottomVertices(s: CpuSolver): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.model.vertexCount; i++) if (s.model.restPositions[3 * i + 1] === 0) out.push(i);
  return out;
}

/** Least-squares acceleration a of x(t) = x0 + v0 t + a t^2 / 2 over samples (t, x). */
function fitAcceleration(t: number[], x: number[]): number {
  // Normal equations of the 3-parameter fit, solved by Cramer's rule.
  const S = (f: (k: number) => number) => t.reduce((acc, _, k) => acc + f(k), 0);
  const a = [
    [t.length, S((k) => t[k]), S((k) => t[k] ** 2 / 2)],
    [S((k) => t[k]), S((k) => t[k] ** 2), S((k) => t[k] ** 3 / 2)],
    [S((k) => t[k] ** 2 / 2), S((k) => t[k] ** 3 / 2), S((k) => t[k] ** 4 / 4)],
  ];
  const b = [S((k) => x[k]), S((k) => t[k] * x[k]), S((k) => (t[k] ** 2 / 2) * x[k])];
  const det = (m: number[][]) => m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  return det(a.map((row, r) => [row[0], row[1], b[r]])) / det(a);
}

for (const colliderResponse of ['projection', 'multiplier'] as const) {
describe(`${colliderResponse}: a block on a slope below the friction angle sticks`, () => {
  // tan 20 deg = 0.36 < mu = 0.5. The block settles on flat ground (0.25 s), the slope is
  // ramped in (0.25 s), then its contact vertices must not move over 2 s. Before the normal
  // push was accumulated over the substep they crept: 0.51 mm (E 1e6) and 3.0 mm (E 1e7).
  /** Largest displacement along the slope of a contact vertex from 0.5 s to 2.5 s. */
  function drift(youngsModulus: number, friction: number): number {
    const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus }, { friction, damping: 2, colliderResponse, collisions: false });
    const s = new CpuSolver(setup);
    const bottom = bottomVertices(s);
    let start: number[] = [];
    for (let f = 0; f < 150; f++) {
      const ramp = Math.min(1, Math.max(0, (s.time - 0.25) / 0.25));
      s.params.gravity = slopeGravity(20 * deg * ramp);
      s.stepFrame();
      if (f === 29) start = bottom.map((i) => s.x[3 * i]);
    }
    let d = 0;
    bottom.forEach((i, k) => (d = Math.max(d, Math.abs(s.x[3 * i] - start[k]))));
    return d;
  }

  for (const youngsModulus of [1e6, 1e7]) {
    it(`E = ${youngsModulus.toExponential(0)}: contact vertices drift < 0.1 mm over 2 s`, () => {
      expect(drift(youngsModulus, MU)).toBeLessThan(1e-4);
    });
  }

  it('with mu = 0.3 < tan 20 deg the same block slides (the check can fail)', () => {
    // 2 s at g (sin 20 - 0.3 cos 20) = 0.59 m/s^2 after 0.5 s of ramp: metres.
    expect(drift(1e6, 0.3)).toBeGreaterThan(1);
  });
});

describe(`${colliderResponse}: above the friction angle the block slides with a = g (sin theta - mu cos theta)`, () => {
  for (const [theta, youngsModulus] of [[35, 1e6], [35, 1e7], [45, 1e6]] as const) {
    it(`${theta} deg, E = ${youngsModulus.toExponential(0)}: within 3%`, () => {
      const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus }, { friction: MU, damping: 2, gravity: slopeGravity(theta * deg), colliderResponse, collisions: false });
      const s = new CpuSolver(setup);
      const t: number[] = [], x: number[] = [];
      for (let f = 0; f < 60; f++) {
        s.stepFrame();
        // Past the first landing transient (the block starts uncompressed).
        if (f >= 6) { t.push(s.time); x.push(centreOfMass(setup, s.x)[0]); }
      }
      const expected = G * (Math.sin(theta * deg) - MU * Math.cos(theta * deg));
      expect(Math.abs(fitAcceleration(t, x) / expected - 1)).toBeLessThan(0.03);
    });
  }
});

describe(`${colliderResponse}: a block sliding on flat ground stops after v^2 / (2 mu g)`, () => {
  // Kinetic friction spends at most mu x the substep's normal push, however many iterations
  // apply it: the distance must not depend on the iteration count.
  for (const iterations of [3, 10]) {
    it(`v = 1 m/s, mu = 0.5, ${iterations} iterations: within 3%`, () => {
      const params: Partial<SolverParams> = { friction: MU, damping: 2, iterations, colliderResponse, collisions: false };
      const setup = blockSetup({ ...FLAT_BLOCK, youngsModulus: 1e6, velocity: [1, 0, 0] }, params);
      const s = new CpuSolver(setup);
      const x0 = centreOfMass(setup, setup.model.restPositions)[0];
      // Stops after v / (mu g) = 0.2 s: still sliding at 0.1 s, in place from 0.25 s to 0.5 s
      // (up to the elastic sway the stop leaves).
      for (let f = 0; f < 6; f++) s.stepFrame();
      expect(centreOfMass(setup, s.v)[0]).toBeGreaterThan(0.3);
      for (let f = 0; f < 9; f++) s.stepFrame();
      const stopped = centreOfMass(setup, s.x)[0];
      for (let f = 0; f < 15; f++) s.stepFrame();
      const distance = centreOfMass(setup, s.x)[0] - x0;
      expect(Math.abs(distance + x0 - stopped)).toBeLessThan(1e-3);
      expect(Math.abs(distance / (1 / (2 * MU * G)) - 1)).toBeLessThan(0.03);
    });
  }
});
}
