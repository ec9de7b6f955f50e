/**
 * A sliver lifted toward another body (SolverParams.sliverLift; docs/collisions.md "The sliver lift
 * with the contacts"). Body A: a regular tet and a sliver (0.5 mm tall over a 10 cm base) sharing its
 * base face, the sliver turned inside out (its apex 2 mm below the base). Body B: a 1 cm box whose
 * bottom face lies 0.02 mm above the base, over the apex. With the floor at half the rest volume
 * (inversionFloor 0.5) the lift takes the apex about 0.17 mm above the base, through B's bottom
 * face. No gravity, no velocity, no self-collision, one substep of one iteration: what can stop the
 * apex is a contact for the lift's motion. `apexY` moves the apex's start (for the lift holding the
 * contacts' corners: just inside B, where a contact pushes it out before the lift). `baseY` moves the
 * base's three corners at the start, and `coverBase` widens B over the whole base (12 cm), so that
 * with both inside B a contact pushes all four of the sliver's corners.
 */
import { defaultParams, type SliverLift } from '../../src/contract/params';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { buildModel } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { signedVolume6 } from './invertedTets';
import { kuhnLattice } from './kuhnLattice';

export interface SliverUnderBox {
  setup: SimSetup;
  /** The start positions (the sliver inside out). */
  start: Float64Array;
  apex: number;
  /** B's tets. */
  boxTets: number[];
}

export function sliverUnderBox(sliverLift: SliverLift, apexY = -2e-3, baseY = 0, coverBase = false): SliverUnderBox {
  const base = [[0, 0, 0], [0.1, 0, 0], [0.05, 0, 0.0866]];
  const c = [0.05, 0, 0.0866 / 3];
  const soft = { youngsModulus: 1e4, poissonRatio: 0.3, density: 1000 };
  // Both tets positive at rest: the regular one below the base, the sliver above it.
  const a = { name: 'A', positions: Float64Array.from([...base.flat(), c[0], 5e-4, c[2], c[0], -0.0816, c[2]]), tets: Uint32Array.from([0, 2, 1, 3, 0, 1, 2, 4]), material: soft };
  const half = coverBase ? 0.06 : 5e-3;
  const box = kuhnLattice(1, 1, 1, (u, v, w) => [c[0] - half + 2 * half * u, 2e-5 + 3e-3 * v, c[2] - half + 2 * half * w]);
  const model = buildModel([a, { name: 'B', positions: Float64Array.from(box.positions), tets: box.tets, material: soft }]);
  const params = defaultParams({
    dt: 1 / 60, substeps: 1, iterations: 1, gravity: [0, 0, 0], damping: 0, friction: 0, collisions: true, selfCollision: false,
    sliverFloor: true, sliverLift, inversionFloor: 0.5, contactOffset: 1e-5, impactSubsteps: 0,
  });
  const apex = 3;
  const start = Float64Array.from(model.restPositions);
  start[3 * apex + 1] = apexY;
  for (let k = 0; k < 3; k++) start[3 * k + 1] = baseY;
  const boxTets = Array.from({ length: model.tetCount }, (_, t) => t).filter((t) => model.tetObject[t] === 1);
  return { setup: { model, colliders: [], handles: [], params }, start, apex, boxTets };
}

/** Point p strictly inside tet t at x: the tet's four signed volumes with p in place of one corner share the tet's sign (brute force). */
export function pointInTet(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, p: readonly number[]): boolean {
  const n = x.length / 3;
  const withP = new Float64Array(x.length + 3);
  withP.set(x);
  withP.set(p, 3 * n);
  const corners = [0, 1, 2, 3].map((k) => tets[4 * t + k]);
  const whole = Math.sign(signedVolume6(withP, corners, 0));
  return corners.every((_, k) => {
    const swapped = corners.slice();
    swapped[k] = n;
    return Math.sign(signedVolume6(withP, swapped, 0)) === whole;
  });
}

/** The sliver's corners (tet 0's) at x that lie inside one of B's tets `boxTets`, by pointInTet. */
export function sliverCornersInside(x: ArrayLike<number>, tets: ArrayLike<number>, boxTets: readonly number[]): number[] {
  const corners = [0, 1, 2, 3].map((k) => tets[k]);
  return corners.filter((v) => boxTets.some((t) => pointInTet(x, tets, t, [0, 1, 2].map((k) => x[3 * v + k]))));
}

/** One frame of the float64 engine from positions `start` at rest (start positions the same). */
export function cpuFrameFrom(setup: SimSetup, start: Float64Array): CpuSolver {
  const solver = new CpuSolver(setup);
  solver.x.set(start);
  solver.x0.set(start);
  solver.stepFrame();
  return solver;
}

/** The apex 0.03 mm above the base: 0.01 mm inside the box, whose bottom face is at 0.02 mm (a contact pushes it out before the lift). */
export const APEX_INSIDE_Y = 3e-5;

/**
 * One frame of the float64 engine on sliverUnderBox's scene: the scene, the solver after the
 * frame, the sliver's volume over its rest volume at the start and after, and the tets the floor lifted.
 */
export function sliverLiftFrame(sliverLift: SliverLift, apexY = APEX_INSIDE_Y, baseY = 0, coverBase = false) {
  const scene = sliverUnderBox(sliverLift, apexY, baseY, coverBase);
  const { setup, start } = scene;
  const model = setup.model;
  const solver = cpuFrameFrom(setup, start);
  const rest = signedVolume6(model.restPositions, model.tets, 0);
  return {
    ...scene, model, solver,
    startRatio: signedVolume6(start, model.tets, 0) / rest, ratio: signedVolume6(solver.x, model.tets, 0) / rest,
    lifted: solver.collisionCounters.inversionFloorTets,
  };
}

/**
 * What the sliver lift moves in that frame, against the same frame with the floor off: the largest
 * position difference (the lift) and the largest velocity difference (none, where the lift moves
 * each vertex's start position as far as its position).
 */
export function sliverLiftMotion(sliverLift: SliverLift, apexY = APEX_INSIDE_Y): { lift: number; velocity: number } {
  const { solver, setup, start } = sliverLiftFrame(sliverLift, apexY);
  setup.params = { ...setup.params, sliverFloor: false };
  const bare = cpuFrameFrom(setup, start);
  let lift = 0, velocity = 0;
  for (let i = 0; i < 3 * setup.model.vertexCount; i++) {
    lift = Math.max(lift, Math.abs(solver.x[i] - bare.x[i]));
    velocity = Math.max(velocity, Math.abs(solver.v[i] - bare.v[i]));
  }
  return { lift, velocity };
}
