// Per-tet measures for the shortest-path query: the longest squared edge h^2 (the local length
// scale every tolerance is relative to) and whether the tet is inverted (signed volume <= 0),
// plus the number of inverted tets in counters[0], the inverted tets themselves from
// counters[INVERTED_LIST] on (the culling guard of the query) and, per connected component c, a
// flag in counters[COMPONENT_FLAGS + c] (components without inverted tets keep the "beyond p" cut
// of Alg. 1 line 25; in the others branches may travel backward, paper section 3.5, and culling
// is guarded). Same formulas as updateTetMeasures in src/spb/meshData.ts. Run by spbPrepass.wgsl,
// or inside the spatial hash's build (dcdHash.wgsl, DETECT_MEASURE_TETS: the same tets, the same
// positions, one dispatch less). The counters must be cleared before (counters[0] and the
// component flags: list entries are rewritten for every slot below counters[0]). The including
// kernel declares `measures: array<vec2<f32>>` and `counters: array<atomic<u32>>` (read_write).

// Counter layout (src/spb/gpu/packSpbBuffers.ts): the list of inverted tets (the first
// INVERTED_CAP, in no particular order: the query's culling guard takes a minimum over them), then
// one flag per component.
const INVERTED_LIST = 10u;
const INVERTED_CAP = 256u;
const COMPONENT_FLAGS = 266u;

// Tet t with corners a, b, c, d (in its vertex order), of connected component `component`.
fn measureTet(t: u32, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, d: vec3<f32>, component: u32) {
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
    atomicStore(&counters[COMPONENT_FLAGS + component], 1u);
  }
}
