// Finalize fused into the damping's first pass (issue 24: one dispatch less per substep when
// damping > 0): one workgroup per chunk finalizes each of its vertices (finalizeVertex, as
// xpbdIntegrate.wgsl's finalize does) and then, in the same thread, adds it to the chunk's sums
// (reduceChunk, as xpbdRigidDamping.wgsl's reduce does). Chunks cover every vertex once (each
// object's contiguous range cut into CHUNK vertices, src/sim/rigidDamping.ts), so the frame is the
// same as finalize then reduce. The object's first chunk then ages its held bits (src/contract/
// held.ts ageHeld: HELD_BEFORE = handles or HELD_NOW, HELD_NOW cleared), which solveRigid did in
// the plan before; solveApply (xpbdRigidDamping.wgsl) follows and reads HELD_BEFORE as "held".
// The bits change with atomicOr / atomicAnd so that a STOPPED bit the NaN guard of another chunk
// sets meanwhile is kept. finalizeDampObject does all of it per object in one workgroup.
// CPU twin: cpuSolver.ts.

#include "positions"
#include "finalizeVertex"
#include "rigidDampingReduce"
#include "rigidDampingSolve"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> chunks: array<vec4<u32>>;  // object, first vertex, end vertex, 0
@group(0) @binding(7) var<storage, read> objects: array<vec4<u32>>; // first chunk, end chunk, has handles, first vertex
@group(0) @binding(8) var<storage, read_write> partials: array<vec4<f32>>; // 4 per chunk

fn finalizeChunkVertex(i: u32) {
  finalizeVertex(i);
}

@compute @workgroup_size(64)
fn finalizeReduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  reduceChunk(wid.x, lid, true);
  let o = chunks[wid.x].x;
  if (lid != 0u || objects[o].x != wid.x) { return; }
  ageHeldBits(o);
}

// Object o's held bits for the substep's damping (src/contract/held.ts ageHeld): HELD_BEFORE =
// handles or HELD_NOW, HELD_NOW cleared; a stopped object's bits stay.
fn ageHeldBits(o: u32) {
  let status = atomicLoad(&objectStatus[o]);
  if ((status & STATUS_STOPPED) != 0u) { return; }
  if (objects[o].z != 0u || (status & STATUS_HELD_NOW) != 0u) {
    atomicOr(&objectStatus[o], STATUS_HELD_BEFORE);
  } else {
    atomicAnd(&objectStatus[o], ~STATUS_HELD_BEFORE);
  }
  atomicAnd(&objectStatus[o], ~STATUS_HELD_NOW);
}

var<workgroup> objectChunks: vec2<u32>;
var<workgroup> objectRigid: array<vec4<f32>, 3>;
var<workgroup> objectStopped: u32;

// The whole finalize + damping of one object in one workgroup (issue 24: 1 dispatch a substep
// instead of 2, FinalizeStage.dampPerObject, used when every object has at most
// DAMP_OBJECT_MAX_CHUNKS chunks): its chunks finalized and reduced 4 at a time by the 4 groups of
// 64 lanes (reduceObjectChunks: each chunk's sums in reduceChunk's order), the held bits aged,
// lane 0 solving the rigid motion from the chunks' partials (rigidMotion, as solveApply), then
// the chunks damped by all 256 lanes (dampChunk, one vertex at a time, in any order). The same
// sums in the same order: the frames of finalizeReduce + solveApply, bit for bit
// (tests/gpu/timeStep.test.ts).
@compute @workgroup_size(256)
fn finalizeDampObject(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let o = wid.x;
  if (lid == 0u) { objectChunks = objects[o].xy; }
  let range = workgroupUniformLoad(&objectChunks);
  reduceObjectChunks(range.x, range.y, lid, true);
  // The partials (global memory), the finalized velocities and the NaN guard's status bits,
  // visible to every lane.
  storageBarrier();
  if (lid == 0u) {
    ageHeldBits(o);
    let status = atomicLoad(&objectStatus[o]);
    objectRigid = keptRigidMotion(o, status);
    objectStopped = select(0u, 1u, (status & STATUS_STOPPED) != 0u);
  }
  if (workgroupUniformLoad(&objectStopped) != 0u) { return; }
  for (var c = range.x; c < range.y; c++) { dampChunk(chunks[c], lid, OBJECT_LANES, objectRigid[0].xyz, objectRigid[1].xyz, objectRigid[2].xyz); }
}

const STATUS_STOPPED: u32 = 1u;
const STATUS_HELD_NOW: u32 = 2u;
const STATUS_HELD_BEFORE: u32 = 4u;
