// Finalize and damping of each object in one workgroup (lib/dampObject.wgsl, as
// finalizeDampObject) beside the next substep's warm start of every tet
// (lib/neoHookeanWarmStart.wgsl, as warmStart) in one dispatch (issue 24: FinalizeStage records it
// when TimeStep joins the next substep's predict to this substep's finalize and an object is too
// large for its workgroup to predict it too, PREDICT_JOIN_MAX_VERTICES; predictWarm follows in
// its own dispatch: 2 dispatches for finalize and the next predict instead of 3).
// Workgroups [0, objects) finalize and damp object wid.x; the rest warm-start 256 tets each.
// The two halves touch disjoint data but the positions: the warm start reads this substep's end
// positions, which finalize moves only where its NaN guard puts a vertex back, and that object is
// then stopped and frozen by predict, its corrections unused (as in xpbdFinalizeDampPredict.wgsl,
// whose warm start is recorded before finalize). So the frames are those of finalizeDampObject,
// then warmStart and predictWarm (tests/gpu/timeStep.test.ts). Bind group 1 is the next
// substep's slot (its warm share). CPU twin: cpuSolver.ts.
// 10 storage buffers, the solver's most (SOLVER_STORAGE_BUFFERS): the damping's chunks and objects
// share one array, and the chunks' partials stay in workgroup memory.

#include "positions"
#include "finalizeVertex"
#include "rigidDampingReduce"
#include "rigidDampingSolve"
#include "dampObject"
#include "objectPartials"
#include "tetsAndTetData"
#include "neoHookeanWarmStart"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
// [object count, 0, 0, 0], then the objects (first chunk, end chunk, has handles, first vertex),
// then the chunks (object, first vertex, end vertex, 0): src/sim/rigidDamping.ts dampingTableWords.
@group(0) @binding(6) var<storage, read> dampingTable: array<vec4<u32>>;
@group(0) @binding(7) var<storage, read> tets: array<vec4<u32>>;
// Dm^-1 (3 vec4 a tet), then each tet's constants (xpbdNeoHookean.wgsl's tetData).
@group(0) @binding(8) var<storage, read> tetData: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> stress: array<vec4<f32>>; // S: 3 columns per tet (xyz)
@group(0) @binding(10) var<storage, read_write> corrections: array<vec4<f32>>; // 4 per tet
@group(1) @binding(0) var<uniform> slot: Slot;

fn dampingObject(o: u32) -> vec4<u32> {
  return dampingTable[1u + o];
}
fn dampingChunk(c: u32) -> vec4<u32> {
  return dampingTable[1u + dampingTable[0].x + c];
}

@compute @workgroup_size(256)
fn finalizeDampWarm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  // Uniform per workgroup: the damping's barriers stay in uniform control flow.
  let objectCount = dampingTable[0].x;
  if (wid.x < objectCount) {
    dampObject(wid.x, lid);
    return;
  }
  let t = (wid.x - objectCount) * OBJECT_LANES + lid;
  if (t >= frame.tetCount) { return; }
  // The next substep is never the frame's first: its share is warmRest (slot.a > 0).
  warmStartTet(t, select(frame.warmRest, frame.warmFirst, slot.a == 0u));
}
