// (x - s) . n of a contact at the substep's start positions: the gap the offset ramp starts from
// (contact.wgsl rampedOffset). The including kernel declares startPosition(v) (the substep's start
// position of vertex v). CPU twin: CpuContacts.gap at x0 with offset 0 (rampOffsets).
fn contactStartGap(c: Contact) -> f32 {
  var d = vec3<f32>(0.0);
  for (var k = 0u; k < 4u; k++) {
    let v = c.pointVertex[k];
    if (v != CONTACT_NONE) { d += c.pointWeight[k] * startPosition(v); }
  }
  for (var k = 0u; k < 3u; k++) {
    let v = c.triVertex[k];
    if (v != CONTACT_NONE) { d -= c.triBary[k] * startPosition(v); }
  }
  return dot(d, c.normal);
}
