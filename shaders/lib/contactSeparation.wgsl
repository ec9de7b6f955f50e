// (x - s) . n of a contact at the positions now: its C before the offset (contacts.wgsl contactGap
// subtracts the offset; contactsFarSide.wgsl takes minus it as the depth). The including kernel
// declares `positions` (lib/positions.wgsl vertexPosition). CPU twin: CpuContacts.gap + offset.
fn contactSeparation(c: Contact) -> f32 {
  var d = vec3<f32>(0.0);
  for (var k = 0u; k < 4u; k++) {
    if (c.pointVertex[k] != CONTACT_NONE && c.pointWeight[k] != 0.0) { d += c.pointWeight[k] * vertexPosition(c.pointVertex[k]); }
  }
  for (var k = 0u; k < 3u; k++) {
    if (c.triBary[k] != 0.0) { d -= c.triBary[k] * vertexPosition(c.triVertex[k]); }
  }
  return dot(d, c.normal);
}
