// Spatial hash build (shaders/lib/spatialHash.wgsl): one invocation per tet, every substep. The
// tet's box at the current positions (hybrid: swept over the substep) goes into each cell it
// touches: entries taken from the pool with one atomicAdd per tet, each pushed on its cell's list
// with atomicExchange on the head. Entries beyond the pool's capacity are counted in query-list
// header word 14 (the host grows the pool for the next frame); tets spanning more than
// HASH_MAX_CELLS_PER_AXIS cells on an axis go to the oversized list instead (one entry), so no
// tet is ever missing from the broad phase while the pool has room. Cost: linear in the tets,
// no CPU work.
#include "threadIndex"
#include "positions"
#include "queryList"
#include "spatialHash"
#include "tetMeasures"

@group(0) @binding(0) var<uniform> params: DetectParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> topo: array<u32>;
@group(0) @binding(3) var<storage, read_write> heads: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> pool: array<HashEntry>;
@group(0) @binding(5) var<storage, read_write> list: QueryListRW;
// The substep's start positions (predict left them there): with DETECT_PIN_AND_TEST the tet's
// box is the union of its boxes at the start and the end, so one hash serves both detections.
@group(0) @binding(6) var<storage, read> prev: array<vec4<f32>>;
// The shortest path's per-tet measures and counters, written with DETECT_MEASURE_TETS
// (lib/tetMeasures.wgsl; src/spb/gpu/spbGpuMesh.ts); each tet's component from topo's
// tetComponent section (params.offTetComponent; the shortest path's numbering).
@group(0) @binding(7) var<storage, read_write> measures: array<vec2<f32>>;
@group(0) @binding(8) var<storage, read_write> counters: array<atomic<u32>>;
// buildHashAndRefit only: the surface BVH refit's first dispatch (lib/bvhRefitSweep.wgsl; the
// shortest path's tree, src/bvh/surfaceBvhGpu.ts refitPart(0)). With it the kernel binds 10
// storage buffers (detectStage.ts REFIT_IN_DETECTION_STORAGE_BUFFERS).
@group(0) @binding(9) var<uniform> refitParams: RefitParams;
@group(0) @binding(10) var<storage, read> bvhTopo: array<u32>;
@group(0) @binding(11) var<storage, read_write> bvhNodes: array<BvhNode>;

#include "bvhRefitSweep"

@compute @workgroup_size(64)
fn buildHash(@builtin(global_invocation_id) gid: vec3<u32>) {
  hashTet(threadIndex(gid, params.buildRowStride));
}

// Issue 24: the hash build and the BVH refit's first dispatch (its subtrees) in one dispatch.
// Both read only the positions (and the refit writes only the tree, which nothing here reads):
// workgroups [0, ceil(tets / 64)) build the hash, the next refitParams.count sweep one subtree
// each. The grid is at most 65,535 workgroups wide (FUSED_GRID_ROW, detectStage.ts), so that the
// linear workgroup index needs no uniform (num_workgroups crashed Dawn on SwiftShader).
@compute @workgroup_size(64)
fn buildHashAndRefit(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
  let group = wid.x + wid.y * FUSED_GRID_ROW;
  let hashGroups = (params.tetCount + 63u) / 64u;
  if (group < hashGroups) {
    hashTet(64u * group + lane);
  } else {
    sweepCellGroup(group - hashGroups, lane);
  }
}

fn hashTet(t: u32) {
  if (t >= params.tetCount) { return; }
  let o = params.offTets + 4u * t;
  let x0 = vertexPosition(topo[o]);
  let x1 = vertexPosition(topo[o + 1u]);
  let x2 = vertexPosition(topo[o + 2u]);
  let x3 = vertexPosition(topo[o + 3u]);
  // The shortest path's measures of the current tet, before any return (a non-finite tet is inverted there).
  if ((params.flags & DETECT_MEASURE_TETS) != 0u) { measureTet(t, x0, x1, x2, x3, topo[params.offTetComponent + t]); }
  var lo = min(min(x0, x1), min(x2, x3));
  var hi = max(max(x0, x1), max(x2, x3));
  if ((params.flags & DETECT_PIN_AND_TEST) != 0u) {
    let s0 = prev[topo[o]].xyz;
    let s1 = prev[topo[o + 1u]].xyz;
    let s2 = prev[topo[o + 2u]].xyz;
    let s3 = prev[topo[o + 3u]].xyz;
    lo = min(lo, min(min(s0, s1), min(s2, s3)));
    hi = max(hi, max(max(s0, s1), max(s2, s3)));
  }
  // A tet with a non-finite corner contains nothing (every strict test fails on NaN).
  let span = hi - lo;
  if (!(span.x >= 0.0 && span.y >= 0.0 && span.z >= 0.0 && span.x < 3e38 && span.y < 3e38 && span.z < 3e38)) { return; }
  let c0 = hashCellOf(lo, params.invCellSize);
  let c1 = hashCellOf(hi, params.invCellSize);
  let n = c1 - c0 + vec3<i32>(1);
  let oversized = n.x > HASH_MAX_CELLS_PER_AXIS || n.y > HASH_MAX_CELLS_PER_AXIS || n.z > HASH_MAX_CELLS_PER_AXIS;
  let cells = select(u32(n.x * n.y * n.z), 1u, oversized);
  // One allocation per tet (not per cell): the counter is one address every tet contends for.
  let hashCounters = params.tableMask + 1u;
  let first = atomicAdd(&heads[hashCounters + HASH_TAKEN], cells);
  let room = select(0u, params.poolCapacity - first, first < params.poolCapacity);
  if (room < cells) { atomicAdd(&list.header[QL_HASH_DROPPED], cells - room); }
  if (oversized) {
    if (room > 0u) {
      pool[first] = HashEntry(lo, t, hi, atomicExchange(&heads[hashCounters + HASH_OVERSIZED], first + 1u));
    }
    return;
  }
  var k = 0u;
  for (var i = c0.x; i <= c1.x; i++) {
    for (var j = c0.y; j <= c1.y; j++) {
      for (var l = c0.z; l <= c1.z; l++) {
        if (k >= room) { return; }
        let e = first + k;
        let slot = hashSlot(vec3<i32>(i, j, l), params.tableMask);
        pool[e] = HashEntry(lo, t, hi, atomicExchange(&heads[slot], e + 1u));
        k++;
      }
    }
  }
}
