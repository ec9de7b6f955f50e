/**
 * What the runner reports about a state (positions and velocities read back from the GPU),
 * chosen so that the physics checks need no code: energy (src/sim/energy.ts), lowest point,
 * centre of mass, volume and angular momentum about the centre of mass. Float64 sums over a
 * float32 readback.
 */
import { totalEnergy, type EnergyBreakdown } from '../sim/energy';
import type { Model } from '../sim/model';
import type { SolverParams } from '../contract/params';

export type Vec3 = [number, number, number];

export interface StateMeasures {
  energy: EnergyBreakdown;
  /** Smallest y of any vertex (the ground is y = 0 in the drop scenes). */
  lowestPoint: number;
  boundingBox: { min: Vec3; max: Vec3 };
  /** Mass-weighted mean position (lumped masses, every vertex). */
  centreOfMass: Vec3;
  /** Linear momentum sum m v. */
  momentum: Vec3;
  /** Angular momentum about the centre of mass: sum m (x - c) x v. */
  angularMomentum: Vec3;
  /** Sum of the tets' signed volumes det[x1-x0, x2-x0, x3-x0] / 6. */
  volume: number;
  totalMass: number;
  nonFiniteVertices: number;
  /**
   * The fastest vertex's speed |v| and its id: one vertex swinging through a sliver or a crushed
   * tet shows here long before it shows in the kinetic energy. Absent in older reports.
   */
  fastestVertex?: { speed: number; vertex: number };
  /**
   * Tets whose signed volume is zero or negative (every tet starts positive): a body turned
   * inside out or flattened, e.g. by an impact faster than its material's pressure wave (held so
   * when CCD stops its folds unfolding, SolverParams.ccdSkipInverted off; recovery mode undoes it
   * too). Absent in older reports.
   */
  invertedTets?: number;
}

export function measureState(model: Model, mass: Float64Array, x: ArrayLike<number>, v: ArrayLike<number>, params: SolverParams): StateMeasures {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const c: Vec3 = [0, 0, 0];
  const p: Vec3 = [0, 0, 0];
  let totalMass = 0;
  let nonFinite = 0;
  const fastest = { speed: 0, vertex: 0 };
  const n = model.vertexCount;
  for (let i = 0; i < n; i++) {
    let finite = true;
    for (let k = 0; k < 3; k++) if (!Number.isFinite(x[3 * i + k]) || !Number.isFinite(v[3 * i + k])) finite = false;
    if (!finite) {
      nonFinite++;
      continue;
    }
    const m = mass[i];
    totalMass += m;
    const speed = Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    if (speed > fastest.speed) {
      fastest.speed = speed;
      fastest.vertex = i;
    }
    for (let k = 0; k < 3; k++) {
      const xi = x[3 * i + k];
      if (xi < min[k]) min[k] = xi;
      if (xi > max[k]) max[k] = xi;
      c[k] += m * xi;
      p[k] += m * v[3 * i + k];
    }
  }
  for (let k = 0; k < 3; k++) c[k] /= totalMass;
  const L: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const rx = x[3 * i] - c[0], ry = x[3 * i + 1] - c[1], rz = x[3 * i + 2] - c[2];
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
    if (!(Number.isFinite(rx + ry + rz) && Number.isFinite(vx + vy + vz))) continue;
    const m = mass[i];
    L[0] += m * (ry * vz - rz * vy);
    L[1] += m * (rz * vx - rx * vz);
    L[2] += m * (rx * vy - ry * vx);
  }
  let volume = 0;
  let invertedTets = 0;
  const t4 = model.tets;
  for (let t = 0; t < model.tetCount; t++) {
    const a = 3 * t4[4 * t], b = 3 * t4[4 * t + 1], cc = 3 * t4[4 * t + 2], d = 3 * t4[4 * t + 3];
    const e1x = x[b] - x[a], e1y = x[b + 1] - x[a + 1], e1z = x[b + 2] - x[a + 2];
    const e2x = x[cc] - x[a], e2y = x[cc + 1] - x[a + 1], e2z = x[cc + 2] - x[a + 2];
    const e3x = x[d] - x[a], e3y = x[d + 1] - x[a + 1], e3z = x[d + 2] - x[a + 2];
    const tetVolume = (e1x * (e2y * e3z - e2z * e3y) - e1y * (e2x * e3z - e2z * e3x) + e1z * (e2x * e3y - e2y * e3x)) / 6;
    volume += tetVolume;
    if (!(tetVolume > 0)) invertedTets++;
  }
  const energy = totalEnergy(model, x, v, { constraint: params.constraint, springCompliance: params.springCompliance, gravity: params.gravity });
  return { energy, lowestPoint: min[1], boundingBox: { min, max }, centreOfMass: c, momentum: p, angularMomentum: L, volume, totalMass, nonFiniteVertices: nonFinite, fastestVertex: fastest, invertedTets };
}
