/**
 * The runner's note when the GPU engine got a software adapter (SwiftShader, llvmpipe, WARP: the
 * machine has no GPU driver, so Dawn emulates one on the CPU). There every kernel runs emulated,
 * and the float64 CPU reference is far faster a frame: on this project's 2-core machine 6-22x on
 * a collision scene, the octopus drop and a scene with no collisions (docs/benchmarks.md "Which
 * engine without a GPU"). The GPU engine stays the default, since it is the product's path and its
 * counters and timestamps are what a GPU would run; the note says where the time goes.
 */
export function softwareAdapterNote(software: boolean, adapter: string): string | null {
  if (!software) return null;
  return (
    `the GPU engine runs on a software adapter (${adapter}): its kernels are emulated on this CPU, so frames are slow. ` +
    `--engine cpu runs the same time step on the float64 CPU reference, which was 6-22x faster a frame on a 2-core machine ` +
    `(docs/benchmarks.md "Which engine without a GPU"); the GPU engine's figures are those of the emulation, not of a GPU.`
  );
}
