// Contact build (docs/collisions.md "Contact response"): one invocation per query of the
// substep, dispatched directly over the list's capacity (gid.x only; the invocations past the
// count return; invocation 0 keeps the frame's largest count, QL_MAX_COUNT). From the
// query and its shortest-path result: the query's counters by status (header words 10..13), the
// contact record (point vertices and weights, the triangle and the barycentrics of s on it, the
// contact offset) and its normal: on an edge or a vertex of the boundary, the direction of the
// shortest path itself, (s - p) / |s - p| (Theorem 2: it lies in the feature's normal cone; with
// it x - s is parallel to n, so the contact puts no torque, and a point in a concave notch is not
// read as satisfied), unless the path is shorter than PATH_DIRECTION_MIN_REL of the triangle's
// longest edge (no direction left after rounding); else the outward normal by feature: the face's
// normal; on an edge, the normalized sum of the unnormalized normals of its two triangles; on a
// vertex, of all its boundary triangles (eq. 6's area-weighted average). The twin of
// src/collision/cpu/contactsCpu.ts appendDcd. Overflowed queries go to the overflow list for the
// CPU fallback. With CONTACT_BUILD_FAR_SIDE each enabled contact also marks its triangle corners with
// its depth (lib/farSideMark.wgsl) for contactsFarSide.wgsl.
#include "positions"
#include "vertexObject"
#include "queryList"
#include "spbResult"
#include "contact"
#include "contactStartGap"
#include "contactSeparation"
#include "farSideMark"
#include "closestPointOnTriangle"

@group(0) @binding(0) var<uniform> params: ContactParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> topo: array<u32>;
@group(0) @binding(3) var<storage, read_write> list: QueryListRW;
@group(0) @binding(4) var<storage, read> results: array<SpbResult>;
@group(0) @binding(5) var<storage, read_write> contacts: array<Contact>;
@group(0) @binding(6) var<storage, read_write> overflow: array<u32>;
// Hybrid (CONTACT_BUILD_ESCAPED_BACKWARD): detection's Pin flags ([vertex], [vertexCount + edge]);
// the substep's start positions (also the offset ramp's start gap).
@group(0) @binding(7) var<storage, read> pin: array<u32>;
@group(0) @binding(8) var<storage, read> prev: array<vec4<f32>>;
// Far-side contacts (CONTACT_BUILD_FAR_SIDE): the per-vertex words of lib/farSideMark.wgsl.
@group(0) @binding(9) var<storage, read_write> farSide: array<atomic<u32>>;

fn startPosition(v: u32) -> vec3<f32> {
  return prev[v].xyz;
}

// ContactParams.buildFlags: a query of a point that is not Pin came from an escape
// (SolverParams.escapedToDcd, dcdDetect.wgsl). Such a point moved into the other body during this
// substep with no CCD candidate, so the way out is back along its motion relative to the surface;
// a shortest path that pushes it onward has found the far side of a part it has crossed more than
// halfway (a thin wall at speed) and is dropped: CCD or the next substep's Pin handles it.
const CONTACT_BUILD_ESCAPED_BACKWARD = 1u;
// ContactParams.buildFlags: this build's far-side contacts are dropped (SolverParams.farSideContacts;
// contactsFarSide.wgsl): each enabled contact marks its triangle corners with its depth.
const CONTACT_BUILD_FAR_SIDE = 2u;

// Overflow list layout (src/collision/gpu/queryList.ts): 12 words per entry: the Query's 8
// words, the substep (the frame's detections so far, list header QL_DETECTIONS), 3 pad.
const OVERFLOW_ENTRY = 12u;
// src/collision/cpu/contactsCpu.ts PATH_DIRECTION_MIN_REL.
const PATH_DIRECTION_MIN_REL = 1e-3;

fn triangleVertices(tri: u32) -> vec3<u32> {
  let o = params.offTriangles + 3u * tri;
  return vec3<u32>(topo[o], topo[o + 1u], topo[o + 2u]);
}

// Unnormalized (area-weighted) outward normal of a boundary triangle.
fn areaNormal(tri: u32) -> vec3<f32> {
  let v = triangleVertices(tri);
  let a = vertexPosition(v.x);
  return cross(vertexPosition(v.y) - a, vertexPosition(v.z) - a);
}

fn appendOverflow(q: Query) {
  let k = atomicAdd(&list.header[QL_OVERFLOW_COUNT], 1u);
  // The overflow list has the query list's capacity: every query fits.
  if (k >= params.listCapacity) { return; }
  let o = OVERFLOW_ENTRY * k;
  overflow[o] = bitcast<u32>(q.p.x);
  overflow[o + 1u] = bitcast<u32>(q.p.y);
  overflow[o + 2u] = bitcast<u32>(q.p.z);
  overflow[o + 3u] = q.tet;
  overflow[o + 4u] = bitcast<u32>(q.exclude);
  overflow[o + 5u] = bitcast<u32>(q.exclude2);
  overflow[o + 6u] = q.source;
  overflow[o + 7u] = bitcast<u32>(q.param);
  overflow[o + 8u] = atomicLoad(&list.header[QL_DETECTIONS]);
}

// CONTACT_BUILD_ESCAPED_BACKWARD: the query's point is not Pin (it escaped) and the path s - p
// pushes it along its motion relative to the triangle point s in this substep.
fn pushesEscapedOnward(kind: u32, id: u32, c: Contact, path: vec3<f32>) -> bool {
  if ((params.buildFlags & CONTACT_BUILD_ESCAPED_BACKWARD) == 0u || kind == QUERY_KIND_CENTROID) { return false; }
  let pinIndex = select(id, params.vertexCount + id, kind == QUERY_KIND_EDGE);
  if (pin[pinIndex] != 0u) { return false; }
  var moved = vec3<f32>(0.0);
  for (var k = 0u; k < 2u; k++) {
    let v = c.pointVertex[k];
    if (v != CONTACT_NONE) { moved += c.pointWeight[k] * (vertexPosition(v) - prev[v].xyz); }
  }
  for (var k = 0u; k < 3u; k++) {
    let v = c.triVertex[k];
    if (v != CONTACT_NONE) { moved -= c.triBary[k] * (vertexPosition(v) - prev[v].xyz); }
  }
  return dot(path, moved) > 0.0;
}

@compute @workgroup_size(64)
fn buildContacts(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let count = atomicLoad(&list.header[QL_COUNT]);
  if (i == 0u) { atomicMax(&list.header[QL_MAX_COUNT], count); }
  let n = min(count, params.listCapacity);
  if (i >= n) { return; }
  let q = list.queries[i];
  let r = results[i];
  var c: Contact;
  c.pointVertex = vec4<u32>(CONTACT_NONE);
  c.triVertex = vec4<u32>(CONTACT_NONE);
  c.enabled = 0u;
  switch (r.status) {
    case SPB_QUERY_FOUND: { atomicAdd(&list.header[QL_CONTACTS], 1u); }
    case SPB_QUERY_NONE: { atomicAdd(&list.header[QL_NO_PATH], 1u); }
    case SPB_QUERY_SKIPPED: { atomicAdd(&list.header[QL_SKIPPED], 1u); }
    case SPB_QUERY_OVERFLOW: {
      atomicAdd(&list.header[QL_SPB_OVERFLOWS], 1u);
      appendOverflow(q);
    }
    default: {}
  }
  // An overflowed query with a partial answer (a valid path found before the stack ran out) is a
  // contact in its own substep too; the CPU's exact answer follows in the next frame.
  if ((r.status != SPB_QUERY_FOUND && r.status != SPB_QUERY_OVERFLOW) || r.triangle < 0) {
    contacts[i] = c;
    return;
  }

  // The penetrating point.
  let kind = queryKind(q.source);
  let id = queryId(q.source);
  if (kind == QUERY_KIND_VERTEX) {
    c.pointVertex.x = id;
    c.pointWeight = vec4<f32>(1.0, 0.0, 0.0, 0.0);
  } else if (kind == QUERY_KIND_EDGE) {
    c.pointVertex.x = topo[params.offBoundaryEdges + 2u * id];
    c.pointVertex.y = topo[params.offBoundaryEdges + 2u * id + 1u];
    c.pointWeight = vec4<f32>(1.0 - q.param, q.param, 0.0, 0.0);
  } else {
    let o = params.offTets + 4u * id;
    c.pointVertex = vec4<u32>(topo[o], topo[o + 1u], topo[o + 2u], topo[o + 3u]);
    c.pointWeight = vec4<f32>(0.25);
  }

  // s on its triangle: barycentrics and normal by feature (codes of closestPointOnTriangle.wgsl).
  let tri = u32(r.triangle);
  let tv = triangleVertices(tri);
  c.triVertex = vec4<u32>(tv, CONTACT_NONE);
  var x = array<vec3<f32>, 3>(vertexPosition(tv.x), vertexPosition(tv.y), vertexPosition(tv.z));
  var normal = vec3<f32>(0.0);
  let path = r.s - q.p;
  let longest = sqrt(max(max(dot(x[1] - x[0], x[1] - x[0]), dot(x[2] - x[1], x[2] - x[1])), dot(x[0] - x[2], x[0] - x[2])));
  let pathDirection = r.feature != 6u && length(path) > PATH_DIRECTION_MIN_REL * longest;
  if (r.feature <= 2u) {
    let k = r.feature;
    c.triBary[k] = 1.0;
    let v = tv[k];
    for (var j = topo[params.offVtOffsets + v]; j < topo[params.offVtOffsets + v + 1u]; j++) {
      normal += areaNormal(topo[params.offVtList + j]);
    }
  } else if (r.feature <= 5u) {
    let k = r.feature - 3u;
    let k1 = (k + 1u) % 3u;
    let e = x[k1] - x[k];
    let ee = dot(e, e);
    let t = select(0.0, clamp(dot(r.s - x[k], e) / ee, 0.0, 1.0), ee > 0.0);
    c.triBary[k] = 1.0 - t;
    c.triBary[k1] = t;
    normal = areaNormal(tri) + areaNormal(topo[params.offTriangleAcross + 3u * tri + k]);
  } else {
    c.triBary = vec4<f32>(triangleBarycentrics(r.s, x[0], x[1], x[2]), 0.0);
    normal = areaNormal(tri);
  }
  if (pathDirection) { normal = path; }
  let len = length(normal);
  let onward = pushesEscapedOnward(kind, id, c, path);
  if (onward) { atomicAdd(&list.header[QL_ESCAPED_REJECTED], 1u); }
  if (!(len > 0.0) || onward) {
    c.enabled = 0u;
    contacts[i] = c;
    return;
  }
  c.normal = normal / len;
  c.lambdaN = 0.0;
  c.frictionUsed = 0.0;
  // A point and a triangle of one object (prev.w: the object id) keep the self-contacts' offset
  // (contactOffset.ts selfContactOffset; contactsCpu.ts appendDcd).
  let delta = select(params.offset, params.selfOffset, vertexObject(c.pointVertex.x) == vertexObject(tv.x));
  c.offset = rampedOffset(delta, contactStartGap(c), params.offsetRamp, RAMP_FLOOR_DCD, params.depenetration);
  c.enabled = 1u;
  contacts[i] = c;
  if ((params.buildFlags & CONTACT_BUILD_FAR_SIDE) != 0u) {
    // The shallowest contact at each corner (the largest mark; contactsFarSide.wgsl reads it).
    let mark = farSideMark(c);
    for (var k = 0u; k < 3u; k++) {
      if (c.triBary[k] > 0.0) { atomicMax(&farSide[FAR_SIDE_WORDS * c.triVertex[k] + FAR_SIDE_MARK], mark); }
    }
  }
}
