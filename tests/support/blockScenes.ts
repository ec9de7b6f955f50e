/**
 * Small block scenes for the damping and friction laws (CPU and GPU tests, bench/dampingFriction.ts):
 * a Kuhn-lattice cuboid, on a ground plane y >= 0 under gravity tilted by `slope` about z (the
 * same as a plane tilted the other way: the block slides along +x), or free in space.
 */
import type { Collider } from '../../src/sim/colliders';
import { buildModel } from '../../src/sim/model';
import { defaultParams, type SolverParams } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';
import { kuhnLattice } from './kuhnLattice';

export const G = 9.81;

export interface BlockOptions {
  /** Edge lengths (m) and cells along x, y, z. */
  size?: [number, number, number];
  cells?: [number, number, number];
  youngsModulus?: number;
  poissonRatio?: number;
  density?: number;
  /** Lowest point of the block (m); 0 = resting on the plane. */
  lift?: number;
  /** Initial velocity: uniform v, plus omega x (x - centre). */
  velocity?: [number, number, number];
  spin?: [number, number, number];
  /** Ground plane y >= 0 (default true). */
  ground?: boolean;
}

/** Gravity of magnitude G tilted by `slope` (rad) about z: along the slope +x, into it -y. */
export function slopeGravity(slope: number): [number, number, number] {
  return [G * Math.sin(slope), -G * Math.cos(slope), 0];
}

export function blockSetup(opts: BlockOptions, params: Partial<SolverParams>): SimSetup {
  const [sx, sy, sz] = opts.size ?? [0.1, 0.05, 0.1];
  const [nx, ny, nz] = opts.cells ?? [3, 2, 3];
  const lift = opts.lift ?? 0;
  // Integer lattice coordinates (exact in the lattice's float32), scaled in float64.
  const lattice = kuhnLattice(nx, ny, nz, (i, j, k) => [i, j, k]);
  const positions = Float64Array.from(lattice.positions, (c, i) => (i % 3 === 0 ? (c / nx - 0.5) * sx : i % 3 === 1 ? lift + (c / ny) * sy : (c / nz - 0.5) * sz));
  const n = positions.length / 3;
  const velocities = new Float64Array(3 * n);
  const v = opts.velocity ?? [0, 0, 0];
  const w = opts.spin ?? [0, 0, 0];
  const cy = lift + sy / 2;
  for (let i = 0; i < n; i++) {
    const rx = positions[3 * i], ry = positions[3 * i + 1] - cy, rz = positions[3 * i + 2];
    velocities[3 * i] = v[0] + w[1] * rz - w[2] * ry;
    velocities[3 * i + 1] = v[1] + w[2] * rx - w[0] * rz;
    velocities[3 * i + 2] = v[2] + w[0] * ry - w[1] * rx;
  }
  const model = buildModel([
    {
      name: 'block',
      positions,
      tets: lattice.tets,
      material: { youngsModulus: opts.youngsModulus ?? 1e6, poissonRatio: opts.poissonRatio ?? 0.3, density: opts.density ?? 1000 },
    },
  ]);
  model.initialVelocities.set(velocities);
  const colliders: Collider[] = opts.ground === false ? [] : [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }];
  return { model, colliders, handles: [], params: defaultParams(params) };
}

/** Mass-weighted centre of the free vertices of positions x (3 per vertex). */
export function centreOfMass(setup: SimSetup, x: ArrayLike<number>): [number, number, number] {
  const w = setup.model.invMass;
  let m = 0;
  const c: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < w.length; i++) {
    if (!(w[i] > 0)) continue;
    m += 1 / w[i];
    for (let k = 0; k < 3; k++) c[k] += x[3 * i + k] / w[i];
  }
  return [c[0] / m, c[1] / m, c[2] / m];
}

/** Angular momentum about the centre of mass, sum m (x - c) x v. */
export function angularMomentum(setup: SimSetup, x: ArrayLike<number>, v: ArrayLike<number>): [number, number, number] {
  const w = setup.model.invMass;
  const c = centreOfMass(setup, x);
  const l: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < w.length; i++) {
    if (!(w[i] > 0)) continue;
    const m = 1 / w[i];
    const rx = x[3 * i] - c[0], ry = x[3 * i + 1] - c[1], rz = x[3 * i + 2] - c[2];
    l[0] += m * (ry * v[3 * i + 2] - rz * v[3 * i + 1]);
    l[1] += m * (rz * v[3 * i] - rx * v[3 * i + 2]);
    l[2] += m * (rx * v[3 * i + 1] - ry * v[3 * i]);
  }
  return l;
}
