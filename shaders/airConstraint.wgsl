// The air constraint of paper 004 eq. 2 (collision/air/airConstraintCpu.ts is the float64 twin,
// same order): C = det[x1 - x0, x2 - x0, x3 - x0] >= 0 per air tet, XPBD at zero compliance,
// Gauss-Seidel in one of two orders (collision/air/airStage.ts): solveColour, one dispatch per
// colour (tets of a colour share no moving vertex), or sweepCells (lib/cellSweep.wgsl), one
// dispatch per cell pass of the partitioned order, each workgroup sweeping its cell's local
// colours between storage barriers; only inverted tets act. Then Coulomb friction on the tet's relative tangential motion over the
// substep, bounded by friction x the push (momentum-free: a common factor on displacements
// relative to the mass-weighted mean). countInverted checks the invariant after the last pass.
//
// Air vertex v < params.vertexCount is the solver's vertex v (positions, prev); others are the
// air's points (xyz + inverse mass: 0 for the container's, > 0 for air particles).

#include "threadIndex"
#include "positions"

struct AirParams {
  vertexCount: u32,
  tetCount: u32,
  tetStride: u32,
  friction: f32,
  // Quality (eq. 4) below -invertedQuality counts as inverted (airConstraintCpu.ts INVERTED_QUALITY).
  invertedQuality: f32,
  _p0: u32, _p1: u32, _p2: u32,
}

// One colour: first index into colourOrder, tet count, workgroups per grid row (x 64), and 1 to
// count the tets it finds inverted (the substep's first pass).
struct AirSlot { first: u32, count: u32, rowStride: u32, countInverted: u32 }

@group(0) @binding(0) var<uniform> params: AirParams;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> airTets: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> points: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> colourOrder: array<u32>;
// 0: inverted in the first pass, 1: inverted after the last pass (summed over the frame).
@group(0) @binding(6) var<storage, read_write> counters: array<atomic<u32>>;
// The partitioned order's cells (lib/cellSweep.wgsl); colourOrder is then the partitioned order.
@group(0) @binding(7) var<storage, read> cellRanges: array<u32>;
// A dispatch's range: a colour (solveColour) or a cell pass (sweepCells: first cell, cell count,
// workgroups per grid row).
@group(1) @binding(0) var<uniform> slot: AirSlot;

fn airPoint(v: u32) -> vec4<f32> {
  if (v < params.vertexCount) { return positions[v]; }
  return points[v - params.vertexCount];
}

// Displacement of v over the substep (the air's points: 0).
fn airDisplacement(v: u32) -> vec3<f32> {
  if (v < params.vertexCount) { return positions[v].xyz - prev[v].xyz; }
  return vec3<f32>(0.0);
}

fn airMove(v: u32, dx: vec3<f32>) {
  if (v < params.vertexCount) {
    let p = positions[v];
    positions[v] = vec4<f32>(p.xyz + dx, p.w);
  } else {
    let k = v - params.vertexCount;
    let p = points[k];
    points[k] = vec4<f32>(p.xyz + dx, p.w);
  }
}

fn projectAirTet(t: u32) -> bool {
  let ids = airTets[t];
  let p0 = airPoint(ids.x);
  let p1 = airPoint(ids.y);
  let p2 = airPoint(ids.z);
  let p3 = airPoint(ids.w);
  let e1 = p1.xyz - p0.xyz;
  let e2 = p2.xyz - p0.xyz;
  let e3 = p3.xyz - p0.xyz;
  let C = dot(e1, cross(e2, e3));
  if (!(C < 0.0)) { return false; }
  var g: array<vec3<f32>, 4>;
  g[1] = cross(e2, e3);
  g[2] = cross(e3, e1);
  g[3] = cross(e1, e2);
  g[0] = -(g[1] + g[2] + g[3]);
  let w = vec4<f32>(p0.w, p1.w, p2.w, p3.w);
  let ids4 = array<u32, 4>(ids.x, ids.y, ids.z, ids.w);
  var denom = 0.0;
  for (var k = 0u; k < 4u; k++) { denom += w[k] * dot(g[k], g[k]); }
  if (!(denom > 0.0)) { return true; }
  let s = -C / denom;
  var pushMass = 0.0;
  var strongest = 0.0;
  var kn = 0u;
  for (var k = 0u; k < 4u; k++) {
    let gg = dot(g[k], g[k]);
    if (gg > strongest) { strongest = gg; kn = k; }
    if (w[k] == 0.0) { continue; }
    airMove(ids4[k], s * w[k] * g[k]);
    pushMass += s * sqrt(gg);
  }
  if (!(params.friction > 0.0) || !(strongest > 0.0)) { return true; }
  // Friction: the tangential part of each moving vertex's displacement relative to the mean.
  let n = g[kn] / sqrt(strongest);
  var d: array<vec3<f32>, 4>;
  var mass = 0.0;
  var mean = vec3<f32>(0.0);
  var wall = false;
  for (var k = 0u; k < 4u; k++) {
    d[k] = airDisplacement(ids4[k]);
    if (w[k] == 0.0) { wall = true; continue; }
    mass += 1.0 / w[k];
    mean += d[k] / w[k];
  }
  if (mass == 0.0) { return true; }
  if (wall) { mean = vec3<f32>(0.0); } else { mean = mean / mass; }
  var slip = 0.0;
  for (var k = 0u; k < 4u; k++) {
    if (w[k] == 0.0) { continue; }
    let r = d[k] - mean;
    d[k] = r - dot(r, n) * n;
    slip += length(d[k]) / w[k];
  }
  if (!(slip > 0.0)) { return true; }
  let cut = min(1.0, params.friction * pushMass / slip);
  for (var k = 0u; k < 4u; k++) {
    if (w[k] == 0.0) { continue; }
    airMove(ids4[k], -cut * d[k]);
  }
  return true;
}

// Item n of colourOrder; the substep's first pass counts the tets it finds inverted.
fn solveOrdered(n: u32) {
  let inverted = projectAirTet(colourOrder[n]);
  if (inverted && slot.countInverted == 1u) { atomicAdd(&counters[0], 1u); }
}

@compute @workgroup_size(64)
fn solveColour(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = threadIndex(gid, slot.rowStride);
  if (n >= slot.count) { return; }
  solveOrdered(slot.first + n);
}

fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(slot.first, slot.count, slot.rowStride);
}
fn cellRangeWord(k: u32) -> u32 {
  return cellRanges[k];
}
fn afterCellSweep(group: u32, lane: u32) {}

#include "cellSweep"

// The invariant after the substep's last pass: air tets of quality (eq. 4) below -invertedQuality.
@compute @workgroup_size(64)
fn countInverted(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = threadIndex(gid, params.tetStride);
  if (t >= params.tetCount) { return; }
  let ids = airTets[t];
  let p0 = airPoint(ids.x).xyz;
  let p1 = airPoint(ids.y).xyz;
  let p2 = airPoint(ids.z).xyz;
  let p3 = airPoint(ids.w).xyz;
  let det = dot(p1 - p0, cross(p2 - p0, p3 - p0));
  if (!(det < 0.0)) { return; }
  let sum = dot(p1 - p0, p1 - p0) + dot(p2 - p0, p2 - p0) + dot(p3 - p0, p3 - p0) + dot(p2 - p1, p2 - p1) + dot(p3 - p1, p3 - p1) + dot(p3 - p2, p3 - p2);
  let rms = sqrt(sum / 6.0);
  if (1.41421356 * det < -params.invertedQuality * rms * rms * rms) { atomicAdd(&counters[1], 1u); }
}
