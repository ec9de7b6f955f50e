// Shortest path to boundary (Chen, Diaz, Yuksel 2023), one invocation per query point, with
// fixed-size private stacks: the static version of supplement 001 section 1.2.
//
// A line-by-line port of the TypeScript static twin in src/spb/ (query.ts: Alg. 3,
// surfaceDescent.ts, traverse.ts: Alg. 1, exitFaces.ts: Alg. 2, feasibleRegion.ts: Alg. 4,
// meshData.ts: per-component inversion mode, geometry/closestPointOnTriangle.ts). Read those for the reasoning; comments here note only
// what differs on the GPU. A query that would overflow any stack (or exceed the step bound) stops
// with status OVERFLOW and is answered by the CPU dynamic version: never a partial answer.
//
// The host prepends the capacities (from SPB_STATIC_CAPACITIES in src/spb/settings.ts):
//   const BVH_STACK: u32; const FACE_STACK: u32; const RING: u32; const MAX_STEPS: u32;
//
// Bindings (src/spb/gpu/spbKernels.ts SPB_QUERY_BINDINGS, in this order; 8 storage buffers,
// the SwiftShader/default-browser limit):
//   positions  vec4 per vertex, xyz + inverse mass (the one GPU layout, contract/state.ts)
//   tets       2 vec4<u32> per tet: vertex ids, then neighbours across local faces (i32 bits, -1 = boundary)
//   topo       u32 sections (offsets in params): 8 words per boundary triangle
//              (v0, v1, v2, tet*4+face, across-edge triangle k=0..2 or NONE, component),
//              then BVH triangle order, tet components, vertex-neighbour CSR, vertex-triangle CSR
//   nodes      BVH nodes, layout of src/bvh/surfaceBvh.ts
//   measures   vec2 per tet from spbPrepass.wgsl: (h^2, inverted 0/1)
//   list       the query list (shaders/lib/queryList.wgsl): n = min(header count, capacity) queries;
//              dispatched indirectly ([ceil(n / 64), 1, 1] from detection) or directly by SpbQueryGpu.run
//   results, counters (counters[0] = inverted tets; [1 + STAT_*] = summed statistics;
//              [INVERTED_LIST + i] = the i-th inverted tet listed by the prepass, i < INVERTED_CAP;
//              [COMPONENT_FLAGS + c] = 1 when component c has an inverted tet, from the prepass)

#include "threadIndex"
#include "positions"
#include "bvhNode"
#include "boundaryTriangles"
#include "closestPointOnTriangle"
#include "queryList"
#include "spbResult"

struct Params {
  rowStride: u32, // threadIndex's row stride (direct dispatches; an indirect one has a single row)
  nodeCount: u32,
  culling: u32,
  offOrder: u32,
  offTetComponent: u32,
  offVertexNeighborOffsets: u32,
  offVertexNeighbors: u32,
  offVertexTriangleOffsets: u32,
  offVertexTriangles: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
  exitFace: f32,
  cullingCos: f32,
  beyond: f32,
  zeroLength: f32,
  inversionTravel: f32,
  barycentric: f32,
  _pad3: f32,
  _pad4: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> topo: array<u32>;
@group(0) @binding(4) var<storage, read> nodes: array<BvhNode>;
@group(0) @binding(5) var<storage, read> measures: array<vec2<f32>>;
@group(0) @binding(6) var<storage, read> list: QueryListR;
@group(0) @binding(7) var<storage, read_write> results: array<SpbResult>;
@group(0) @binding(8) var<storage, read_write> counters: array<atomic<u32>>;

const QUERY_NONE = SPB_QUERY_NONE;
const QUERY_FOUND = SPB_QUERY_FOUND;
const QUERY_OVERFLOW = SPB_QUERY_OVERFLOW;
const QUERY_SKIPPED = SPB_QUERY_SKIPPED;
const TRAVERSE_FAIL = 0u;
const TRAVERSE_FOUND = 1u;
const TRAVERSE_OVERFLOW = 2u;
const MAX_DESCENT = 16u;
// The expanding search and descent budget of src/spb/settings.ts (SPB_SEARCH_START2,
// SPB_SEARCH_GROWTH2, SPB_SEARCH_SKIP2, SPB_DESCENT_FAILURES; a unit test checks they match).
const SEARCH_START2 = 1.0;
const SEARCH_GROWTH2 = 4.0;
const SEARCH_SKIP2 = 0.25;
const DESCENT_FAILURES = 1u;
const NONE = 0xffffffffu;
// Counter layout (src/spb/gpu/packSpbBuffers.ts; INVERTED_CAP = SPB_INVERTED_LIST of settings.ts,
// a unit test checks both shaders against them).
const INVERTED_LIST = 10u;
const INVERTED_CAP = 256u;
const COMPONENT_FLAGS = 266u;
const GUARD_MARGIN = 1e-3; // cullingGuard.ts MARGIN
const BIG = 3.0e38; // stands for Infinity (no f32 infinity literal in WGSL)
// TET_FACES of src/mesh/types.ts, 2 bits per local vertex: face f vertex i at bit 2 * (3f + i).
const FACE_VERTS = 0x634b39u;

// Per-invocation state (the workspace of the TypeScript twin).
var<private> bvhStack: array<u32, BVH_STACK>;
var<private> bvhDist: array<f32, BVH_STACK>;
var<private> faceStack: array<i32, FACE_STACK>;
var<private> tetStack: array<u32, FACE_STACK>;
var<private> travelStack: array<f32, FACE_STACK>;
var<private> ring: array<u32, RING>;
var<private> ringPos: u32;
var<private> support: array<u32, 4>;
var<private> supportCount: u32;
var<private> proj: array<vec3<f32>, 4>;
var<private> resTriangle: i32;
var<private> resFeature: u32;
var<private> resPoint: vec3<f32>;
var<private> resD2: f32;
var<private> stQ: u32;
var<private> stTr: u32;
var<private> stTet: u32;
var<private> stCulled: u32;
var<private> stBranch: u32;
var<private> stBoundary: u32;
var<private> stDescent: u32;

fn faceVert(f: u32, i: u32) -> u32 {
  return (FACE_VERTS >> (2u * (3u * f + i))) & 3u;
}

fn tetSize2(t: u32) -> f32 { return measures[t].x; }

// triVert, triTet, triComponent, excludesTriangle, excluded: shaders/lib/boundaryTriangles.wgsl;
// boxDistance2, boxFarDistance2: shaders/lib/bvhNode.wgsl.

// Every triangle at boundary edge (v, w) is excluded.
fn excludesEdge(v: u32, w: u32, e1: i32, e2: i32) -> bool {
  if (e1 < 0) { return false; }
  let a = u32(e1);
  if (e2 < 0) { return v == a || w == a; }
  let b = u32(e2);
  return (v == a && w == b) || (v == b && w == a);
}

// ---- infeasible-region culling (spb/feasibleRegion.ts; paper eqs. 1-5, Alg. 4) ----

// The excluded faces do not make a candidate infeasible when (own, own2) is the excluded pair
// (one of its vertices is a vertex of p's tet), and do when it is (-1, -1) (feasibleRegion.ts).
fn isFeasible(tri: u32, feature: u32, s: vec3<f32>, p: vec3<f32>, own: i32, own2: i32) -> bool {
  let d = p - s;
  let dd = dot(d, d);
  let c2 = params.cullingCos * params.cullingCos;
  if (feature <= FEATURE_VERTEX2) {
    let v = triVert(tri, feature);
    let end = topo[params.offVertexNeighborOffsets + v + 1u];
    for (var j = topo[params.offVertexNeighborOffsets + v]; j < end; j++) {
      let a = topo[params.offVertexNeighbors + j];
      if (excludesEdge(v, a, own, own2)) { continue; }
      let e = vertexPosition(a) - s;
      let dt = dot(d, e);
      if (dt > 0.0 && dt * dt > c2 * dd * dot(e, e)) { return false; }
    }
    return true;
  }
  if (feature > FEATURE_EDGE20) { return true; }
  let k = feature - FEATURE_EDGE01;
  let i0 = triVert(tri, k);
  let i1 = triVert(tri, (k + 1u) % 3u);
  let g = topo[8u * tri + 4u + k];
  if (g == NONE) { return true; }
  let w = triVert(g, 0u) ^ triVert(g, 1u) ^ triVert(g, 2u) ^ i0 ^ i1;
  if (excludesTriangle(i0, i1, w, own, own2)) { return true; }
  let a = vertexPosition(i0);
  let e = vertexPosition(i1) - a;
  let f = vertexPosition(w) - a;
  let ee = dot(e, e);
  if (!(ee > 0.0)) { return true; }
  let m = f - (dot(f, e) / ee) * e;
  let dt = dot(d, m);
  return !(dt > 0.0 && dt * dt > c2 * dd * dot(m, m));
}

// ---- p's support in its tet (query.ts computeSupport) ----

fn vol(i: vec3<f32>, j: vec3<f32>, k: vec3<f32>) -> f32 { return dot(i, cross(j, k)); }

fn computeSupport(tet: u32, p: vec3<f32>) {
  let ids = tets[2u * tet];
  let pa = vertexPosition(ids.x) - p;
  let pb = vertexPosition(ids.y) - p;
  let pc = vertexPosition(ids.z) - p;
  let pd = vertexPosition(ids.w) - p;
  let wa = vol(pb, pc, pd);
  let wb = -vol(pa, pc, pd);
  let wc = vol(pa, pb, pd);
  let wd = -vol(pa, pb, pc);
  let total = wa + wb + wc + wd;
  let h2 = tetSize2(tet);
  supportCount = 0u;
  if (!(abs(total) > 1e-12 * h2 * sqrt(h2))) {
    for (var i = 0u; i < 4u; i++) { support[i] = ids[i]; }
    supportCount = 4u;
    return;
  }
  let inv = 1.0 / total;
  let w = vec4<f32>(wa, wb, wc, wd) * inv;
  for (var i = 0u; i < 4u; i++) {
    if (w[i] > params.barycentric) { support[supportCount] = ids[i]; supportCount++; }
  }
  if (supportCount == 0u) {
    for (var i = 0u; i < 4u; i++) { support[i] = ids[i]; }
    supportCount = 4u;
  }
}

// p's pre-image on boundary triangle f (support.ts supportOnTriangle): the zero-length case.
fn supportOnTriangle(f: u32) -> bool {
  for (var i = 0u; i < supportCount; i++) {
    let v = support[i];
    if (v != triVert(f, 0u) && v != triVert(f, 1u) && v != triVert(f, 2u)) { return false; }
  }
  return true;
}

fn acceptsTet(ids: vec4<u32>) -> bool {
  for (var i = 0u; i < supportCount; i++) {
    let v = support[i];
    if (v != ids.x && v != ids.y && v != ids.z && v != ids.w) { return false; }
  }
  return true;
}

// ---- exit faces (spb/exitFaces.ts; Alg. 2) ----

fn exitFaceMask(entry: u32, eps: f32) -> u32 {
  let ia = faceVert(entry, 0u);
  let ib = faceVert(entry, 1u);
  let ic = faceVert(entry, 2u);
  let a = proj[ia].xy;
  let b = proj[ib].xy;
  let c = proj[ic].xy;
  let d = proj[entry].xy;
  let orient = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  let sgn = select(select(0.0, -1.0, orient < -eps), 1.0, orient > eps);
  let da = sgn * (d.x * a.y - d.y * a.x);
  let db = sgn * (d.x * b.y - d.y * b.x);
  let dc = sgn * (d.x * c.y - d.y * c.x);
  var mask = 0u;
  if (da >= -eps && db <= eps) { mask |= 1u << ic; }
  if (db >= -eps && dc <= eps) { mask |= 1u << ia; }
  if (dc >= -eps && da <= eps) { mask |= 1u << ib; }
  return mask;
}

fn entryParameterRange(entry: u32, eps: f32) -> vec2<f32> {
  let a = proj[faceVert(entry, 0u)];
  let b = proj[faceVert(entry, 1u)];
  let c = proj[faceVert(entry, 2u)];
  let wa = b.x * c.y - b.y * c.x;
  let wb = c.x * a.y - c.y * a.x;
  let wc = a.x * b.y - a.y * b.x;
  let sum = wa + wb + wc;
  if (sum > eps || sum < -eps) {
    let z = (wa * a.z + wb * b.z + wc * c.z) / sum;
    return vec2<f32>(z, z);
  }
  return vec2<f32>(min(a.z, min(b.z, c.z)), max(a.z, max(b.z, c.z)));
}

// ---- tetrahedral traversal (spb/traverse.ts; Alg. 1) ----

fn wasEntered(t: u32) -> bool {
  for (var i = 0u; i < RING; i++) {
    if (ring[i] == t) { return true; }
  }
  return false;
}

fn mark(t: u32) {
  ring[ringPos] = t;
  ringPos = select(ringPos + 1u, 0u, ringPos + 1u == RING);
}

fn traverse(tri: u32, s: vec3<f32>, p: vec3<f32>) -> u32 {
  stTr++;
  // Ray frame of Duff et al. 2017: unit direction n, orthonormal u, v.
  let r = p - s;
  let rr = dot(r, r);
  let rl = sqrt(rr);
  let n = r / rl;
  let sg = select(-1.0, 1.0, n.z >= 0.0);
  let ka = -1.0 / (sg + n.z);
  let kb = n.x * n.y * ka;
  let u = vec3<f32>(1.0 + sg * n.x * n.x * ka, sg * kb, -sg * n.x);
  let v = vec3<f32>(kb, sg + n.y * n.y * ka, -n.y);
  let zv = r / rr; // z in units of |p - s|: s at 0, p at 1

  for (var i = 0u; i < RING; i++) { ring[i] = NONE; }
  ringPos = 0u;
  let tf = topo[8u * tri + 3u];
  // Backward travel is possible only in a component with inverted tets (section 3.5).
  let inversions = atomicLoad(&counters[COMPONENT_FLAGS + topo[params.offTetComponent + (tf >> 2u)]]) != 0u;
  tetStack[0] = tf >> 2u;
  faceStack[0] = -1 - i32(tf & 3u);
  travelStack[0] = 0.0;
  var top = 1u;
  var steps = 0u;
  while (top > 0u) {
    top--;
    let t = tetStack[top];
    let fcode = faceStack[top];
    let travel = travelStack[top];
    if (wasEntered(t)) { continue; }
    stTet++;
    steps++;
    if (steps > MAX_STEPS) { return TRAVERSE_OVERFLOW; }
    let ids = tets[2u * t];
    if (acceptsTet(ids)) { return TRAVERSE_FOUND; }

    var entry: u32;
    if (fcode < 0) {
      entry = u32(-1 - fcode);
    } else {
      // XOR trick: the vertex of t off the shared face.
      let pids = tets[2u * (u32(fcode) >> 2u)];
      let onFace = pids.x ^ pids.y ^ pids.z ^ pids.w ^ pids[u32(fcode) & 3u];
      let fourth = ids.x ^ ids.y ^ ids.z ^ ids.w ^ onFace;
      entry = select(select(select(3u, 2u, fourth == ids.z), 1u, fourth == ids.y), 0u, fourth == ids.x);
    }
    for (var i = 0u; i < 4u; i++) {
      let d = vertexPosition(ids[i]) - s;
      proj[i] = vec3<f32>(dot(d, u), dot(d, v), dot(d, zv));
    }
    let h2 = tetSize2(t);
    let eps = params.exitFace * h2;
    var enterRange = vec2<f32>(0.0); // where the ray enters t: s itself for the start tet
    if (fcode >= 0) {
      enterRange = entryParameterRange(entry, eps);
      if (inversions) {
        if (travel > params.inversionTravel) { continue; } // distance travelled (supplement 1.2)
      } else {
        let reach = 1.0 + params.beyond * sqrt(h2) / rl; // Alg. 1 line 25, ahead of s or behind it
        if (enterRange.x > reach || enterRange.y < -reach) { continue; }
      }
    }
    mark(t); // only now: a tet reached too far along the ray stays open to another branch
    let mask = exitFaceMask(entry, eps);
    if ((mask & (mask - 1u)) != 0u) { stBranch++; }
    let nb = bitcast<vec4<i32>>(tets[2u * t + 1u]);
    for (var k = 0u; k < 4u; k++) {
      if ((mask & (1u << k)) == 0u) { continue; }
      let nk = nb[k];
      if (nk < 0) { stBoundary++; continue; }
      if (wasEntered(u32(nk))) { continue; } // would be skipped when popped: keep it off the stack
      if (top >= FACE_STACK) { return TRAVERSE_OVERFLOW; }
      var next = travel;
      if (inversions) {
        let kr = entryParameterRange(k, eps); // where the ray crosses exit face k
        next += max(0.0, max(kr.x - enterRange.y, enterRange.x - kr.y));
      }
      tetStack[top] = u32(nk);
      faceStack[top] = i32(4u * t + k);
      travelStack[top] = next;
      top++;
    }
  }
  return TRAVERSE_FAIL;
}

// ---- the query (spb/query.ts; Alg. 3) ----

fn setResult(f: u32, feature: u32, s: vec3<f32>, d2: f32) {
  resTriangle = i32(f);
  resFeature = feature;
  resPoint = s;
  resD2 = d2;
}

fn isInvertedBoundaryVertex(v: u32) -> bool {
  let end = topo[params.offVertexTriangleOffsets + v + 1u];
  for (var j = topo[params.offVertexTriangleOffsets + v]; j < end; j++) {
    if (measures[triTet(topo[params.offVertexTriangles + j])].y > 0.5) { return true; }
  }
  return false;
}

// Whether boundary vertex v belongs to tet's connected component (a self query; query.ts ownComponent).
fn ownComponent(v: u32, tet: u32) -> bool {
  let j = topo[params.offVertexTriangleOffsets + v];
  if (j >= topo[params.offVertexTriangleOffsets + v + 1u]) { return false; }
  return topo[params.offTetComponent + triTet(topo[params.offVertexTriangles + j])] == topo[params.offTetComponent + tet];
}

fn descend(f: u32, feature: u32, d2: f32, lo2: f32, r2: f32, p: vec3<f32>, e1: i32, e2: i32, own: i32, own2: i32) -> u32 {
  var curF = f;
  var curFeature = feature;
  var curD2 = d2;
  let zero2 = params.zeroLength * params.zeroLength;
  for (var step = 0u; step < MAX_DESCENT; step++) {
    // Downhill neighbourhood: from an edge, the face across it; from a vertex, the faces along
    // its boundary edge most aligned with p - s.
    let k = select(curFeature, curFeature - FEATURE_EDGE01, curFeature >= FEATURE_EDGE01);
    let v = triVert(curF, k);
    var bestF = -1;
    var bestFeature = 0u;
    var bestD2 = curD2;
    var bestS = vec3<f32>(0.0);
    var only = NONE;
    var along = NONE;
    if (curFeature >= FEATURE_EDGE01) {
      only = topo[8u * curF + 4u + k];
      if (only == NONE) { return TRAVERSE_FAIL; }
    } else {
      let sv = vertexPosition(v);
      var bestCos = -BIG;
      let end = topo[params.offVertexNeighborOffsets + v + 1u];
      for (var j = topo[params.offVertexNeighborOffsets + v]; j < end; j++) {
        let a = topo[params.offVertexNeighbors + j];
        let e = vertexPosition(a) - sv;
        let c = dot(p - sv, e) / sqrt(dot(e, e));
        if (c > bestCos) { bestCos = c; along = a; }
      }
    }
    let j0 = select(topo[params.offVertexTriangleOffsets + v], 0u, only != NONE);
    let j1 = select(topo[params.offVertexTriangleOffsets + v + 1u], 1u, only != NONE);
    for (var j = j0; j < j1; j++) {
      let g = select(topo[params.offVertexTriangles + j], only, only != NONE);
      let i0 = triVert(g, 0u);
      let i1 = triVert(g, 1u);
      let i2 = triVert(g, 2u);
      if (only == NONE && i0 != along && i1 != along && i2 != along) { continue; }
      if (excludesTriangle(i0, i1, i2, e1, e2)) { continue; }
      let c = closestPointOnTriangle(p, vertexPosition(i0), vertexPosition(i1), vertexPosition(i2));
      stDescent++;
      let g2 = dot(c.point - p, c.point - p);
      if (g2 < bestD2) {
        bestF = i32(g);
        bestFeature = c.feature;
        bestD2 = g2;
        bestS = c.point;
      }
    }
    if (bestF < 0 || !(bestD2 < r2)) { return TRAVERSE_FAIL; }
    if (bestD2 < lo2) { return TRAVERSE_FAIL; } // tested by an earlier pass
    let bf = u32(bestF);
    if (bestD2 <= zero2 * tetSize2(triTet(bf))) {
      if (!supportOnTriangle(bf)) { return TRAVERSE_FAIL; } // zero-length: p itself
      setResult(bf, bestFeature, bestS, bestD2);
      return TRAVERSE_FOUND;
    }
    curF = bf;
    curFeature = bestFeature;
    curD2 = bestD2;
    if (bestFeature == FEATURE_FACE || isFeasible(bf, bestFeature, bestS, p, own, own2)) {
      let st = traverse(bf, bestS, p);
      if (st == TRAVERSE_FOUND) { setResult(bf, bestFeature, bestS, bestD2); }
      return st;
    }
  }
  return TRAVERSE_FAIL;
}

// ---- culling only where Theorem 2 holds (spb/cullingGuard.ts) ----

struct TetCorners { a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, d: vec3<f32> }

fn tetCorners(t: u32) -> TetCorners {
  let ids = tets[2u * t];
  return TetCorners(vertexPosition(ids.x), vertexPosition(ids.y), vertexPosition(ids.z), vertexPosition(ids.w));
}

// Bounding-sphere gap of inverted tet t, grown by GUARD_MARGIN (the twin precomputes the spheres).
fn sphereGap(t: u32, p: vec3<f32>) -> f32 {
  let k = tetCorners(t);
  let a = k.a;
  let b = k.b;
  let c = k.c;
  let d = k.d;
  let m = 0.25 * (a + b + c + d);
  let r = sqrt(max(max(dot(a - m, a - m), dot(b - m, b - m)), max(dot(c - m, c - m), dot(d - m, d - m))));
  return length(p - m) - (1.0 + GUARD_MARGIN) * r;
}

// Squared radius around p clear of the spheres of its component's inverted tets.
fn cullingClearance2(component: u32, p: vec3<f32>) -> f32 {
  if (atomicLoad(&counters[COMPONENT_FLAGS + component]) == 0u) { return BIG; }
  let count = atomicLoad(&counters[0]);
  if (count > INVERTED_CAP) { return 0.0; }
  var clear = BIG;
  for (var i = 0u; i < count; i++) {
    let t = atomicLoad(&counters[INVERTED_LIST + i]);
    if (topo[params.offTetComponent + t] != component) { continue; }
    clear = min(clear, sphereGap(t, p));
  }
  return select(0.0, min(clear * clear, BIG), clear > 0.0);
}

fn side(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, q: vec3<f32>) -> f32 {
  return dot(cross(b - a, c - a), q - a);
}

fn faceDistance2(p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> f32 {
  let q = closestPointOnTriangle(p, a, b, c).point;
  return dot(q - p, q - p);
}

fn tetDistance2(t: u32, p: vec3<f32>) -> f32 {
  let k = tetCorners(t);
  let v0 = k.a;
  let v1 = k.b;
  let v2 = k.c;
  let v3 = k.d;
  if (side(v1, v2, v3, p) * side(v1, v2, v3, v0) >= 0.0 && side(v0, v2, v3, p) * side(v0, v2, v3, v1) >= 0.0 &&
      side(v0, v1, v3, p) * side(v0, v1, v3, v2) >= 0.0 && side(v0, v1, v2, p) * side(v0, v1, v2, v3) >= 0.0) {
    return 0.0;
  }
  return min(min(faceDistance2(p, v1, v2, v3), faceDistance2(p, v0, v2, v3)), min(faceDistance2(p, v0, v1, v3), faceDistance2(p, v0, v1, v2)));
}

// Squared radius around p clear of its component's inverted tets themselves (once per query, when needed).
fn exactClearance2(component: u32, p: vec3<f32>) -> f32 {
  let count = atomicLoad(&counters[0]);
  if (count > INVERTED_CAP) { return 0.0; }
  var best = BIG;
  for (var i = 0u; i < count; i++) {
    let t = atomicLoad(&counters[INVERTED_LIST + i]);
    if (topo[params.offTetComponent + t] != component) { continue; }
    let gap = sphereGap(t, p);
    if (gap > 0.0 && gap * gap >= best) { continue; }
    best = min(best, tetDistance2(t, p));
  }
  return best / ((1.0 + GUARD_MARGIN) * (1.0 + GUARD_MARGIN));
}

fn run(p: vec3<f32>, tet: u32, exclude: i32, exclude2: i32) -> u32 {
  // Section 3.5: a self query of a vertex (or edge end) on an inverted boundary tet is skipped;
  // the skip is for self-intersection only: a point inside another piece is answered.
  if (exclude >= 0 && isInvertedBoundaryVertex(u32(exclude)) && ownComponent(u32(exclude), tet)) { return QUERY_SKIPPED; }
  if (exclude >= 0 && exclude2 >= 0 && isInvertedBoundaryVertex(u32(exclude2)) && ownComponent(u32(exclude2), tet)) { return QUERY_SKIPPED; }
  computeSupport(tet, p);
  let zero2 = params.zeroLength * params.zeroLength;
  let component = topo[params.offTetComponent + tet];
  // Candidates nearer than clear2 may be culled at once; beyond it, nearer than exact2 (when needed).
  let clear2 = select(0.0, cullingClearance2(component, p), params.culling != 0u);
  var exact2 = -1.0;
  // The excluded faces keep candidates feasible only if a vertex of the pair is one of p's tet's.
  let ids = tets[2u * tet];
  let isOwn = exclude >= 0 && (any(ids == vec4<u32>(u32(exclude))) || (exclude2 >= 0 && any(ids == vec4<u32>(u32(max(exclude2, 0))))));
  let own = select(-1, exclude, isOwn);
  let own2 = select(-1, exclude2, isOwn);
  // Expanding search: pass k takes the candidates with lo2 <= d2 < hi2.
  let h2 = tetSize2(tet);
  var lo2 = 0.0;
  var hi2 = select(BIG, SEARCH_START2 * h2, h2 > 0.0);
  var failedDescents = 0u;
  loop {
    var r2 = hi2;
    var cut = false;
    let inner2 = SEARCH_SKIP2 * lo2;
    var top = 0u;
    if (params.nodeCount > 0u) {
      bvhStack[0] = 0u;
      bvhDist[0] = boxDistance2(nodes[0], p);
      top = 1u;
    }
    while (top > 0u) {
      top--;
      if (bvhDist[top] >= r2) { cut = true; continue; } // the radius shrank since the push
      let node = nodes[bvhStack[top]];
      if (inner2 > 0.0 && boxFarDistance2(node, p) < inner2) { continue; }
      if (node.count == 0u) {
        let dl = boxDistance2(nodes[node.link], p);
        let dr = boxDistance2(nodes[node.link + 1u], p);
        let nearFirst = dl <= dr;
        let far = select(node.link, node.link + 1u, nearFirst);
        let dFar = select(dl, dr, nearFirst);
        let dNear = select(dr, dl, nearFirst);
        if (dFar < r2) {
          if (top >= BVH_STACK) { return QUERY_OVERFLOW; }
          bvhStack[top] = far;
          bvhDist[top] = dFar;
          top++;
        } else { cut = true; }
        if (dNear < r2) {
          if (top >= BVH_STACK) { return QUERY_OVERFLOW; }
          bvhStack[top] = select(node.link + 1u, node.link, nearFirst);
          bvhDist[top] = dNear;
          top++;
        } else { cut = true; }
        continue;
      }
      for (var k = node.link; k < node.link + node.count; k++) {
        let f = topo[params.offOrder + k];
        if (triComponent(f) != component) { stQ++; continue; }
        if (excluded(f, exclude, exclude2)) { stQ++; continue; }
        let c = closestPointOnTriangle(p, vertexPosition(triVert(f, 0u)), vertexPosition(triVert(f, 1u)), vertexPosition(triVert(f, 2u)));
        let feature = c.feature;
        let s = c.point;
        let d2 = dot(s - p, s - p);
        if (d2 < lo2) { continue; } // tested in an earlier pass (not counted again)
        stQ++;
        if (!(d2 < r2)) { cut = true; continue; }
        // Zero-length segment (section 3.3): valid, at distance 0, when p's pre-image lies on f.
        if (d2 <= zero2 * tetSize2(triTet(f))) {
          if (supportOnTriangle(f)) { r2 = d2; setResult(f, feature, s, d2); }
          continue;
        }
        var cull = params.culling != 0u && feature != FEATURE_FACE && !isFeasible(f, feature, s, p, own, own2);
        if (cull && !(d2 < clear2)) {
          if (exact2 < 0.0) { exact2 = exactClearance2(component, p); }
          cull = d2 < exact2;
        }
        if (cull) {
          stCulled++;
          if (failedDescents >= DESCENT_FAILURES) { continue; }
          let st = descend(f, feature, d2, lo2, r2, p, exclude, exclude2, own, own2);
          if (st == TRAVERSE_OVERFLOW) { return QUERY_OVERFLOW; }
          if (st == TRAVERSE_FOUND) { r2 = resD2; } else { failedDescents++; }
          continue;
        }
        let st = traverse(f, s, p);
        if (st == TRAVERSE_OVERFLOW) { return QUERY_OVERFLOW; }
        if (st == TRAVERSE_FOUND) {
          r2 = d2; // Alg. 3 line 9
          setResult(f, feature, s, d2);
        }
      }
    }
    // The pass up to BIG was the last: what it cut has d2 >= BIG or NaN (a non-finite position
    // before finalize stops its object), never a path; without this the loop would never end.
    if (resTriangle >= 0 || !cut || hi2 >= BIG) { break; }
    lo2 = hi2;
    hi2 = select(hi2 * SEARCH_GROWTH2, BIG, hi2 >= BIG / SEARCH_GROWTH2);
  }
  return select(QUERY_NONE, QUERY_FOUND, resTriangle >= 0);
}

// Euclidean mode (spb/euclideanQuery.ts): the nearest point of the non-excluded triangles of p's
// tet's component, no path validity; one nearest-first pass, the radius shrinking to each nearer one.
fn nearestInComponent(p: vec3<f32>, tet: u32, exclude: i32, exclude2: i32) -> u32 {
  let component = topo[params.offTetComponent + tet];
  var r2 = BIG;
  var top = 0u;
  if (params.nodeCount > 0u) {
    bvhStack[0] = 0u;
    bvhDist[0] = boxDistance2(nodes[0], p);
    top = 1u;
  }
  while (top > 0u) {
    top--;
    if (bvhDist[top] >= r2) { continue; }
    let node = nodes[bvhStack[top]];
    if (node.count == 0u) {
      let dl = boxDistance2(nodes[node.link], p);
      let dr = boxDistance2(nodes[node.link + 1u], p);
      let nearFirst = dl <= dr;
      let dFar = select(dl, dr, nearFirst);
      let dNear = select(dr, dl, nearFirst);
      if (dFar < r2) {
        if (top >= BVH_STACK) { return QUERY_OVERFLOW; }
        bvhStack[top] = select(node.link, node.link + 1u, nearFirst);
        bvhDist[top] = dFar;
        top++;
      }
      if (dNear < r2) {
        if (top >= BVH_STACK) { return QUERY_OVERFLOW; }
        bvhStack[top] = select(node.link + 1u, node.link, nearFirst);
        bvhDist[top] = dNear;
        top++;
      }
      continue;
    }
    for (var k = node.link; k < node.link + node.count; k++) {
      let f = topo[params.offOrder + k];
      stQ++;
      if (triComponent(f) != component) { continue; }
      if (excluded(f, exclude, exclude2)) { continue; }
      let c = closestPointOnTriangle(p, vertexPosition(triVert(f, 0u)), vertexPosition(triVert(f, 1u)), vertexPosition(triVert(f, 2u)));
      let d2 = dot(c.point - p, c.point - p);
      if (d2 < r2) {
        r2 = d2;
        setResult(f, c.feature, c.point, d2);
      }
    }
  }
  return select(QUERY_NONE, QUERY_FOUND, resTriangle >= 0);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, params.rowStride);
  if (i >= min(list.header[QL_COUNT], list.header[QL_CAPACITY])) { return; }
  let q = list.queries[i];
  resTriangle = -1;
  resFeature = 0u;
  resPoint = vec3<f32>(0.0);
  resD2 = BIG;
  stQ = 0u; stTr = 0u; stTet = 0u; stCulled = 0u; stBranch = 0u; stBoundary = 0u; stDescent = 0u;
  var status: u32;
  if ((q.source & QUERY_EUCLIDEAN) != 0u) {
    status = nearestInComponent(q.p, q.tet, q.exclude, q.exclude2);
  } else {
    status = run(q.p, q.tet, q.exclude, q.exclude2);
  }
  var out: SpbResult;
  // An overflowed query keeps the nearest valid boundary point it had found before a stack ran
  // out (a valid path, maybe not the shortest): the contacts use it for this substep while the
  // CPU computes the exact answer (shaders/lib/spbResult.wgsl).
  let found = status == QUERY_FOUND || (status == QUERY_OVERFLOW && resTriangle >= 0);
  out.s = select(vec3<f32>(0.0), resPoint, found);
  out.distance = select(-1.0, sqrt(resD2), found);
  out.triangle = select(-1, resTriangle, found);
  out.feature = select(0u, resFeature, found);
  out.status = status;
  out.bvhCandidates = stQ;
  out.traversals = stTr;
  out.tetsVisited = stTet;
  out.culled = stCulled;
  out.branchings = stBranch;
  results[i] = out;
  // Summed statistics, slots 1 + STAT_* of src/spb/workspace.ts.
  atomicAdd(&counters[1], stQ);
  atomicAdd(&counters[2], stTr);
  atomicAdd(&counters[3], stTet);
  atomicAdd(&counters[4], stCulled);
  atomicAdd(&counters[5], select(0u, 1u, status == QUERY_OVERFLOW));
  atomicAdd(&counters[6], stBranch);
  atomicAdd(&counters[7], stBoundary);
  atomicAdd(&counters[8], 1u);
  atomicAdd(&counters[9], stDescent);
}
