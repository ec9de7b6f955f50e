// One invocation, after the contacts are built and before the substep's first contact pass
// (src/collision/gpu/contactStage.ts): the indirect dispatch args of countContacts and
// solveContacts when two lists share their dispatches (contacts.wgsl): x covers the longer list,
// y = 2 (workgroup y picks the list). Counts are min'd with each list's capacity, as the solve does.
#include "queryList"
#include "contact"

@group(0) @binding(0) var<uniform> params: ContactParams;
@group(0) @binding(1) var<storage, read> list: QueryListR;
@group(0) @binding(2) var<storage, read> list2: QueryListR;
@group(0) @binding(3) var<storage, read_write> args: array<u32, 3>;

@compute @workgroup_size(1)
fn contactArgs() {
  let n = max(min(list.header[QL_COUNT], params.listCapacity), min(list2.header[QL_COUNT], params.sourceCapacity));
  args[0] = (n + 63u) / 64u;
  args[1] = 2u;
  args[2] = 1u;
}
