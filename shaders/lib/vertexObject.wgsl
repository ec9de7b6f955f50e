// A vertex's object id: the u32 bits in the w of `prev`, the positions at the substep's start
// (src/contract/state.ts). The including kernel declares `prev` as array<vec4<f32>> (read or
// read_write); objectIdBits decodes a w already loaded.
fn objectIdBits(w: f32) -> u32 {
  return bitcast<u32>(w);
}
fn vertexObject(v: u32) -> u32 {
  return objectIdBits(prev[v].w);
}
