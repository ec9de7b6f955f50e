// Surface BVH refit on the GPU in two dispatches (src/bvh/refitSchedule.ts): subtrees, one
// workgroup each, then the top nodes in one workgroup; inside a workgroup the nodes go by height,
// a storage barrier between heights (lib/bvhRefitSweep.wgsl with lib/cellSweep.wgsl). In the time
// step detection runs these dispatches inside its own where the adapter has the bindings for it
// (src/collision/gpu/detectStage.ts refitBvh); this kernel runs them on their own elsewhere.

#include "positions"

@group(0) @binding(0) var<uniform> refitParams: RefitParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>; // xyz + inverse mass (contract/state.ts)
@group(0) @binding(2) var<storage, read> bvhTopo: array<u32>;
@group(0) @binding(3) var<storage, read_write> bvhNodes: array<BvhNode>;

#include "bvhRefitSweep"
