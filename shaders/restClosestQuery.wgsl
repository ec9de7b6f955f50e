// Rest-pose closest boundary point (paper 000 section 5.5, Figs. 22-23), one invocation per
// query of the shortest path's query list, writing the shortest path's result record at the
// query's index (shaders/lib/spbResult.wgsl) so that the contact stage reads it unchanged.
// The port of src/penetration/restClosest.ts (read it for the reasoning):
//   P = sum_i u_i X_i     (u: the point's barycentrics in its tet's current shape, X: rest positions)
//   f, b = the rest boundary triangle nearest to P in the tet's component and P's closest
//          point's barycentrics on it (the query's own triangles excluded)
//   s = sum_k b_k x_k     (current positions): point s, distance |s - p|, triangle f, feature.
//
// The host prepends `const NEAREST_STACK: u32` (src/penetration/gpu/penetrationKernels.ts).
// Bindings (REST_CLOSEST_BINDINGS there, in this order; 8 storage buffers):
//   positions      vec4 per vertex, current (xyz + inverse mass, sim/state.ts)
//   tets           2 vec4<u32> per tet (ids, neighbours): the shortest path's (packSpbBuffers.ts)
//   topo           the shortest path's topology words (triangles, components)
//   restPositions  vec4 per vertex at rest (w unused)
//   restTree       the rest pose's BVH: 8 words per node (BvhNode layout), then its triangle order
//   list, results  the query list and its result records
//   counters       the shortest path's counters (summed statistics at 1 + STAT_*, workspace.ts)

#include "threadIndex"
#include "positions"
#include "bvhNode"
#include "boundaryTriangles"
#include "closestPointOnTriangle"
#include "queryList"
#include "spbResult"
#include "tetFrame"
#include "penetrationQuery"
#include "nearestBoundaryPoint"

@group(0) @binding(0) var<uniform> params: PenetrationParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> topo: array<u32>;
@group(0) @binding(4) var<storage, read> restPositions: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> restTree: array<u32>;
@group(0) @binding(6) var<storage, read> list: QueryListR;
@group(0) @binding(7) var<storage, read_write> results: array<SpbResult>;
@group(0) @binding(8) var<storage, read_write> counters: array<atomic<u32>>;

fn nearestTreeSize() -> u32 { return params.nodeCount; }
fn nearestTriangleAt(k: u32) -> u32 { return restTree[params.offOrder + k]; }
fn nearestCorner(v: u32) -> vec3<f32> { return restPositions[v].xyz; }
fn nearestNode(i: u32) -> BvhNode {
  let o = 8u * i;
  let lo = vec3<f32>(bitcast<f32>(restTree[o]), bitcast<f32>(restTree[o + 1u]), bitcast<f32>(restTree[o + 2u]));
  let hi = vec3<f32>(bitcast<f32>(restTree[o + 4u]), bitcast<f32>(restTree[o + 5u]), bitcast<f32>(restTree[o + 6u]));
  return BvhNode(lo, restTree[o + 3u], hi, restTree[o + 7u]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let query = penetrationQueryAt(gid);
  if (!query.listed) { return; }
  let q = query.q;
  var hit = NearestHit(vec3<f32>(0.0), -1, 0.0, 0u, 0u, SPB_QUERY_NONE);
  if (query.frame.valid) {
    let rest = query.frame.u.x * restPositions[query.ids.x].xyz + query.frame.u.y * restPositions[query.ids.y].xyz + query.frame.u.z * restPositions[query.ids.z].xyz + query.frame.u.w * restPositions[query.ids.w].xyz;
    hit = nearestBoundaryPoint(rest, topo[params.offTetComponent + q.tet], q.exclude, q.exclude2);
  }
  var s = vec3<f32>(0.0);
  if (hit.status == SPB_QUERY_FOUND) {
    let f = u32(hit.triangle);
    let v = vec3<u32>(triVert(f, 0u), triVert(f, 1u), triVert(f, 2u));
    let b = triangleBarycentrics(hit.point, restPositions[v.x].xyz, restPositions[v.y].xyz, restPositions[v.z].xyz);
    s = b.x * vertexPosition(v.x) + b.y * vertexPosition(v.y) + b.z * vertexPosition(v.z);
  }
  writeTargetResult(query.index, hit, s, length(s - q.p));
}
