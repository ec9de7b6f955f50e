/**
 * What an engine needs from the drawing of its scene (src/app/render/sceneView.ts implements it):
 * the GPU engine links the solver's buffers once (each frame is then drawn from them by
 * GPU-to-GPU copies, no readback); the CPU engine hands over positions after each frame.
 */
export interface GpuSceneSource {
  device: GPUDevice;
  /** array<vec4f> per scene vertex: xyz + inverse mass (GpuState.positions). */
  positions: GPUBuffer;
  /** array<vec4f> per scene vertex: xyz of the boundary point reached, w = penetration depth (0 when free). */
  depth?: GPUBuffer;
}

export interface SceneDrawing {
  linkGpu(source: GpuSceneSource): void;
  /** xyz per scene vertex; depth per scene vertex when known. */
  updateFromCpu(positions: Float32Array, depth?: Float32Array): void;
  /** Scripted colliders move: draw them at simulated time `time`. */
  setTime(time: number): void;
}
