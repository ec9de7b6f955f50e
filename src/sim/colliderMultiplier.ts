/**
 * The colliders as inequality constraints with a multiplier (SolverParams.colliderResponse
 * 'multiplier'): the float64 reference of one vertex's projection against one collider. Twin:
 * collideVertexMultiplier in shaders/lib/colliderProjection.wgsl.
 *
 * Why: a projection that only pushes (CpuSolver.collide, 'projection') never takes a push back,
 * so the pushes a path made stay in x - x~ beside the material's w S g and the converged state
 * at a contact depends on the path (docs/collisions.md "The colliders' projection keeps no
 * multiplier"). Here each vertex keeps, over one substep, the contact it is in (which collider
 * and which of a box's faces), the normal push lambda >= 0 accumulated so far, and friction's
 * accumulated tangential correction f. A projection moves the point by
 *   delta = max(-lambda, depth - allowance)
 * along the contact's normal (depth signed: positive inside, colliders.ts colliderContactDepth),
 * the projected Gauss-Seidel step of an inequality constraint (as Box2D clamps an accumulated
 * impulse): it pushes out what is inside and takes back what the point no longer needs, never
 * more than it pushed. Friction (Coulomb, Macklin et al. 2014 section 6.1 with mu_s = mu_k) is
 * the tangential correction that would cancel the substep's tangential displacement, clamped to
 * the cone |f| <= mu lambda_impulse, so it too is taken back when lambda falls.
 *
 * The split impulse (as CpuSolver.collide): depth the substep's start already had, beyond the
 * offset ramp's allowance, is removed by moving the start with the point, so it launches
 * nothing; here that shift is min(lambda, start depth - allowance) along the normal, a function
 * of lambda, kept as a vector so the original start is always x0 - shift. Only lambda less that
 * shift is an impulse and opens friction's cone.
 *
 * A vertex pushed by another collider (or another face of a box) than the one it is in keeps what
 * the first contact did and starts a new one: lambda, f and the shift are then the new contact's
 * (a corner between two colliders acts as 'projection' for the first).
 */
import { effectiveColliderResponse, type SolverParams } from '../contract/params';
import { boxFaceOf, COLLIDER_KIND, colliderContactDepth, colliderLayerAllowance, projectOutOfCollider } from './colliders';

/** Floats per vertex of the kept contact's multiplier part, mixed by Anderson acceleration: f (3), lambda. */
export const COLLIDER_MULTIPLIER_STRIDE = 4;
/** Floats per vertex of the kept contact's anchor, never mixed: the start's shift (3), the contact's code (contactCode). */
export const COLLIDER_ANCHOR_STRIDE = 4;
/** Result bits of collideWithMultiplier. */
export const COLLIDER_TOUCHING = 1;
export const COLLIDER_STICKING = 2;

/**
 * Projections a substep's offset ramp is spread over (offsetRampStep's `builds`): with the projection
 * each of the iterations' projections opens the layer a step from the start it has moved, so the
 * substep opens it by speed x h in all; a kept contact measures every projection from the
 * substep's own start, so its one step is the whole substep's.
 */
export function colliderRampProjections(p: Pick<SolverParams, 'colliderResponse' | 'andersonDepth' | 'iterations'>): number {
  return effectiveColliderResponse(p) === 'multiplier' ? 1 : p.iterations;
}

/** Code of a contact with collider c through surface `face` (boxFaceOf for a box, else 0); 0 is no contact. */
export function contactCode(collider: number, face: number): number {
  return 1 + 8 * collider + face;
}

const probe = new Float64Array(3);
const start = new Float64Array(3);
const inside = new Float64Array(3);
const normal = new Float64Array(3);
const startNormal = new Float64Array(3);

/**
 * One projection of vertex i against collider `collider` (encoded at enc[e..]) with its kept
 * contact: multiplier[4 i ..] = (f, lambda), anchor[4 i ..] = (shift, code), both zero at the
 * substep's start. Moves x (and x0 by the split impulse's shift). `ramp` and `depenetration` are
 * the offset ramp's and the depenetration speed's steps (colliderLayerAllowance; a substep's whole
 * step, colliderRampProjections). Returns COLLIDER_TOUCHING when the contact pushes
 * (lambda > 0; its normal in n), with COLLIDER_STICKING when friction holds the point (static).
 */
export function collideWithMultiplier(
  enc: ArrayLike<number>, e: number, collider: number,
  x: Float64Array, x0: Float64Array, i: number,
  multiplier: Float64Array, anchor: Float64Array,
  ramp: number, depenetration: number, friction: number, n: Float64Array,
): number {
  const o = 3 * i, a = 4 * i;
  // No push held (lambda <= 0, also where Anderson's mix took it there): no contact is kept, and
  // whatever shift of the start was made stays in the start.
  if (!(multiplier[a + 3] > 0)) {
    for (let k = 0; k < 4; k++) { multiplier[a + k] = 0; anchor[a + k] = 0; }
  }
  let code = anchor[a + 3];
  for (let k = 0; k < 3; k++) probe[k] = x[o + k];
  const depthInside = projectOutOfCollider(enc, e, probe, 0, inside);
  if (depthInside > 0) {
    const here = contactCode(collider, enc[e] === COLLIDER_KIND.box ? boxFaceOf(inside) : 0);
    if (code !== here) {
      // A new contact: what the old one did stays (its shift is now part of the start).
      code = here;
      for (let k = 0; k < 4; k++) { multiplier[a + k] = 0; anchor[a + k] = 0; }
      anchor[a + 3] = code;
    }
  } else if (code === 0 || Math.floor((code - 1) / 8) !== collider) {
    return 0;
  }
  const face = (code - 1) % 8;
  const depth = colliderContactDepth(enc, e, face, x, o, normal);
  if (Number.isNaN(depth)) return 0;
  // The original start (before this contact's shift) and its depth inside the collider.
  for (let k = 0; k < 3; k++) start[k] = x0[o + k] - anchor[a + k];
  for (let k = 0; k < 3; k++) probe[k] = start[k];
  const startInside = projectOutOfCollider(enc, e, probe, 0, startNormal);
  const depth0 = startInside > 0 ? Math.max(0, Math.min(startInside, colliderContactDepth(enc, e, face, start, 0, startNormal))) : 0;
  const allowance = colliderLayerAllowance(enc, e, depth0, ramp, depenetration);
  let lambda = multiplier[a + 3];
  const delta = Math.max(-lambda, depth - allowance);
  if (delta === 0 && lambda === 0) return 0;
  for (let k = 0; k < 3; k++) x[o + k] += delta * normal[k];
  lambda = Math.max(0, lambda + delta);
  multiplier[a + 3] = lambda;
  // The split impulse's shift of the start follows lambda.
  const shift = Math.min(lambda, Math.max(0, depth0 - allowance));
  for (let k = 0; k < 3; k++) {
    anchor[a + k] = shift * normal[k];
    x0[o + k] = start[k] + anchor[a + k];
  }
  // Coulomb friction: the correction that would cancel the substep's tangential displacement,
  // clamped to the cone mu x the impulse part of lambda.
  const dx = x[o] - x0[o], dy = x[o + 1] - x0[o + 1], dz = x[o + 2] - x0[o + 2];
  let tx = dx + multiplier[a], ty = dy + multiplier[a + 1], tz = dz + multiplier[a + 2];
  const tn = tx * normal[0] + ty * normal[1] + tz * normal[2];
  tx -= tn * normal[0]; ty -= tn * normal[1]; tz -= tn * normal[2];
  const tl = Math.hypot(tx, ty, tz);
  const cone = friction * (lambda - shift);
  const scale = tl <= cone ? 1 : cone / tl;
  const fx = tx * scale, fy = ty * scale, fz = tz * scale;
  x[o] -= fx - multiplier[a]; x[o + 1] -= fy - multiplier[a + 1]; x[o + 2] -= fz - multiplier[a + 2];
  multiplier[a] = fx; multiplier[a + 1] = fy; multiplier[a + 2] = fz;
  if (lambda <= 0) return 0;
  n[0] = normal[0]; n[1] = normal[1]; n[2] = normal[2];
  return COLLIDER_TOUCHING | (tl < cone ? COLLIDER_STICKING : 0);
}
