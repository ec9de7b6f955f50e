// Partitioned Gauss-Seidel sweep (src/sim/partitionedColouring.ts), shared by the XPBD
// constraint kernels. The including kernel declares `cellRanges` (array<u32>: per cell of
// every pass [index of its colour starts in this array, local colour count], then the starts)
// and `fn solveOrdered(n: u32)`, which projects the constraint at colourOrder[n] and applies it
// in place. One workgroup per cell of the pass's cells slot.a .. slot.a + slot.b (a 2D grid of
// workgroups, slot.c per row): cells of a pass share no dynamic vertex, so they run at once;
// inside a cell the local colours run one after another, each colour's constraints spread over
// the workgroup's lanes, and the storage barrier makes a colour's writes visible to the next.
// This replaces one dispatch per global colour by one per pass (issue 11: dispatch count).

const CELL_LANES = 64u;

var<workgroup> cellRange: vec2<u32>;

@compute @workgroup_size(64)
fn solveCells(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
  let cell = group.x + group.y * slot.c;
  if (cell >= slot.b) { return; }
  if (lane == 0u) {
    let k = slot.a + cell;
    cellRange = vec2<u32>(cellRanges[2u * k], cellRanges[2u * k + 1u]);
  }
  // Uniform across the workgroup, as the barriers in the loop require.
  let range = workgroupUniformLoad(&cellRange);
  for (var c = 0u; c < range.y; c++) {
    let end = cellRanges[range.x + c + 1u];
    for (var n = cellRanges[range.x + c] + lane; n < end; n += CELL_LANES) {
      solveOrdered(n);
    }
    storageBarrier();
  }
}
