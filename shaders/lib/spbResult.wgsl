// The shortest-path answer to one query (shaders/spbQuery.wgsl writes it at the query's index;
// the contacts read it): RESULT_WORDS = 12 words (src/spb/gpu/packSpbBuffers.ts, unpackResults).
// status: SPB_QUERY_* (src/spb/query.ts QUERY_*); the per-query statistics after it are those of
// src/spb/workspace.ts (Q, Tr, Tet, culled, branchings).
const SPB_QUERY_NONE = 0u;     // no valid path
const SPB_QUERY_FOUND = 1u;
const SPB_QUERY_OVERFLOW = 2u; // a fixed GPU stack overflowed: answer on the CPU; triangle >= 0 then
                               // holds the nearest valid boundary point found before (a valid path,
                               // not necessarily the shortest), -1 when none was found
const SPB_QUERY_SKIPPED = 3u;  // self query of a vertex on an inverted boundary tet (section 3.5)

struct SpbResult {
  s: vec3<f32>,      // closest boundary point (0 when not found)
  distance: f32,     // |s - p|, -1 when not found
  triangle: i32,     // boundary triangle of s (scene mesh's boundaryTriangles), -1 when not found
  feature: u32,      // feature of s on it (closestPointOnTriangle.wgsl codes)
  status: u32,
  bvhCandidates: u32,
  traversals: u32,
  tetsVisited: u32,
  culled: u32,
  branchings: u32,
}
