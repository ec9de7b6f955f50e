/**
 * The colliders' part of impact-adaptive substeps (collision/ccd/impactSubsteps.ts): the fastest
 * speed at which a vertex closes on a collider's surface within the horizon. CCD's candidates see
 * the bodies only, so a body landing on the ground took the frame's budget of substeps: the
 * octopus box's first octopus reaching the floor (frame 13, 5 substeps) gained 0.28 J of total
 * energy where 20 substeps lose 0.17 J (docs/benchmarks.md "Contacts that hold").
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
import { COLLIDER_KIND, COLLIDER_STRIDE, encodeCollider, type Collider, type Vec3 } from './colliders';

export interface ColliderClosingInput {
  colliders: readonly Collider[];
  /** Time of the state (positions, velocities): the colliders are encoded there and at time + horizon. */
  time: number;
  /** Seconds ahead: the frame about to run (dt), or more when the state is older than its start. */
  horizon: number;
  gravity: Vec3;
  /** The colliders' thickness (the contact offset in world units, modelContactOffset). */
  thickness: number;
  positions: ArrayLike<number>;
  velocities: ArrayLike<number>;
  /** Floats per vertex in positions and velocities: 3 (CPU) or 4 (the GPU's vec4 layout). */
  stride: 3 | 4;
  vertexCount: number;
  /** Vertices to skip (inverse mass 0: pinned or kinematic); absent: none skipped. */
  fixed?: (vertex: number) => boolean;
}

/** The fastest closing speed on any collider (world units / s, >= 0; 0 when nothing closes). */
export function colliderClosingSpeed(i: ColliderClosingInput): number {
  const { colliders, horizon: H, stride, vertexCount: n, positions: x, velocities: v } = i;
  if (!(H >= 0) || !Number.isFinite(H)) throw new RangeError(`colliderClosingSpeed: horizon must be a finite number >= 0, got ${H}`);
  if (x.length < stride * n || v.length < stride * n) throw new RangeError(`colliderClosingSpeed: positions / velocities hold fewer than ${n} vertices of ${stride} floats`);
  if (colliders.length === 0 || n === 0) return 0;
  const start = new Float64Array(COLLIDER_STRIDE), end = new Float64Array(COLLIDER_STRIDE);
  const normal = new Float64Array(3);
  let fastest = 0;
  for (const c of colliders) {
    encodeCollider(c, i.time, start, 0, i.thickness);
    encodeCollider(c, i.time + H, end, 0, i.thickness);
    const active = start[1] !== 0 ? start : end[1] !== 0 ? end : null;
    if (!active) continue;
    // A scripted plane's offset moves along its normal: the surface's own speed toward the points.
    const surfaceSpeed = c.kind === 'plane' && start[1] !== 0 && end[1] !== 0 && H > 0 ? (end[7] - start[7]) / H : 0;
    for (let p = 0; p < n; p++) {
      if (i.fixed?.(p)) continue;
      const o = stride * p;
      const gap = surfaceGap(active, x[o], x[o + 1], x[o + 2], normal);
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
      if (atImpact > fastest && time <= H) fastest = atImpact;
    }
  }
  return fastest;
}

/**
 * Gap from point (x, y, z) to an encoded collider's surface (>= 0; 0 inside) and its outward
 * normal into `n`; null where the collider has no surface to close on (a bowl above its centre).
 */
function surfaceGap(enc: Float64Array, x: number, y: number, z: number, n: Float64Array): number | null {
  const kind = enc[0];
  if (kind === COLLIDER_KIND.plane) {
    n[0] = enc[4]; n[1] = enc[5]; n[2] = enc[6];
    return Math.max(0, n[0] * x + n[1] * y + n[2] * z - enc[7]);
  }
  if (kind === COLLIDER_KIND.box) {
    const p = [x, y, z];
    let d2 = 0;
    const out = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const below = enc[4 + k] - p[k], above = p[k] - enc[8 + k];
      out[k] = below > 0 ? -below : above > 0 ? above : 0;
      d2 += out[k] * out[k];
    }
    if (d2 > 0) {
      const d = Math.sqrt(d2);
      for (let k = 0; k < 3; k++) n[k] = out[k] / d;
      return d;
    }
    // Inside: out through the nearest face, as projectOutOfCollider pushes.
    let best = Infinity;
    n.fill(0);
    for (let k = 0; k < 3; k++) {
      const lo = p[k] - enc[4 + k], hi = enc[8 + k] - p[k];
      if (lo < best) { best = lo; n.fill(0); n[k] = -1; }
      if (hi < best) { best = hi; n.fill(0); n[k] = 1; }
    }
    return 0;
  }
  // Bowl: the inner sphere of radius enc[7] about the centre, below the centre only.
  const qx = x - enc[4], qy = y - enc[5], qz = z - enc[6];
  if (qy >= 0) return null;
  const r = Math.hypot(qx, qy, qz);
  if (!(r > 0)) return null;
  // The wall is outward from the centre; the body's side is toward it: n points inward.
  n[0] = -qx / r; n[1] = -qy / r; n[2] = -qz / r;
  return Math.max(0, enc[7] - r);
}
