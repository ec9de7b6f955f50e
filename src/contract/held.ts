/**
 * Objects held in place, for damping (issue 19, docs/collisions.md "Resting contact").
 *
 * Deformation-only damping (rigidDamping.ts; Müller et al. 2007, section 3.5) leaves each
 * object's rigid motion alone, which is right for a body in flight. A body resting on the ground
 * or on other bodies has no free rigid motion: its rigid "motion" is rocking and sliding on
 * elastic supports, and deformation-only damping left such whole-body oscillation almost
 * undamped (two cubes stacked at damping 20/s still rocked at 25-45 mm/s after 4 s). Objects with
 * handles were already damped as a whole for the same reason. So an object is held, and damped as
 * a whole, in a substep where it has a sticking contact (static friction held, budget left) with a
 * collider, or with an object that was held in the previous substep: holding spreads one contact
 * per substep up a stack (20 per frame at 20 substeps) and lasts while the contacts stick. Sliding
 * contacts (friction exhausted) and frictionless ones hold nothing, so a block sliding down a
 * slope, a free fall or a spin keep their rigid motion.
 *
 * Per object one byte (the GPU: bits of the object status word, shaders/xpbdIntegrate.wgsl):
 * HELD_NOW set during the substep, HELD_BEFORE the previous substep's, aged by ageHeld after
 * damping.
 */

/** Bit 0 of a GPU object status word: the object was stopped after NaN/Inf (the only bit a reader of the status outside the solver needs). */
export const STATUS_STOPPED = 1;
export const HELD_NOW = 2;
export const HELD_BEFORE = 4;

/** Per object 1 where damping acts on all of its velocity: handles, or held this substep. */
export function wholeBodyDamping(held: Uint8Array, hasHandles: Uint8Array): Uint8Array {
  const out = new Uint8Array(held.length);
  for (let o = 0; o < held.length; o++) out[o] = hasHandles[o] || held[o] & HELD_NOW ? 1 : 0;
  return out;
}

/** End of the substep: HELD_NOW becomes HELD_BEFORE (objects with handles are always held), HELD_NOW clears. */
export function ageHeld(held: Uint8Array, hasHandles: Uint8Array): void {
  for (let o = 0; o < held.length; o++) held[o] = hasHandles[o] || held[o] & HELD_NOW ? HELD_BEFORE : 0;
}

/**
 * A sticking contact between objects a and b (a contact that pushed this substep and still has
 * friction budget): each is held now if the other was held before.
 */
export function holdThroughContact(held: Uint8Array, a: number, b: number): void {
  if (a === b) return;
  if (held[b] & HELD_BEFORE) held[a] |= HELD_NOW;
  if (held[a] & HELD_BEFORE) held[b] |= HELD_NOW;
}
