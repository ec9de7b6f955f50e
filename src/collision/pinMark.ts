/**
 * Hybrid mode's Pin marks (supplement Alg. 5 line 1), one byte (CPU) or word (GPU) per vertex and
 * per boundary edge: 0 for Pout, else the kind of the tet the point was found inside at the
 * substep's start. With SolverParams.pinByKind, CCD skips a Pin point's pairs of that kind only: a
 * point inside a dent of its own body still meets other bodies through CCD, where a plain Pin mark
 * leaves those pairs to a DCD that sees the point only once it is inside, and not at all once it
 * has passed through a thin part (docs/collisions.md "Pin by kind"). The GPU's twin constants are
 * in shaders/lib/pinMark.wgsl.
 */
export const PIN_SELF = 1;
export const PIN_INTER = 2;
/**
 * SolverParams.pinRelease: a boundary vertex that was Pin at the substep's start but lies in no
 * tet when detection looks after the material iterations (the first iteration carried it out). It
 * has no shortest-path query, so CCD takes its pairs again (no skip: the mark is neither kind), and
 * holds it outside the faces it left through (ccdCpu.ts, "exit contacts"; docs/collisions.md
 * "A Pin point outside at detection").
 */
export const PIN_RELEASED = 4;

/** The Pin marks that take a CCD pair of one object (`self`) or of two from CCD. */
export function pinSkips(self: boolean, byKind: boolean): number {
  if (!byKind) return PIN_SELF | PIN_INTER;
  return self ? PIN_SELF : PIN_INTER;
}
