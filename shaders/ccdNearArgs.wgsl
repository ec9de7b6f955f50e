// One invocation after the detecting round's narrow phase of a substep whose later rounds run CCD
// (SolverParams.ccdEveryRound; src/collision/gpu/ccdStage.ts): the indirect grid of the later
// rounds' ccdNarrow dispatches, over the near list that round built (the pairs within their reach,
// ccdNarrow.wgsl markForLaterRounds) and then the boundary vertices. Past the list's room, over
// every candidate instead, as before the list. x = min(workgroups, 65535) (CCD_LATER_ROW_STRIDE).
// Its own bindings: the narrow phase binds as many storage buffers as the adapters allow.
#include "ccdParams"

@group(0) @binding(0) var<uniform> params: CcdParams;
@group(0) @binding(1) var<storage, read> eeHeader: array<u32>;
@group(0) @binding(2) var<storage, read_write> args: array<u32, 3>;

@compute @workgroup_size(1)
fn nearArgs() {
  let listed = eeHeader[CCD_NEAR_COUNT];
  let pairs = select(params.vfCount + params.eeCount, listed, listed <= params.nearCapacity);
  let groups = max(1u, (pairs + params.boundaryVertexCount + 63u) / 64u);
  let x = min(groups, 65535u);
  args[0] = x;
  args[1] = (groups + x - 1u) / x;
  args[2] = 1u;
}
