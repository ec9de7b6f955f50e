// The query list (docs/collisions.md "GPU buffers"): written by detection, read by the
// shortest-path query and the contacts. A storage buffer of 64 header words, then Query[capacity].
// Mirrors src/collision/gpu/queryList.ts (host side: the same word indices and sizes).
//
//   p        the query point (f32); tet: the tet containing it (the shortest path's start tet)
//   exclude  vertex point: (v, -1); edge point: (a, b); centroid: (-1, -1). The shortest path
//            excludes boundary triangles containing `exclude` AND (exclude2 < 0 OR exclude2).
//   source   bits 0..28: vertex id / boundary edge index / tet id; bits 29..30: kind
//            (0 vertex, 1 edge, 2 centroid); bit 31: euclidean (inter-object, Euclidean mode).
//   param    edge parameter in [0, 1] from boundaryEdges[2e] to boundaryEdges[2e + 1]; else 0.
struct Query { p: vec3<f32>, tet: u32, exclude: i32, exclude2: i32, source: u32, param: f32 }

// Header words (u32).
const QL_COUNT = 0u;            // queries this substep (atomicAdd by detection; may exceed the capacity)
const QL_CAPACITY = 1u;         // Query slots (host, at allocation)
const QL_DROPPED = 2u;          // hits beyond the capacity this frame
const QL_HITS = 3u;             // 3..8: vertex self, vertex inter, edge self, edge inter, centroid self, centroid inter
const QL_MAX_COUNT = 9u;        // max count over the frame's substeps
const QL_CONTACTS = 10u;        // status FOUND
const QL_NO_PATH = 11u;         // QUERY_NONE
const QL_SKIPPED = 12u;         // QUERY_SKIPPED
const QL_SPB_OVERFLOWS = 13u;   // QUERY_OVERFLOW (GPU stack overflow)
const QL_HASH_DROPPED = 14u;    // broad-phase hash entries dropped (pool capacity)
const QL_OVERFLOW_COUNT = 15u;  // overflow-list count (queries kept for the CPU fallback)
const QL_PIN = 16u;             // hybrid: points penetrating at their substep's start (Pin), summed over the frame
const QL_ESCAPED_TESTED = 17u;  // hybrid: free points tested at their substep's end because they left their CCD box (DETECT_ESCAPES)
const QL_ESCAPED_INSIDE = 18u;  // ... and found inside another tet there (each one query)
const QL_ESCAPED_REJECTED = 19u; // ... whose contact the build dropped: its path pushed the point onward (contactsBuild.wgsl pushesEscapedOnward)
const QL_DETECTIONS = 20u;       // detections this frame (detection's invocation 0 adds 1; not the separate Pin pass): the substep an overflow entry records (contactsBuild.wgsl)
const QL_FAR_SIDE_DROPPED = 21u;  // shortest-path contacts disabled as far-side contacts (contactsFarSide.wgsl dropFarSide), summed over the frame
const QL_INVERSION_FLOOR_TETS = 22u;  // recovery mode: tets found below the inversion floor (inversionFloor.wgsl), summed over the frame's rounds
const QL_PIN_IN_FOLD = 23u;       // hybrid: points inside another object's tet at their substep's start left Pout, an inverted tet of it holding them too (dcdDetect.wgsl inOthersFold)
const QL_PIN_RELEASED = 24u;       // hybrid with pinRelease: Pin vertices found in no tet at detection, marked PIN_RELEASED (dcdDetect.wgsl)
const QL_HEADER_WORDS = 64u;

const QUERY_KIND_SHIFT = 29u;
const QUERY_KIND_VERTEX = 0u;
const QUERY_KIND_EDGE = 1u;
const QUERY_KIND_CENTROID = 2u;
const QUERY_ID_MASK = 0x1fffffffu;
const QUERY_EUCLIDEAN = 0x80000000u;

fn queryKind(source: u32) -> u32 { return (source >> QUERY_KIND_SHIFT) & 3u; }
fn queryId(source: u32) -> u32 { return source & QUERY_ID_MASK; }

// The list as the writer binds it (header counters are atomics) and as readers bind it.
struct QueryListRW { header: array<atomic<u32>, 64>, queries: array<Query> }
struct QueryListR { header: array<u32, 64>, queries: array<Query> }
