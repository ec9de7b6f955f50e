// What lib/dampObject.wgsl's kernels that finalize (xpbdFinalizeDampPredict.wgsl,
// xpbdFinalizeDampWarm.wgsl) declare for rigidDampingReduce / rigidDampingSolve: each vertex
// finalized in the reduction, and the object's chunk partials in workgroup memory (at most
// DAMP_OBJECT_MAX_CHUNKS = 8 chunks of 4), relative to its first chunk (objectChunks, dampObject's).
fn finalizeChunkVertex(i: u32) {
  finalizeVertex(i);
}

var<workgroup> objectPartials: array<vec4<f32>, 32>;
fn storeChunkPartial(k: u32, v: vec4<f32>) {
  objectPartials[k - 4u * objectChunks.x] = v;
}
fn chunkPartial(k: u32) -> vec4<f32> {
  return objectPartials[k - 4u * objectChunks.x];
}
