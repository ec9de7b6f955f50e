// One CCD query per invocation (src/collision/ccd/gpu/ccdBatchGpu.ts): reads 24 f32 per query in the CPU API's
// layout (4 points at t0, then the same 4 at t1; vertex-face: v, f0, f1, f2; edge-edge: ea, eb, ec, ed) and
// writes the conservative time of impact of shaders/lib/ccd.wgsl (-1 = no contact possible). For tests and
// benchmarks; the time step calls the same snippet from its own kernel.

#include "threadIndex"
#include "ccd"

struct Params { count: u32, kind: u32, separation: f32, rowStride: u32 }

// The time step's order on a software adapter (ccdNarrow.wgsl ccdSweep): the motion's boxes first
// (lib/ccd.wgsl ccdMotionBoxesApart), the solve only for pairs they leave. Tests compare both ways.
override apartFirst: bool = false;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> queries: array<f32>;
@group(0) @binding(2) var<storage, read_write> toi: array<f32>;

fn queryPoint(i: u32, p: u32) -> vec3<f32> {
  let b = 24u * i + 3u * p;
  return vec3<f32>(queries[b], queries[b + 1u], queries[b + 2u]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, params.rowStride);
  if (i >= params.count) { return; }
  let p0 = queryPoint(i, 0u);
  let p1 = queryPoint(i, 1u);
  let p2 = queryPoint(i, 2u);
  let p3 = queryPoint(i, 3u);
  let q0 = queryPoint(i, 4u);
  let q1 = queryPoint(i, 5u);
  let q2 = queryPoint(i, 6u);
  let q3 = queryPoint(i, 7u);
  if (apartFirst && ccdMotionBoxesApart(p0, p1, p2, p3, q0, q1, q2, q3, params.kind == 0u, params.separation)) {
    toi[i] = -1.0;
    return;
  }
  // One ccdSolve call site: a software adapter pays for every inlined copy of it, whichever branch runs
  // (docs/architecture.md, "One call site for each heavy WGSL function in a kernel").
  let vertexFace = params.kind == 0u;
  var diff: CcdDiff;
  if (vertexFace) {
    diff = ccdVertexFaceDiff(p0, p1, p2, p3, q0, q1, q2, q3);
  } else {
    diff = ccdEdgeEdgeDiff(p0, p1, p2, p3, q0, q1, q2, q3);
  }
  toi[i] = ccdSolve(diff, vertexFace, params.separation);
}
