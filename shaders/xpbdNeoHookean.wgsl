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
#include "neoHookeanSweep"
#include "tetsAndTetData"
#include "cellSweep"
#include "neoHookeanWarmStart"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
// Dm^-1 (3 columns per tet), then per tet alphaD, alphaH (<0: off), alpha (rest volume ratio),
// Jacobi step scale (MaterialStage: one array, so that xpbdNeoHookeanColliders.wgsl fits 8 buffers).
@group(0) @binding(3) var<storage, read> tetData: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> stress: array<vec4<f32>>; // S: 3 columns per tet (xyz); w: det F, I_C at the last visit, the searched step length (lib/neoHookeanBlock.wgsl)
@group(0) @binding(5) var<storage, read> colourOrder: array<u32>;
@group(0) @binding(6) var<storage, read_write> corrections: array<vec4<f32>>; // 4 per tet
@group(0) @binding(7) var<storage, read> cellRanges: array<u32>; // partitioned order (cellSweep)
@group(0) @binding(8) var<storage, read_write> positionCarry: array<vec4<f32>>; // lib/positionCarry.wgsl
@group(1) @binding(0) var<uniform> slot: Slot;

// The pass's cells for lib/cellSweep.wgsl: first cell, cell count, workgroups per grid row.
fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(slot.a, slot.b, slot.c);
}
fn cellRangeWord(k: u32) -> u32 {
  return cellRanges[k];
}
fn afterCellSweep(group: u32, lane: u32) {}

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
  let d = project(t, true, STEP_BOUNDED);
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

// Warm start of the tets (lib/neoHookeanWarmStart.wgsl), its own dispatch before predict.
@compute @workgroup_size(64)
fn warmStart(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = threadIndex(gid, frame.elementStride);
  if (t >= frame.tetCount) { return; }
  warmStartTet(t, select(frame.warmRest, frame.warmFirst, slot.a == 0u));
}
