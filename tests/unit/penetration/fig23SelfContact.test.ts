/**
 * Paper 000 Fig. 23 asks what the rest-pose closest point does once self-collisions have formed
 * (there, a twisted thin beam; it exploded). The beam-twist scene now gets there
 * (fig23BeamTwist.test.ts), but its coil is released within a few frames at the substeps a test
 * can afford; here the state is built directly: a strip straight at rest (10 cm x 10 cm, 2 x 2 cells across, 30 cells long) posed
 * folded into a U whose upper arm is sunk 3 cm (30 % of the thickness) into the lower arm
 * (tests/unit/collision/scenes.ts uStrip), no gravity, damping or friction, then released with
 * each method.
 *
 * Truths: total energy never rises above the posed state's (nothing does work on the strip), and
 * the 22 self-penetrating boundary vertices (the brute-force counter) are out within 4 frames.
 * Measured: both hold for the shortest path and for the rest-pose closest point, and the two runs
 * agree to 1.04 % in energy at every frame (0.45 % or less from frame 3; with issue 19's contact
 * offset, 0.1 % before it), checked to 2 %: the penetration is shallow next to one material face, so
 * the rest pose's target lies on the exact one's face (fig22Slope.test.ts), and eq. 6 pushes the
 * same way. The paper's blow-up is not reproduced here.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { buildModel } from '../../../src/sim/model';
import { defaultParams } from '../../../src/contract/params';
import type { PenetrationMethod } from '../../../src/penetration/methods';
import { countIntersections } from '../../support/intersectionCounter';
import { latticePart, uStrip } from '../collision/scenes';

const FRAMES = 8;

/** Total energy and self-penetrating vertices at the start and after each frame. */
function release(method: PenetrationMethod): { energy: number[]; inside: number[] } {
  const S = 0.1;
  const posed = uStrip(0.13);
  const rest = latticePart([30, 2, 2], (i, j, k) => [(S * i) / 4, S * (j / 2 - 0.5), (S * k) / 2]);
  const model = buildModel([{ name: 'strip', positions: rest.positions, tets: rest.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 } }]);
  // One fixed budget for both methods (impact substeps off): with them each run picks its own
  // substeps from its own closing speeds, and the energies compare two time steps, not two methods.
  const s = new CpuSolver({ model, colliders: [], handles: [], params: defaultParams({ dt: 1 / 60, substeps: 10, iterations: 3, gravity: [0, 0, 0], damping: 0, friction: 0, penetration: method, impactSubsteps: 0 }) });
  s.x.set(posed.positions);
  s.x0.set(posed.positions);
  const energy: number[] = [], inside: number[] = [];
  const measure = (): void => {
    energy.push(totalEnergy(model, s.x, s.v, { constraint: s.params.constraint, springCompliance: s.params.springCompliance, gravity: s.params.gravity }).total);
    inside.push(countIntersections({ positions: s.x, tets: model.tets, tetObject: model.tetObject }).self);
  };
  measure();
  for (let f = 0; f < FRAMES; f++) {
    s.stepFrame();
    measure();
  }
  return { energy, inside };
}

describe('Fig. 23: self-collisions formed, then each method (a strip folded onto itself, float64 CPU engine)', () => {
  let exact: { energy: number[]; inside: number[] };

  it('exact shortest path: energy never above the start, the self-intersection out within 4 frames', () => {
    exact = release('exact');
    expect(exact.inside[0]).toBe(22);
    for (const e of exact.energy) expect(e).toBeLessThanOrEqual(exact.energy[0]);
    expect(exact.inside.slice(4)).toEqual(new Array(FRAMES - 3).fill(0));
  });

  it('rest-pose closest point: the same (no blow-up), to 2 % in energy at every frame', () => {
    const rest = release('restClosest');
    for (const e of rest.energy) expect(e).toBeLessThanOrEqual(rest.energy[0]);
    expect(rest.inside.slice(4)).toEqual(new Array(FRAMES - 3).fill(0));
    rest.energy.forEach((e, k) => expect(Math.abs(e - exact.energy[k]), `frame ${k}`).toBeLessThan(0.02 * exact.energy[k]));
  });
});
