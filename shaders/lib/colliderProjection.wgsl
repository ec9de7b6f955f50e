// The colliders' projection of one vertex (planes, boxes, bowls; src/sim/colliders.ts) with
// Coulomb friction against the normal push accumulated over the substep, at the colliders' pose
// of substep `substep`. Shared by collide (xpbdIntegrate.wgsl, a pass over every vertex after an
// iteration) and the partitioned cells that project each vertex right after its last visit of
// the iteration (xpbdNeoHookeanColliders.wgsl). The including kernel declares frame, positions,
// prev and velocities (read_write), colliders, objectStatus (array<atomic<u32>>) and
// colliderContacts (read_write, 2 vec4 a vertex: the kept contact of Frame.colliderMultiplier).
// A push records the collider's normal in the vertex's touch word (lib/colliderTouch.wgsl), which
// the contacts between bodies read. CPU twin: CpuSolver.collide.

#include "colliderTouch"
#include "vertexObject"

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
// the ramp; and at a static collider (head.w 1) under the depenetration speed: the start's depth
// less what one projection may remove. `depth0` is the start's depth below the grown surface (0
// outside). The growth (the thickness, a bowl's as clamped) is the collider's head.z. Twin:
// colliderLayerAllowance in src/sim/colliders.ts.
fn colliderLayerAllowance(c: u32, substep: u32, depth0: f32) -> f32 {
  let head = colliders[(substep * frame.colliderCount + c) * 3u];
  var kept = max(0.0, min(head.z, depth0) - frame.colliderRamp);
  if (head.w == 1.0) { kept = max(kept, depth0 - frame.colliderDepenetration); }
  return kept;
}

// The surface of a box collider that normal n leaves through: 2 axis + 1 on the + side. Twin:
// boxFaceOf in src/sim/colliders.ts.
fn boxFaceOf(n: vec3<f32>) -> u32 {
  var axis = 2u;
  if (n.x != 0.0) { axis = 0u; } else if (n.y != 0.0) { axis = 1u; }
  return 2u * axis + select(0u, 1u, n[axis] > 0.0);
}

struct ContactDepth {
  normal: vec3<f32>,
  depth: f32,   // positive inside, negative outside (the gap)
  valid: bool,  // false: the collider is off, or the point is above a bowl's centre
}

// Signed depth of p below one surface of collider c: the plane, a box's face `face` (boxFaceOf),
// the bowl's sphere. Twin: colliderContactDepth in src/sim/colliders.ts.
fn colliderContactDepth(c: u32, substep: u32, face: u32, p: vec3<f32>) -> ContactDepth {
  let base = (substep * frame.colliderCount + c) * 3u;
  let head = colliders[base];
  if (head.y == 0.0) { return ContactDepth(vec3<f32>(0.0), 0.0, false); }
  let a = colliders[base + 1u];
  let b = colliders[base + 2u];
  let kind = u32(head.x);
  if (kind == KIND_PLANE) { return ContactDepth(a.xyz, a.w - dot(a.xyz, p), true); }
  if (kind == KIND_BOX) {
    let axis = face >> 1u;
    var n = vec3<f32>(0.0);
    if ((face & 1u) == 1u) {
      n[axis] = 1.0;
      return ContactDepth(n, b[axis] - p[axis], true);
    }
    n[axis] = -1.0;
    return ContactDepth(n, p[axis] - a[axis], true);
  }
  let q = p - a.xyz;
  let r = length(q);
  if (q.y >= 0.0 || r == 0.0) { return ContactDepth(vec3<f32>(0.0), 0.0, false); }
  return ContactDepth(-q / r, r - a.w, true);
}

// Frame.colliderMultiplier (SolverParams.colliderResponse 'multiplier'): the colliders as
// inequality constraints with a multiplier kept over the substep. The push lambda is velocities.w
// (predict zeroes it), friction's accumulated tangential correction and the contact's code
// (1 + 8 collider + face) are colliderContacts[2 i], the start's shift colliderContacts[2 i + 1];
// all of it counts only while lambda > 0. Each projection moves the point by
// max(-lambda, depth - allowance) along the contact's normal, the start by the split impulse's
// share of lambda, and clamps friction's correction to mu x the impulse part. Twin and reasoning:
// collideWithMultiplier in src/sim/colliderMultiplier.ts.
fn collideVertexMultiplier(i: u32, substep: u32) {
  let x = positions[i];
  if (x.w == 0.0) { return; }
  var p = x.xyz;
  let p0First = prev[i].xyz;
  var p0 = p0First;
  let vel = velocities[i];
  var lambda = vel.w;
  var kept = colliderContacts[2u * i];
  var shift = colliderContacts[2u * i + 1u].xyz;
  // Written back only when something changed: most vertices touch no collider.
  var dirty = false;
  if (!(lambda > 0.0)) {
    dirty = lambda != 0.0 || any(kept != vec4<f32>(0.0)) || any(shift != vec3<f32>(0.0));
    lambda = 0.0;
    kept = vec4<f32>(0.0);
    shift = vec3<f32>(0.0);
  }
  var code = u32(kept.w);
  var f = kept.xyz;
  var touched = false;
  var sticking = false;
  var touchNormal = vec3<f32>(0.0);
  for (var c = 0u; c < frame.colliderCount; c++) {
    if (!(lambda > 0.0)) {
      code = 0u;
      f = vec3<f32>(0.0);
      shift = vec3<f32>(0.0);
    }
    var probe = p;
    let hit = collideOne(c, substep, &probe);
    if (hit.w > 0.0) {
      var face = 0u;
      if (u32(colliders[(substep * frame.colliderCount + c) * 3u].x) == KIND_BOX) { face = boxFaceOf(hit.xyz); }
      let here = 1u + 8u * c + face;
      if (code != here) {
        // A new contact: what the old one did stays (its shift is now part of the start).
        code = here;
        dirty = true;
        f = vec3<f32>(0.0);
        lambda = 0.0;
        shift = vec3<f32>(0.0);
      }
    } else if (code == 0u || (code - 1u) / 8u != c) {
      continue;
    }
    let face = (code - 1u) % 8u;
    let now = colliderContactDepth(c, substep, face, p);
    if (!now.valid) { continue; }
    let start = p0 - shift;
    var startProbe = start;
    let startInside = collideOne(c, substep, &startProbe).w;
    var depth0 = 0.0;
    if (startInside > 0.0) { depth0 = max(0.0, min(startInside, colliderContactDepth(c, substep, face, start).depth)); }
    let allowance = colliderLayerAllowance(c, substep, depth0);
    let delta = max(-lambda, now.depth - allowance);
    if (delta == 0.0 && lambda == 0.0) { continue; }
    dirty = true;
    p = p + delta * now.normal;
    lambda = max(0.0, lambda + delta);
    // The split impulse's shift of the start follows lambda.
    let s = min(lambda, max(0.0, depth0 - allowance));
    shift = s * now.normal;
    p0 = start + shift;
    // Coulomb friction: the correction that would cancel the substep's tangential displacement,
    // clamped to the cone mu x the impulse part of lambda.
    var t = (p - p0) + f;
    t = t - dot(t, now.normal) * now.normal;
    let tl = length(t);
    let cone = frame.friction * (lambda - s);
    var scale = 1.0;
    if (tl > cone) { scale = cone / tl; }
    let fNew = t * scale;
    p = p - (fNew - f);
    f = fNew;
    if (lambda > 0.0) {
      touched = true;
      touchNormal = now.normal;
      sticking = sticking || tl < cone;
    }
  }
  if (!dirty) { return; }
  positions[i] = vec4<f32>(p, x.w);
  velocities[i] = vec4<f32>(vel.xyz, lambda);
  colliderContacts[2u * i] = vec4<f32>(f, f32(code));
  colliderContacts[2u * i + 1u] = vec4<f32>(shift, 0.0);
  if (any(p0 != p0First)) { prev[i] = vec4<f32>(p0, prev[i].w); }
  // A sticking contact holds the object (STATUS_HELD_NOW of src/contract/held.ts).
  if (sticking) { atomicOr(&objectStatus[vertexObject(i)], 2u); }
  if (touched) {
    // The new normal; the contacts' CONTACT_PUSHED bit kept.
    atomicAnd(&objectStatus[frame.touchBase + i], CONTACT_PUSHED);
    atomicOr(&objectStatus[frame.touchBase + i], packTouchNormal(touchNormal));
  }
}

fn collideVertex(i: u32, substep: u32) {
  if (frame.colliderMultiplier == 1u) {
    collideVertexMultiplier(i, substep);
    return;
  }
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
  if (touched && budget > 0.0) { atomicOr(&objectStatus[vertexObject(i)], 2u); }
  if (touched) {
    // The new normal; the contacts' CONTACT_PUSHED bit kept.
    atomicAnd(&objectStatus[frame.touchBase + i], CONTACT_PUSHED);
    atomicOr(&objectStatus[frame.touchBase + i], packTouchNormal(touchNormal));
  }
}
