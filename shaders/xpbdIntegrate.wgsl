// Per-vertex XPBD phases (DESIGN.md "One time step"): predict, collide (each iteration) and
// finalize (velocities, NaN/Inf guard; damping follows in xpbdRigidDamping.wgsl). CPU
// reference: src/sim/cpuSolver.ts.
// positions: xyz + inverse mass; prev: xyz at the substep start + object id (bits) in w;
// rest: xyz + handle id (bits, -1 = free) in w; velocities: xyz + (during the iterations)
// the substep's friction budget in w (predict sets it to 0, collide spends it).

#include "threadIndex"
#include "finalizeVertex"
#include "predictVertex"
#include "colliderProjection"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> colliders: array<vec4<f32>>; // substeps x colliders x 3
@group(0) @binding(7) var<storage, read> handles: array<vec4<f32>>;   // substeps x handles x 4
@group(0) @binding(8) var<storage, read> invMass: array<f32>;
@group(0) @binding(9) var<storage, read_write> colliderContacts: array<vec4<f32>>; // 2 a vertex (lib/colliderProjection.wgsl)
@group(1) @binding(0) var<uniform> slot: Slot;

// Object status bits (src/contract/held.ts): stopped after NaN/Inf (read back every frame), held this
// substep (a sticking contact with a collider or a held object), held in the previous substep.
const STATUS_STOPPED: u32 = 1u;
const STATUS_HELD_NOW: u32 = 2u;

@compute @workgroup_size(64)
fn predict(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  predictVertex(i);
}

@compute @workgroup_size(64)
fn collide(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  collideVertex(i, slot.a);
}

@compute @workgroup_size(64)
fn finalize(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  finalizeVertex(i);
}

// Re-reads inverse masses (after a material or density change); stopped objects keep 0.
@compute @workgroup_size(64)
fn applyMass(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  let x = positions[i];
  var w = invMass[i];
  if ((atomicLoad(&objectStatus[vertexObject(i)]) & STATUS_STOPPED) != 0u) { w = 0.0; }
  positions[i] = vec4<f32>(x.xyz, w);
}
