// Far-side contacts (SolverParams.farSideContacts 'drop'; docs/collisions.md "Far-side contacts"),
// the twin of src/collision/cpu/farSideContacts.ts: after buildContacts, before the passes, a
// shortest-path contact i is disabled when one of its point vertices v (weight > 0) is a triangle
// corner (barycentric > 0) of the shallowest contact j having v as a corner, j pushes the same way
// (n_i . n_j > 0) and j is shallower (depth = (s - x) . n at the build's positions). A point that
// has crossed more than half of a part has its exact path out through that part's far side, the
// same way as the contacts of the other part's points around it push: the two cannot both be
// right, and the shallower path is the one that undoes the overlap.
// Four dispatches in this order (src/collision/gpu/contactStage.ts), per build:
//   clearFarSide     per vertex: its words to 0 (no corner contact)
//   farSideDepths    per contact: atomicMax of ~depthKey at its triangle corners (the smallest depth)
//   farSideNormals   per contact: at the corners where its key is that smallest one, its normal
//   dropFarSide      per contact: the rule above; QL_FAR_SIDE_DROPPED counts the contacts disabled
// Per vertex FAR_SIDE_WORDS words: ~key of the shallowest corner contact (0: none), its normal.
// Equal depths at a vertex: one of those contacts' normals (the CPU takes the lowest index).
#include "threadIndex"
#include "positions"
#include "queryList"
#include "contact"
#include "contactSeparation"

@group(0) @binding(0) var<uniform> params: ContactParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> list: QueryListRW;
@group(0) @binding(3) var<storage, read_write> contacts: array<Contact>;
@group(0) @binding(4) var<storage, read_write> farSide: array<atomic<u32>>;

// Words per vertex (src/collision/gpu/farSideContacts.ts FAR_SIDE_WORDS).
const FAR_SIDE_WORDS = 4u;

// Contact record i when this build made it and it is enabled; else a record with enabled 0.
fn enabledContact(i: u32) -> Contact {
  var c: Contact;
  c.enabled = 0u;
  if (i < min(atomicLoad(&list.header[QL_COUNT]), params.listCapacity)) { c = contacts[i]; }
  return c;
}

// The contact's depth (s - x) . n at the positions now (the build's: nothing moves between).
fn contactDepth(c: Contact) -> f32 {
  return -contactSeparation(c);
}

// An f32's bits as a u32 in the same order (negatives below positives).
fn depthKey(depth: f32) -> u32 {
  let bits = bitcast<u32>(depth);
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

@compute @workgroup_size(64)
fn clearFarSide(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.applyRowStride);
  if (v >= params.vertexCount) { return; }
  for (var k = 0u; k < FAR_SIDE_WORDS; k++) { atomicStore(&farSide[FAR_SIDE_WORDS * v + k], 0u); }
}

@compute @workgroup_size(64)
fn farSideDepths(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = enabledContact(gid.x);
  if (c.enabled == 0u) { return; }
  // The largest ~key is the smallest key: the shallowest contact; 0 stays "none".
  let mark = ~depthKey(contactDepth(c));
  for (var k = 0u; k < 3u; k++) {
    if (c.triBary[k] > 0.0) { atomicMax(&farSide[FAR_SIDE_WORDS * c.triVertex[k]], mark); }
  }
}

@compute @workgroup_size(64)
fn farSideNormals(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = enabledContact(gid.x);
  if (c.enabled == 0u) { return; }
  let mark = ~depthKey(contactDepth(c));
  for (var k = 0u; k < 3u; k++) {
    let o = FAR_SIDE_WORDS * c.triVertex[k];
    if (c.triBary[k] > 0.0 && atomicLoad(&farSide[o]) == mark) {
      atomicStore(&farSide[o + 1u], bitcast<u32>(c.normal.x));
      atomicStore(&farSide[o + 2u], bitcast<u32>(c.normal.y));
      atomicStore(&farSide[o + 3u], bitcast<u32>(c.normal.z));
    }
  }
}

@compute @workgroup_size(64)
fn dropFarSide(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = enabledContact(gid.x);
  if (c.enabled == 0u) { return; }
  let key = depthKey(contactDepth(c));
  for (var k = 0u; k < 4u; k++) {
    let v = c.pointVertex[k];
    if (v == CONTACT_NONE || !(c.pointWeight[k] > 0.0)) { continue; }
    let o = FAR_SIDE_WORDS * v;
    let mark = atomicLoad(&farSide[o]);
    // A shallower corner contact at v (strictly: the contact is never its own corner contact).
    if (mark == 0u || ~mark >= key) { continue; }
    let n = vec3<f32>(bitcast<f32>(atomicLoad(&farSide[o + 1u])), bitcast<f32>(atomicLoad(&farSide[o + 2u])), bitcast<f32>(atomicLoad(&farSide[o + 3u])));
    if (dot(c.normal, n) > 0.0) {
      contacts[gid.x].enabled = 0u;
      atomicAdd(&list.header[QL_FAR_SIDE_DROPPED], 1u);
      return;
    }
  }
}
