/**
 * Vertices pressed against a collider, for the contacts between bodies (issue 19,
 * docs/collisions.md "Bodies pressed onto a collider").
 *
 * The contacts between bodies run after the material iterations, which project the colliders.
 * A contact that pushes a vertex into a collider that vertex already rests on (a light tentacle tip
 * on the ground, pressed by another octopus from above) used to move it by its inverse mass, as if
 * it were free: the light vertex took nearly the whole push, into the ground, and the next
 * substep's projection pushed it back out with nothing pushing the other body, so the tip's tets
 * were crushed between the two, substep after substep (undamped octopus-box: +308 J above its running minimum at frame 42).
 * The collider is a body of infinite mass: a vertex it pushed this substep moves under a contact
 * as a vertex of inverse mass w (I - b b^T) where the contact would push it into the collider
 * (b its outward normal there), and freely where it would lift it off. The contact's generalized
 * inverse mass then has w (1 - (n . b)^2) for that vertex, so the rest of the push goes to the
 * other body, as a stack on the ground carries its load.
 *
 * Per vertex TOUCH_STRIDE numbers: the collider's outward normal (xyz) and 1 when a collider pushed
 * the vertex this substep, 0 otherwise; cleared by predict, set by every collider push of the
 * material iterations, the last one's normal kept (CpuSolver.collide, colliderProjection.wgsl,
 * whose GPU word packs the normal: lib/colliderTouch.wgsl).
 */

export const TOUCH_STRIDE = 4;

/**
 * Words of the GPU solver's status buffer: per object its status word (src/contract/held.ts), then
 * per vertex its collider-touch word (shaders/lib/colliderTouch.wgsl; the first at the object
 * count, Frame.touchBase), then per vertex the three push-direction words of the sliver lift
 * 'clipped-to-contacts' (shaders/lib/pushDirection.wgsl).
 */
export function solverStatusWords(objectCount: number, vertexCount: number): number {
  return objectCount + 4 * vertexCount;
}

/**
 * The inverse mass of vertex v along a contact's normal n, moving by `side` (+1: the point's
 * vertices, which the push moves along +n; -1: the triangle's, along -n): w (1 - (s n . b)^2) when
 * v rests on a collider of normal b and the push would move it into that collider, else w.
 */
export function touchInverseMass(w: number, touch: Float64Array | undefined, v: number, nx: number, ny: number, nz: number, side: number): number {
  if (!touch || touch[TOUCH_STRIDE * v + 3] === 0) return w;
  const o = TOUCH_STRIDE * v;
  const d = side * (nx * touch[o] + ny * touch[o + 1] + nz * touch[o + 2]);
  return d < 0 ? w * (1 - d * d) : w;
}

/**
 * The GPU's touch word flag (shaders/lib/colliderTouch.wgsl TOUCH_FLAG). Bit 30 of the word is the
 * contacts' CONTACT_PUSHED mark, which no host code reads (the CPU engine's twin is
 * CpuContacts.pushed); the normal's 2 x 15 bits lie below it.
 */
export const TOUCH_FLAG = 0x80000000;
const TOUCH_STEPS = 32767;

/**
 * The GPU's touch word for a unit normal b (shaders/lib/colliderTouch.wgsl packTouchNormal: the
 * flag, and b's octahedral coordinates in 2 x 15 bits), for host code that writes touch words.
 */
export function packTouchNormal(b: readonly number[]): number {
  const l1 = Math.abs(b[0]) + Math.abs(b[1]) + Math.abs(b[2]);
  let px = b[0] / l1, py = b[1] / l1;
  if (b[2] < 0) {
    const sx = px >= 0 ? 1 : -1, sy = py >= 0 ? 1 : -1;
    [px, py] = [(1 - Math.abs(py)) * sx, (1 - Math.abs(px)) * sy];
  }
  const q = (c: number) => Math.round(Math.min(1, Math.max(0, c * 0.5 + 0.5)) * TOUCH_STEPS);
  return (TOUCH_FLAG | q(px) | (q(py) << 15)) >>> 0;
}

/** The unit normal of a touch word (shaders/lib/colliderTouch.wgsl unpackTouchNormal). */
export function unpackTouchNormal(word: number): [number, number, number] {
  let px = ((word & 0x7fff) / TOUCH_STEPS) * 2 - 1, py = (((word >>> 15) & 0x7fff) / TOUCH_STEPS) * 2 - 1;
  const z = 1 - Math.abs(px) - Math.abs(py);
  if (z < 0) [px, py] = [(1 - Math.abs(py)) * (px >= 0 ? 1 : -1), (1 - Math.abs(px)) * (py >= 0 ? 1 : -1)];
  const l = Math.hypot(px, py, z);
  return [px / l, py / l, z / l];
}
