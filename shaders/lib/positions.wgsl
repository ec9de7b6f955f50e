// The one GPU position layout (contract/state.ts): vec4<f32> per vertex, xyz and the inverse mass in w.
// A kernel declares `positions` (read or read_write) as array<vec4<f32>> and reads through these.
fn vertexPosition(v: u32) -> vec3<f32> {
  return positions[v].xyz;
}
fn vertexInverseMass(v: u32) -> f32 {
  return positions[v].w;
}
