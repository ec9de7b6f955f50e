// Discrete collision detection (docs/collisions.md "Query points and detection rules";
// paper 000 section 4): one invocation per query point, after dcdHash.wgsl built the spatial
// hash of the substep. Points, in this order of invocation ids:
//   [0, vertexPoints)                   boundary vertices (recovery mode: every vertex)
//   [.., + edgePoints)                  boundary edges: the centre of the part inside a tet
//   [.., + centroidPoints)              tet centroids (recovery mode only, section 5.2)
// A point walks the hash cells its box touches (one cell for a point, a few for an edge) and the
// oversized list, skips entries whose box misses its own, and takes the tet of smallest id that
// contains it (an edge: the crossing whose centre is nearest the edge's midpoint) under the rules:
// strictly inside, not incident, not inverted, self hits only with self-collision on and not at
// an inverted boundary element (section 3.5). Each hit appends one Query; beyond the list's
// capacity it is dropped and counted (header word 2) and the host grows the list.
// writeArgs (dcdArgs.wgsl) then turns the count into the indirect dispatch of the spb and contact
// kernels.
// Hybrid mode (supplement Alg. 5): the points already penetrating at the substep's start are
// Pin and are tested after the material solve; the others (Pout) are CCD's
// (shaders/ccdNarrow.wgsl). By default one dispatch does both (DETECT_PIN_AND_TEST, on the hash
// of swept tet boxes): each invocation marks its point at the start positions (prev), then tests
// it at the end positions if Pin; both tests read only the point's own pin flag, so nothing
// waits on another invocation. Separately (the plan before issue 24, kept for comparison): a
// dispatch with DETECT_MARK_PIN on the start positions' own hash, then one with DETECT_ONLY_PIN.
// Either way a free (Pout) point that left the box CCD's candidates were found with
// (DETECT_ESCAPES, lib/ccdBoxes.wgsl) is tested at the end too: CCD may have missed its crossing.
#include "threadIndex"
#include "positions"
#include "vertexObject"
#include "pinMark"
#include "queryList"
#include "spatialHash"
#include "ccdBoxes"
#include "pointInTet"
#include "invertedBoundaryFan"

@group(0) @binding(0) var<uniform> params: DetectParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> topo: array<u32>;
@group(0) @binding(3) var<storage, read> heads: array<u32>;
@group(0) @binding(4) var<storage, read> pool: array<HashEntry>;
@group(0) @binding(5) var<storage, read_write> list: QueryListRW;
// Hybrid: 1 where the point penetrated at the substep's start (Pin): [vertex id], [vertexCount + edge].
@group(0) @binding(6) var<storage, read_write> pin: array<u32>;
// The substep's start positions (predict left them there), read with DETECT_PIN_AND_TEST.
@group(0) @binding(7) var<storage, read> prev: array<vec4<f32>>;
// CCD's boxes of the frame (lib/ccdBoxes.wgsl), read with DETECT_ESCAPES.
@group(0) @binding(8) var<storage, read> boxes: array<f32>;
// detectAndRefit only: the surface BVH refit's second dispatch (its top; lib/bvhRefitSweep.wgsl,
// src/bvh/surfaceBvhGpu.ts refitPart(1)). With it the kernel binds 10 storage buffers
// (detectStage.ts REFIT_IN_DETECTION_STORAGE_BUFFERS).
@group(0) @binding(9) var<uniform> refitParams: RefitParams;
@group(0) @binding(10) var<storage, read> bvhTopo: array<u32>;
@group(0) @binding(11) var<storage, read_write> bvhNodes: array<BvhNode>;

#include "bvhRefitSweep"

const NONE = 0xffffffffu;
// Longest walk along one axis for an edge's box (an edge this long means the scene blew up).
const EDGE_MAX_CELLS_PER_AXIS = 16;

// The current point (private: WGSL has no closures for the per-tet test).
var<private> gKind: u32;
var<private> gVerts: vec4<u32>;   // vertices the containing tet must not have (NONE = unused)
var<private> gObject: u32;
var<private> gSelfAllowed: bool;
var<private> gA: vec3<f32>;       // the point, or the edge's first end
var<private> gB: vec3<f32>;       // the edge's second end
var<private> gHit: vec3<f32>;     // query point of the accepted tet
var<private> gParam: f32;
var<private> gBest: u32;          // accepted tet of smallest id so far (findTet), NONE if none
var<private> gBestHit: vec3<f32>; // its query point
var<private> gBestParam: f32;
var<private> gExclude: i32;       // query's excluded vertices (the point's own)
var<private> gExclude2: i32;
var<private> gSourceId: u32;      // vertex, edge or tet id the query names
var<private> gPinIndex: u32;      // the point's pin flag, NONE for centroids
var<private> gAtStart: bool;      // the tests read the start positions (DETECT_PIN_AND_TEST's mark)

// Position of vertex v at the time the current test looks at: the substep's start or its end.
fn cornerPosition(v: u32) -> vec3<f32> {
  if (gAtStart) { return prev[v].xyz; }
  return vertexPosition(v);
}

fn tetOf(t: u32) -> vec4<u32> {
  let o = params.offTets + 4u * t;
  return vec4<u32>(topo[o], topo[o + 1u], topo[o + 2u], topo[o + 3u]);
}

fn sharesVertex(tv: vec4<u32>) -> bool {
  for (var k = 0u; k < 4u; k++) {
    let v = gVerts[k];
    if (v != NONE && (tv.x == v || tv.y == v || tv.z == v || tv.w == v)) { return true; }
  }
  return false;
}

fn tetInverted(t: u32) -> bool {
  let tv = tetOf(t);
  return !(signedVolume6(cornerPosition(tv.x), cornerPosition(tv.y), cornerPosition(tv.z), cornerPosition(tv.w)) > 0.0);
}

// Section 3.5 (lib/invertedBoundaryFan.wgsl): a vertex with a boundary triangle on an inverted
// tet gets no self query; measured where this dispatch detects.
fn fanPosition(v: u32) -> vec3<f32> {
  return cornerPosition(v);
}

// The rules for tet t and the current point; on acceptance gHit / gParam hold the query point.
fn accepts(t: u32) -> bool {
  let tv = tetOf(t);
  if (sharesVertex(tv)) { return false; }
  if (!gSelfAllowed && topo[params.offVertexObject + tv.x] == gObject) { return false; }
  let x0 = cornerPosition(tv.x);
  let x1 = cornerPosition(tv.y);
  let x2 = cornerPosition(tv.z);
  let x3 = cornerPosition(tv.w);
  if (!(signedVolume6(x0, x1, x2, x3) > 0.0)) { return false; }
  if (gKind != QUERY_KIND_EDGE) {
    gHit = gA;
    gParam = 0.0;
    return strictlyInside(subVolumes(gA, x0, x1, x2, x3));
  }
  // Clip a + s (b - a), s in [0, 1], to the four half-spaces sub-volume_i >= 0 (affine in s).
  let fa = subVolumes(gA, x0, x1, x2, x3);
  let fb = subVolumes(gB, x0, x1, x2, x3);
  var s0 = 0.0;
  var s1 = 1.0;
  for (var i = 0; i < 4; i++) {
    let a = fa[i];
    let b = fb[i];
    if (a < 0.0 && b < 0.0) { return false; }
    if (a < 0.0) { s0 = max(s0, a / (a - b)); }
    else if (b < 0.0) { s1 = min(s1, a / (a - b)); }
  }
  if (!(s1 - s0 > 0.0)) { return false; }
  let s = 0.5 * (s0 + s1);
  let p = gA + s * (gB - gA);
  gHit = p;
  gParam = s;
  return strictlyInside(subVolumes(p, x0, x1, x2, x3));
}

// Whether the just-accepted tet t (its crossing centre in gParam) beats gBest. A vertex or a
// centroid: the smallest id. An edge (paper section 4): the crossing whose centre is closest to
// the edge's midpoint, ties to the smallest id; the smallest id alone pushed one end of the edge
// (src/collision/cpu/detectCpu.ts closerToMiddle, the same rule).
fn beatsBest(t: u32) -> bool {
  if (gBest == NONE) { return true; }
  if (gKind != QUERY_KIND_EDGE) { return t < gBest; }
  let d = abs(gParam - 0.5);
  let db = abs(gBestParam - 0.5);
  return d < db || (d == db && t < gBest);
}

// The best accepted tet on the list starting at entry head (index + 1), folded into gBest (NONE
// when none yet; gBestHit / gBestParam its query point). Not the first found: the hash's list
// order changes from run to run (atomic insertion), and an edge crossing several tets gets a
// different query point in each, so "first" made detection nondeterministic (and unlike the CPU
// reference). The entry's box rejects most candidates without loading the tet (qlo / qhi: the
// point's or segment's box); a vertex skips tets of larger id than the best at once.
fn walkList(first: u32, qlo: vec3<f32>, qhi: vec3<f32>) {
  var e = first;
  // Bounded by the pool's size: a list can never be longer, so a broken link cannot hang the GPU.
  for (var steps = 0u; e != 0u && steps < params.poolCapacity; steps++) {
    let entry = pool[e - 1u];
    let candidate = gKind == QUERY_KIND_EDGE || entry.tet < gBest;
    if (candidate && all(qhi >= entry.lo) && all(qlo <= entry.hi) && accepts(entry.tet) && beatsBest(entry.tet)) {
      gBest = entry.tet;
      gBestHit = gHit;
      gBestParam = gParam;
    }
    e = entry.next;
  }
}

// The part of the segment a -> b inside the box [lo, hi] as parameters (t0, t1); t0 > t1: none.
fn clipToBox(a: vec3<f32>, b: vec3<f32>, lo: vec3<f32>, hi: vec3<f32>) -> vec2<f32> {
  let d = b - a;
  var t = vec2<f32>(0.0, 1.0);
  for (var k = 0; k < 3; k++) {
    if (d[k] == 0.0) {
      if (a[k] < lo[k] || a[k] > hi[k]) { return vec2<f32>(1.0, 0.0); }
    } else {
      let ta = (lo[k] - a[k]) / d[k];
      let tb = (hi[k] - a[k]) / d[k];
      t = vec2<f32>(max(t.x, min(ta, tb)), min(t.y, max(ta, tb)));
    }
  }
  return t;
}

fn findTet(lo: vec3<f32>, hi: vec3<f32>) -> u32 {
  gBest = NONE;
  let c0 = hashCellOf(lo, params.invCellSize);
  let c1 = min(hashCellOf(hi, params.invCellSize), c0 + vec3<i32>(EDGE_MAX_CELLS_PER_AXIS - 1));
  let oneCell = all(c0 == c1);
  // Cells a little larger than the hash's, against rounding of p / cellSize near a border.
  let margin = 1e-4 * params.cellSize;
  for (var i = c0.x; i <= c1.x; i++) {
    for (var j = c0.y; j <= c1.y; j++) {
      for (var k = c0.z; k <= c1.z; k++) {
        // An edge walks only the cells it crosses, with the box of its part in the cell: a tet
        // holding a point of the edge is listed in the cell of that point.
        var qlo = lo;
        var qhi = hi;
        if (!oneCell) {
          let cell = vec3<f32>(f32(i), f32(j), f32(k)) * params.cellSize;
          let t = clipToBox(gA, gB, cell - vec3<f32>(margin), cell + vec3<f32>(params.cellSize + margin));
          if (t.x > t.y) { continue; }
          let p0 = gA + t.x * (gB - gA);
          let p1 = gA + t.y * (gB - gA);
          qlo = min(p0, p1) - vec3<f32>(margin);
          qhi = max(p0, p1) + vec3<f32>(margin);
        }
        walkList(heads[hashSlot(vec3<i32>(i, j, k), params.tableMask)], qlo, qhi);
      }
    }
  }
  walkList(heads[params.tableMask + 1u + HASH_OVERSIZED], lo, hi);
  return gBest;
}

// Vertex v left a box CCD's candidates were found with, at the substep's start or end.
fn vertexEscaped(v: u32) -> bool {
  let start = prev[v].xyz;
  let end = vertexPosition(v);
  if (leftWorldBox(v, start, end)) { return true; }
  if ((params.flags & DETECT_ESCAPES_OWN) == 0u) { return false; }
  let o = vertexObject(v);
  let r = ownFrameReference(o, params.vertexCount);
  return leftOwnFrameBox(v, o, params.vertexCount, start, end, prev[r].xyz, vertexPosition(r));
}

// The current point (set up by setUpPoint) is free but escaped: a vertex, or an edge with an
// escaped end (CCD's edge pairs come from its ends' boxes).
fn pointEscaped() -> bool {
  if ((params.flags & DETECT_ESCAPES) == 0u || gPinIndex == NONE) { return false; }
  if (gKind == QUERY_KIND_EDGE) { return vertexEscaped(gVerts.x) || vertexEscaped(gVerts.y); }
  return vertexEscaped(gVerts.x);
}

// Sets up query point `index` (invocation order above) at the positions cornerPosition reads;
// false past the last point.
fn setUpPoint(index: u32) -> bool {
  var id = index;
  let selfOn = (params.flags & DETECT_SELF) != 0u;
  gExclude = -1;
  gExclude2 = -1;
  gSourceId = id;
  gPinIndex = NONE;
  gVerts = vec4<u32>(NONE);
  if (id < params.vertexPoints) {
    let v = select(topo[params.offBoundaryVertices + id], id, (params.flags & DETECT_RECOVERY) != 0u);
    gKind = QUERY_KIND_VERTEX;
    gVerts.x = v;
    gA = cornerPosition(v);
    gB = gA;
    gObject = topo[params.offVertexObject + v];
    gSelfAllowed = selfOn && !invertedBoundaryFan(v);
    gExclude = i32(v);
    gSourceId = v;
    gPinIndex = v;
  } else if (id - params.vertexPoints < params.edgePoints) {
    id -= params.vertexPoints;
    let a = topo[params.offBoundaryEdges + 2u * id];
    let b = topo[params.offBoundaryEdges + 2u * id + 1u];
    gKind = QUERY_KIND_EDGE;
    gVerts.x = a;
    gVerts.y = b;
    gA = cornerPosition(a);
    gB = cornerPosition(b);
    gObject = topo[params.offVertexObject + a];
    gSelfAllowed = selfOn && !invertedBoundaryFan(a) && !invertedBoundaryFan(b);
    gExclude = i32(a);
    gExclude2 = i32(b);
    gSourceId = id;
    gPinIndex = params.vertexCount + id;
  } else if (id - params.vertexPoints - params.edgePoints < params.centroidPoints) {
    id -= params.vertexPoints + params.edgePoints;
    let tv = tetOf(id);
    gKind = QUERY_KIND_CENTROID;
    gVerts = tv;
    gA = 0.25 * (cornerPosition(tv.x) + cornerPosition(tv.y) + cornerPosition(tv.z) + cornerPosition(tv.w));
    gB = gA;
    gObject = topo[params.offVertexObject + tv.x];
    gSelfAllowed = selfOn && !tetInverted(id);
    gSourceId = id;
  } else {
    return false;
  }
  return true;
}

// The object of tet t (the object of its first corner).
fn tetObject(t: u32) -> u32 {
  return topo[params.offVertexObject + topo[params.offTets + 4u * t]];
}

// Whether tet t, found for the current point (its query point in gBestHit), is another object's
// and an inverted tet of that object also holds the point (a fold). Such a hit does not make the
// point Pin: the signed count of an object's tets holding a point is the winding number of its
// surface, so a point outside it that a positive tet holds lies in an inverted one too, as where
// an impact pushed boundary tets inside out (CPU twin: CpuDetector.inInvertedTet in
// markPenetrating; docs/collisions.md "Pin marks in folds").
fn inOthersFold(t: u32) -> bool {
  let o = tetObject(t);
  if (o == gObject) { return false; }
  let p = gBestHit;
  return invertedHolds(heads[hashSlot(hashCellOf(p, params.invCellSize), params.tableMask)], p, o)
    || invertedHolds(heads[params.tableMask + 1u + HASH_OVERSIZED], p, o);
}

// Whether an inverted tet of object o in the hash list from `first` holds p strictly.
fn invertedHolds(first: u32, p: vec3<f32>, o: u32) -> bool {
  var e = first;
  for (var steps = 0u; e != 0u && steps < params.poolCapacity; steps++) {
    let entry = pool[e - 1u];
    if (all(p >= entry.lo) && all(p <= entry.hi) && tetObject(entry.tet) == o) {
      let tv = tetOf(entry.tet);
      let x0 = cornerPosition(tv.x);
      let x1 = cornerPosition(tv.y);
      let x2 = cornerPosition(tv.z);
      let x3 = cornerPosition(tv.w);
      if (signedVolume6(x0, x1, x2, x3) < 0.0 && all(subVolumes(p, x0, x1, x2, x3) < vec4<f32>(0.0))) { return true; }
    }
    e = entry.next;
  }
  return false;
}

@compute @workgroup_size(64)
fn detect(@builtin(global_invocation_id) gid: vec3<u32>) {
  detectPoint(threadIndex(gid, params.queryRowStride));
}

// Issue 24: detection and the BVH refit's second dispatch (the top, whose subtrees the hash
// build's dispatch refit: dcdHash.wgsl buildHashAndRefit) in one dispatch. Detection reads
// neither the tree nor what the top writes: workgroups [0, ceil(points / 64)) detect, the next
// refitParams.count (one) sweep the top. Linear workgroup index as in buildHashAndRefit.
@compute @workgroup_size(64)
fn detectAndRefit(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
  let group = wid.x + wid.y * FUSED_GRID_ROW;
  // At least one, as the plain dispatch: invocation 0 counts the detection (QL_DETECTIONS).
  let detectGroups = max(1u, (params.vertexPoints + params.edgePoints + params.centroidPoints + 63u) / 64u);
  if (group < detectGroups) {
    detectPoint(64u * group + lane);
  } else {
    sweepCellGroup(group - detectGroups, lane);
  }
}

fn detectPoint(id: u32) {
  // The frame's detections so far, which the contacts' overflow entries record as their substep
  // (contactsBuild.wgsl), counted once per detection (not by the separate Pin pass).
  if (id == 0u && (params.flags & DETECT_MARK_PIN) == 0u) {
    atomicAdd(&list.header[QL_DETECTIONS], 1u);
  }
  if ((params.flags & DETECT_PIN_AND_TEST) != 0u) {
    // Alg. 5 line 1 for this point at the start positions: Pin or Pout (every point writes its
    // flag, so no clear is needed), then a Pin point goes on to the test at the end positions.
    gAtStart = true;
    if (!setUpPoint(id)) { return; }
    var pinned = true;
    if (gPinIndex != NONE) {
      let found = findTet(min(gA, gB), max(gA, gB));
      let inFold = found != NONE && inOthersFold(found);
      if (inFold) { atomicAdd(&list.header[QL_PIN_IN_FOLD], 1u); }
      pinned = found != NONE && !inFold;
      pin[gPinIndex] = select(0u, pinMarkOf(pinned && tetObject(found) != gObject), pinned);
      if (pinned) { atomicAdd(&list.header[QL_PIN], 1u); }
    }
    gAtStart = false;
    if (!setUpPoint(id)) { return; }
    if (!pinned && !pointEscaped()) { return; }
  } else {
    if (!setUpPoint(id)) { return; }
    if ((params.flags & DETECT_ONLY_PIN) != 0u && gPinIndex != NONE && pin[gPinIndex] == 0u && !pointEscaped()) { return; }
  }
  // A free point here left its CCD box (pointEscaped): counted, and counted again when inside.
  let escaped = gPinIndex != NONE && (params.flags & (DETECT_PIN_AND_TEST | DETECT_ONLY_PIN)) != 0u && pin[gPinIndex] == 0u;
  if (escaped) { atomicAdd(&list.header[QL_ESCAPED_TESTED], 1u); }
  let t = findTet(min(gA, gB), max(gA, gB));
  if (t == NONE) {
    // SolverParams.pinRelease: a Pin vertex that the material carried out of every tet goes to
    // CCD (CPU twin: cpuCollisionStage.ts releasePins). Edges keep their marks (their CCD side
    // comes from the start, inside).
    if ((params.flags & DETECT_PIN_RELEASE) != 0u && gKind == QUERY_KIND_VERTEX && (pin[gPinIndex] & (PIN_SELF | PIN_INTER)) != 0u) {
      pin[gPinIndex] = PIN_RELEASED;
      atomicAdd(&list.header[QL_PIN_RELEASED], 1u);
    }
    return;
  }
  if (escaped) { atomicAdd(&list.header[QL_ESCAPED_INSIDE], 1u); }
  if ((params.flags & DETECT_MARK_PIN) != 0u) {
    if (gPinIndex != NONE) {
      if (inOthersFold(t)) {
        atomicAdd(&list.header[QL_PIN_IN_FOLD], 1u);
      } else {
        pin[gPinIndex] = pinMarkOf(tetObject(t) != gObject);
        atomicAdd(&list.header[QL_PIN], 1u);
      }
    }
    return;
  }
  let inter = tetObject(t) != gObject;
  atomicAdd(&list.header[QL_HITS + 2u * gKind + select(0u, 1u, inter)], 1u);
  var source = gSourceId | (gKind << QUERY_KIND_SHIFT);
  if (inter && (params.flags & DETECT_EUCLIDEAN) != 0u) { source |= QUERY_EUCLIDEAN; }
  let slot = atomicAdd(&list.header[QL_COUNT], 1u);
  if (slot >= params.listCapacity) {
    atomicAdd(&list.header[QL_DROPPED], 1u);
    return;
  }
  list.queries[slot] = Query(gBestHit, t, gExclude, gExclude2, source, gBestParam);
}
