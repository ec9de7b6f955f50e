// Mass-spring edges: C = |x_a - x_b| - L with compliance alpha (XPBD, Macklin et al. 2016).
// Same three orders as xpbdNeoHookean.wgsl. CPU reference: springCorrection in constraintsCpu.ts.

#include "threadIndex"
#include "positions"
#include "cellSweep"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> edges: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> restLength: array<vec2<f32>>; // length, Jacobi step scale
@group(0) @binding(4) var<storage, read_write> lambda: array<f32>;
@group(0) @binding(5) var<storage, read> colourOrder: array<u32>;
@group(0) @binding(6) var<storage, read_write> corrections: array<vec4<f32>>; // 2 per edge
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

struct Delta { da: vec3<f32>, db: vec3<f32>, ok: bool }

fn project(e: u32, jacobi: bool) -> Delta {
  var out: Delta;
  out.ok = false;
  let ids = edges[e];
  let wa = vertexInverseMass(ids.x);
  let wb = vertexInverseMass(ids.y);
  if (wa + wb == 0.0) { return out; }
  let u = vertexPosition(ids.x) - vertexPosition(ids.y);
  let len = length(u);
  if (!(len > 1e-12)) { return out; }
  let rl = restLength[e];
  let C = len - rl.x;
  var dl = (-C - frame.springAlphaTilde * lambda[e]) / (wa + wb + frame.springAlphaTilde);
  // Jacobi: the relaxation scales the multiplier step as well as the positions (see
  // xpbdNeoHookean.wgsl).
  if (jacobi) { dl = dl * jacobiStepScale(1.0 / rl.y, (wa + wb) / (wa + wb + frame.springAlphaTilde)) * frame.relaxation; }
  lambda[e] = lambda[e] + dl;
  let s = dl / len;
  out.da = wa * u * s;
  out.db = -wb * u * s;
  out.ok = true;
  return out;
}

// Projects the edge at colourOrder[n] and moves its vertices (Gauss-Seidel, in place).
fn solveOrdered(n: u32) {
  let e = colourOrder[n];
  let d = project(e, false);
  if (!d.ok) { return; }
  let ids = edges[e];
  let xa = positions[ids.x];
  positions[ids.x] = vec4<f32>(xa.xyz + d.da, xa.w);
  let xb = positions[ids.y];
  positions[ids.y] = vec4<f32>(xb.xyz + d.db, xb.w);
}

@compute @workgroup_size(64)
fn solveColour(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = threadIndex(gid, slot.c);
  if (n >= slot.b) { return; }
  solveOrdered(slot.a + n);
}

@compute @workgroup_size(64)
fn solveJacobi(@builtin(global_invocation_id) gid: vec3<u32>) {
  let e = threadIndex(gid, frame.elementStride);
  if (e >= frame.edgeCount) { return; }
  let d = project(e, true);
  if (!d.ok) {
    corrections[2u * e] = vec4<f32>(0.0);
    corrections[2u * e + 1u] = vec4<f32>(0.0);
    return;
  }
  corrections[2u * e] = vec4<f32>(d.da, 0.0);
  corrections[2u * e + 1u] = vec4<f32>(d.db, 0.0);
}
