// lib/neoHookeanBlock.wgsl's view of the tets for kernels that bind them as xpbdNeoHookean.wgsl
// does: `tets` (vec4<u32> corners) and `tetData` (Dm^-1, 3 vec4 a tet, then each tet's constants).
fn tetCorners(t: u32) -> vec4<u32> {
  return tets[t];
}
fn tetDmInv(t: u32) -> mat3x3<f32> {
  return mat3x3<f32>(tetData[3u * t].xyz, tetData[3u * t + 1u].xyz, tetData[3u * t + 2u].xyz);
}
fn tetConstants(t: u32) -> vec4<f32> {
  return tetData[3u * frame.tetCount + t];
}
