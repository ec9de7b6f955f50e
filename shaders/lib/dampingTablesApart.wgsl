// The damping tables (src/sim/rigidDamping.ts rigidDampingTables) bound as two arrays, for
// rigidDampingReduce / rigidDampingSolve / dampObject: the including kernel declares
// `chunks` (object, first vertex, end vertex, 0) and `objects` (first chunk, end chunk, has
// handles, first vertex). xpbdFinalizeDampWarm.wgsl binds both in one array instead (10 storage
// buffers) and declares its own view.
fn dampingChunk(c: u32) -> vec4<u32> {
  return chunks[c];
}
fn dampingObject(o: u32) -> vec4<u32> {
  return objects[o];
}
