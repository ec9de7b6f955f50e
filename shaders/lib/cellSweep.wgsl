// Groups swept in rounds inside one workgroup, shared by the partitioned Gauss-Seidel of the
// XPBD constraint kernels (src/mesh/partitionedColouring.ts: a group is a cell, a round one of
// its local colours) and the surface BVH refit (src/bvh/refitSchedule.ts: a group is a subtree,
// a round one height). One workgroup per group; the items of one round are independent and
// spread over the lanes; a storage barrier after each round makes its writes visible to the
// next. Groups of one dispatch must not write what another group reads. This replaces one
// dispatch per round by one per set of groups (issue 11: dispatch count).
//
// The including kernel declares
//   fn cellRangeWord(k: u32) -> u32: word k of the groups' ranges: per group [index of its round
//     starts in these words, round count], then every group's round starts (offsets into the
//     kernel's item order) (src/mesh/partitionedColouring.ts cellRanges, src/bvh/refitSchedule.ts);
//   fn sweepSlot() -> vec3<u32>: (first group, group count, workgroups per grid row) of this dispatch;
//   fn solveOrdered(n: u32): the work of item n of the item order;
//   fn afterCellSweep(group: u32, lane: u32): each lane's work once its group's rounds are done
//     (after the last barrier; empty in most kernels).

const CELL_LANES = 64u;

var<workgroup> cellRange: vec2<u32>;

// Group `cell` of this dispatch's slot (sweepSlot), swept by the calling workgroup's 64 lanes.
// `cell` must be the same across the workgroup (the barriers in the loop require it): a kernel
// that runs other work in the same dispatch (dcdHash.wgsl's buildHashAndRefit) calls this from
// the workgroups past its own, and the cells past the slot's count return at once.
fn sweepCellGroup(cell: u32, lane: u32) {
  let slotRange = sweepSlot();
  if (cell >= slotRange.y) { return; }
  if (lane == 0u) {
    let k = slotRange.x + cell;
    cellRange = vec2<u32>(cellRangeWord(2u * k), cellRangeWord(2u * k + 1u));
  }
  // Uniform across the workgroup, as the barriers in the loop require.
  let range = workgroupUniformLoad(&cellRange);
  for (var c = 0u; c < range.y; c++) {
    let end = cellRangeWord(range.x + c + 1u);
    for (var n = cellRangeWord(range.x + c) + lane; n < end; n += CELL_LANES) {
      solveOrdered(n);
    }
    storageBarrier();
  }
  afterCellSweep(slotRange.x + cell, lane);
}

@compute @workgroup_size(64)
fn sweepCells(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
  sweepCellGroup(group.x + group.y * sweepSlot().z, lane);
}
