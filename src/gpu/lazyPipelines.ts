/**
 * Compute pipelines compiled the first time a frame records them.
 *
 * Why: creating a pipeline compiles its shader for the device, and a solver holds about forty
 * (XPBD's kernels for every solve order and finalize plan, each collision stage's variants) of
 * which one run records a fraction: with collisions off none of the collision stages', with the
 * partitioned order none of the colour or Jacobi sweeps. On a software adapter (SwiftShader,
 * where the tests and the runner run without a GPU) a compile costs a few hundred milliseconds,
 * and building them all took 17 of the 18 s that a one-frame runner call on a 100-vertex cube
 * took. A pipeline's object is made once and kept, so a pass that compares pipelines
 * (TimeStep's repeated-call filter) sees the same object every frame.
 */

import { withIncludes } from './wgsl';

/**
 * Defines each `recipes` key on `target` as a read-only property whose first read runs the
 * recipe and whose later reads return the same pipeline. The class declares the names as
 * `declare readonly name: GPUComputePipeline` (no field is emitted, so the getter stands).
 */
export function definePipelines(target: object, recipes: Record<string, () => GPUComputePipeline>): void {
  for (const [name, make] of Object.entries(recipes)) {
    let made: GPUComputePipeline | undefined;
    Object.defineProperty(target, name, { get: () => (made ??= make()), enumerable: true });
  }
}

/**
 * A compute pipeline of one shader module and entry point with the bind group layouts given,
 * labelled `label` (the module too: a compile error names it).
 */
export function computePipeline(device: GPUDevice, label: string, module: GPUShaderModule, entryPoint: string, layouts: GPUBindGroupLayout[]): GPUComputePipeline {
  return device.createComputePipeline({
    label,
    layout: device.createPipelineLayout({ label, bindGroupLayouts: layouts }),
    compute: { module, entryPoint },
  });
}

/** computePipeline of WGSL source `code` (its includes resolved, wgsl.ts), its module labelled `label`. */
export function wgslPipeline(device: GPUDevice, label: string, code: string, entryPoint: string, layouts: GPUBindGroupLayout[]): GPUComputePipeline {
  return computePipeline(device, label, device.createShaderModule({ label, code: withIncludes(code, label) }), entryPoint, layouts);
}
