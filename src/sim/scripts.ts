/** Samples scripted colliders and handles at every substep of one frame (CPU; uploaded once per frame). */
import { COLLIDER_STRIDE, encodeCollider, type Collider } from './colliders';
import { encodeHandle, HANDLE_STRIDE, type HandleScript } from './handles';

export interface FrameScripts {
  /** substeps x colliders x 12 */
  colliders: Float64Array;
  /** substeps x handles x 16 */
  handles: Float64Array;
}

/**
 * Substep s ends at time0 + (s + 1) * h: kinematic targets and planes are taken there. Colliders
 * are grown by `colliderThickness` (the contact offset, encodeCollider). `handMoved`: colliders
 * moved by hand since the last frame (GpuSolver.setCollider, the page's Move menu), encoded as
 * moving (not static) for this frame: like a scripted plane they push with their own motion, and
 * the depth a move makes is not held back by the depenetration speed.
 */
export function sampleScripts(
  colliders: readonly Collider[], handles: readonly HandleScript[], time0: number, h: number, substeps: number, colliderThickness = 0, handMoved?: ReadonlySet<number>,
): FrameScripts {
  const c = new Float64Array(substeps * colliders.length * COLLIDER_STRIDE);
  const hs = new Float64Array(substeps * handles.length * HANDLE_STRIDE);
  for (let s = 0; s < substeps; s++) {
    const t = time0 + (s + 1) * h;
    colliders.forEach((col, i) => {
      const at = (s * colliders.length + i) * COLLIDER_STRIDE;
      encodeCollider(col, t, c, at, colliderThickness);
      if (handMoved?.has(i)) c[at + 3] = 0;
    });
    handles.forEach((hd, i) => encodeHandle(hd, t, hs, (s * handles.length + i) * HANDLE_STRIDE));
  }
  return { colliders: c, handles: hs };
}
