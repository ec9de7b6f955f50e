// Gauss-Seidel visit of one Neo-Hookean tet (lib/neoHookeanBlock.wgsl's project), its vertices
// moved in place with their rounding carried (lib/positionCarry.wgsl). Shared by the sweeping
// kernels, xpbdNeoHookean.wgsl (coloured and partitioned orders) and xpbdNeoHookeanColliders.wgsl;
// the finalize kernels that only warm-start include neoHookeanBlock alone (they bind no carry).
// The including kernel declares what neoHookeanBlock and positionCarry ask for and
//   fn orderedTet(n: u32) -> u32 (the tet at position n of the solve order), and the pass's
//   slot: Slot (d = 1: the step lengths of this sweep reused, not searched).

#include "neoHookeanBlock"
#include "positionCarry"

// Projects the tet at orderedTet(n) and moves its vertices (Gauss-Seidel, in place).
fn solveOrdered(n: u32) {
  let t = orderedTet(n);
  // The step line-searched (frame.lineSearch), or lengthened by the tet's last searched length
  // where the pass's slot says so (slot.d = 1: an accelerated run's later sweeps,
  // SolverParams.andersonLineSearchSweeps).
  var lengthen = STEP_BOUNDED;
  if (frame.lineSearch != 0u) { lengthen = select(STEP_SEARCH, STEP_REUSE, slot.d == 1u); }
  let d = project(t, false, lengthen);
  if (!d.ok) { return; }
  let ids = tetCorners(t);
  moveVertexCarried(ids.x, d.d0);
  moveVertexCarried(ids.y, d.d1);
  moveVertexCarried(ids.z, d.d2);
  moveVertexCarried(ids.w, d.d3);
}
