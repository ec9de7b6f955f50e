// The per-vertex penetration depth the renderer tints by (issue 10 "Rendering"; paper 000
// Fig. 16a), written after a frame from the display's own detection (every boundary vertex, self
// and inter-object hits, whatever the collision settings) and the shortest path to boundary of
// each hit (paper 000 section 3.4): per scene vertex one vec4,
//   xyz  the boundary point the shortest path reaches (the contact target), or x itself
//   w    the penetration depth |x - target|; 0 for free, interior or unanswered vertices
// Two kernels over the one output (src/collision/gpu/intersectionDisplay.ts records them):
//   clearDepths  one invocation per scene vertex: depth[v] = (x_v, 0)
//   writeDepths  one invocation per query (dispatched indirectly from the args detection wrote):
//                a vertex query answered FOUND -> depth[v] = (s, |x_v - s|)
// A query whose path overflowed the GPU stacks, found none, or was skipped at an inverted
// boundary element (section 3.5) leaves its vertex at 0: the display has no CPU fallback.
#include "threadIndex"
#include "positions"
#include "queryList"
#include "spbResult"

struct DepthParams {
  vertexCount: u32,
  rowStride: u32,  // threadIndex's row stride of clearDepths' grid
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: DepthParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> list: QueryListR;
@group(0) @binding(3) var<storage, read> results: array<SpbResult>;
@group(0) @binding(4) var<storage, read_write> depth: array<vec4<f32>>;

@compute @workgroup_size(64)
fn clearDepths(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.rowStride);
  if (v >= params.vertexCount) { return; }
  depth[v] = vec4<f32>(vertexPosition(v), 0.0);
}

@compute @workgroup_size(64)
fn writeDepths(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let n = min(list.header[QL_COUNT], list.header[QL_CAPACITY]);
  if (i >= n) { return; }
  let q = list.queries[i];
  if (queryKind(q.source) != QUERY_KIND_VERTEX) { return; }
  let r = results[i];
  if (r.status != SPB_QUERY_FOUND) { return; }
  let v = queryId(q.source);
  // One query per vertex point (detection appends at most one per point): no write conflicts.
  depth[v] = vec4<f32>(r.s, distance(vertexPosition(v), r.s));
}
