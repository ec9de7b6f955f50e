// The damping's rigid motion of one object from its chunks' partials (rigidMotion, solveInertia)
// and the damping of one chunk's velocities towards it (dampChunk): shared by xpbdRigidDamping.wgsl
// (solveRigid, apply, solveApply) and the one-workgroup-per-object pass of xpbdFinalizeDamping.wgsl.
// The including kernel declares frame, positions, velocities (read_write), dampingObject(o) (as rigidDampingReduce), chunkPartial(k)
// (the partial k = 4 chunk + component that storeChunkPartial stored),
// the status bits STATUS_STOPPED and STATUS_HELD_BEFORE, and includes "positions". CPU twin:
// src/sim/rigidDamping.ts.

const INERTIA_REGULARISATION: f32 = 1e-6; // = rigidDamping.ts

// The rigid motion of object o from its chunks' partials: [com, v_cm, omega] (zeros without mass).
fn rigidMotion(o: u32) -> array<vec4<f32>, 3> {
  let ob = dampingObject(o);
  var a = vec4<f32>(0.0);
  var b = vec4<f32>(0.0);
  var d = vec4<f32>(0.0);
  var e = vec4<f32>(0.0);
  for (var c = ob.x; c < ob.y; c++) {
    a += chunkPartial(4u * c);
    b += chunkPartial(4u * c + 1u);
    d += chunkPartial(4u * c + 2u);
    e += chunkPartial(4u * c + 3u);
  }
  let mass = a.x;
  if (!(mass > 0.0)) { return array<vec4<f32>, 3>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0)); }
  // To the centre of mass c: L_c = L - M c x v_cm, C_c = C - M c c^T.
  let cm = a.yzw / mass;
  let vcm = b.xyz / mass;
  let L = vec3<f32>(b.w, d.x, d.y) - mass * cross(cm, vcm);
  let cxx = d.z - mass * cm.x * cm.x;
  let cyy = d.w - mass * cm.y * cm.y;
  let czz = e.x - mass * cm.z * cm.z;
  let cxy = e.y - mass * cm.x * cm.y;
  let cxz = e.z - mass * cm.x * cm.z;
  let cyz = e.w - mass * cm.y * cm.z;
  return array<vec4<f32>, 3>(
    vec4<f32>(vertexPosition(ob.w) + cm, 0.0),
    vec4<f32>(vcm, 0.0),
    vec4<f32>(solveInertia(cxx, cyy, czz, cxy, cxz, cyz, L), 0.0));
}

// omega = I^-1 L, I = tr(C) Id - C, regularised and scaled by tr(I)/3; 0 when degenerate.
// Mirrors solveInertia in rigidDamping.ts.
fn solveInertia(cxx: f32, cyy: f32, czz: f32, cxy: f32, cxz: f32, cyz: f32, L: vec3<f32>) -> vec3<f32> {
  let tr = cxx + cyy + czz;
  let s = 2.0 * tr / 3.0;
  if (!(s > 0.0) || !finite3(vec3<f32>(s))) { return vec3<f32>(0.0); }
  let dd = 3.0 * INERTIA_REGULARISATION;
  let a = (tr - cxx) / s + dd;
  let b = (tr - cyy) / s + dd;
  let c = (tr - czz) / s + dd;
  let e = -cxy / s;
  let f = -cxz / s;
  let g = -cyz / s;
  let A = b * c - g * g;
  let B = a * c - f * f;
  let C = a * b - e * e;
  let D = f * g - e * c;
  let E = e * g - f * b;
  let F = e * f - a * g;
  let det = a * A + e * D + f * E;
  if (!(det > 0.0)) { return vec3<f32>(0.0); }
  let k = 1.0 / (det * s);
  let w = vec3<f32>(A * L.x + D * L.y + E * L.z, D * L.x + B * L.y + F * L.z, E * L.x + F * L.y + C * L.z) * k;
  if (!finite3(w)) { return vec3<f32>(0.0); }
  return w;
}

// v_i = rigid_i + damp (v_i - rigid_i) for the chunk's free vertices (lane lid's share of
// `lanes`), the rigid motion given by the centre of mass, its velocity and the angular velocity.
fn dampChunk(chunk: vec4<u32>, lid: u32, lanes: u32, com: vec3<f32>, vcm: vec3<f32>, omega: vec3<f32>) {
  for (var i = chunk.y + lid; i < chunk.z; i += lanes) {
    let x = positions[i];
    if (!(x.w > 0.0)) { continue; }
    let u = vcm + cross(omega, x.xyz - com);
    let v = velocities[i];
    velocities[i] = vec4<f32>(u + frame.damp * (v.xyz - u), v.w);
  }
}

// The motion a substep's damping keeps for object o with status word `status` (after the held
// bits aged): its rigid motion, or zero when it is held (all velocity damped) or stopped.
fn keptRigidMotion(o: u32, status: u32) -> array<vec4<f32>, 3> {
  if ((status & STATUS_STOPPED) != 0u || (status & STATUS_HELD_BEFORE) != 0u) {
    return array<vec4<f32>, 3>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  }
  return rigidMotion(o);
}
