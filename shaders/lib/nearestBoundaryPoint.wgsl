// The nearest boundary point of a connected component: a nearest-first walk of a surface BVH,
// the radius shrinking to each nearer candidate (ties: the first found), the query's excluded
// triangles left out. The static twin of src/spb/euclideanQuery.ts's nearestInComponent, used
// by the rest-pose closest point (over the rest pose's tree) and the deformed distance field's
// anchor (over the current tree). Needs shaders/lib bvhNode, boundaryTriangles,
// closestPointOnTriangle and spbResult, and from the includer:
//   const NEAREST_STACK: u32                   the walk's fixed stack (deeper trees overflow)
//   fn nearestTreeSize() -> u32                nodes of the tree (0: empty)
//   fn nearestNode(i: u32) -> BvhNode          its node i
//   fn nearestTriangleAt(k: u32) -> u32        the triangle at leaf slot k
//   fn nearestCorner(v: u32) -> vec3<f32>      vertex v where the walk measures
// and, for writeTargetResult, the bindings `results: array<SpbResult>` and `counters` (the
// shortest path's, summed statistics at 1 + STAT_* of src/spb/workspace.ts).

struct NearestHit {
  point: vec3<f32>,
  triangle: i32,  // -1: none
  d2: f32,
  feature: u32,
  candidates: u32, // triangles looked at (the Q of Table 1)
  status: u32,     // SPB_QUERY_FOUND, _NONE or _OVERFLOW
}

var<private> nearestStack: array<u32, NEAREST_STACK>;
var<private> nearestDist: array<f32, NEAREST_STACK>;

fn nearestBoundaryPoint(p: vec3<f32>, component: u32, e1: i32, e2: i32) -> NearestHit {
  var hit = NearestHit(vec3<f32>(0.0), -1, 3.0e38, 0u, 0u, SPB_QUERY_NONE);
  if (nearestTreeSize() == 0u) { return hit; }
  nearestStack[0] = 0u;
  nearestDist[0] = boxDistance2(nearestNode(0u), p);
  var top = 1u;
  while (top > 0u) {
    top--;
    if (nearestDist[top] >= hit.d2) { continue; }
    let node = nearestNode(nearestStack[top]);
    if (node.count == 0u) {
      let dl = boxDistance2(nearestNode(node.link), p);
      let dr = boxDistance2(nearestNode(node.link + 1u), p);
      let nearFirst = dl <= dr;
      // The far child goes on the stack first, so the near one is walked first.
      var order = array<u32, 2>(select(node.link, node.link + 1u, nearFirst), select(node.link + 1u, node.link, nearFirst));
      var dist = array<f32, 2>(select(dl, dr, nearFirst), select(dr, dl, nearFirst));
      for (var c = 0u; c < 2u; c++) {
        if (!(dist[c] < hit.d2)) { continue; }
        if (top >= NEAREST_STACK) {
          hit.status = SPB_QUERY_OVERFLOW;
          return hit;
        }
        nearestStack[top] = order[c];
        nearestDist[top] = dist[c];
        top++;
      }
      continue;
    }
    for (var k = node.link; k < node.link + node.count; k++) {
      let f = nearestTriangleAt(k);
      hit.candidates++;
      if (triComponent(f) != component || excluded(f, e1, e2)) { continue; }
      let c = closestPointOnTriangle(p, nearestCorner(triVert(f, 0u)), nearestCorner(triVert(f, 1u)), nearestCorner(triVert(f, 2u)));
      let d2 = dot(c.point - p, c.point - p);
      if (d2 < hit.d2) {
        hit.point = c.point;
        hit.triangle = i32(f);
        hit.d2 = d2;
        hit.feature = c.feature;
      }
    }
  }
  hit.status = select(SPB_QUERY_NONE, SPB_QUERY_FOUND, hit.triangle >= 0);
  return hit;
}

// Query i's result record from a walk's hit: a found hit gets the method's target s and its
// distance, the hit's triangle and feature; otherwise the record of no answer. Adds the summed
// statistics: Q (the walk's candidates), overflows, queries.
fn writeTargetResult(i: u32, hit: NearestHit, s: vec3<f32>, distance: f32) {
  let found = hit.status == SPB_QUERY_FOUND;
  var out: SpbResult;
  out.s = select(vec3<f32>(0.0), s, found);
  out.distance = select(-1.0, distance, found);
  out.triangle = select(-1, hit.triangle, found);
  out.feature = select(0u, hit.feature, found);
  out.status = hit.status;
  out.bvhCandidates = hit.candidates;
  out.traversals = 0u;
  out.tetsVisited = 0u;
  out.culled = 0u;
  out.branchings = 0u;
  results[i] = out;
  atomicAdd(&counters[1], hit.candidates);
  atomicAdd(&counters[5], select(0u, 1u, hit.status == SPB_QUERY_OVERFLOW));
  atomicAdd(&counters[8], 1u);
}
