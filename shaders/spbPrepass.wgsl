// Per-tet measures for the shortest-path query (run after every position update, before
// spbQuery.wgsl): the longest squared edge h^2 (the local length scale every tolerance is
// relative to) and whether the tet is inverted (signed volume <= 0), plus the number of
// inverted tets in counters[0], the inverted tets themselves from counters[INVERTED_LIST] on
// (the culling guard of the query) and, per connected component c, a flag in
// counters[COMPONENT_FLAGS + c] (components without inverted tets keep the "beyond p" cut of
// Alg. 1 line 25; in the others branches may travel backward, paper section 3.5, and culling is
// guarded). Same formulas as updateTetMeasures in src/spb/meshData.ts. The counters must be
// cleared before the dispatch
// (counters[0] and the component flags: list entries are rewritten for every slot below counters[0]).

#include "threadIndex"
#include "positions"

struct Params { tetCount: u32, offTetComponent: u32, rowStride: u32, _pad: u32 }

// Counter layout (src/spb/gpu/packSpbBuffers.ts): the list of inverted tets (the first
// INVERTED_CAP, in no particular order: the query's culling guard takes a minimum over them), then
// one flag per component.
const INVERTED_LIST = 10u;
const INVERTED_CAP = 256u;
const COMPONENT_FLAGS = 266u;

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
  let e1 = b - a;
  let e2 = c - a;
  let e3 = d - a;
  let vol6 = dot(e1, cross(e2, e3));
  let f1 = c - b;
  let f2 = d - b;
  let f3 = d - c;
  let h2 = max(max(max(dot(e1, e1), dot(e2, e2)), max(dot(e3, e3), dot(f1, f1))), max(dot(f2, f2), dot(f3, f3)));
  let inverted = !(vol6 > 0.0);
  measures[t] = vec2<f32>(h2, select(0.0, 1.0, inverted));
  if (inverted) {
    let slot = atomicAdd(&counters[0], 1u);
    if (slot < INVERTED_CAP) { atomicStore(&counters[INVERTED_LIST + slot], t); }
    atomicStore(&counters[COMPONENT_FLAGS + topo[params.offTetComponent + t]], 1u);
  }
}
