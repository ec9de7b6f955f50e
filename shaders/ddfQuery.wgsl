// Deformed distance field (Fisher and Lin 2001 section 5.2), one invocation per query of the
// shortest path's query list, writing the shortest path's result record at the query's index
// (shaders/lib/spbResult.wgsl) so that the contact stage reads it unchanged. The port of
// src/penetration/deformedDistance.ts (read it for the reasoning):
//   depth     d~ = sum_i u_i d_i                          (eqs. 3-5; u in the tet's current shape)
//   direction F^-T g~ normalized, g~ = sum_i u_i g_i      (or -F^-T grad d~ where |g~| < DDF_CANCEL)
//   target    s = p + d~ direction; its triangle: the current boundary triangle of the tet's
//             component nearest to s (the query's own excluded), with the feature of s's
//             closest point on it. Depth 0 or a flat / inverted tet: no target (QUERY_NONE).
//
// The host prepends `const NEAREST_STACK: u32` (src/penetration/gpu/penetrationKernels.ts).
// Bindings (DDF_BINDINGS there, in this order; 8 storage buffers):
//   positions  vec4 per vertex, current (xyz + inverse mass, sim/state.ts)
//   tets       2 vec4<u32> per tet (ids, neighbours): the shortest path's (packSpbBuffers.ts)
//   topo       the shortest path's topology words (triangles, current BVH order, components)
//   nodes      the current surface BVH (refitted every substep by the spb stage)
//   field      2 vec4 per vertex: (rest xyz, d), (g xyz, 0) (src/penetration/distanceField.ts)
//   list, results  the query list and its result records
//   counters   the shortest path's counters (summed statistics at 1 + STAT_*, workspace.ts)

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
@group(0) @binding(4) var<storage, read> nodes: array<BvhNode>;
@group(0) @binding(5) var<storage, read> field: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> list: QueryListR;
@group(0) @binding(7) var<storage, read_write> results: array<SpbResult>;
@group(0) @binding(8) var<storage, read_write> counters: array<atomic<u32>>;

const DDF_CANCEL = 1e-6; // DDF_DIRECTION_CANCEL of deformedDistance.ts

fn nearestTreeSize() -> u32 { return params.nodeCount; }
fn nearestNode(i: u32) -> BvhNode { return nodes[i]; }
fn nearestTriangleAt(k: u32) -> u32 { return topo[params.offOrder + k]; }
fn nearestCorner(v: u32) -> vec3<f32> { return vertexPosition(v); }

fn restPoint(v: u32) -> vec3<f32> { return field[2u * v].xyz; }
fn restDistance(v: u32) -> f32 { return field[2u * v].w; }
fn restDirection(v: u32) -> vec3<f32> { return field[2u * v + 1u].xyz; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let query = penetrationQueryAt(gid);
  if (!query.listed) { return; }
  let q = query.q;
  let d = vec4<f32>(restDistance(query.ids.x), restDistance(query.ids.y), restDistance(query.ids.z), restDistance(query.ids.w));
  let depth = dot(query.frame.u, d);
  let g = query.frame.u.x * restDirection(query.ids.x) + query.frame.u.y * restDirection(query.ids.y) + query.frame.u.z * restDirection(query.ids.z) + query.frame.u.w * restDirection(query.ids.w);
  // Rest-frame components along the rest edges X_j - X_0 (Dm^T g~), or of -grad d~ (eq. 5).
  let x0 = restPoint(query.ids.x);
  var y = vec3<f32>(dot(restPoint(query.ids.y) - x0, g), dot(restPoint(query.ids.z) - x0, g), dot(restPoint(query.ids.w) - x0, g));
  if (!(length(g) >= DDF_CANCEL)) { y = d.x - d.yzw; }
  let dir = mapCovector(query.frame, y);
  let len = length(dir);
  var hit = NearestHit(vec3<f32>(0.0), -1, 0.0, 0u, 0u, SPB_QUERY_NONE);
  var s = vec3<f32>(0.0);
  if (query.frame.valid && depth > 0.0 && len > 0.0) {
    s = q.p + (depth / len) * dir;
    hit = nearestBoundaryPoint(s, topo[params.offTetComponent + q.tet], q.exclude, q.exclude2);
  }
  writeTargetResult(query.index, hit, s, depth);
}
