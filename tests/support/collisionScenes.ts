/**
 * Small overlapping scenes for the GPU detection and contact tests (Kuhn lattices, coordinates
 * chosen so that no point lies near a face of another object's tet), and a substep context that
 * opens plain compute passes.
 */
import { buildModel, type Model, type SimObjectDesc } from '../../src/sim/model';
import type { SubstepContext } from '../../src/contract/stage';
import { kuhnLattice } from './kuhnLattice';

const soft = { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 };

function lattice(name: string, n: [number, number, number], map: (u: number, v: number, w: number) => [number, number, number]): SimObjectDesc {
  const l = kuhnLattice(n[0], n[1], n[2], map);
  return { name, positions: Float64Array.from(l.positions), tets: l.tets, material: soft };
}

/**
 * Object 0: the unit cube [0,1]^3 (3 cells a side). Object 1: a 0.8 cube at (0.55, 0.43, 0.37)
 * (its corner region inside object 0). Object 2: a slab rotated 45 degrees about z whose two
 * bottom edges cut through object 0's vertical edge x = y = 1 with both ends outside it.
 */
export function overlappingCubes(): Model {
  const a = lattice('cube A', [3, 3, 3], (u, v, w) => [u / 3, v / 3, w / 3]);
  const b = lattice('cube B', [3, 3, 3], (u, v, w) => [0.55 + (0.8 * u) / 3, 0.43 + (0.8 * v) / 3, 0.37 + (0.8 * w) / 3]);
  // Local axes e1 = (1, -1, 0)/sqrt2 (one cell), e2 = (1, 1, 0)/sqrt2 (outwards from A), e3 = z.
  const s = Math.SQRT1_2;
  const len = 0.3 / s;
  const c = lattice('slab', [1, 1, 2], (u, v, w) => {
    const du = u * len, dv = v * 0.2;
    return [0.8 + s * du + s * dv, 1.1 - s * du + s * dv, 0.07 + 0.29 * w];
  });
  return buildModel([a, b, c]);
}

/**
 * Two cubes of side 1 (3 cells a side), the upper one shifted by (0.137, 1 - depth, 0.071): its
 * bottom layer `depth` deep inside the lower one, the lower one's top vertices inside it.
 */
export function stackedCubes(depth: number): Model {
  return buildModel([
    lattice('lower', [3, 3, 3], (u, v, w) => [u / 3, v / 3, w / 3]),
    lattice('upper', [3, 3, 3], (u, v, w) => [0.137 + u / 3, 1 - depth + v / 3, 0.071 + w / 3]),
  ]);
}

/** A bar bent around the z axis through 1.2 turns: its last 0.2 turn lies inside its first. */
export function overlappingRing(): Model {
  const nu = 24, turns = 1.213, radius = 1, thickness = 0.3, height = 0.3;
  // Radius decreases with v, so that (u, v, w) -> space keeps the lattice's orientation. The end
  // sits 0.41 of a thickness inwards and 0.37 of the height up from the start: generic overlap.
  return buildModel([
    lattice('ring', [nu, 2, 2], (u, v, w) => {
      const f = u / nu;
      const angle = 2 * Math.PI * turns * f + 0.05;
      const r = radius - thickness * (v / 2) - 0.41 * thickness * Math.max(0, f - 0.75) * 4;
      return [r * Math.cos(angle), r * Math.sin(angle), height * (w / 2) + 0.37 * height * Math.max(0, f - 0.75) * 4];
    }),
  ]);
}

/** A SubstepContext for one substep with plain passes (no timestamps). */
export function plainSubstep(substep = 0, substeps = 1, round = 0, rounds = 1): SubstepContext {
  return {
    substep,
    substeps,
    round,
    rounds,
    slotOffset: 0,
    joinNext: false,
    nextSlotOffset: 0,
    beginPass: (encoder, _phase, label) => encoder.beginComputePass({ label }),
    countDispatches: () => {},
  } as SubstepContext;
}
