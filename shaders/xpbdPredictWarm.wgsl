// Predict with the warm start's corrections added (issue 24: the warm start's gather folded into
// predict, one dispatch less a substep). The Neo-Hookean warm start (warmStart in
// xpbdNeoHookean.wgsl) runs just before, at the substep's start positions, and stores each tet
// corner's w_v S g_v; here each vertex is predicted (predictVertex, as predict does) and then,
// in the same thread, gets the sum of its corners' corrections (as xpbdGather.wgsl's gather
// does, in the same order: the same f32 result as predict then gather). g does not depend on the
// positions, so x - x~ = sum_t w S_t g holds as with the warm start taken after predict.
// CPU twin: cpuSolver.ts (warmStartCorrections before predict, gather after).

#include "threadIndex"
#include "predictVertex"
#include "predictWarmVertex"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> handles: array<vec4<f32>>; // substeps x handles x 4
// Vertex -> tet corners in one array (8 storage buffers per kernel): vertexCount + 1 offsets into
// the corners, then the corners (4 t + corner), src/sim/model.ts vertexTetOffsets / vertexTetCorners.
@group(0) @binding(7) var<storage, read> vertexTets: array<u32>;
@group(0) @binding(8) var<storage, read> corrections: array<vec4<f32>>; // 4 per tet (warmStart)
@group(1) @binding(0) var<uniform> slot: Slot;

@compute @workgroup_size(64)
fn predictWarm(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  predictWarmVertex(i);
}
