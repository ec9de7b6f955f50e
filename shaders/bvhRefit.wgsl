// Surface BVH refit on the GPU, one dispatch per tree level, deepest level first: a node's
// box is the bounds of its leaf triangles' vertices, or the union of its two children's boxes
// (written by the previous dispatch; WebGPU makes one dispatch's storage writes visible to the
// next). Same result as src/bvh/refitSurfaceBvh.ts on f32 positions, bit for bit (min and max
// of f32 values are exact). Node layout: src/bvh/surfaceBvh.ts.

#include "threadIndex"
#include "positions"
#include "bvhNode"

struct Params { start: u32, count: u32, offOrder: u32, offLevels: u32, rowStride: u32, _p0: u32, _p1: u32, _p2: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>; // xyz + inverse mass (sim/state.ts)
// Sections: 3 vertex ids per triangle, then the BVH triangle order, then node ids by level.
@group(0) @binding(2) var<storage, read> topo: array<u32>;
@group(0) @binding(3) var<storage, read_write> nodes: array<BvhNode>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, params.rowStride);
  if (i >= params.count) { return; }
  let id = topo[params.offLevels + params.start + i];
  var node = nodes[id];
  if (node.count == 0u) {
    let l = nodes[node.link];
    let r = nodes[node.link + 1u];
    node.lo = min(l.lo, r.lo);
    node.hi = max(l.hi, r.hi);
  } else {
    var lo = vec3<f32>(3.0e38);
    var hi = vec3<f32>(-3.0e38);
    for (var k = node.link; k < node.link + node.count; k++) {
      let t = topo[params.offOrder + k];
      for (var c = 0u; c < 3u; c++) {
        let x = vertexPosition(topo[3u * t + c]);
        lo = min(lo, x);
        hi = max(hi, x);
      }
    }
    node.lo = lo;
    node.hi = hi;
  }
  nodes[id] = node;
}
