// Partitioned Gauss-Seidel of the Neo-Hookean tets with the colliders folded in (issue 24: the
// colliders' pass after each iteration was one dispatch of its own, 3 of a substep's at 3
// iterations). Each cell's workgroup sweeps its local colours as sweepCells in
// xpbdNeoHookean.wgsl does (lib/cellSweep.wgsl, lib/neoHookeanBlock.wgsl), then projects out of
// the colliders (lib/colliderProjection.wgsl) the vertices whose last visit of the iteration is in
// this cell (src/mesh/cellFinalVertices.ts). No later pass of the iteration reads or writes such
// a vertex, and the projection reads and writes only that vertex, so the frames are those of
// the separate pass after the iteration, bit for bit (tests/gpu/timeStep.test.ts). Used when
// every vertex has such a cell (MaterialStage; else the separate pass runs).
// 10 storage buffers (the solver's 10, src/gpu/device.ts): the tets, the solve order, the
// cells' ranges and the final vertices share one u32 array.

#include "threadIndex"
#include "positions"
#include "neoHookeanSweep"
#include "cellSweep"
#include "colliderProjection"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
// Words 0-3: where the solve order, the cells' ranges (cellSweep), the final vertices' offsets
// per cell and the final vertices start; the tets' corners from word 4 (4 per tet).
@group(0) @binding(2) var<storage, read> cellTopo: array<u32>;
@group(0) @binding(3) var<storage, read> tetData: array<vec4<f32>>; // as in xpbdNeoHookean.wgsl
@group(0) @binding(4) var<storage, read_write> stress: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> velocities: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> colliders: array<vec4<f32>>; // substeps x colliders x 3
@group(0) @binding(8) var<storage, read_write> objectStatus: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> colliderContacts: array<vec4<f32>>; // 2 a vertex (lib/colliderProjection.wgsl)
@group(0) @binding(10) var<storage, read_write> positionCarry: array<vec4<f32>>; // lib/positionCarry.wgsl
@group(1) @binding(0) var<uniform> slot: Slot;         // the pass: first cell, cell count, workgroups per row
@group(2) @binding(0) var<uniform> substepSlot: Slot;  // a: the substep (the colliders' pose)

const TOPO_TETS = 4u;

fn sweepSlot() -> vec3<u32> {
  return vec3<u32>(slot.a, slot.b, slot.c);
}
fn cellRangeWord(k: u32) -> u32 {
  return cellTopo[cellTopo[1] + k];
}
fn tetCorners(t: u32) -> vec4<u32> {
  let b = TOPO_TETS + 4u * t;
  return vec4<u32>(cellTopo[b], cellTopo[b + 1u], cellTopo[b + 2u], cellTopo[b + 3u]);
}
fn tetDmInv(t: u32) -> mat3x3<f32> {
  return mat3x3<f32>(tetData[3u * t].xyz, tetData[3u * t + 1u].xyz, tetData[3u * t + 2u].xyz);
}
fn tetConstants(t: u32) -> vec4<f32> {
  return tetData[3u * frame.tetCount + t];
}
fn orderedTet(n: u32) -> u32 {
  return cellTopo[cellTopo[0] + n];
}

// After the cell's last round (and its barrier): the colliders for the cell's final vertices.
fn afterCellSweep(group: u32, lane: u32) {
  let offsets = cellTopo[2];
  let vertices = cellTopo[3];
  let end = cellTopo[offsets + group + 1u];
  for (var j = cellTopo[offsets + group] + lane; j < end; j += CELL_LANES) {
    collideVertex(cellTopo[vertices + j], substepSlot.a);
  }
}
