// Damping of deformation only (Müller et al. 2007, "Position based dynamics", section 3.5),
// recorded after finalize when damping > 0. CPU reference: src/sim/rigidDamping.ts.
// Objects own contiguous vertex ranges, cut into chunks of CHUNK vertices (one object per
// chunk). Three dispatches, no float atomics:
//   reduce:     one workgroup per chunk sums m, m r, m v, m r x v and m r r^T of its free
//               vertices (r relative to the object's first vertex: no f32 cancellation of
//               world coordinates) into 4 vec4 partials;
//   solveRigid: one invocation per object sums its chunks' partials, moves them to the
//               centre of mass and solves I omega = L (regularised, scaled adjugate);
//   apply:      one workgroup per chunk sets v_i = rigid_i + damp (v_i - rigid_i).
// After the fused finalize + reduce (xpbdFinalizeDamping.wgsl, which also ages the held bits),
// solveApply does the last two in one dispatch (issue 24): each chunk's workgroup solves its
// object's rigid motion itself (one lane sums the object's few chunks, the same sums in the same
// order in every chunk of the object) and applies it, so a substep damps in 2 dispatches, not 3.
// Objects with handles, and objects held this substep (status bit 2: a sticking contact with a
// collider or with an object held in the previous substep, src/contract/held.ts) get a zero rigid
// motion (all velocity is damped); solveRigid then ages the held bits (2 -> 4). Handle vertices
// and stopped objects (inverse mass 0, or status bit 1) are skipped.

#include "positions"
#include "dampingTablesApart"
#include "rigidDampingReduce"
#include "rigidDampingSolve"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> chunks: array<vec4<u32>>;  // object, first vertex, end vertex, 0
@group(0) @binding(5) var<storage, read> objects: array<vec4<u32>>; // first chunk, end chunk, has handles, first vertex
@group(0) @binding(6) var<storage, read_write> partials: array<vec4<f32>>; // 4 per chunk
@group(0) @binding(7) var<storage, read_write> rigid: array<vec4<f32>>;    // 3 per object: com, v_cm, omega

const CHUNK: u32 = 1024u; // = RIGID_DAMPING_CHUNK in src/sim/gpuSolver.ts
const STATUS_STOPPED: u32 = 1u;
const STATUS_HELD_NOW: u32 = 2u;
const STATUS_HELD_BEFORE: u32 = 4u;

// Finalize is not part of this kernel (finalizeChunkVertex is never called: finalizeFirst false).
fn finalizeChunkVertex(i: u32) {}

// The chunks' partials, in global memory between reduce and solve / solveApply.
fn storeChunkPartial(k: u32, v: vec4<f32>) {
  partials[k] = v;
}
fn chunkPartial(k: u32) -> vec4<f32> {
  return partials[k];
}

@compute @workgroup_size(64)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  reduceChunk(wid.x, lid, false);
}

@compute @workgroup_size(64)
fn solveRigid(@builtin(global_invocation_id) gid: vec3<u32>) {
  let o = gid.x;
  if (o >= arrayLength(&objects)) { return; }
  rigid[3u * o] = vec4<f32>(0.0);
  rigid[3u * o + 1u] = vec4<f32>(0.0);
  rigid[3u * o + 2u] = vec4<f32>(0.0);
  let status = atomicLoad(&objectStatus[o]);
  if ((status & STATUS_STOPPED) != 0u) { return; }
  let held = objects[o].z != 0u || (status & STATUS_HELD_NOW) != 0u;
  atomicStore(&objectStatus[o], select(0u, STATUS_HELD_BEFORE, held));
  if (held) { return; }
  let r = rigidMotion(o);
  rigid[3u * o] = r[0];
  rigid[3u * o + 1u] = r[1];
  rigid[3u * o + 2u] = r[2];
}

@compute @workgroup_size(64)
fn apply(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let chunk = chunks[wid.x];
  let o = chunk.x;
  if ((atomicLoad(&objectStatus[o]) & STATUS_STOPPED) != 0u) { return; }
  dampChunk(chunk, lid, 64u, rigid[3u * o].xyz, rigid[3u * o + 1u].xyz, rigid[3u * o + 2u].xyz);
}

// The chunk's object's rigid motion, solved by lane 0 for the whole workgroup (solveApply).
var<workgroup> chunkRigid: array<vec4<f32>, 3>;
var<workgroup> chunkStopped: u32;

// solveRigid and apply in one dispatch, after finalizeReduce aged the held bits (HELD_BEFORE is
// now this substep's "held": handles, or a sticking contact). The object's first chunk also
// writes `rigid`, as solveRigid does.
@compute @workgroup_size(64)
fn solveApply(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let chunk = chunks[wid.x];
  let o = chunk.x;
  if (lid == 0u) {
    let status = atomicLoad(&objectStatus[o]);
    let r = keptRigidMotion(o, status);
    chunkRigid = r;
    chunkStopped = select(0u, 1u, (status & STATUS_STOPPED) != 0u);
    if (objects[o].x == wid.x) {
      rigid[3u * o] = r[0];
      rigid[3u * o + 1u] = r[1];
      rigid[3u * o + 2u] = r[2];
    }
  }
  if (workgroupUniformLoad(&chunkStopped) != 0u) { return; }
  dampChunk(chunk, lid, 64u, chunkRigid[0].xyz, chunkRigid[1].xyz, chunkRigid[2].xyz);
}
