// Per-tet measures for the shortest-path query (lib/tetMeasures.wgsl), one invocation per tet,
// after every position update and before spbQuery.wgsl, where detection's hash build does not
// already take them (DETECT_MEASURE_TETS). The counters must be cleared before the dispatch.

#include "threadIndex"
#include "positions"
#include "tetMeasures"

struct Params { tetCount: u32, offTetComponent: u32, rowStride: u32, _pad: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>; // xyz + inverse mass (contract/state.ts)
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;  // 2 per tet: vertex ids, neighbours
@group(0) @binding(3) var<storage, read> topo: array<u32>;          // tet components at offTetComponent
@group(0) @binding(4) var<storage, read_write> measures: array<vec2<f32>>; // (h^2, inverted 0/1)
@group(0) @binding(5) var<storage, read_write> counters: array<atomic<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = threadIndex(gid, params.rowStride);
  if (t >= params.tetCount) { return; }
  let ids = tets[2u * t];
  let a = vertexPosition(ids.x);
  let b = vertexPosition(ids.y);
  let c = vertexPosition(ids.z);
  let d = vertexPosition(ids.w);
  measureTet(t, a, b, c, d, topo[params.offTetComponent + t]);
}
