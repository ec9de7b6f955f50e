// The damping's reduction of one chunk (xpbdRigidDamping.wgsl "reduce"): one workgroup of 64
// sums m, m r, m v, m r x v and m r r^T over the chunk's free vertices (r relative to the
// object's first vertex) into 4 vec4 partials. Shared by reduce and the fused finalize +
// reduction (xpbdFinalizeDamping.wgsl, which finalizes each vertex first in the same thread),
// and, 4 chunks at a time, by the one-workgroup-per-object pass (reduceObjectChunks).
// The including kernel declares positions, velocities, its view of the damping tables
// (dampingChunk(c): object, first vertex, end vertex; dampingObject(o): first chunk, end chunk,
// has handles, first vertex), where the chunks'
// partials go (storeChunkPartial(k, v), k = 4 chunk + component), and includes "positions";
// `finalizeFirst` is false in reduce.
var<workgroup> sums: array<array<vec4<f32>, 4>, 64>;

// Lane `lane` of 64's sums over chunk c: its vertices lane, lane + 64, ... (finalized first).
fn chunkLaneSums(c: u32, lane: u32, finalizeFirst: bool) -> array<vec4<f32>, 4> {
  let chunk = dampingChunk(c);
  let origin = vertexPosition(dampingObject(chunk.x).w);
  var a = vec4<f32>(0.0); // m, m r
  var b = vec4<f32>(0.0); // m v, (m r x v).x
  var d = vec4<f32>(0.0); // (m r x v).yz, m rx rx, m ry ry
  var e = vec4<f32>(0.0); // m rz rz, m rx ry, m rx rz, m ry rz
  for (var i = chunk.y + lane; i < chunk.z; i += 64u) {
    if (finalizeFirst) { finalizeChunkVertex(i); }
    let x = positions[i];
    if (!(x.w > 0.0)) { continue; }
    let m = 1.0 / x.w;
    let r = x.xyz - origin;
    let v = velocities[i].xyz;
    let l = m * cross(r, v);
    a += vec4<f32>(m, m * r);
    b += vec4<f32>(m * v, l.x);
    d += vec4<f32>(l.y, l.z, m * r.x * r.x, m * r.y * r.y);
    e += vec4<f32>(m * r.z * r.z, m * r.x * r.y, m * r.x * r.z, m * r.y * r.z);
  }
  return array<vec4<f32>, 4>(a, b, d, e);
}

fn reduceChunk(c: u32, lid: u32, finalizeFirst: bool) {
  sums[lid] = chunkLaneSums(c, lid, finalizeFirst);
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (lid < s) {
      for (var k = 0u; k < 4u; k++) { sums[lid][k] += sums[lid + s][k]; }
    }
    workgroupBarrier();
  }
  if (lid < 4u) { storeChunkPartial(4u * c + lid, sums[0][lid]); }
}

// Lanes of the one-workgroup-per-object pass (finalizeDampObject; OBJECT_DAMPING_LANES in
// src/sim/stages/finalizeStage.ts): 4 groups of 64, each reducing one chunk as reduceChunk does.
const OBJECT_LANES: u32 = 256u;
// Two of a lane's four sums at a time: 8 KB of workgroup memory, under WebGPU's default 16 KB
// (all four would fill it exactly, leaving nothing for the kernel's other variables).
var<workgroup> objectSums: array<array<vec4<f32>, 2>, 256>;

// Chunks [first, end) of one object, 4 at a time: chunk first + 4 k + g by the 64 lanes of
// group g = lid / 64, each lane summing the vertices reduceChunk's lane does and the same tree
// adding them, so every chunk's partials are reduceChunk's bit for bit (each component is summed
// on its own, so taking two of the four at a time changes no sum). first and end are uniform.
fn reduceObjectChunks(first: u32, end: u32, lid: u32, finalizeFirst: bool) {
  let group = lid / 64u;
  let lane = lid % 64u;
  for (var base = first; base < end; base += 4u) {
    let c = base + group;
    var lane4 = array<vec4<f32>, 4>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    if (c < end) { lane4 = chunkLaneSums(c, lane, finalizeFirst); }
    for (var half = 0u; half < 2u; half++) {
      objectSums[lid] = array<vec4<f32>, 2>(lane4[2u * half], lane4[2u * half + 1u]);
      workgroupBarrier();
      for (var s = 32u; s > 0u; s >>= 1u) {
        if (lane < s) {
          for (var k = 0u; k < 2u; k++) { objectSums[lid][k] += objectSums[lid + s][k]; }
        }
        workgroupBarrier();
      }
      if (c < end && lane < 2u) { storeChunkPartial(4u * c + 2u * half + lane, objectSums[64u * group][lane]); }
      workgroupBarrier();
    }
  }
}
