// CCD narrow phase of the time step (supplement Alg. 5 lines 13-16; collision/gpu/ccdStage.ts):
// every substep, after the material solve, one invocation per candidate pair found by the
// frame's broad phase in the worker pool (collision/ccd/broadPhase.ts), then one per boundary
// vertex for the motion-bound check. Motion from t0 = the substep's start (state.prev, which
// predict left there) to t1 = after the material solve (state.positions):
//   [0, vfCount)                vertex-triangle pairs (vertex id, boundary triangle)
//   [.., + eeCount)             edge-edge pairs (boundary edge a, boundary edge b); a hit makes a
//                               contact only where the closest points are inside both edges
//   [.., + boundaryVertices)    the check that the vertex stayed inside its swept box at t0 and
//                               t1 (then its whole linear motion did, the box being convex):
//                               the broad phase is complete only for motion inside the boxes;
//                               escapes are counted for the host, which widens the next boxes.
//                               With self-collision, the same for its own-frame box (the box
//                               pairs within its object were found with: motion relative to the
//                               object), translated with the object's reference vertex: a
//                               translation common to all of an object's vertices keeps every pair's
//                               relative position, so inside those boxes no pair is missed.
// Later rounds (SolverParams.ccdEveryRound, collideEvery 'contacts'; CCD_LATER_ROUND): the rounds
// that only solve the contacts again first run this kernel again over the candidates that the
// detecting round listed as near (markForLaterRounds; every candidate when the list overflowed), on
// the motion from the substep's start to after their material iterations, appending to the substep's
// contacts (the count is not cleared) and leaving the boxes' checks to the detecting round. They
// skip a pair that already has a contact in the substep (CANDIDATE_IN_CONTACT, set by the round
// whose test made it) or that was farther apart where the detecting round tested it than the later
// rounds can close (CANDIDATE_FAR, collision/ccd/laterRounds.ts): both marks live in the candidate's
// second word, rewritten by the detecting round (CCD_MARK_ROUNDS), so no buffer of its own and no
// clear (the kernel binds as many storage buffers as the adapters allow already). The detecting
// round also keeps the positions it tested in `boxes`; a later round's boundary-vertex threads count
// the vertices that moved farther than the reach since (the far pairs' bound).
// In hybrid mode points already penetrating at the substep's start (Pin, marked by detection)
// are skipped: DCD and the shortest path handle them. A hit (shaders/lib/ccd.wgsl, conservative:
// toi never after the first contact) becomes a contact of eq. 6, C = (x - s) . n - offset >= 0,
// taken at toi: vertex-triangle with s the closest point of the triangle at toi and n its outward
// face normal ("the surface point s collides with", Alg. 5 line 15); edge-edge with x and s the
// closest points of the two edges at toi and n along the edges' cross product, on the side edge
// a was at t0 (where that gap is clear; else the side the surfaces' normals give). `offset` is the
// contact offset delta, also the separation at which CCD reports contact: resting contacts are
// held there. A vertex-triangle contact whose s lies on an edge or vertex of the triangle takes the
// direction from s to the vertex as its normal (no torque), kept inside that feature's normal cone
// on the surface (featureConeNormal), and both kinds keep n in the point side's cone too
// (mutualVertexCone, mutualEdgeCone). A vertex behind the triangle's plane at t0 (by more than the separation) is not
// approaching this face from outside (it would first cross another face, whose contact comes
// earlier): no contact.
#include "threadIndex"
#include "positions"
#include "vertexObject"
#include "pinMark"
#include "contact"
#include "contactStartGap"
#include "closestPointOnTriangle"
#include "ccd"
#include "ccdBoxes"
#include "pointInTet"
#include "invertedBoundaryFan"
#include "ccdParams"

const CCD_SKIP_PIN = 1u;
const CCD_CHECK_OWN = 2u;
const CCD_LATER_ROUND = 4u;
// The detecting round of a substep whose later rounds run CCD: it marks the candidates and keeps
// the positions it tested.
const CCD_MARK_ROUNDS = 8u;
// SolverParams.pinByKind: CCD_SKIP_PIN skips a Pin point's pairs of its mark's kind only (pinMark.wgsl).
const CCD_PIN_BY_KIND = 16u;
// SolverParams.ccdEdgeInterior: edge-edge CCD searches the edges' interiors (src/collision/ccd/interiorEdges.ts).
const CCD_EDGE_INTERIOR = 32u;
// SolverParams.ccdSkipInverted: same-object pairs with a vertex on a boundary triangle whose tet is
// inverted at the substep's start are left out (lib/invertedBoundaryFan.wgsl).
const CCD_SKIP_INVERTED = 64u;
// The detecting round's solve over the list that ccdSweep made (a software adapter: CcdStage
// substepBoxes): the sweep already marked, counted and checked the boxes, so this pass only solves.
// Later rounds too (with CCD_LATER_ROUND): ccdSweep over the near list, then the solve over its list.
const CCD_FROM_LIST = 128u;
// The high bit of a candidate's second word (a triangle or edge id): the pair has a contact this substep.
const CANDIDATE_IN_CONTACT = 0x80000000u;
// The next bit: the pair was farther apart at the detecting round than the later rounds can close
// (collision/ccd/laterRounds.ts): they skip it.
const CANDIDATE_FAR = 0x40000000u;
const CANDIDATE_ID = 0x3fffffffu;
// No candidate pair for this invocation (ccdNarrow).
const NO_PAIR = 0xffffffffu;

// Header words (a query-list-shaped header: the contact solve reads the count at word 0).
const CCD_COUNT = 0u;        // contacts this substep (may exceed the capacity)
const CCD_HITS_VF = 16u;     // frame sums from here on
const CCD_HITS_EE = 17u;
const CCD_DROPPED = 18u;
const CCD_ESCAPED = 19u;
const CCD_SKIPPED_PIN = 20u;
const CCD_BACK_FACE = 21u;
/** A vertex directly behind a face by more than this fraction of the separation, and not inside the tet behind it, gets no contact with it (ccdCpu.ts BEHIND_FACE_REL). */
const BEHIND_FACE_REL = 0.01;
const CCD_MAX_COUNT = 22u;
const CCD_TESTS = 23u;
const CCD_EE_AT_END = 24u;
const CCD_ESCAPED_SELF = 25u;
// Two words of per-object own-frame escape flags: bit o % 64 for object o (ccdSchedule.ts widens
// the flagged objects' own-frame boxes only).
const CCD_ESCAPED_SELF_OBJECTS = 26u;
// The farthest any vertex lay outside its world box, and outside its own-frame box, this frame
// (f32 bits: atomicMax orders non-negative floats as their bits): counters.ccd.escapeDistance and
// escapeDistanceSelf, the margin an escape would have needed.
const CCD_ESCAPE_DISTANCE = 28u;
const CCD_ESCAPE_DISTANCE_SELF = 29u;
// Which vertices escaped, so that the host widens their boxes only (ccdSchedule.ts): entries of
// (vertex, f32 bits of how far outside it lay: the larger of its world and own-frame excess), one
// per vertex and substep that escaped, from word CCD_ESCAPE_LIST (past the query-list header and
// the room for one query, ccdStage.ts ESCAPE_LIST_FIRST_WORD); their count at
// CCD_ESCAPE_LIST_COUNT, which may pass the capacity (the host then also widens every box).
const CCD_ESCAPE_LIST_COUNT = 30u;
// Edge-edge hits whose two edges' normal cones do not meet (mutualEdgeCone): made with their own normal.
const CCD_EE_APART = 31u;
const CCD_ESCAPE_LIST = 72u;
const CCD_ESCAPE_LIST_CAPACITY = 4096u;
// Contacts the later rounds added (counters.ccd.laterRoundHits): the word after the escape list;
// then the boundary vertices a later round found beyond the reach (counters.ccd.laterRoundBeyondReach).
const CCD_LATER_ROUND_HITS = CCD_ESCAPE_LIST + 2u * CCD_ESCAPE_LIST_CAPACITY;
const CCD_LATER_ROUND_BEYOND = CCD_LATER_ROUND_HITS + 1u;
// Then the near list's lengths summed over the substeps (counters.ccd.laterRoundListed).
const CCD_LATER_ROUND_LISTED = CCD_LATER_ROUND_HITS + 2u;
// Exit contacts of released vertices (SolverParams.pinRelease; counters.ccd.exitContacts).
const CCD_EXIT_CONTACTS = CCD_LATER_ROUND_HITS + 3u;
// Same-object pairs that met but were left out at tets inverted at the substep's start
// (SolverParams.ccdSkipInverted; counters.ccd.skippedInverted).
const CCD_SKIPPED_INVERTED = CCD_LATER_ROUND_HITS + 4u;
// Of the tests, the pairs whose boxes over the motion were apart (lib/ccd.wgsl ccdMotionBoxesApart;
// counters.ccd.motionBoxesApart): no solve.
const CCD_MOTION_APART = CCD_LATER_ROUND_HITS + 5u;
// Hits across a thick layer that are not the surfaces' nearest pair (besideFeature's zero, either
// side; edge pairs whose cones do not meet; counters.ccd.offFeature): no contact.
const CCD_OFF_FEATURE = CCD_LATER_ROUND_HITS + 6u;
// The length of ccdSweep's list of the pairs left to solve: a word of the edge-edge list's header
// past those its readers read, cleared by the host before each sweep.
const CCD_SOLVE_COUNT = 43u;
// Over whole edges, hits whose closest points lie within this parameter of an edge's end are left
// to the vertex-triangle pairs of that end; with CCD_EDGE_INTERIOR each edge is searched over
// [EE_END_PARAM, 1 - EE_END_PARAM] (src/collision/ccd/interiorEdges.ts).
const EE_END_PARAM = 0.01;
// An edge-edge contact takes its side from the gap at t0 only when that gap exceeds this fraction
// of the separation; else from the surfaces' normals (src/collision/cpu/ccdCpu.ts EDGE_SIDE_MIN_REL).
const EDGE_SIDE_MIN_REL = 0.25;
// src/collision/cpu/contactsCpu.ts PATH_DIRECTION_MIN_REL.
const PATH_DIRECTION_MIN_REL = 1e-3;

@group(0) @binding(0) var<uniform> params: CcdParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> topo: array<u32>;
@group(0) @binding(4) var<storage, read> pin: array<u32>;
// read_write for the CANDIDATE_IN_CONTACT marks.
@group(0) @binding(5) var<storage, read_write> candidates: array<u32>;
// Per vertex 6 floats: box lo (xyz), box hi (xyz), as the broad phase wrote them; with
// CCD_CHECK_OWN then the own-frame boxes (6 floats per vertex) and per object its reference
// vertex (u32 bits) and that vertex's position at the snapshot (broadPhase.ts ownFrameReferences);
// from params.roundZeroAt, 4 floats per vertex: where CCD_MARK_ROUNDS saw the boundary vertices
// (read_write for them).
@group(0) @binding(6) var<storage, read_write> boxes: array<f32>;
@group(0) @binding(7) var<storage, read_write> header: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> contacts: array<Contact>;
// Edge-edge contacts have their own list and counts: the contact stage solves them in a pass
// group of their own after the point-face ones (DCD's and CCD's vertex-triangle), because an
// edge-edge contact moves a vertex by only its edge weight, and counted with the point-face
// contacts at that vertex it thins their mass-split steps: a cube hitting a wall flat, with its
// face edges crossing the wall's in plane, still went through with 5 Jacobi passes, and held
// with 3 with the groups apart.
@group(0) @binding(9) var<storage, read_write> eeHeader: array<atomic<u32>>;
@group(0) @binding(10) var<storage, read_write> eeContacts: array<Contact>;
// ccdSweep only, which writes no contact: in its bind group binding 10 holds the indirect grid [x, y,
// z] of the solve over its list (x = min(workgroups, 65535), as CCD_LATER_ROW_STRIDE; cleared by
// the host before each sweep). A buffer of its own: the solve reads its grid from it, and a
// dispatch may not read its grid from a buffer it binds for writing.
@group(0) @binding(10) var<storage, read_write> solveGrid: array<atomic<u32>, 3>;

fn startPosition(v: u32) -> vec3<f32> {
  return prev[v].xyz;
}

// Paper section 3.5 carried over to CCD (SolverParams.ccdSkipInverted; ccdCpu.ts
// startInvertedBoundaryVertices; lib/invertedBoundaryFan.wgsl): pairs of one object with a vertex
// on a boundary triangle whose tet is inverted at the substep's start are left out. Turning such
// a tet back moves the triangles of its fold back through each other, which CCD would stop. Asked
// only for the same-object pairs that meet within the substep (after the root test), not for
// every candidate: the same contacts are left out, and the walk (up to four vertex-triangle fans,
// about 200 reads a pair) runs per contact instead of per candidate. The CPU twin marks the
// vertices once a round and skips before its test.
fn fanPosition(v: u32) -> vec3<f32> {
  return startPosition(v);
}

// Vertex v at time toi of the substep's linear motion.
fn positionAt(v: u32, toi: f32) -> vec3<f32> {
  return mix(startPosition(v), vertexPosition(v), toi);
}

// Unit outward normal of boundary triangle t at toi (zero when degenerate).
fn triangleNormalAt(t: u32, toi: f32) -> vec3<f32> {
  let o = params.offTriangles + 3u * t;
  let a = positionAt(topo[o], toi);
  let n = cross(positionAt(topo[o + 1u], toi) - a, positionAt(topo[o + 2u], toi) - a);
  let l = length(n);
  if (!(l > 0.0)) { return vec3<f32>(0.0); }
  return n / l;
}

// u kept in the short arc between unit normals n1 and n2, else the nearer of them
// (src/collision/ccd/featureNormal.ts clampToArc).
fn clampToArc(n1: vec3<f32>, n2: vec3<f32>, u: vec3<f32>) -> vec3<f32> {
  let c = cross(n1, n2);
  if (dot(c, c) > 1e-14 && dot(cross(n1, u), c) >= 0.0 && dot(cross(u, n2), c) >= 0.0) { return u; }
  if (dot(u, n2) > dot(u, n1)) { return n2; }
  return n1;
}

// Whether x lies over triangle t: its projection on t's plane inside t, each barycentric above
// -CONE_TOLERANCE (src/collision/ccd/featureNormal.ts overTriangle).
fn overTriangle(t: u32, x: vec3<f32>, toi: f32) -> bool {
  let o = params.offTriangles + 3u * t;
  let w = projectedBarycentrics(x, positionAt(topo[o], toi), positionAt(topo[o + 1u], toi), positionAt(topo[o + 2u], toi));
  return w.x >= -CONE_TOLERANCE && w.y >= -CONE_TOLERANCE && 1.0 - w.x - w.y >= -CONE_TOLERANCE;
}

// A contact on an edge or vertex feature of triangle t keeps the direction u from s to the vertex
// only inside that feature's normal cone on the surface; an internal edge between coplanar
// triangles is no corner (src/collision/ccd/featureNormal.ts, the float64 twin, says why).
fn featureConeNormal(t: u32, feature: u32, x: vec3<f32>, nT: vec3<f32>, u: vec3<f32>, toi: f32) -> vec3<f32> {
  // The cone's two bounding normals: an edge's, t's own (nT) and the one across the edge; a
  // vertex's, those of the two fan triangles at the fan vertex farthest along x - v.
  var t1 = 0xffffffffu;
  var t2 = 0xffffffffu;
  if (feature >= 3u && feature <= 5u) {
    t2 = topo[params.offTriangleAcross + 3u * t + (feature - 3u)];
  } else if (feature <= 2u) {
    let v = topo[params.offTriangles + 3u * t + feature];
    let fanFirst = topo[params.offVtOffsets + v];
    let fanEnd = topo[params.offVtOffsets + v + 1u];
    let farVertex = fanFarthest(v, x, toi).vertex;
    if (farVertex == 0xffffffffu) { return u; }
    for (var j = fanFirst; j < fanEnd; j++) {
      let g = topo[params.offVtList + j];
      let o = params.offTriangles + 3u * g;
      if (topo[o] != farVertex && topo[o + 1u] != farVertex && topo[o + 2u] != farVertex) { continue; }
      if (t1 == 0xffffffffu) { t1 = g; } else { t2 = g; break; }
    }
    if (t2 == 0xffffffffu) { return u; }
  } else {
    return u;
  }
  // One call site each (a software adapter pays for every inlined copy: see ccdNarrow).
  var n1 = nT;
  if (t1 != 0xffffffffu) { n1 = triangleNormalAt(t1, toi); }
  let n2 = triangleNormalAt(t2, toi);
  if (!(dot(n1, n1) > 0.0) || !(dot(n2, n2) > 0.0)) { return u; }
  return clampToArc(n1, n2, u);
}

// The part along an edge below which a direction counts as perpendicular to it (f32 rounding of
// directions built perpendicular to it; the float64 twin's is 1e-9).
const EDGE_ALONG_ROUNDING = 1e-5;

// u (unit) moved into the normal cone of a surface edge whose faces have unit outward normals n1 and
// n2: its part along the edge taken out first, then clamped into the arc; u along the edge: the
// nearer normal (src/collision/ccd/featureNormal.ts clampToEdgeCone: clampToArc reads only on which
// side of n1 and of n2 u lies, so a u along the edge read as inside). `strict` false: clampToArc
// alone, the wedge along the edge (mutualEdgeCone within a thin layer; mutualCone.ts says why).
fn clampToEdgeCone(n1: vec3<f32>, n2: vec3<f32>, u: vec3<f32>, strict: bool) -> vec3<f32> {
  let c = cross(n1, n2);
  let cl = length(c);
  var p = u;
  if (strict && cl > 1e-7) {
    let along = dot(u, c) / cl;
    if (abs(along) > EDGE_ALONG_ROUNDING) {
      p = u - (along / cl) * c;
      let pl = length(p);
      if (!(pl > EDGE_ALONG_ROUNDING)) { return select(n2, n1, dot(n1, u) >= dot(n2, u)); }
      p = p / pl;
    }
  }
  return clampToArc(n1, n2, p);
}

// Where the contact's reach passes the triangle's longest edge (a thick layer), whether the vertex
// is beside t's feature at all (src/collision/ccd/featureNormal.ts besideFeature): the normal as
// featureConeNormal's, or zero where it is not (outside an edge's cone and not over the triangle
// across it, or beyond a vertex along one of its surface edges by more than CONE_TOLERANCE): a
// nearer surface point's triangle makes the contact.
// Then the same of the other side (featureNormal.ts nearestOnPointSide): zero where s, the
// triangle's point nearest the contact's vertex v (at x), lies beyond v along one of v's surface
// edges, so that a point of that edge is nearer s than v.
fn besideFeature(t: u32, feature: u32, x: vec3<f32>, nT: vec3<f32>, u: vec3<f32>, v: u32, s: vec3<f32>, toi: f32) -> vec3<f32> {
  var normal = u;
  if (feature >= 3u && feature <= 5u) {
    let across = topo[params.offTriangleAcross + 3u * t + (feature - 3u)];
    let n2 = triangleNormalAt(across, toi);
    if (dot(n2, n2) > 0.0) {
      normal = clampToArc(nT, n2, u);
      if (!(all(normal == u) || overTriangle(across, x, toi))) { return vec3<f32>(0.0); }
    }
  }
  // Beyond a vertex q along one of its surface edges q W, a point of that edge is nearer: step 0
  // the triangle's vertex V (a vertex feature) seen from x, step 1 the contact's vertex v seen from
  // s (one call site of fanFarthest: a software adapter pays for every inlined copy).
  for (var step = 0u; step < 2u; step++) {
    var q = v;
    var seen = s;
    if (step == 0u) {
      if (feature > 2u) { continue; }
      q = topo[params.offTriangles + 3u * t + feature];
      seen = x;
    }
    if (fanFarthest(q, seen, toi).along > sin(CONE_TOLERANCE) * length(seen - positionAt(q, toi))) { return vec3<f32>(0.0); }
  }
  return normal;
}

// The neighbour W of surface vertex v (on v's boundary triangles) that x lies farthest beyond along
// the edge v W, and how far, (x - v) . (W - v) / |W - v|; vertex 0xffffffff and along 0 where x lies
// beyond v along none of them (src/collision/ccd/featureNormal.ts fanFarthest).
struct FanFarthest {
  vertex: u32,
  along: f32,
}
fn fanFarthest(v: u32, x: vec3<f32>, toi: f32) -> FanFarthest {
  let pv = positionAt(v, toi);
  let xv = x - pv;
  var far = FanFarthest(0xffffffffu, 0.0);
  for (var j = topo[params.offVtOffsets + v]; j < topo[params.offVtOffsets + v + 1u]; j++) {
    let g = topo[params.offVtList + j];
    for (var k = 0u; k < 3u; k++) {
      let w = topo[params.offTriangles + 3u * g + k];
      if (w == v) { continue; }
      let e = positionAt(w, toi) - pv;
      let el = length(e);
      var along = 0.0;
      if (el > 0.0) { along = dot(xv, e) / el; }
      if (along > far.along) { far = FanFarthest(w, along); }
    }
  }
  return far;
}

// The mutual normal cone rule (src/collision/ccd/mutualCone.ts, the float64 twin, says why): a
// contact's normal lies in the cones of both its features, the point side's included.
const CONE_TOLERANCE = 0.01;

// Whether unit d lies in the normal cone of surface vertex v: d . (W - v) <= CONE_TOLERANCE |W - v|
// for every neighbour W on v's boundary triangles, and d on their outer side.
fn vertexConeContains(v: u32, d: vec3<f32>, toi: f32) -> bool {
  let pv = positionAt(v, toi);
  var sum = vec3<f32>(0.0);
  let fanEnd = topo[params.offVtOffsets + v + 1u];
  for (var j = topo[params.offVtOffsets + v]; j < fanEnd; j++) {
    let o = params.offTriangles + 3u * topo[params.offVtList + j];
    for (var k = 0u; k < 3u; k++) {
      let w = topo[o + k];
      if (w == v) { continue; }
      let e = positionAt(w, toi) - pv;
      if (dot(d, e) > CONE_TOLERANCE * length(e)) { return false; }
    }
    let a = positionAt(topo[o], toi);
    sum += cross(positionAt(topo[o + 1u], toi) - a, positionAt(topo[o + 2u], toi) - a);
  }
  return dot(d, sum) > 0.0;
}

// The unit normal of v's boundary triangles nearest d (zero when v has none).
fn nearestFanNormal(v: u32, d: vec3<f32>, toi: f32) -> vec3<f32> {
  var best = -2.0;
  var out = vec3<f32>(0.0);
  let fanEnd = topo[params.offVtOffsets + v + 1u];
  for (var j = topo[params.offVtOffsets + v]; j < fanEnd; j++) {
    let n = triangleNormalAt(topo[params.offVtList + j], toi);
    if (dot(n, n) > 0.0 && dot(d, n) > best) {
      best = dot(d, n);
      out = n;
    }
  }
  return out;
}

// Vertex v on triangle t's feature with normal u (from s toward v, in the feature's cone): where -u
// leaves v's cone, the nearest of v's normals, reversed and clamped into the feature's cone, when
// that lies in both cones; else u. Three cone questions in turn, through one call site each of
// vertexConeContains and nearestFanNormal (a software adapter pays for every inlined copy):
//   step 0: is -u in v's cone (then u)? else m = v's normal nearest -u, and c = -m clamped into
//           the feature's cone: a face's normal, an edge's arc, or for a vertex w of t step 1;
//   step 1: c = -m when it is in w's cone, else w's normal nearest -m;
//   step 2: c when -c is in v's cone, else u.
// `strict` where the contact's reach passes the triangle's longest edge: an edge's cone perpendicular
// to it (mutualCone.ts mutualVertexCone says why).
fn mutualVertexCone(v: u32, t: u32, feature: u32, u: vec3<f32>, toi: f32, strict: bool) -> vec3<f32> {
  var m = vec3<f32>(0.0);
  var c = vec3<f32>(0.0);
  var step = 0u;
  loop {
    var q = v;
    var d = -u;
    if (step == 1u) {
      q = topo[params.offTriangles + 3u * t + feature];
      d = -m;
    } else if (step == 2u) {
      if (!(dot(c, c) > 0.0)) { return u; }
      d = -c;
    }
    let inside = vertexConeContains(q, d, toi);
    if (step == 2u) { return select(u, c, inside); }
    if (step == 0u && inside) { return u; }
    var nearest = d;
    if (!inside) { nearest = nearestFanNormal(q, d, toi); }
    if (step == 1u) {
      c = nearest;
      step = 2u;
      continue;
    }
    m = nearest;
    if (!(dot(m, m) > 0.0)) { return u; }
    let nT = triangleNormalAt(t, toi);
    if (!(dot(nT, nT) > 0.0)) { return u; }
    if (feature == 6u) {
      c = nT;
    } else if (feature >= 3u && feature <= 5u) {
      let n = triangleNormalAt(topo[params.offTriangleAcross + 3u * t + (feature - 3u)], toi);
      if (!(dot(n, n) > 0.0)) { return u; }
      c = clampToEdgeCone(nT, n, -m, strict);
    } else if (feature > 2u) {
      return u;
    } else {
      step = 1u;
      continue;
    }
    step = 2u;
  }
}

// Unit normal of boundary edge e's triangle j (0 or 1).
fn edgeFaceNormal(e: u32, j: u32, toi: f32) -> vec3<f32> {
  return triangleNormalAt(topo[params.offEdgeTriangles + 2u * e + j], toi);
}

// Whether unit d lies within CONE_TOLERANCE of the normal cone of the edge whose faces have unit
// normals n1 and n2 (the arc between them; `strict`: perpendicular to the edge, else the wedge).
fn arcContains(n1: vec3<f32>, n2: vec3<f32>, d: vec3<f32>, strict: bool) -> bool {
  return dot(clampToEdgeCone(n1, n2, d, strict), d) >= cos(CONE_TOLERANCE);
}

// Edge-edge contact of boundary edges a and b with normal n (from b toward a): xyz the normal, kept
// when in b's cone with -n in a's, else the nearer to n of n clamped into b's cone (when its
// opposite lies in a's) and the opposite of -n clamped into a's (when it lies in b's); w = 1 when
// neither (the cones do not meet), xyz then n (perpendicular to both edges: no work when they slide).
// `strict` where the contact's reach passes both edges (a thick layer): the cones perpendicular to
// their edges (src/collision/ccd/mutualCone.ts mutualEdgeCone says why).
fn mutualEdgeCone(a: u32, b: u32, n: vec3<f32>, toi: f32, strict: bool) -> vec4<f32> {
  // a's two face normals, then b's (one call site: a software adapter pays for every inlined copy).
  var faces: array<vec3<f32>, 4>;
  for (var k = 0u; k < 4u; k++) {
    faces[k] = edgeFaceNormal(select(a, b, k >= 2u), k % 2u, toi);
    if (!(dot(faces[k], faces[k]) > 0.0)) { return vec4<f32>(n, 0.0); }
  }
  let a1 = faces[0];
  let a2 = faces[1];
  let b1 = faces[2];
  let b2 = faces[3];
  // arcContains(b1, b2, n) and arcContains(a1, a2, -n), from the clamps they take.
  let intoB = clampToEdgeCone(b1, b2, n, strict);
  let fromA = -clampToEdgeCone(a1, a2, -n, strict);
  if (dot(intoB, n) >= cos(CONE_TOLERANCE) && dot(fromA, n) >= cos(CONE_TOLERANCE)) { return vec4<f32>(n, 0.0); }
  let intoBMeets = arcContains(a1, a2, -intoB, strict);
  if (arcContains(b1, b2, fromA, strict) && (!intoBMeets || dot(fromA, n) > dot(intoB, n))) { return vec4<f32>(fromA, 0.0); }
  if (intoBMeets) { return vec4<f32>(intoB, 0.0); }
  return vec4<f32>(n, 1.0);
}

// Closest points of segments p1 q1 and p2 q2 as parameters (s on the first, u on the second),
// clamped (Ericson 5.1.9); parallel segments take s = 0.
fn segmentClosestParams(p1: vec3<f32>, q1: vec3<f32>, p2: vec3<f32>, q2: vec3<f32>) -> vec2<f32> {
  let d1 = q1 - p1;
  let d2 = q2 - p2;
  let r = p1 - p2;
  let a = dot(d1, d1);
  let e = dot(d2, d2);
  let f = dot(d2, r);
  if (!(a > 0.0) && !(e > 0.0)) { return vec2<f32>(0.0); }
  if (!(a > 0.0)) { return vec2<f32>(0.0, clamp(f / e, 0.0, 1.0)); }
  let c = dot(d1, r);
  if (!(e > 0.0)) { return vec2<f32>(clamp(-c / a, 0.0, 1.0), 0.0); }
  let b = dot(d1, d2);
  let den = a * e - b * b;
  var s = 0.0;
  if (den > 1e-12 * a * e) { s = clamp((b * f - c * e) / den, 0.0, 1.0); }
  var u = (b * s + f) / e;
  if (u < 0.0) {
    u = 0.0;
    s = clamp(-c / a, 0.0, 1.0);
  } else if (u > 1.0) {
    u = 1.0;
    s = clamp((b - c) / a, 0.0, 1.0);
  }
  return vec2<f32>(s, u);
}

// The axis-aligned gap between the box of a (or of a and b) and the box of c, d and e (the same
// point repeated where a feature has fewer), at the positions of now (collision/ccd/laterRounds.ts
// pairBoxGap).
fn boxGap(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, d: vec3<f32>, e: vec3<f32>) -> f32 {
  let gaps = max(min(min(c, d), e) - max(a, b), min(a, b) - max(max(c, d), e));
  return max(max(gaps.x, gaps.y), max(gaps.z, 0.0));
}

// Whether a later round skips candidate word w's pair: a contact made earlier in the substep, or
// far apart at the detecting round.
fn laterRoundSkips(w: u32) -> bool {
  return (candidates[w] & (CANDIDATE_IN_CONTACT | CANDIDATE_FAR)) != 0u;
}

// The detecting round of a substep whose later rounds test again (CCD_MARK_ROUNDS): candidate word
// w's far bit from `gap` (the pair's box gap now), its contact bit cleared. A pair that is not far
// goes on the near list (its index w / 2, vertex-triangle pairs first), which the later rounds
// dispatch over instead of every candidate (ccdNearArgs.wgsl; past its room they scan them all).
fn markForLaterRounds(w: u32, gap: f32) {
  var marked = candidates[w] & CANDIDATE_ID;
  if (gap > params.separation + 2.0 * params.laterReach) {
    marked = marked | CANDIDATE_FAR;
  } else {
    let slot = atomicAdd(&eeHeader[CCD_NEAR_COUNT], 1u);
    if (slot < params.nearCapacity) { candidates[params.nearAt + slot] = w / 2u; }
    atomicAdd(&header[CCD_LATER_ROUND_LISTED], 1u);
  }
  candidates[w] = marked;
}

// The detecting round marks each candidate for the later rounds (CCD_MARK_ROUNDS), in its sweep
// where it has one (a solve over the sweep's list, CCD_FROM_LIST, marks only its contacts).
fn marksLaterRounds() -> bool {
  return (params.flags & (CCD_MARK_ROUNDS | CCD_FROM_LIST)) == CCD_MARK_ROUNDS;
}

// Candidate word w's pair made a contact: marked for the later rounds, counted when it is theirs.
fn markInContact(w: u32) {
  if ((params.flags & (CCD_LATER_ROUND | CCD_MARK_ROUNDS)) == 0u) { return; }
  candidates[w] = candidates[w] | CANDIDATE_IN_CONTACT;
  if ((params.flags & CCD_LATER_ROUND) != 0u) { atomicAdd(&header[CCD_LATER_ROUND_HITS], 1u); }
}

fn appendVertexFace(c: Contact) {
  let slot = atomicAdd(&header[CCD_COUNT], 1u);
  atomicMax(&header[CCD_MAX_COUNT], slot + 1u);
  if (slot >= params.capacity) {
    atomicAdd(&header[CCD_DROPPED], 1u);
    return;
  }
  contacts[slot] = c;
}

fn appendEdgeEdge(c: Contact) {
  let slot = atomicAdd(&eeHeader[CCD_COUNT], 1u);
  atomicMax(&header[CCD_MAX_COUNT], slot + 1u);
  if (slot >= params.capacity) {
    atomicAdd(&header[CCD_DROPPED], 1u);
    return;
  }
  eeContacts[slot] = c;
}

// The separation pair (v, u) comes within, and its contact's offset: the self-contacts' for two
// vertices of one object (prev.w: the object id; ccdCpu.ts run), else the contact offset.
fn pairSeparation(v: u32, u: u32) -> f32 {
  return select(params.separation, params.selfSeparation, vertexObject(v) == vertexObject(u));
}

fn newContact() -> Contact {
  var c: Contact;
  c.pointVertex = vec4<u32>(CONTACT_NONE);
  c.triVertex = vec4<u32>(CONTACT_NONE);
  c.enabled = 1u;
  c.offset = params.separation;
  return c;
}

// p strictly inside tet t at the substep's start positions (tetGeometry.ts strictlyInside).
fn insideTetAtStart(p: vec3<f32>, t: u32) -> bool {
  let o = params.offTets + 4u * t;
  return strictlyInside(subVolumes(p, startPosition(topo[o]), startPosition(topo[o + 1u]), startPosition(topo[o + 2u]), startPosition(topo[o + 3u])));
}

// A pair's motion over the substep for CCD (ccdSolve), prepared per kind so that the solve, the
// section 3.5 skip and the rest have one call site each (a software adapter pays for every
// inlined copy: see ccdNarrow). `tested` false: the pair was skipped before the test.
struct PairMotion {
  tested: bool,
  // Vertex-face: the vertex, then the triangle's corners; edge-edge: edge a's ends, then b's.
  corners: vec4<u32>,
  diff: CcdDiff,
  separation: f32,
  // The boxes over the motion are apart (lib/ccd.wgsl ccdMotionBoxesApart): the solve cannot hit.
  apart: bool,
}

fn vertexFaceMotion(i: u32) -> PairMotion {
  var m: PairMotion;
  m.tested = false;
  let v = candidates[2u * i];
  // A later round reads the marks first: most of its candidates end there, after one read.
  if ((params.flags & CCD_LATER_ROUND) != 0u && laterRoundSkips(2u * i + 1u)) { return m; }
  let tri = candidates[2u * i + 1u] & CANDIDATE_ID;
  if ((params.flags & CCD_SKIP_PIN) != 0u && (pin[v] & pinSkips(vertexObject(v) == vertexObject(topo[params.offTriangles + 3u * tri]), (params.flags & CCD_PIN_BY_KIND) != 0u)) != 0u) {
    // The detecting round's skips only (the later rounds skip the same pairs again).
    if ((params.flags & CCD_LATER_ROUND) == 0u) { atomicAdd(&header[CCD_SKIPPED_PIN], 1u); }
    return m;
  }
  let o = params.offTriangles + 3u * tri;
  let tv = vec3<u32>(topo[o], topo[o + 1u], topo[o + 2u]);
  let x1 = vertexPosition(v);
  let a1 = vertexPosition(tv.x);
  let b1 = vertexPosition(tv.y);
  let c1 = vertexPosition(tv.z);
  if (marksLaterRounds()) { markForLaterRounds(2u * i + 1u, boxGap(x1, x1, a1, b1, c1)); }
  m.tested = true;
  m.corners = vec4<u32>(v, tv);
  let x0 = startPosition(v);
  let a0 = startPosition(tv.x);
  let b0 = startPosition(tv.y);
  let c0 = startPosition(tv.z);
  m.diff = ccdVertexFaceDiff(x0, a0, b0, c0, x1, a1, b1, c1);
  m.separation = pairSeparation(v, tv.x);
  m.apart = ccdMotionBoxesApart(x0, a0, b0, c0, x1, a1, b1, c1, true, m.separation);
  return m;
}

// The contact of vertex-face pair i, which comes within `separation` at toi (ccdSolve), if any.
fn vertexFaceContact(i: u32, corners: vec4<u32>, separation: f32, time: f32) {
  var toi = time;
  let v = corners.x;
  let tv = corners.yzw;
  let tri = candidates[2u * i + 1u] & CANDIDATE_ID;
  let x1 = vertexPosition(v);
  let a1 = vertexPosition(tv.x);
  let b1 = vertexPosition(tv.y);
  let c1 = vertexPosition(tv.z);
  let x0 = startPosition(v);
  let a0 = startPosition(tv.x);
  let b0 = startPosition(tv.y);
  let c0 = startPosition(tv.z);
  let n0 = cross(b0 - a0, c0 - a0);
  let behind = -dot(x0 - a0, n0);
  // An exit (SolverParams.pinRelease): a released vertex (dcdDetect.wgsl), behind the face at t0
  // beyond rounding and in front of it at t1, came out through it; its contact is taken at t1,
  // where the vertex is outside (ccdCpu.ts vertexFace).
  let exit = (params.flags & CCD_SKIP_PIN) != 0u && pin[v] == PIN_RELEASED && behind > BEHIND_FACE_REL * separation * length(n0)
    && dot(x1 - a1, cross(b1 - a1, c1 - a1)) > 0.0;
  if (exit) {
    toi = 1.0;
  } else {
    // Behind the face at t0 by more than the separation: not approaching this face from outside.
    // Within it, a contact that the last substep left not fully resolved (Jacobi passes): keep it.
    if (behind > separation * length(n0)) {
      atomicAdd(&header[CCD_BACK_FACE], 1u);
      return;
    }
    // Directly behind the face (closest point inside the triangle) by more than rounding, and not
    // inside the tet behind it: beyond a part crushed thinner than the separation, on this face's
    // solid side. Its contact would hold the wall's thickness from growing at every build, a
    // ratchet against the material (ccdCpu.ts BEHIND_FACE_REL).
    if (behind > BEHIND_FACE_REL * separation * length(n0)
        && closestPointOnTriangle(x0, a0, b0, c0).feature == FEATURE_FACE && !insideTetAtStart(x0, topo[params.offTriangleTet + tri])) {
      atomicAdd(&header[CCD_BACK_FACE], 1u);
      return;
    }
  }
  let xt = mix(x0, x1, toi);
  let at = mix(a0, a1, toi);
  let bt = mix(b0, b1, toi);
  let ct = mix(c0, c1, toi);
  var n = cross(bt - at, ct - at);
  if (!(dot(n, n) > 0.0)) { n = cross(b1 - a1, c1 - a1); }
  let len = length(n);
  if (!(len > 0.0)) { return; }
  let cp = closestPointOnTriangle(xt, at, bt, ct);
  var normal = n / len;
  // s on an edge or a vertex of the triangle: the direction from s to the vertex (x - s parallel to
  // n: no torque; the face's normal would push a vertex lying beside the face, at a coplanar rim,
  // sideways by the offset every substep), as the CPU reference (ccdCpu.ts).
  let away = xt - cp.point;
  let d = length(away);
  let longest = sqrt(max(max(dot(bt - at, bt - at), dot(ct - bt, ct - bt)), dot(at - ct, at - ct)));
  if (cp.feature != 6u && d > PATH_DIRECTION_MIN_REL * longest) {
    if (separation > longest) {
      normal = besideFeature(tri, cp.feature, xt, normal, away / d, v, cp.point, toi);
      if (all(normal == vec3<f32>(0.0))) {
        atomicAdd(&header[CCD_OFF_FEATURE], 1u);
        return;
      }
    } else {
      normal = featureConeNormal(tri, cp.feature, xt, normal, away / d, toi);
    }
    // ... and its opposite inside the vertex's own cone (mutualVertexCone).
    normal = mutualVertexCone(v, tri, cp.feature, normal, toi, separation > longest);
  }
  var c = newContact();
  c.pointVertex.x = v;
  c.pointWeight = vec4<f32>(1.0, 0.0, 0.0, 0.0);
  c.triVertex = vec4<u32>(tv, CONTACT_NONE);
  c.triBary = vec4<f32>(triangleBarycentrics(cp.point, at, bt, ct), 0.0);
  c.normal = normal;
  // An exit contact's offset opens from the gap at t1 (the vertex outside), the others' from t0.
  let gap0 = select(contactStartGap(c), dot(xt - cp.point, normal), exit);
  c.offset = rampedOffset(separation, gap0, params.offsetRamp, RAMP_FLOOR_CCD, params.depenetration);
  atomicAdd(&header[CCD_HITS_VF], 1u);
  if (exit) { atomicAdd(&header[CCD_EXIT_CONTACTS], 1u); }
  markInContact(2u * i + 1u);
  appendVertexFace(c);
}

// Sum of the unit outward normals of boundary edge e's two triangles (after the material solve).
fn edgeNormal(e: u32) -> vec3<f32> {
  var sum = vec3<f32>(0.0);
  for (var j = 0u; j < 2u; j++) {
    let o = params.offTriangles + 3u * topo[params.offEdgeTriangles + 2u * e + j];
    let a = vertexPosition(topo[o]);
    let nf = cross(vertexPosition(topo[o + 1u]) - a, vertexPosition(topo[o + 2u]) - a);
    let l = length(nf);
    if (l > 0.0) { sum += nf / l; }
  }
  return sum;
}

// Whether the surfaces at boundary edges a and b face each other: their summed outward normals more
// than acos(APART_FACING_MIN_COS) apart (ccdCpu.ts surfacesFace); a degenerate sum counts as facing.
// An apart edge pair between surfaces that do not face each other (a block's side face over a slab)
// pushes along one of them: its later rounds would brake a slide.
const APART_FACING_MIN_COS = 0.1;
fn surfacesFace(a: u32, b: u32) -> bool {
  let ma = edgeNormal(a);
  let mb = edgeNormal(b);
  let l = length(ma) * length(mb);
  return !(l > 0.0) || -dot(ma, mb) > APART_FACING_MIN_COS * l;
}

// The point of edge a-b at parameter `cut` from a: the end a of the searched part (cut 0: a itself).
fn cutPoint(a: vec3<f32>, b: vec3<f32>, cut: f32) -> vec3<f32> {
  return mix(a, b, cut);
}

fn edgeEdgeMotion(i: u32) -> PairMotion {
  var m: PairMotion;
  m.tested = false;
  let ea = candidates[2u * params.vfCount + 2u * i];
  if ((params.flags & CCD_LATER_ROUND) != 0u && laterRoundSkips(2u * params.vfCount + 2u * i + 1u)) { return m; }
  let eb = candidates[2u * params.vfCount + 2u * i + 1u] & CANDIDATE_ID;
  let sameObject = vertexObject(topo[params.offBoundaryEdges + 2u * ea]) == vertexObject(topo[params.offBoundaryEdges + 2u * eb]);
  if ((params.flags & CCD_SKIP_PIN) != 0u && ((pin[params.vertexCount + ea] | pin[params.vertexCount + eb]) & pinSkips(sameObject, (params.flags & CCD_PIN_BY_KIND) != 0u)) != 0u) {
    if ((params.flags & CCD_LATER_ROUND) == 0u) { atomicAdd(&header[CCD_SKIPPED_PIN], 1u); }
    return m;
  }
  let va = vec2<u32>(topo[params.offBoundaryEdges + 2u * ea], topo[params.offBoundaryEdges + 2u * ea + 1u]);
  let vb = vec2<u32>(topo[params.offBoundaryEdges + 2u * eb], topo[params.offBoundaryEdges + 2u * eb + 1u]);
  let p1 = vertexPosition(va.x);
  let q1 = vertexPosition(va.y);
  let r1 = vertexPosition(vb.x);
  let s1 = vertexPosition(vb.y);
  if (marksLaterRounds()) { markForLaterRounds(2u * params.vfCount + 2u * i + 1u, boxGap(p1, q1, r1, s1, s1)); }
  let p0 = startPosition(va.x);
  let q0 = startPosition(va.y);
  let r0 = startPosition(vb.x);
  let s0 = startPosition(vb.y);
  // With CCD_EDGE_INTERIOR over the edges' interiors (src/collision/ccd/interiorEdges.ts): each
  // edge cut to its parameters [EE_END_PARAM, 1 - EE_END_PARAM] at both ends of the substep, so the
  // first time is the first time two points inside both edges come within the separation.
  let e = edgeCut();
  m.tested = true;
  m.corners = vec4<u32>(va, vb);
  m.diff = ccdEdgeEdgeDiff(cutPoint(p0, q0, e), cutPoint(q0, p0, e), cutPoint(r0, s0, e), cutPoint(s0, r0, e),
                           cutPoint(p1, q1, e), cutPoint(q1, p1, e), cutPoint(r1, s1, e), cutPoint(s1, r1, e));
  m.separation = pairSeparation(va.x, vb.x);
  // The whole edges' boxes hold the cut edges' (CCD_EDGE_INTERIOR).
  m.apart = ccdMotionBoxesApart(p0, q0, r0, s0, p1, q1, r1, s1, false, m.separation);
  return m;
}

// How far CCD_EDGE_INTERIOR cuts each edge at both ends (0: whole edges).
fn edgeCut() -> f32 {
  return select(0.0, EE_END_PARAM, (params.flags & CCD_EDGE_INTERIOR) != 0u);
}

// The contact of edge-edge pair i, which comes within `separation` at toi (ccdSolve), if any.
fn edgeEdgeContact(i: u32, corners: vec4<u32>, separation: f32, toi: f32) {
  let ea = candidates[2u * params.vfCount + 2u * i];
  let eb = candidates[2u * params.vfCount + 2u * i + 1u] & CANDIDATE_ID;
  let va = corners.xy;
  let vb = corners.zw;
  let p1 = vertexPosition(va.x);
  let q1 = vertexPosition(va.y);
  let r1 = vertexPosition(vb.x);
  let s1 = vertexPosition(vb.y);
  let p0 = startPosition(va.x);
  let q0 = startPosition(va.y);
  let r0 = startPosition(vb.x);
  let s0 = startPosition(vb.y);
  let interior = (params.flags & CCD_EDGE_INTERIOR) != 0u;
  let e = edgeCut();
  let pt = mix(p0, p1, toi);
  let qt = mix(q0, q1, toi);
  let rt = mix(r0, r1, toi);
  let st = mix(s0, s1, toi);
  let cut = segmentClosestParams(cutPoint(pt, qt, e), cutPoint(qt, pt, e), cutPoint(rt, st, e), cutPoint(st, rt, e));
  let w = e + (1.0 - 2.0 * e) * cut;
  // Over whole edges, closest points at an end of either edge are a vertex's contact, which its
  // vertex-triangle pairs carry with the right normal; the edges' cross product there is no
  // separating direction (near a vertex-vertex touch it points anywhere) and such contacts fought
  // the vertex's own.
  if (!interior && (min(w.x, w.y) <= EE_END_PARAM || max(w.x, w.y) >= 1.0 - EE_END_PARAM)) {
    atomicAdd(&header[CCD_EE_AT_END], 1u);
    return;
  }
  // The side edge a was on at t0, at the same edge parameters.
  let side0 = mix(p0, q0, w.x) - mix(r0, s0, w.y);
  // At an end of the interior (a vertex's neighbourhood) the lines' common perpendicular need not
  // separate the edges; the gap between the closest points does, where it is clear.
  let gapNow = mix(pt, qt, w.x) - mix(rt, st, w.y);
  let atInteriorEnd = interior && (min(cut.x, cut.y) <= 0.0 || max(cut.x, cut.y) >= 1.0);
  var n = cross(qt - pt, st - rt);
  if (atInteriorEnd && dot(gapNow, gapNow) > (EDGE_SIDE_MIN_REL * separation) * (EDGE_SIDE_MIN_REL * separation)) {
    n = gapNow;
  } else if (!(dot(n, n) > 1e-12 * dot(qt - pt, qt - pt) * dot(st - rt, st - rt))) {
    // Parallel edges: along the gap between them, now or at t0.
    n = select(side0, gapNow, dot(gapNow, gapNow) > 0.0);
  }
  let len = length(n);
  if (!(len > 0.0)) { return; }
  n = n / len;
  // The side: from the gap at t0 when it is clear; a resting or already crossing pair has none
  // (after a push it is 0 +- rounding), and then edge a lies outside b's surface: n along b's
  // outward normal and against a's.
  let gap0 = dot(n, side0);
  if (abs(gap0) > EDGE_SIDE_MIN_REL * separation) {
    if (gap0 < 0.0) { n = -n; }
  } else if (dot(n, edgeNormal(eb) - edgeNormal(ea)) < 0.0) {
    n = -n;
  }
  // n in b's cone and -n in a's (mutualEdgeCone); where they do not meet, n stays (counted), and
  // where the two surfaces do not face each other either, only this round solves the contact
  // (CONTACT_DETECTING_ROUND_ONLY; surfacesFace).
  // A thick layer: the reach passes both edges; there the cones are strict, and edges whose cones do
  // not meet make no contact: a nearer pair, within the reach too, makes it (ccdCpu.ts edgeEdge).
  let thick = separation > sqrt(max(dot(qt - pt, qt - pt), dot(st - rt, st - rt)));
  let mutual = mutualEdgeCone(ea, eb, n, toi, thick);
  if (mutual.w > 0.5) { atomicAdd(&header[CCD_EE_APART], 1u); }
  if (mutual.w > 0.5 && thick) {
    atomicAdd(&header[CCD_OFF_FEATURE], 1u);
    return;
  }
  n = mutual.xyz;
  var c = newContact();
  // A pair whose normal is no separating direction keeps the thin layer of self-contacts, enough to
  // stop the crossing (twin of ccdCpu.ts edgeEdge, docs/collisions.md "Contact offset by kind").
  let detectingRoundOnly = mutual.w > 0.5 && !surfacesFace(ea, eb);
  if (detectingRoundOnly) { c.enabled = CONTACT_DETECTING_ROUND_ONLY; }
  c.pointVertex = vec4<u32>(va, CONTACT_NONE, CONTACT_NONE);
  c.pointWeight = vec4<f32>(1.0 - w.x, w.x, 0.0, 0.0);
  c.triVertex = vec4<u32>(vb, CONTACT_NONE, CONTACT_NONE);
  c.triBary = vec4<f32>(1.0 - w.y, w.y, 0.0, 0.0);
  c.normal = n;
  c.offset = rampedOffset(select(separation, min(separation, params.selfSeparation), detectingRoundOnly), contactStartGap(c), params.offsetRamp, RAMP_FLOOR_CCD, params.depenetration);
  atomicAdd(&header[CCD_HITS_EE], 1u);
  if (atInteriorEnd) { atomicAdd(&header[CCD_EE_AT_END], 1u); }
  markInContact(2u * params.vfCount + 2u * i + 1u);
  appendEdgeEdge(c);
}

// How far outside its own-frame box it lay at t0 or t1 (0 inside; lib/ccdBoxes.wgsl).
fn ownFrameExcess(v: u32) -> f32 {
  let o = vertexObject(v);
  let reference = ownFrameReference(o, params.vertexCount);
  return ownFrameBoxExcess(v, o, params.vertexCount, startPosition(v), vertexPosition(v), startPosition(reference), vertexPosition(reference));
}

// A later round (CCD_LATER_ROUND), dispatched indirectly by ccdNearArgs.wgsl: the pairs of the
// near list (or, when it overflowed, every candidate, as the detecting round), then each boundary
// vertex's move since the detecting round (laterRounds.ts: beyond the reach, counted). Returns the
// candidate pair the invocation tests (vertex-face ones first, then edge-edge), or NO_PAIR.
fn laterRoundPair(index: u32) -> u32 {
  let listed = atomicLoad(&eeHeader[CCD_NEAR_COUNT]);
  let fromList = listed <= params.nearCapacity;
  let pairs = select(params.vfCount + params.eeCount, listed, fromList);
  if (index < pairs) {
    return select(index, candidates[params.nearAt + index], fromList);
  }
  let i = index - pairs;
  if (i >= params.boundaryVertexCount) { return NO_PAIR; }
  let v = topo[params.offBoundaryVertices + i];
  let r = params.roundZeroAt + 4u * v;
  let moved = abs(vertexPosition(v) - vec3<f32>(boxes[r], boxes[r + 1u], boxes[r + 2u]));
  if (max(moved.x, max(moved.y, moved.z)) > params.laterReach) { atomicAdd(&header[CCD_LATER_ROUND_BEYOND], 1u); }
  return NO_PAIR;
}

// The detecting round's invocations past the pairs: boundary vertex i's escape from the boxes its
// candidates were found with (and, with CCD_MARK_ROUNDS, its position for the later rounds).
fn checkEscape(i: u32) {
  let v = topo[params.offBoundaryVertices + i];
  if ((params.flags & CCD_MARK_ROUNDS) != 0u) {
    let r = params.roundZeroAt + 4u * v;
    let p = vertexPosition(v);
    boxes[r] = p.x;
    boxes[r + 1u] = p.y;
    boxes[r + 2u] = p.z;
  }
  let world = worldBoxExcess(v, startPosition(v), vertexPosition(v));
  if (world > 0.0) {
    atomicAdd(&header[CCD_ESCAPED], 1u);
    atomicMax(&header[CCD_ESCAPE_DISTANCE], bitcast<u32>(world));
  }
  var own = 0.0;
  if ((params.flags & CCD_CHECK_OWN) != 0u) {
    own = ownFrameExcess(v);
    if (own > 0.0) {
      atomicAdd(&header[CCD_ESCAPED_SELF], 1u);
      atomicMax(&header[CCD_ESCAPE_DISTANCE_SELF], bitcast<u32>(own));
      let bit = vertexObject(v) % 64u;
      atomicOr(&header[CCD_ESCAPED_SELF_OBJECTS + bit / 32u], 1u << (bit % 32u));
    }
  }
  let excess = max(world, own);
  if (excess > 0.0) {
    let slot = atomicAdd(&header[CCD_ESCAPE_LIST_COUNT], 1u);
    if (slot < CCD_ESCAPE_LIST_CAPACITY) {
      atomicStore(&header[CCD_ESCAPE_LIST + 2u * slot], v);
      atomicStore(&header[CCD_ESCAPE_LIST + 2u * slot + 1u], bitcast<u32>(excess));
    }
  }
}

// Counts a pair's test (the motion's boxes first, lib/ccd.wgsl ccdMotionBoxesApart): true when
// the boxes settle it apart, so the solve is not run.
fn countMotionTest(apart: bool) -> bool {
  atomicAdd(&header[CCD_TESTS], 1u);
  if (apart) { atomicAdd(&header[CCD_MOTION_APART], 1u); }
  return apart;
}

// The pair at `index` of ccdSweep's list (CCD_FROM_LIST), or NO_PAIR past its length.
fn listedPair(index: u32) -> u32 {
  if (index < atomicLoad(&eeHeader[CCD_SOLVE_COUNT])) { return candidates[params.solveAt + index]; }
  return NO_PAIR;
}

// Each kind's preparation and contact, CCD's solve and the section 3.5 walk are called from one place only: a software adapter (SwiftShader,
// where the tests run) inlines every call and pays for the whole inlined body in every workgroup,
// even where every invocation has returned (a copy per call site doubled the dispatch's time).
// For the same reason a software adapter runs each round in two dispatches (CcdStage
// substepBoxes): ccdSweep over the round's candidates, whose body is small, then this kernel over
// the pairs it left (CCD_FROM_LIST), an indirect grid the sweep sized.
@compute @workgroup_size(64)
fn ccdNarrow(@builtin(global_invocation_id) gid: vec3<u32>) {
  var pair = NO_PAIR;
  if ((params.flags & CCD_FROM_LIST) != 0u) {
    pair = listedPair(threadIndex(gid, CCD_LATER_ROW_STRIDE));
  } else if ((params.flags & CCD_LATER_ROUND) != 0u) {
    pair = laterRoundPair(threadIndex(gid, CCD_LATER_ROW_STRIDE));
  } else {
    let i = threadIndex(gid, params.rowStride);
    let pairs = params.vfCount + params.eeCount;
    if (i < pairs) {
      pair = i;
    } else if (i - pairs < params.boundaryVertexCount) {
      checkEscape(i - pairs);
    }
  }
  if (pair == NO_PAIR) { return; }
  let isVertexFace = pair < params.vfCount;
  let i = select(pair - params.vfCount, pair, isVertexFace);
  var m: PairMotion;
  if (isVertexFace) {
    m = vertexFaceMotion(i);
  } else {
    m = edgeEdgeMotion(i);
  }
  if (!m.tested) { return; }
  // A listed pair was counted, and found not apart, by the sweep.
  if ((params.flags & CCD_FROM_LIST) == 0u && countMotionTest(m.apart)) { return; }
  let toi = ccdSolve(m.diff, isVertexFace, m.separation);
  if (toi < 0.0) { return; }
  // The other member's first vertex: the triangle's, or edge b's.
  let other = select(m.corners.z, m.corners.y, isVertexFace);
  if ((params.flags & CCD_SKIP_INVERTED) != 0u && vertexObject(m.corners.x) == vertexObject(other)
    && anyInvertedBoundaryFan(m.corners, 4u)) {
    if ((params.flags & CCD_LATER_ROUND) == 0u) { atomicAdd(&header[CCD_SKIPPED_INVERTED], 1u); }
    return;
  }
  if (isVertexFace) {
    vertexFaceContact(i, m.corners, m.separation, toi);
  } else {
    edgeEdgeContact(i, m.corners, m.separation, toi);
  }
}

// A round on a software adapter (CcdStage substepBoxes), first of its two dispatches: everything
// ccdNarrow's round does but the solve and the contacts (the detecting round's Pin skips, marks for
// the later rounds and boxes' escape checks; a later round's skips and reach count; the tests'
// counts), and the pairs whose boxes over the motion are not apart go to a list for ccdNarrow
// (CCD_FROM_LIST). The grid of that dispatch grows with the list: the invocation that opens a
// workgroup's worth of it raises [x, y].
@compute @workgroup_size(64)
fn ccdSweep(@builtin(global_invocation_id) gid: vec3<u32>) {
  var pair = NO_PAIR;
  var i = 0u;
  if ((params.flags & CCD_LATER_ROUND) != 0u) {
    i = threadIndex(gid, CCD_LATER_ROW_STRIDE);
    pair = laterRoundPair(i);
  } else {
    i = threadIndex(gid, params.rowStride);
    let pairs = params.vfCount + params.eeCount;
    if (i < pairs) {
      pair = i;
    } else if (i - pairs < params.boundaryVertexCount) {
      checkEscape(i - pairs);
    }
  }
  if (i == 0u) { atomicStore(&solveGrid[2], 1u); }
  if (pair == NO_PAIR) { return; }
  var m: PairMotion;
  if (pair < params.vfCount) {
    m = vertexFaceMotion(pair);
  } else {
    m = edgeEdgeMotion(pair - params.vfCount);
  }
  if (!m.tested || countMotionTest(m.apart)) { return; }
  let slot = atomicAdd(&eeHeader[CCD_SOLVE_COUNT], 1u);
  candidates[params.solveAt + slot] = pair;
  if (slot % 64u == 0u) {
    let group = slot / 64u;
    atomicMax(&solveGrid[0], min(group + 1u, 65535u));
    atomicMax(&solveGrid[1], group / 65535u + 1u);
  }
}

// A later round of SolverParams.collideEvery 'contacts', before its own CCD (if any): the edge-edge
// contacts that only the round that made them solves are disabled (lib/contact.wgsl
// CONTACT_DETECTING_ROUND_ONLY). One invocation per record up to the capacity.
@compute @workgroup_size(64)
fn retireDetectingRoundOnly(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= min(atomicLoad(&eeHeader[CCD_COUNT]), params.capacity)) { return; }
  if (eeContacts[i].enabled == CONTACT_DETECTING_ROUND_ONLY) { eeContacts[i].enabled = 0u; }
}
