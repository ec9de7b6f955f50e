// Anderson acceleration of the Neo-Hookean material iterations (SolverParams.andersonDepth). The
// method, and the CPU reference these kernels twin: src/sim/andersonAcceleration.ts. One thread
// per state element: the vertices first (positions' xyz, 3 floats), then the tets (the xyz of the
// multiplier S's three columns, 9 floats; the columns' w hold the warm start's shape test and
// are left alone), then with Frame.colliderMultiplier and colliders the vertices again, the
// colliders' kept multipliers (friction's correction xyz in colliderContacts[2 i], the push lambda
// in velocities.w: 4 floats, mixed but not in the norm). Every state vector (z, fPrev, gPrev, the
// dF and dG columns) is n = 3 V + 9 T + 4 V floats in that order (the last 4 V unused without
// the kept multipliers). Dispatched by src/sim/stages/materialAnderson.ts:
//   begin     once per round, before its first sweep: z = the state
//   residual  after each sweep (and the colliders): f = g - z, the differences into column
//             `slot`, and at a mixing sweep each workgroup's sums of dF_a . dF_c and dF_a . f
//             over its vertices (the positions' norm)
//   mix       at a mixing sweep: every workgroup sums the partials in the same order, solves the
//             normal equations, and writes g - dG gamma to the state and to z.

#include "threadIndex"

const MAX_DEPTH: u32 = 4u;
// Per workgroup: the upper triangle of the 4 x 4 normal matrix (10, pairIndex) and 4 right-hand sides.
const PARTIAL_STRIDE: u32 = 16u;
const SUMS: u32 = 14u;
// Ridge of the normal equations relative to their trace (f32: the CPU's 1e-10 is below rounding).
const RIDGE: f32 = 1e-6;

struct AndersonSweep {
  slot: u32,         // column of this sweep's differences (src/sim/andersonAcceleration.ts andersonSchedule); unused at sweep 0
  columns: u32,      // columns 0 .. columns - 1 mixed after this sweep: the latest differences (andersonSchedule)
  mix: u32,          // 1: this sweep's output is mixed (sweep >= MIX_FROM_SWEEP)
  first: u32,        // 1: sweep 0 (no differences yet)
  depth: u32,
  rowStride: u32,    // invocations per grid row of the dispatch (gpu/buffers.ts gridRowStride)
  partialCount: u32, // workgroups that hold vertices: the partial sums mix reads
  n: u32,            // floats per state vector
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> stress: array<vec4<f32>>;
// z, fPrev, gPrev, n floats each.
@group(0) @binding(3) var<storage, read_write> history: array<f32>;
// dF columns 0 .. depth - 1, then dG columns, n floats each.
@group(0) @binding(4) var<storage, read_write> columns: array<f32>;
@group(0) @binding(5) var<storage, read_write> partials: array<f32>;
@group(0) @binding(6) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> colliderContacts: array<vec4<f32>>;
@group(1) @binding(0) var<uniform> sweep: AndersonSweep;

var<workgroup> sums: array<array<f32, 14>, 64>;
var<workgroup> gamma: array<f32, 4>;

// sums[0] = the workgroup's total of each thread's `local` (a tree over the 64 threads). Call
// from uniform control flow: it holds barriers.
fn sumOverWorkgroup(lid: u32, local: array<f32, 14>) {
  for (var v = 0u; v < SUMS; v++) { sums[lid][v] = local[v]; }
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride = stride / 2u) {
    if (lid < stride) {
      for (var v = 0u; v < SUMS; v++) { sums[lid][v] += sums[lid + stride][v]; }
    }
    workgroupBarrier();
  }
}

// Index of the Gram entry (a, c), a <= c < 4, in the partials' upper triangle.
fn pairIndex(a: u32, c: u32) -> u32 {
  return a * (7u - a) / 2u + c;
}

// The element's floats: its first index in a state vector and how many (3, 9 or 4); count 0 past the end.
fn elementRange(e: u32) -> vec2<u32> {
  let v = frame.vertexCount;
  let t = frame.tetCount;
  if (e < v) { return vec2<u32>(3u * e, 3u); }
  if (e < v + t) { return vec2<u32>(3u * v + 9u * (e - v), 9u); }
  if (e < 2u * v + t && frame.colliderMultiplier == 1u && frame.colliderCount > 0u) { return vec2<u32>(3u * v + 9u * t + 4u * (e - v - t), 4u); }
  return vec2<u32>(0u, 0u);
}

// Float j (< 3 for a vertex, < 9 for a tet, < 4 for a vertex's kept multiplier) of element e's state.
fn stateValue(e: u32, j: u32) -> f32 {
  let v = frame.vertexCount;
  if (e < v) { return positions[e][j]; }
  if (e < v + frame.tetCount) { return stress[3u * (e - v) + j / 3u][j % 3u]; }
  let i = e - v - frame.tetCount;
  if (j == 3u) { return velocities[i].w; }
  return colliderContacts[2u * i][j];
}

fn setStateValue(e: u32, j: u32, value: f32) {
  let v = frame.vertexCount;
  if (e < v) {
    positions[e][j] = value;
  } else if (e >= v + frame.tetCount) {
    let i = e - v - frame.tetCount;
    if (j == 3u) { velocities[i].w = value; } else { colliderContacts[2u * i][j] = value; }
  } else {
    stress[3u * (e - frame.vertexCount) + j / 3u][j % 3u] = value;
  }
}

@compute @workgroup_size(64)
fn begin(@builtin(global_invocation_id) gid: vec3<u32>) {
  let e = threadIndex(gid, sweep.rowStride);
  let range = elementRange(e);
  for (var j = 0u; j < range.y; j++) { history[range.x + j] = stateValue(e, j); }
}

@compute @workgroup_size(64)
fn residual(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let e = threadIndex(gid, sweep.rowStride);
  let range = elementRange(e);
  let n = sweep.n;
  let depth = sweep.depth;
  var local: array<f32, 14>;
  for (var j = 0u; j < range.y; j++) {
    let q = range.x + j;
    let g = stateValue(e, j);
    let f = g - history[q];
    var dF = 0.0;
    if (sweep.first == 0u) {
      dF = f - history[n + q];
      columns[sweep.slot * n + q] = dF;
      columns[(depth + sweep.slot) * n + q] = g - history[2u * n + q];
    }
    history[n + q] = f;
    history[2u * n + q] = g;
    if (sweep.mix == 0u) {
      history[q] = g;
    } else if (e < frame.vertexCount) {
      // This vertex's share of dF_a . dF_c and dF_a . f over the columns in use (the new one, slot, just written).
      for (var a = 0u; a < sweep.columns; a++) {
        var fa = columns[a * n + q];
        if (a == sweep.slot) { fa = dF; }
        local[10u + a] += fa * f;
        for (var c = a; c < sweep.columns; c++) {
          var fc = columns[c * n + q];
          if (c == sweep.slot) { fc = dF; }
          local[pairIndex(a, c)] += fa * fc;
        }
      }
    }
  }
  if (sweep.mix == 0u) { return; }
  sumOverWorkgroup(lid, local);
  // Workgroup w holds elements [64 w, 64 w + 64): the vertex workgroups come first.
  let w = e / 64u;
  if (lid == 0u && w < sweep.partialCount) {
    for (var v = 0u; v < SUMS; v++) { partials[w * PARTIAL_STRIDE + v] = sums[0][v]; }
  }
}

@compute @workgroup_size(64)
fn mix(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let e = threadIndex(gid, sweep.rowStride);
  // Every workgroup sums the same partials in the same order, so all solve the same system.
  var local: array<f32, 14>;
  for (var p = lid; p < sweep.partialCount; p += 64u) {
    for (var v = 0u; v < SUMS; v++) { local[v] += partials[p * PARTIAL_STRIDE + v]; }
  }
  sumOverWorkgroup(lid, local);
  if (lid == 0u) {
    // The normal equations (dF^T dF + ridge) gamma = dF^T f, by Gaussian elimination.
    let k = sweep.columns;
    var m: array<array<f32, 4>, 4>;
    var r: array<f32, 4>;
    var trace = 0.0;
    for (var a = 0u; a < k; a++) { trace += sums[0][pairIndex(a, a)]; }
    for (var a = 0u; a < k; a++) {
      r[a] = sums[0][10u + a];
      for (var c = 0u; c < k; c++) { m[a][c] = sums[0][pairIndex(min(a, c), max(a, c))]; }
      m[a][a] += RIDGE * trace + 1e-30;
    }
    for (var p = 0u; p < k; p++) {
      for (var row = p + 1u; row < k; row++) {
        let factor = m[row][p] / m[p][p];
        for (var c = p; c < k; c++) { m[row][c] -= factor * m[p][c]; }
        r[row] -= factor * r[p];
      }
    }
    var ok = true;
    for (var i = 0u; i < k; i++) {
      let p = k - 1u - i;
      var s = r[p];
      for (var c = p + 1u; c < k; c++) { s -= m[p][c] * gamma[c]; }
      gamma[p] = s / m[p][p];
      ok = ok && abs(gamma[p]) < 1e30;
    }
    // A singular system (no motion left) mixes nothing: the sweep's output stands.
    if (!ok) {
      for (var a = 0u; a < MAX_DEPTH; a++) { gamma[a] = 0.0; }
    }
  }
  workgroupBarrier();
  let range = elementRange(e);
  let n = sweep.n;
  for (var j = 0u; j < range.y; j++) {
    let q = range.x + j;
    var s = history[2u * n + q];
    for (var a = 0u; a < sweep.columns; a++) { s -= gamma[a] * columns[(sweep.depth + a) * n + q]; }
    history[q] = s;
    setStateValue(e, j, s);
  }
}
