/**
 * The colliders' part of impact-adaptive substeps (collision/ccd/impactSubsteps.ts): the fastest
 * speed at which a vertex closes on a collider's surface within the horizon. CCD's candidates see
 * the bodies only, so a body landing on the ground took the frame's budget of substeps: the
 * octopus box's first octopus on the floor (frame 14, 5 substeps) gained 0.28 J of total energy
 * where 20 substeps lose 0.17 J (docs/benchmarks.md "Landings as impacts").
 *
 * Per vertex and collider: the gap g to the collider's surface (grown by the contact offset, as
 * the solvers see it; 0 when inside) and the closing speed c = u - v . n (n the outward normal at
 * the nearest surface point, u the surface's own speed along n: a scripted plane's offset change
 * over the horizon). With gravity's component toward the surface a = max(0, -g . n) the vertex
 * flies ballistically toward it: it counts when it reaches the surface within the horizon H
 * (g = c t + a t^2 / 2 for some t <= H), with the speed it has there, sqrt(c^2 + 2 a g). A vertex
 * resting on the surface (g = 0, c = 0) thus closes at 0: gravity's pull on it is the contact's
 * to hold, not an impact.
 *
 * Surfaces: a plane n . x = d; a solid box (outside: the Euclidean distance to it, n from its
 * nearest point; inside: gap 0, n out through the nearest face, as the solver pushes); a bowl's
 * inner sphere below its centre (above the centre it has no wall: such points are skipped).
 * A collider switched off at both ends of the horizon is skipped; one moved by hand (the page's
 * drag, GpuSolver.setCollider) counts as static, its script being unknown.
 */
import { COLLIDER_KIND, COLLIDER_STRIDE, encodeCollider, projectOutOfCollider, type Collider, type Vec3 } from './colliders';

export interface ColliderClosingInput {
  colliders: readonly Collider[];
  /** Time of the state (positions, velocities): the colliders are encoded there and at time + horizon. */
  time: number;
  /** Seconds ahead: the frame about to run (dt), or more when the state is older than its start. */
  horizon: number;
  gravity: Vec3;
  /** The colliders' thickness (the contact offset in world units, colliderContactOffset). */
  thickness: number;
  positions: ArrayLike<number>;
  velocities: ArrayLike<number>;
  /** Floats per vertex in positions and velocities: 3 (CPU) or 4 (the GPU's vec4 layout). */
  stride: 3 | 4;
  vertexCount: number;
  /** Inverse mass per vertex: vertices at 0 (pinned or kinematic) are skipped; absent: none skipped. */
  inverseMass?: ArrayLike<number>;
}

/** The fastest closing speed on any collider (world units / s, >= 0; 0 when nothing closes). */
export function colliderClosingSpeed(i: ColliderClosingInput): number {
  let fastest = 0;
  forEachLanding(i, 'colliderClosingSpeed', (_p, atImpact) => {
    if (atImpact > fastest) fastest = atImpact;
  });
  return fastest;
}

/**
 * Per vertex, 1 where it reaches a collider's surface within the horizon (flying ballistically,
 * as colliderClosingSpeed reckons; a vertex resting on it or inside counts), else 0: the
 * obstacles of CCD's own-frame boxes (collision/ccd/obstacleGrowth.ts).
 */
export function collidersReached(i: ColliderClosingInput): Uint8Array {
  const reached = new Uint8Array(i.vertexCount);
  forEachLanding(i, 'collidersReached', (p) => {
    reached[p] = 1;
  });
  return reached;
}

/** Calls `landing(vertex, speed at impact)` for each vertex and collider it reaches within the horizon. */
function forEachLanding(i: ColliderClosingInput, where: string, landing: (vertex: number, atImpact: number) => void): void {
  const { colliders, horizon: H, stride, vertexCount: n, positions: x, velocities: v } = i;
  if (!(H >= 0) || !Number.isFinite(H)) throw new RangeError(`${where}: horizon must be a finite number >= 0, got ${H}`);
  if (x.length < stride * n || v.length < stride * n) throw new RangeError(`${where}: positions / velocities hold fewer than ${n} vertices of ${stride} floats`);
  if (colliders.length === 0 || n === 0) return;
  const start = new Float64Array(COLLIDER_STRIDE), end = new Float64Array(COLLIDER_STRIDE);
  const normal = new Float64Array(3), point = new Float64Array(3);
  for (const c of colliders) {
    encodeCollider(c, i.time, start, 0, i.thickness);
    encodeCollider(c, i.time + H, end, 0, i.thickness);
    const active = start[1] !== 0 ? start : end[1] !== 0 ? end : null;
    if (!active) continue;
    // A scripted plane's offset moves along its normal: the surface's own speed toward the points.
    const surfaceSpeed = c.kind === 'plane' && start[1] !== 0 && end[1] !== 0 && H > 0 ? (end[7] - start[7]) / H : 0;
    // A plane's gap is one dot product: a vertex farther than it can travel in H (its speed and the
    // surface's, gravity's pull at most) cannot land, whatever the exact test would say. Most of a
    // box's vertices are far from most of its walls.
    const plane = active[0] === COLLIDER_KIND.plane;
    const pullBound = 0.5 * Math.hypot(i.gravity[0], i.gravity[1], i.gravity[2]) * H * H;
    for (let p = 0; p < n; p++) {
      if (i.inverseMass && i.inverseMass[p] === 0) continue;
      const o = stride * p;
      if (plane) {
        const planeGap = active[4] * x[o] + active[5] * x[o + 1] + active[6] * x[o + 2] - active[7];
        if (planeGap > (Math.sqrt(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]) + Math.abs(surfaceSpeed)) * H + pullBound) continue;
      }
      point[0] = x[o]; point[1] = x[o + 1]; point[2] = x[o + 2];
      const gap = surfaceGap(active, point, normal);
      if (gap === null) continue;
      const closing = surfaceSpeed - (v[o] * normal[0] + v[o + 1] * normal[1] + v[o + 2] * normal[2]);
      const pull = Math.max(0, -(i.gravity[0] * normal[0] + i.gravity[1] * normal[1] + i.gravity[2] * normal[2]));
      // Ballistic toward the surface: gap = c t + a t^2 / 2 at the impact time t, speed there sqrt(c^2 + 2 a gap).
      let atImpact: number, time: number;
      if (pull > 0) {
        atImpact = Math.sqrt(closing * closing + 2 * pull * gap);
        time = (atImpact - closing) / pull;
      } else {
        atImpact = closing;
        time = closing > 0 ? gap / closing : Infinity;
      }
      if (time <= H) landing(p, atImpact);
    }
  }
}

/**
 * Gap from `point` to an encoded collider's surface (>= 0; 0 inside) and its outward normal into
 * `n`; null where the collider has no surface to close on (a bowl above its centre). Inside, the
 * normal is the one the solvers push along (projectOutOfCollider; `point` is moved out).
 */
function surfaceGap(enc: Float64Array, point: Float64Array, n: Float64Array): number | null {
  if (projectOutOfCollider(enc, 0, point, 0, n) > 0) return 0;
  const kind = enc[0];
  const x = point[0], y = point[1], z = point[2];
  if (kind === COLLIDER_KIND.plane) {
    n[0] = enc[4]; n[1] = enc[5]; n[2] = enc[6];
    return n[0] * x + n[1] * y + n[2] * z - enc[7];
  }
  if (kind === COLLIDER_KIND.box) {
    // Outside the solid box: the Euclidean distance to its nearest point, n along it.
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const below = enc[4 + k] - point[k], above = point[k] - enc[8 + k];
      n[k] = below > 0 ? -below : above > 0 ? above : 0;
      d2 += n[k] * n[k];
    }
    const d = Math.sqrt(d2);
    if (d > 0) for (let k = 0; k < 3; k++) n[k] /= d;
    else {
      // On a face (projectOutOfCollider found no depth): that face's normal.
      for (let k = 0; k < 3; k++) n[k] = point[k] <= enc[4 + k] ? -1 : point[k] >= enc[8 + k] ? 1 : 0;
      const len = Math.hypot(n[0], n[1], n[2]);
      for (let k = 0; k < 3; k++) n[k] /= len;
    }
    return d;
  }
  // Bowl: the inner sphere of radius enc[7] about the centre, below the centre only.
  const qx = x - enc[4], qy = y - enc[5], qz = z - enc[6];
  if (qy >= 0) return null;
  const r = Math.hypot(qx, qy, qz);
  if (!(r > 0)) return null;
  // The wall is outward from the centre; the body's side is toward it: n points inward.
  n[0] = -qx / r; n[1] = -qy / r; n[2] = -qz / r;
  return enc[7] - r;
}
