// Finalize and damping of one whole object in one workgroup of 256 lanes (FinalizeStage's
// per-object plan, used when every object has at most DAMP_OBJECT_MAX_CHUNKS chunks): its chunks
// finalized and reduced 4 at a time by the 4 groups of 64 lanes (reduceObjectChunks: each chunk's
// sums in reduceChunk's order), the held bits aged, lane 0 solving the rigid motion from the
// chunks' partials (rigidMotion, as solveApply), then the chunks damped by all 256 lanes
// (dampChunk, one vertex at a time, in any order). The same sums in the same order: the frames of
// finalizeReduce + solveApply, bit for bit (tests/gpu/timeStep.test.ts). Shared by
// finalizeDampObject (xpbdFinalizeDamping.wgsl) and finalizeDampPredict
// (xpbdFinalizeDampPredict.wgsl). The including kernel declares what rigidDampingReduce and
// rigidDampingSolve ask for, finalizeChunkVertex, and includes them.

const STATUS_STOPPED: u32 = 1u;    // src/contract/held.ts
const STATUS_HELD_NOW: u32 = 2u;
const STATUS_HELD_BEFORE: u32 = 4u;

// Object o's held bits for the substep's damping (src/contract/held.ts ageHeld): HELD_BEFORE =
// handles or HELD_NOW, HELD_NOW cleared; a stopped object's bits stay.
fn ageHeldBits(o: u32) {
  let status = atomicLoad(&objectStatus[o]);
  if ((status & STATUS_STOPPED) != 0u) { return; }
  if (dampingObject(o).z != 0u || (status & STATUS_HELD_NOW) != 0u) {
    atomicOr(&objectStatus[o], STATUS_HELD_BEFORE);
  } else {
    atomicAnd(&objectStatus[o], ~STATUS_HELD_BEFORE);
  }
  atomicAnd(&objectStatus[o], ~STATUS_HELD_NOW);
}

var<workgroup> objectChunks: vec2<u32>;
var<workgroup> objectRigid: array<vec4<f32>, 3>;
var<workgroup> objectStopped: u32;

// Finalizes and damps object o (every lane of the workgroup calls it); returns its chunk range.
fn dampObject(o: u32, lid: u32) -> vec2<u32> {
  if (lid == 0u) { objectChunks = dampingObject(o).xy; }
  let range = workgroupUniformLoad(&objectChunks);
  reduceObjectChunks(range.x, range.y, lid, true);
  // The partials, the finalized velocities and the NaN guard's status bits, visible to every lane.
  storageBarrier();
  if (lid == 0u) {
    ageHeldBits(o);
    let status = atomicLoad(&objectStatus[o]);
    objectRigid = keptRigidMotion(o, status);
    objectStopped = select(0u, 1u, (status & STATUS_STOPPED) != 0u);
  }
  if (workgroupUniformLoad(&objectStopped) != 0u) { return range; }
  for (var c = range.x; c < range.y; c++) { dampChunk(dampingChunk(c), lid, OBJECT_LANES, objectRigid[0].xyz, objectRigid[1].xyz, objectRigid[2].xyz); }
  return range;
}
