/**
 * Analytic colliders and scripted motion. Each collider is evaluated once per substep on the
 * CPU into 12 numbers (three vec4: [kind, active, growth, static], a, b) that the CPU reference and
 * the GPU kernel (shaders/xpbdIntegrate.wgsl) read the same way.
 */

export type Vec3 = readonly [number, number, number];

export type Collider =
  /** Half-space n.x >= offset (n unit). `offset` may be scripted; a script returning null switches the plane off. */
  | { kind: 'plane'; normal: Vec3; offset: number | ((time: number) => number | null) }
  /** Solid axis-aligned box: points inside are pushed out through the nearest face. */
  | { kind: 'box'; min: Vec3; max: Vec3 }
  /** Hemispherical bowl: below its centre, points stay within `radius` of the centre. */
  | { kind: 'bowl'; center: Vec3; radius: number };

export const COLLIDER_KIND = { plane: 1, box: 2, bowl: 3 } as const;
/** Numbers per collider per substep. */
export const COLLIDER_STRIDE = 12;

/**
 * Writes the collider's state at `time` into out[offset..offset+12) ([kind, active, growth, static],
 * a, b; static 1 for a collider that does not move by itself: not a plane with a scripted offset),
 * grown by `thickness` (the
 * contact offset, SolverParams.contactOffset: a plane moved out along its normal, a box grown on
 * every side, a bowl's radius shrunk), so the solvers keep bodies that far from its surface.
 */
export function encodeCollider(c: Collider, time: number, out: Float64Array | Float32Array, offset: number, thickness = 0): void {
  out.fill(0, offset, offset + COLLIDER_STRIDE);
  out[offset] = COLLIDER_KIND[c.kind];
  out[offset + 1] = 1;
  // The growth itself (colliderLayerAllowance reads it): the thickness, a bowl's as clamped below.
  out[offset + 2] = c.kind === 'bowl' ? c.radius - Math.max(0.5 * c.radius, c.radius - thickness) : thickness;
  // A scripted plane pushes with its own motion: the depth it makes each substep is not a depth a
  // body was placed at, and the depenetration speed must not hold it back (colliderLayerAllowance).
  out[offset + 3] = c.kind === 'plane' && typeof c.offset !== 'number' ? 0 : 1;
  if (c.kind === 'plane') {
    const len = Math.hypot(c.normal[0], c.normal[1], c.normal[2]);
    if (!(len > 0)) throw new RangeError('plane collider: normal must be non-zero');
    const d = typeof c.offset === 'number' ? c.offset : c.offset(time);
    if (d === null) out[offset + 1] = 0;
    for (let k = 0; k < 3; k++) out[offset + 4 + k] = c.normal[k] / len;
    out[offset + 7] = (d ?? 0) + thickness;
  } else if (c.kind === 'box') {
    for (let k = 0; k < 3; k++) {
      if (!(c.max[k] > c.min[k])) throw new RangeError(`box collider: max[${k}] must exceed min[${k}]`);
      out[offset + 4 + k] = c.min[k] - thickness;
      out[offset + 8 + k] = c.max[k] + thickness;
    }
  } else {
    if (!(c.radius > 0)) throw new RangeError('bowl collider: radius must be positive');
    for (let k = 0; k < 3; k++) out[offset + 4 + k] = c.center[k];
    out[offset + 7] = Math.max(0.5 * c.radius, c.radius - thickness);
  }
}

/**
 * How deep (below the grown surface) a point may stay in this projection, under the offset ramp
 * (SolverParams.contactOffsetSpeed, contactOffset.ts rampedOffset): a point whose start position
 * lay `depth0` inside the grown collider (0: outside) keeps its start's gap to the real surface,
 * clamped at 0, plus `step`; so it may stay max(0, min(growth, depth0) - step) inside. And under
 * the depenetration speed (SolverParams.depenetrationSpeed, as rampedOffset's `depenetration` for
 * the contacts between bodies): at a static collider a depth the start already had goes at most
 * `depenetration` a projection, so the point may also stay depth0 - depenetration inside. Without
 * it a body placed 2 cm into the ground (10 cm cube, 3 cells across, 10 substeps) was pushed out
 * within one substep, its lowest layer's tets crushed, and it left the ground at 4.4 m/s.
 * Twin: colliderLayerAllowance in shaders/lib/colliderProjection.wgsl.
 */
export function colliderLayerAllowance(enc: ArrayLike<number>, e: number, depth0: number, step: number, depenetration = Infinity): number {
  return Math.max(0, Math.min(enc[e + 2], depth0) - step, enc[e + 3] === 1 ? depth0 - depenetration : 0);
}

/**
 * Pushes point p (3 numbers at p[o..]) out of the encoded collider; returns the penetration
 * depth (0 when outside) and writes the contact normal to n. Mirrors collide() in WGSL.
 */
export function projectOutOfCollider(enc: ArrayLike<number>, e: number, p: Float64Array, o: number, n: Float64Array): number {
  if (enc[e + 1] === 0) return 0;
  const kind = enc[e];
  const x = p[o], y = p[o + 1], z = p[o + 2];
  if (kind === COLLIDER_KIND.plane) {
    const s = enc[e + 4] * x + enc[e + 5] * y + enc[e + 6] * z - enc[e + 7];
    if (s >= 0) return 0;
    n[0] = enc[e + 4]; n[1] = enc[e + 5]; n[2] = enc[e + 6];
    p[o] -= s * n[0]; p[o + 1] -= s * n[1]; p[o + 2] -= s * n[2];
    return -s;
  }
  if (kind === COLLIDER_KIND.box) {
    // Distance to each of the 6 faces from inside; the smallest is the exit.
    let best = Infinity;
    let axis = 0;
    let sign = 0;
    for (let k = 0; k < 3; k++) {
      const lo = p[o + k] - enc[e + 4 + k];
      const hi = enc[e + 8 + k] - p[o + k];
      if (lo <= 0 || hi <= 0) return 0;
      if (lo < best) { best = lo; axis = k; sign = -1; }
      if (hi < best) { best = hi; axis = k; sign = 1; }
    }
    n[0] = 0; n[1] = 0; n[2] = 0;
    n[axis] = sign;
    p[o + axis] += sign * best;
    return best;
  }
  // Bowl.
  const qx = x - enc[e + 4], qy = y - enc[e + 5], qz = z - enc[e + 6];
  if (qy >= 0) return 0;
  const r = Math.hypot(qx, qy, qz);
  const radius = enc[e + 7];
  if (r <= radius) return 0;
  n[0] = -qx / r; n[1] = -qy / r; n[2] = -qz / r;
  const depth = r - radius;
  p[o] += depth * n[0]; p[o + 1] += depth * n[1]; p[o + 2] += depth * n[2];
  return depth;
}

/** The surface of a box collider that normal n leaves through: 2 axis + 1 on the + side (colliderContactDepth's `face`). */
export function boxFaceOf(n: ArrayLike<number>): number {
  const axis = n[0] !== 0 ? 0 : n[1] !== 0 ? 1 : 2;
  return 2 * axis + (n[axis] > 0 ? 1 : 0);
}

/**
 * Signed depth of point p (3 numbers at p[o..]) below one surface of the encoded collider: the
 * plane, a box's face `face` (boxFaceOf), the bowl's sphere; positive inside, negative outside
 * (the gap), where projectOutOfCollider only sees points inside. Writes the surface's outward
 * normal to n. A kept contact (SolverParams.colliderResponse 'multiplier') uses it to take its
 * push back. NaN where the surface has no meaning: the collider switched off, or a point above
 * a bowl's centre. Twin: colliderContactDepth in shaders/lib/colliderProjection.wgsl.
 */
export function colliderContactDepth(enc: ArrayLike<number>, e: number, face: number, p: ArrayLike<number>, o: number, n: Float64Array): number {
  if (enc[e + 1] === 0) return NaN;
  const kind = enc[e];
  if (kind === COLLIDER_KIND.plane) {
    n[0] = enc[e + 4]; n[1] = enc[e + 5]; n[2] = enc[e + 6];
    return enc[e + 7] - (n[0] * p[o] + n[1] * p[o + 1] + n[2] * p[o + 2]);
  }
  if (kind === COLLIDER_KIND.box) {
    const axis = face >> 1;
    n[0] = 0; n[1] = 0; n[2] = 0;
    if (face & 1) {
      n[axis] = 1;
      return enc[e + 8 + axis] - p[o + axis];
    }
    n[axis] = -1;
    return p[o + axis] - enc[e + 4 + axis];
  }
  const qx = p[o] - enc[e + 4], qy = p[o + 1] - enc[e + 5], qz = p[o + 2] - enc[e + 6];
  const r = Math.hypot(qx, qy, qz);
  if (qy >= 0 || r === 0) return NaN;
  n[0] = -qx / r; n[1] = -qy / r; n[2] = -qz / r;
  return r - enc[e + 7];
}
