// Hybrid mode's Pin marks (src/collision/pinMark.ts, the same values): 0 for Pout, else the kind
// of the tet the point was found inside at the substep's start. With SolverParams.pinByKind CCD
// skips a Pin point's pairs of that kind only (docs/collisions.md "Pin by kind").
const PIN_SELF = 1u;
const PIN_INTER = 2u;
// SolverParams.pinRelease: Pin at the start, in no tet at detection (pinMark.ts PIN_RELEASED).
const PIN_RELEASED = 4u;
fn pinMarkOf(inter: bool) -> u32 {
  return select(PIN_SELF, PIN_INTER, inter);
}
// The marks that take a CCD pair of one object (`sameObject`) or of two from CCD.
fn pinSkips(sameObject: bool, byKind: bool) -> u32 {
  if (!byKind) { return PIN_SELF | PIN_INTER; }
  return select(PIN_INTER, PIN_SELF, sameObject);
}
