// Stable Neo-Hookean tets (Smith et al. 2018, eq. 14), energy density mu/2 (I_C - 3) +
// lambda/2 (det F - alpha)^2 - mu/2 log(I_C + 1), solved so that it stays stable at any stiffness: each tet's
// multiplier is the 3x3 matrix S it has applied this substep (its vertices moved by
// w_v S g_v), and each visit takes a Newton step towards S = -h^2 V P(F) with a tangent that
// keeps every stiffness of dP/dF (the geometric term of the hydrostatic part bounded by
// mu + lambda |J - alpha| sigma_max + the log term's bound). Derivation and the reason for it (the scalar
// C_D = ||F|| pair integrated shear explicitly, a CFL limit): neoHookeanCorrection in
// src/sim/constraintsCpu.ts, this kernel's float64 twin.
// solveColour: Gauss-Seidel over one colour (tets independent), corrections applied in place.
// sweepCells (lib/cellSweep.wgsl): partitioned Gauss-Seidel, one workgroup per cell.
// solveJacobi: every tet from the same positions, scaled corrections stored per tet corner
// for xpbdGather.wgsl.
// warmStart: Gauss-Seidel orders, before predict: each tet starts from a share of the previous
// substep's S, its corrections summed by xpbdPredictWarm.wgsl.
// With frame.lineSearch the Gauss-Seidel step is lengthened (stepLength).

#include "threadIndex"
#include "positions"
#include "neoHookeanBlock"
#include "cellSweep"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
// Dm^-1 (3 columns per tet), then per tet alphaD, alphaH (<0: off), alpha (rest volume ratio),
// Jacobi step scale (MaterialStage: one array, so that xpbdNeoHookeanColliders.wgsl fits 8 buffers).
@group(0) @binding(3) var<storage, read> tetData: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> stress: array<vec4<f32>>; // S: 3 columns per tet (xyz)
@group(0) @binding(5) var<storage, read> colourOrder: array<u32>;
@group(0) @binding(6) var<storage, read_write> corrections: array<vec4<f32>>; // 4 per tet
@group(0) @binding(7) var<storage, read> cellRanges: array<u32>; // partitioned order (cellSweep)
@group(1) @binding(0) var<uniform> slot: Slot;

// The pass's cells for lib/cellSweep.wgsl: first cell, cell count, workgroups per grid row.
fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(slot.a, slot.b, slot.c);
}
fn cellRangeWord(k: u32) -> u32 {
  return cellRanges[k];
}
fn afterCellSweep(group: u32, lane: u32) {}

// lib/neoHookeanBlock.wgsl's view of the tets.
fn tetCorners(t: u32) -> vec4<u32> {
  return tets[t];
}
fn tetDmInv(t: u32) -> mat3x3<f32> {
  return mat3x3<f32>(tetData[3u * t].xyz, tetData[3u * t + 1u].xyz, tetData[3u * t + 2u].xyz);
}
fn tetConstants(t: u32) -> vec4<f32> {
  return tetData[3u * frame.tetCount + t];
}
fn orderedTet(n: u32) -> u32 {
  return colourOrder[n];
}

@compute @workgroup_size(64)
fn solveColour(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = threadIndex(gid, slot.c);
  if (n >= slot.b) { return; }
  solveOrdered(slot.a + n);
}

@compute @workgroup_size(64)
fn solveJacobi(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = threadIndex(gid, frame.elementStride);
  if (t >= frame.tetCount) { return; }
  let d = project(t, true);
  if (!d.ok) {
    corrections[4u * t] = vec4<f32>(0.0);
    corrections[4u * t + 1u] = vec4<f32>(0.0);
    corrections[4u * t + 2u] = vec4<f32>(0.0);
    corrections[4u * t + 3u] = vec4<f32>(0.0);
    return;
  }
  corrections[4u * t] = vec4<f32>(d.d0, 0.0);
  corrections[4u * t + 1u] = vec4<f32>(d.d1, 0.0);
  corrections[4u * t + 2u] = vec4<f32>(d.d2, 0.0);
  corrections[4u * t + 3u] = vec4<f32>(d.d3, 0.0);
}

// Largest change of det F and ||F||^2 / 3 since a tet's last visit with which it is warm started
// (WARM_START_MAX_SHAPE_CHANGE in src/sim/constraintsCpu.ts).
const WARM_START_MAX_SHAPE_CHANGE = 0.01;


// Warm start of the tets (SolverParams.warmStart; Gauss-Seidel orders), before the substep's
// first iteration: where the tet's shape changed little since its last visit, S becomes a share
// of the previous substep's S (frame.warmFirst on the frame's
// first substep, 0 after a reset or a change of substep length; frame.warmRest after), made
// torque-free at the shape before predict in the plain metric, and the tet's corners get w_v S g_v
// for xpbdPredictWarm.wgsl (or xpbdGather.wgsl) to add after predict, which keeps
// x - x~ = sum_t w S_t g (g is the rest shape's). Why a half and why torque-free:
// neoHookeanWarmStart and WARM_START_SHARE in src/sim/constraintsCpu.ts, this kernel's float64 twin.
@compute @workgroup_size(64)
fn warmStart(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = threadIndex(gid, frame.elementStride);
  if (t >= frame.tetCount) { return; }
  let share = select(frame.warmRest, frame.warmFirst, slot.a == 0u);
  let ids = tetCorners(t);
  let w0 = vertexInverseMass(ids.x);
  let w1 = vertexInverseMass(ids.y);
  let w2 = vertexInverseMass(ids.z);
  let w3 = vertexInverseMass(ids.w);
  let c0 = stress[3u * t];
  let c1 = stress[3u * t + 1u];
  var S = mat3x3<f32>(c0.xyz, c1.xyz, stress[3u * t + 2u].xyz) * share;
  let finite = finite3(S[0]) && finite3(S[1]) && finite3(S[2]);
  let m = tetDmInv(t);
  let x0 = vertexPosition(ids.x);
  let F = mat3x3<f32>(vertexPosition(ids.y) - x0, vertexPosition(ids.z) - x0, vertexPosition(ids.w) - x0) * m;
  // The shape's change since the tet's last visit (c0.w = det F, c1.w = ||F||^2 then; 0 after a clear).
  let detF = determinant(F);
  let gT = transpose(m);
  let g0 = -(gT[0] + gT[1] + gT[2]);
  let trB = w0 * dot(g0, g0) + w1 * dot(gT[0], gT[0]) + w2 * dot(gT[1], gT[1]) + w3 * dot(gT[2], gT[2]);
  let stiffnessRatio = trB / (tetConstants(t).x * frame.invH2);
  let shapeKept = stiffnessRatio <= ACCELERATION_MAX_STIFFNESS_RATIO && detF > 0.0 && c0.w > 0.0 && abs(detF - c0.w) <= WARM_START_MAX_SHAPE_CHANGE && abs(frob(F, F) - c1.w) <= 3.0 * WARM_START_MAX_SHAPE_CHANGE;
  if (!(share > 0.0) || !finite || !shapeKept || w0 + w1 + w2 + w3 == 0.0) {
    for (var k = 0u; k < 3u; k++) { stress[3u * t + k] = vec4<f32>(0.0); }
    for (var k = 0u; k < 4u; k++) { corrections[4u * t + k] = vec4<f32>(0.0); }
    return;
  }
  let I = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
  S = keepAngularMomentum(S, F, I);
  stress[3u * t] = vec4<f32>(S[0], 0.0);
  stress[3u * t + 1u] = vec4<f32>(S[1], 0.0);
  stress[3u * t + 2u] = vec4<f32>(S[2], 0.0);
  corrections[4u * t] = vec4<f32>(w0 * (S * g0), 0.0);
  corrections[4u * t + 1u] = vec4<f32>(w1 * (S * gT[0]), 0.0);
  corrections[4u * t + 2u] = vec4<f32>(w2 * (S * gT[1]), 0.0);
  corrections[4u * t + 3u] = vec4<f32>(w3 * (S * gT[2]), 0.0);
}
