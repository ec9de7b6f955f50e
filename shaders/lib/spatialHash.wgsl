// Broad phase of the discrete detection (src/collision/gpu/spatialHash.ts): a spatial hash of
// tet bounding boxes, rebuilt every substep. Cells are cubes of side params.cellSize; a tet is
// entered in every cell its box touches (at most HASH_MAX_CELLS_PER_AXIS per axis; a larger tet
// goes to the "oversized" list every query also walks). Per-cell singly linked lists:
//   heads  u32 per table slot: first entry + 1 (0 = empty; a cleared buffer is an empty table),
//          then HASH_COUNTERS words: [tableMask + 1 + HASH_TAKEN] entries taken (atomic),
//          [tableMask + 1 + HASH_OVERSIZED] the oversized list's head + 1
//   pool   HashEntry per entry (32 bytes): the tet, the next entry + 1, and the tet's box, so
//          that a query rejects most candidates from the entry alone: walking a list is a chain
//          of dependent loads, and the tet's corners would add two more per candidate.
// Uniforms of the detect stage (both kernels read the same buffer, written once per frame).
struct DetectParams {
  cellSize: f32,
  invCellSize: f32,
  tableMask: u32,
  poolCapacity: u32,
  tetCount: u32,
  buildRowStride: u32,
  vertexPoints: u32,     // boundary vertices, or every vertex in recovery mode
  edgePoints: u32,       // boundary edges
  centroidPoints: u32,   // tets in recovery mode, else 0
  queryRowStride: u32,
  flags: u32,            // DETECT_* bits
  listCapacity: u32,
  offTets: u32,
  offVertexObject: u32,
  offBoundaryVertices: u32,
  offBoundaryEdges: u32,
  offTriangleTet: u32,
  offVtOffsets: u32,
  offVtList: u32,
  vertexCount: u32,      // pin flags: [0, vertexCount) per vertex, then one per boundary edge
  offTetComponent: u32,  // DETECT_MEASURE_TETS: the tets' components in topo (collisionTopology.ts tetComponent; dcdHash.wgsl)
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

// Workgroups per grid row of the dispatches that run a BVH refit dispatch after their own
// workgroups (dcdHash.wgsl buildHashAndRefit, dcdDetect.wgsl detectAndRefit; detectStage.ts).
const FUSED_GRID_ROW = 65535u;

const DETECT_RECOVERY = 1u;
const DETECT_SELF = 2u;
const DETECT_EUCLIDEAN = 4u;
// Hybrid (supplement Alg. 5 line 1): this dispatch only marks the points already penetrating at
// the substep's start (Pin) in the pin flags; no queries.
const DETECT_MARK_PIN = 8u;
// Hybrid, after the material solve: only points marked Pin are tested (Pout goes to CCD).
const DETECT_ONLY_PIN = 16u;
// Hybrid, both of the above in one hash and one dispatch (issue 24): the hash holds each tet's
// box swept over the substep (its boxes at the start and at the end, dcdHash.wgsl), and each
// detect invocation marks its point Pin or Pout at the start positions, then tests a Pin point
// at the end positions (dcdDetect.wgsl).
const DETECT_PIN_AND_TEST = 32u;
// Hybrid with CCD running (SolverParams.escapedToDcd): a point that is not Pin but whose vertex
// (an edge: either end) left its CCD world box (DETECT_ESCAPES) or own-frame box
// (DETECT_ESCAPES_OWN) at the substep's start or end is tested at the end as a Pin point is.
const DETECT_ESCAPES = 64u;
const DETECT_ESCAPES_OWN = 128u;
// The hash build also takes the shortest path's per-tet measures (lib/tetMeasures.wgsl) from the
// same corners: the spb stage then skips its prepass dispatch.
const DETECT_MEASURE_TETS = 256u;
// Hybrid with SolverParams.pinRelease: a boundary vertex Pin at the start that the test at the end
// finds in no tet is marked PIN_RELEASED (lib/pinMark.wgsl), so that CCD takes its pairs.
const DETECT_PIN_RELEASE = 512u;

const HASH_COUNTERS = 4u;
const HASH_TAKEN = 0u;
const HASH_OVERSIZED = 1u;

// 32 bytes: the tet's box lo / hi, the tet, the next entry + 1 (0 = end of the list).
struct HashEntry { lo: vec3<f32>, tet: u32, hi: vec3<f32>, next: u32 }
const HASH_MAX_CELLS_PER_AXIS = 4;

// Integer cell of a point; coordinates clamped so the conversion to i32 is defined.
fn hashCellOf(p: vec3<f32>, invCellSize: f32) -> vec3<i32> {
  return vec3<i32>(floor(clamp(p * invCellSize, vec3<f32>(-1e9), vec3<f32>(1e9))));
}

// Table slot of a cell (Teschner et al. 2003's three large primes, xor-combined).
fn hashSlot(c: vec3<i32>, mask: u32) -> u32 {
  let u = bitcast<vec3<u32>>(c);
  return ((u.x * 73856093u) ^ (u.y * 19349663u) ^ (u.z * 83492791u)) & mask;
}
