// Jacobi: each vertex adds the sum of the corrections its constraints stored for it (each
// already scaled by relaxation / mean vertex count, so about their average), through the
// vertex -> corner CSR instead of f32 atomics, which WGSL lacks. The relaxation is applied
// in the constraint kernels, where it scales the multiplier step as well.
// CPU reference: CpuSolver.jacobi.

#include "threadIndex"

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> corners: array<u32>;
@group(0) @binding(4) var<storage, read> corrections: array<vec4<f32>>;

@compute @workgroup_size(64)
fn gather(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, frame.vertexStride);
  if (i >= frame.vertexCount) { return; }
  let x = positions[i];
  let begin = offsets[i];
  let end = offsets[i + 1u];
  if (end == begin || x.w == 0.0) { return; }
  var s = vec3<f32>(0.0);
  for (var j = begin; j < end; j++) { s += corrections[corners[j]].xyz; }
  positions[i] = vec4<f32>(x.xyz + s, x.w);
}
