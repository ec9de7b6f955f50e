// Far-side contacts (SolverParams.farSideContacts 'drop'; docs/collisions.md "Far-side contacts"),
// the twin of src/collision/cpu/farSideContacts.ts: a shortest-path contact i is disabled when one
// of its point vertices v (weight > 0) is a triangle corner (barycentric > 0) of the shallowest
// contact j having v as a corner, j pushes the same way (n_i . n_j > 0), j is shallower (depth =
// (s - x) . n at the build's positions) and j's point belongs to the object of i's triangle (the
// part i's point crossed; a third body pressing through the same corner says nothing about it).
// A point that has crossed more than half of a part has its exact path out through that part's far
// side, the same way as the contacts of the other part's points around it push: the two cannot both
// be right, and the shallower path is the one that undoes the overlap.
// Per build (src/collision/gpu/contactStage.ts), the words of lib/farSideMark.wgsl:
//   buildContacts    (contactsBuild.wgsl) per contact: atomicMax of its mark at its triangle corners
//   farSideWinners   per contact: at the corners where its mark is the largest, its index and mark
//   dropFarSide      per contact: the rule above (QL_FAR_SIDE_DROPPED counts the contacts
//                    disabled); and per vertex: the mark word zeroed for the next build
// so two dispatches after the build. Equal depths at a vertex: one of those contacts (the CPU takes
// the lowest index).
#include "positions"
#include "queryList"
#include "contact"
#include "contactSeparation"
#include "farSideMark"

@group(0) @binding(0) var<uniform> params: ContactParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> list: QueryListRW;
@group(0) @binding(3) var<storage, read_write> contacts: array<Contact>;
@group(0) @binding(4) var<storage, read_write> farSide: array<atomic<u32>>;
// The positions at the substep's start; w holds the vertex's object id (contract/state.ts).
@group(0) @binding(5) var<storage, read> prev: array<vec4<f32>>;

#include "vertexObject"

// This build's contacts: [0, count).
fn builtCount() -> u32 {
  return min(atomicLoad(&list.header[QL_COUNT]), params.listCapacity);
}

// Record i's geometry (its point, triangle, barycentrics and normal), without its `enabled` word,
// which dropFarSide writes while other invocations read the record. enabled is 1.
fn contactGeometry(i: u32) -> Contact {
  var c: Contact;
  c.pointVertex = contacts[i].pointVertex;
  c.pointWeight = contacts[i].pointWeight;
  c.triVertex = contacts[i].triVertex;
  c.triBary = contacts[i].triBary;
  c.normal = contacts[i].normal;
  c.enabled = 1u;
  return c;
}

@compute @workgroup_size(64)
fn farSideWinners(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= builtCount()) { return; }
  let c = contacts[i];
  if (c.enabled == 0u) { return; }
  let mark = farSideMark(c);
  for (var k = 0u; k < 3u; k++) {
    let o = FAR_SIDE_WORDS * c.triVertex[k];
    if (c.triBary[k] > 0.0 && atomicLoad(&farSide[o + FAR_SIDE_MARK]) == mark) {
      atomicStore(&farSide[o + FAR_SIDE_WINNER], i);
      atomicStore(&farSide[o + FAR_SIDE_WINNER_MARK], mark);
    }
  }
}

// Whether contact i (enabled, geometry c) is a far-side contact: the rule in the header, with the
// shallowest corner contact at each point vertex read from its winner words. Those are this
// build's when any enabled contact of it has the vertex as a corner (farSideWinners wrote them);
// otherwise they are an older build's, and the record they name no longer has the vertex as a
// corner with that mark.
fn isFarSide(i: u32, c: Contact, count: u32) -> bool {
  let mark = farSideMark(c);
  for (var k = 0u; k < 4u; k++) {
    let v = c.pointVertex[k];
    if (v == CONTACT_NONE || !(c.pointWeight[k] > 0.0)) { continue; }
    let o = FAR_SIDE_WORDS * v;
    let j = atomicLoad(&farSide[o + FAR_SIDE_WINNER]);
    let winnerMark = atomicLoad(&farSide[o + FAR_SIDE_WINNER_MARK]);
    // A shallower corner contact (strictly: the contact is never its own corner contact).
    if (j == i || j >= count || winnerMark <= mark) { continue; }
    let cj = contactGeometry(j);
    if (!isTriangleCorner(cj, v) || farSideMark(cj) != winnerMark) { continue; }
    // Only a point of the part that i's point crossed (i's triangle's object) pulls it back.
    if (vertexObject(cj.pointVertex.x) != vertexObject(c.triVertex.x)) { continue; }
    if (dot(c.normal, cj.normal) > 0.0) { return true; }
  }
  return false;
}

@compute @workgroup_size(64)
fn dropFarSide(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.x;
  let count = builtCount();
  if (i < count) {
    let c = contactGeometry(i);
    if (contacts[i].enabled != 0u && isFarSide(i, c, count)) {
      contacts[i].enabled = 0u;
      atomicAdd(&list.header[QL_FAR_SIDE_DROPPED], 1u);
    }
  }
  // The marks start the next build at 0 (no corner contact); nothing above reads them.
  for (var v = i; v < params.vertexCount; v += 64u * groups.x) {
    atomicStore(&farSide[FAR_SIDE_WORDS * v + FAR_SIDE_MARK], 0u);
  }
}
