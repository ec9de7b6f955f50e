// Linear invocation id of a 1D kernel dispatched with gpu/buffers.ts dispatchGrid(count):
// large counts spill into y, so id = gid.x + gid.y * rowStride, rowStride = grid[0] * 64 from the
// kernel's uniforms (the num_workgroups builtin crashed Dawn on SwiftShader at random).
fn threadIndex(gid: vec3<u32>, rowStride: u32) -> u32 {
  return gid.x + gid.y * rowStride;
}
