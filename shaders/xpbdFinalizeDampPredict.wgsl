// Finalize and damping of one object in one workgroup (lib/dampObject.wgsl, as
// finalizeDampObject), then the next substep's predict of the object's vertices with the warm
// start's corrections (lib/predictWarmVertex.wgsl, as predictWarm) in the same workgroup (issue
// 24: FinalizeStage records it when TimeStep joins the next substep's predict to this substep's
// finalize, GpuStage.joinsNext; 1 dispatch instead of 2 on every substep but the frame's last).
// Predict of a vertex reads only that vertex, its object's status word (set by this workgroup's
// NaN guard) and the warm start's corrections, recorded just before this dispatch at this
// substep's end positions (finalize moves none but a NaN guard's vertex, and that object is
// stopped and frozen by predict, its corrections unused): the frames of finalizeDampObject, then
// warm start and predictWarm, bit for bit (tests/gpu/timeStep.test.ts). Bind group 1 is the
// next substep's slot (its handles' poses, its warm share). CPU twin: cpuSolver.ts.
// 10 storage buffers (as the contacts' sweep and CCD's narrow phase): the chunks' partials stay in
// workgroup memory.

#include "positions"
#include "finalizeVertex"
#include "dampingTablesApart"
#include "rigidDampingReduce"
#include "rigidDampingSolve"
#include "dampObject"
#include "objectPartials"
#include "predictVertex"
#include "predictWarmVertex"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> chunks: array<vec4<u32>>;  // object, first vertex, end vertex, 0
@group(0) @binding(7) var<storage, read> objects: array<vec4<u32>>; // first chunk, end chunk, has handles, first vertex
@group(0) @binding(8) var<storage, read> handles: array<vec4<f32>>; // substeps x handles x 4
@group(0) @binding(9) var<storage, read> vertexTets: array<u32>;
@group(0) @binding(10) var<storage, read> corrections: array<vec4<f32>>; // 4 per tet (warmStart)
@group(1) @binding(0) var<uniform> slot: Slot;

@compute @workgroup_size(256)
fn finalizeDampPredict(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let range = dampObject(wid.x, lid);
  // Each lane predicts the vertices it damped (dampChunk's lanes); the barrier also covers a
  // stopped object, which damped none.
  storageBarrier();
  for (var c = range.x; c < range.y; c++) {
    let chunk = chunks[c];
    for (var i = chunk.y + lid; i < chunk.z; i += OBJECT_LANES) { predictWarmVertex(i); }
  }
}
