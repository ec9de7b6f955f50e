// The colliders' projection of one vertex (planes, boxes, bowls; src/sim/colliders.ts) with
// Coulomb friction against the normal push accumulated over the substep, at the colliders' pose
// of substep `substep`. Shared by collide (xpbdIntegrate.wgsl, a pass over every vertex after an
// iteration) and the partitioned cells that project each vertex right after its last visit of
// the iteration (xpbdNeoHookeanColliders.wgsl). The including kernel declares frame, positions,
// prev and velocities (read_write), colliders and objectStatus (array<atomic<u32>>).
// A push records the collider's normal in the vertex's touch word (lib/colliderTouch.wgsl), which
// the contacts between bodies read. CPU twin: CpuSolver.collide.

#include "colliderTouch"

const KIND_PLANE: u32 = 1u;
const KIND_BOX: u32 = 2u;

// Pushes p out of collider c; returns (normal, depth), depth 0 when outside. Mirrors
// projectOutOfCollider in src/sim/colliders.ts.
fn collideOne(c: u32, substep: u32, p: ptr<function, vec3<f32>>) -> vec4<f32> {
  let base = (substep * frame.colliderCount + c) * 3u;
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

// How deep below collider c's grown surface a point may stay in this projection under the offset
// ramp (SolverParams.contactOffsetSpeed): its start's gap to the real surface, clamped at 0, plus
// the ramp; `depth0` is the start's depth below the grown surface (0 outside). The growth (the
// thickness, a bowl's as clamped) is the collider's head.z. Twin: colliderLayerAllowance in
// src/sim/colliders.ts.
fn colliderLayerAllowance(c: u32, substep: u32, depth0: f32) -> f32 {
  let growth = colliders[(substep * frame.colliderCount + c) * 3u].z;
  return max(0.0, min(growth, depth0) - frame.colliderRamp);
}

fn collideVertex(i: u32, substep: u32) {
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
  var touchNormal = vec3<f32>(0.0);
  var start = p0;
  for (var c = 0u; c < frame.colliderCount; c++) {
    let hit = collideOne(c, substep, &p);
    if (hit.w <= 0.0) { continue; }
    var s = start;
    let depth0 = max(0.0, collideOne(c, substep, &s).w);
    // The offset ramp: a start inside the skin opens it by colliderRamp per projection; the point
    // goes back to the depth it may keep, and only the rest is a push.
    let allowed = min(hit.w, colliderLayerAllowance(c, substep, depth0));
    p = p - allowed * hit.xyz;
    let push = hit.w - allowed;
    if (push <= 0.0) { continue; }
    touched = true;
    touchNormal = hit.xyz;
    // Split impulse (CpuSolver.collide): depth the start position had too moves it out with the
    // push, so a body placed inside the collider's skin is not launched; only the rest of the push
    // is an impulse and grows friction's budget.
    let q = min(push, depth0 - allowed);
    start = start + q * hit.xyz;
    budget += frame.friction * (push - q);
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
  // A sticking contact with a collider (static friction held: budget left) holds the object
  // (bit 2, STATUS_HELD_NOW of src/contract/held.ts).
  if (touched && budget > 0.0) { atomicOr(&objectStatus[bitcast<u32>(prev[i].w)], 2u); }
  if (touched) { atomicStore(&objectStatus[frame.touchBase + i], packTouchNormal(touchNormal)); }
}
