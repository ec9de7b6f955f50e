// Per-vertex XPBD phases (DESIGN.md "One time step"): predict, collide (each iteration) and
// finalize (velocities, NaN/Inf guard; damping follows in xpbdRigidDamping.wgsl). CPU
// reference: src/sim/cpuSolver.ts.
// positions: xyz + inverse mass; prev: xyz at the substep start + object id (bits) in w;
// rest: xyz + handle id (bits, -1 = free) in w; velocities: xyz + (during the iterations)
// the substep's friction budget in w (predict sets it to 0, collide spends it).

#include "threadIndex"
#include "finalizeVertex"
#include "predictVertex"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> colliders: array<vec4<f32>>; // substeps x colliders x 3
@group(0) @binding(7) var<storage, read> handles: array<vec4<f32>>;   // substeps x handles x 4
@group(0) @binding(8) var<storage, read> invMass: array<f32>;
@group(1) @binding(0) var<uniform> slot: Slot;

// Object status bits (src/contract/held.ts): stopped after NaN/Inf (read back every frame), held this
// substep (a sticking contact with a collider or a held object), held in the previous substep.
const STATUS_STOPPED: u32 = 1u;
const STATUS_HELD_NOW: u32 = 2u;

const KIND_PLANE: u32 = 1u;
const KIND_BOX: u32 = 2u;

@compute @workgroup_size(64)
fn predict(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  predictVertex(i);
}

// Pushes p out of collider c; returns (normal, depth), depth 0 when outside. Mirrors
// projectOutOfCollider in src/sim/colliders.ts.
fn collideOne(c: u32, p: ptr<function, vec3<f32>>) -> vec4<f32> {
  let base = (slot.a * frame.colliderCount + c) * 3u;
  let head = colliders[base];
  if (head.y == 0.0) { return vec4<f32>(0.0); }
  let a = colliders[base + 1u];
  let b = colliders[base + 2u];
  let kind = u32(head.x);
  if (kind == KIND_PLANE) {
    let s = dot(a.xyz, *p) - a.w;
    if (s >= 0.0) { return vec4<f32>(0.0); }
    *p = *p - s * a.xyz;
    return vec4<f32>(a.xyz, -s);
  }
  if (kind == KIND_BOX) {
    var best = 3.4e38;
    var n = vec3<f32>(0.0);
    for (var k = 0u; k < 3u; k++) {
      let lo = (*p)[k] - a[k];
      let hi = b[k] - (*p)[k];
      if (lo <= 0.0 || hi <= 0.0) { return vec4<f32>(0.0); }
      if (lo < best) { best = lo; n = vec3<f32>(0.0); n[k] = -1.0; }
      if (hi < best) { best = hi; n = vec3<f32>(0.0); n[k] = 1.0; }
    }
    *p = *p + best * n;
    return vec4<f32>(n, best);
  }
  // Bowl: below its centre, stay within the radius.
  let q = *p - a.xyz;
  if (q.y >= 0.0) { return vec4<f32>(0.0); }
  let r = length(q);
  if (r <= a.w) { return vec4<f32>(0.0); }
  let n = -q / r;
  let depth = r - a.w;
  *p = *p + depth * n;
  return vec4<f32>(n, depth);
}

@compute @workgroup_size(64)
fn collide(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  let x = positions[i];
  if (x.w == 0.0) { return; }
  var p = x.xyz;
  let p0 = prev[i].xyz;
  let vel = velocities[i];
  // Coulomb friction at position level (Macklin et al. 2014, section 6.1, eq. 24-25, with
  // mu_s = mu_k): the tangential displacement of the whole substep, p - p0, is cancelled up
  // to friction x the normal push accumulated over the substep, less what friction already
  // cancelled this substep (the budget in velocities.w). All of it when within the budget
  // (static), else the budget (kinetic). Mirrors CpuSolver.collide.
  var budget = vel.w;
  var touched = false;
  var start = p0;
  for (var c = 0u; c < frame.colliderCount; c++) {
    let hit = collideOne(c, &p);
    if (hit.w <= 0.0) { continue; }
    touched = true;
    // Split impulse (CpuSolver.collide): depth the start position had too moves it out with the
    // push, so a body placed inside the collider's skin is not launched; only the rest of the push
    // is an impulse and grows friction's budget.
    var s = start;
    let hit0 = collideOne(c, &s);
    let q = select(0.0, min(hit.w, hit0.w), hit0.w > 0.0);
    start = start + q * hit.xyz;
    budget += frame.friction * (hit.w - q);
    let d = p - start;
    let t = d - dot(d, hit.xyz) * hit.xyz;
    let tl = length(t);
    let cut = min(tl, budget);
    if (cut > 0.0) {
      p = p - t * (cut / tl);
      budget -= cut;
    }
  }
  positions[i] = vec4<f32>(p, x.w);
  velocities[i] = vec4<f32>(vel.xyz, budget);
  if (any(start != p0)) { prev[i] = vec4<f32>(start, prev[i].w); }
  // A sticking contact with a collider (static friction held: budget left) holds the object.
  if (touched && budget > 0.0) { atomicOr(&objectStatus[bitcast<u32>(prev[i].w)], STATUS_HELD_NOW); }
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
  if ((atomicLoad(&objectStatus[bitcast<u32>(prev[i].w)]) & STATUS_STOPPED) != 0u) { w = 0.0; }
  positions[i] = vec4<f32>(x.xyz, w);
}
