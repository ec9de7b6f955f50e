// Rest shape of every tet: Dm = [b-a, c-a, d-a], its inverse (column-major, one vec4 per
// column, w = 0) and the signed rest volume det(Dm)/6. Same formulas as src/sim/restShapeCpu.ts.

// rowStride: invocations per row of the dispatch grid (x groups * 64), see src/gpu/buffers.ts.
struct Params { tetCount: u32, rowStride: u32, _pad1: u32, _pad2: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<f32>;    // xyz per vertex, packed
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> dmInv: array<vec4<f32>>; // 3 columns per tet
@group(0) @binding(4) var<storage, read_write> volume: array<f32>;

fn vertex(i: u32) -> vec3<f32> {
  return vec3<f32>(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x + gid.y * params.rowStride;
  if (t >= params.tetCount) { return; }
  let ids = tets[t];
  let a = vertex(ids.x);
  let e0 = vertex(ids.y) - a;
  let e1 = vertex(ids.z) - a;
  let e2 = vertex(ids.w) - a;
  // Rows of Dm^-1 are the crosses of Dm's columns over det; column j of the inverse is
  // therefore (c0[j], c1[j], c2[j]) / det.
  let c0 = cross(e1, e2);
  let c1 = cross(e2, e0);
  let c2 = cross(e0, e1);
  let det = dot(e0, c0);
  let s = 1.0 / det;
  dmInv[3u * t] = vec4<f32>(c0.x * s, c1.x * s, c2.x * s, 0.0);
  dmInv[3u * t + 1u] = vec4<f32>(c0.y * s, c1.y * s, c2.y * s, 0.0);
  dmInv[3u * t + 2u] = vec4<f32>(c0.z * s, c1.z * s, c2.z * s, 0.0);
  volume[t] = det / 6.0;
}
