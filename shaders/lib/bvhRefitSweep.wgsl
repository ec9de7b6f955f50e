// The surface BVH refit's work (src/bvh/refitSchedule.ts): a group is a subtree, or the top,
// swept by height in one workgroup (lib/cellSweep.wgsl), a storage barrier between heights. A
// node's box is the bounds of its leaf triangles' vertices, or the union of its two children's
// boxes (final by then). Same result as src/bvh/refitSurfaceBvh.ts on f32 positions, bit for bit
// (min and max of f32 values are exact). Node layout: src/bvh/surfaceBvh.ts.
//
// The including kernel declares (names shared by bvhRefit.wgsl and the detection kernels that
// run a refit dispatch inside their own, dcdHash.wgsl and dcdDetect.wgsl):
//   refitParams: RefitParams (uniform): this dispatch's groups (subtrees, or the top);
//   bvhTopo: array<u32> (read): 3 vertex ids per triangle, then the BVH triangle order, then node
//     ids in sweep order, then the sweep's group ranges (cellSweep's cellRanges) at offRanges;
//   bvhNodes: array<BvhNode> (read_write);
// and includes "positions" (vertexPosition).

#include "bvhNode"

// start, count: the dispatch's groups (subtrees, or the top); rowStride: workgroups per grid row.
struct RefitParams { start: u32, count: u32, offOrder: u32, offLevels: u32, rowStride: u32, offRanges: u32, _p1: u32, _p2: u32 }

fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(refitParams.start, refitParams.count, refitParams.rowStride);
}
fn cellRangeWord(k: u32) -> u32 {
  return bvhTopo[refitParams.offRanges + k];
}
fn afterCellSweep(group: u32, lane: u32) {}

fn solveOrdered(n: u32) {
  refitNode(bvhTopo[refitParams.offLevels + n]);
}

fn refitNode(id: u32) {
  var node = bvhNodes[id];
  if (node.count == 0u) {
    let l = bvhNodes[node.link];
    let r = bvhNodes[node.link + 1u];
    node.lo = min(l.lo, r.lo);
    node.hi = max(l.hi, r.hi);
  } else {
    var lo = vec3<f32>(3.0e38);
    var hi = vec3<f32>(-3.0e38);
    for (var k = node.link; k < node.link + node.count; k++) {
      let t = bvhTopo[refitParams.offOrder + k];
      for (var c = 0u; c < 3u; c++) {
        let x = vertexPosition(bvhTopo[3u * t + c]);
        lo = min(lo, x);
        hi = max(hi, x);
      }
    }
    node.lo = lo;
    node.hi = hi;
  }
  bvhNodes[id] = node;
}

#include "cellSweep"
