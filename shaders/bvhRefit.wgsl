// Surface BVH refit on the GPU in two dispatches (src/bvh/refitSchedule.ts): subtrees, one
// workgroup each, then the top nodes in one workgroup; inside a workgroup the nodes go by height,
// a storage barrier between heights (lib/cellSweep.wgsl). A node's box is the bounds of its leaf
// triangles' vertices, or the union of its two children's boxes (final by then). Same result as
// src/bvh/refitSurfaceBvh.ts on f32 positions, bit for bit (min and max of f32 values are
// exact). Node layout: src/bvh/surfaceBvh.ts.

#include "positions"
#include "bvhNode"
#include "cellSweep"

// start, count: the dispatch's groups (subtrees, or the top); rowStride: workgroups per grid row.
struct Params { start: u32, count: u32, offOrder: u32, offLevels: u32, rowStride: u32, _p0: u32, _p1: u32, _p2: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>; // xyz + inverse mass (contract/state.ts)
// Sections: 3 vertex ids per triangle, then the BVH triangle order, then node ids in sweep order.
@group(0) @binding(2) var<storage, read> topo: array<u32>;
@group(0) @binding(3) var<storage, read_write> nodes: array<BvhNode>;
@group(0) @binding(4) var<storage, read> cellRanges: array<u32>; // the sweep's groups and rounds

fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(params.start, params.count, params.rowStride);
}
fn cellRangeWord(k: u32) -> u32 {
  return cellRanges[k];
}
fn afterCellSweep(group: u32, lane: u32) {}

fn solveOrdered(n: u32) {
  refitNode(topo[params.offLevels + n]);
}

fn refitNode(id: u32) {
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
