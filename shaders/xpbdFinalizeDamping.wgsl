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
#include "dampingTablesApart"
#include "rigidDampingReduce"
#include "rigidDampingSolve"
#include "dampObject"

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

// The global partials solveApply reads after finalizeReduce (finalizeDampObject's too: the
// per-chunk plan and the per-object one keep the same buffers).
fn storeChunkPartial(k: u32, v: vec4<f32>) {
  partials[k] = v;
}
fn chunkPartial(k: u32) -> vec4<f32> {
  return partials[k];
}

// The whole finalize + damping of one object in one workgroup (issue 24: 1 dispatch a substep
// instead of 2; lib/dampObject.wgsl).
@compute @workgroup_size(256)
fn finalizeDampObject(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  dampObject(wid.x, lid);
}
