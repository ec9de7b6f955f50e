// Far-side contacts' per-vertex words (SolverParams.farSideContacts 'drop'; contactsFarSide.wgsl,
// src/collision/gpu/farSideContacts.ts FAR_SIDE_WORDS), FAR_SIDE_WORDS u32 per vertex:
//   FAR_SIDE_MARK    the largest mark (the shallowest contact) of this build's DCD contacts having
//                    the vertex as a triangle corner (barycentric > 0): atomicMax in buildContacts;
//                    0: none; dropFarSide zeroes it for the next build
//   FAR_SIDE_WINNER  the index of a contact holding that mark, and
//   FAR_SIDE_WINNER_MARK its mark (farSideWinners); dropFarSide trusts them only when that record
//                    still has the vertex as a corner and that mark (an older build's are stale)
// The including kernel declares `positions` and includes "contact" and "contactSeparation".
const FAR_SIDE_WORDS = 3u;
const FAR_SIDE_MARK = 0u;
const FAR_SIDE_WINNER = 1u;
const FAR_SIDE_WINNER_MARK = 2u;

// An f32's bits as a u32 in the same order (negatives below positives).
fn depthKey(depth: f32) -> u32 {
  let bits = bitcast<u32>(depth);
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

// The contact's mark: ~depthKey of its depth (s - x) . n at the positions now, so the shallowest
// contact has the largest mark, and no contact's mark is 0 (the depth's key is never all ones: a NaN's).
fn farSideMark(c: Contact) -> u32 {
  return ~depthKey(-contactSeparation(c));
}

// Whether barycentric k of the contact's triangle makes vertex v one of its corners.
fn isTriangleCorner(c: Contact, v: u32) -> bool {
  for (var k = 0u; k < 3u; k++) {
    if (c.triVertex[k] == v && c.triBary[k] > 0.0) { return true; }
  }
  return false;
}
