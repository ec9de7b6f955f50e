// The damping's reduction of one chunk (xpbdRigidDamping.wgsl "reduce"): one workgroup of 64
// sums m, m r, m v, m r x v and m r r^T over the chunk's free vertices (r relative to the
// object's first vertex) into 4 vec4 partials. Shared by reduce and the fused finalize +
// reduction (xpbdFinalizeDamping.wgsl, which finalizes each vertex first in the same thread).
// The including kernel declares positions, velocities, chunks, objects and partials, and
// includes "positions"; `finalizeFirst` is false in reduce.
var<workgroup> sums: array<array<vec4<f32>, 4>, 64>;

fn reduceChunk(c: u32, lid: u32, finalizeFirst: bool) {
  let chunk = chunks[c];
  let origin = vertexPosition(objects[chunk.x].w);
  var a = vec4<f32>(0.0); // m, m r
  var b = vec4<f32>(0.0); // m v, (m r x v).x
  var d = vec4<f32>(0.0); // (m r x v).yz, m rx rx, m ry ry
  var e = vec4<f32>(0.0); // m rz rz, m rx ry, m rx rz, m ry rz
  for (var i = chunk.y + lid; i < chunk.z; i += 64u) {
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
  sums[lid] = array<vec4<f32>, 4>(a, b, d, e);
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (lid < s) {
      for (var k = 0u; k < 4u; k++) { sums[lid][k] += sums[lid + s][k]; }
    }
    workgroupBarrier();
  }
  if (lid < 4u) { partials[4u * c + lid] = sums[0][lid]; }
}
