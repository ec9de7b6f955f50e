// Warm start of one tet (SolverParams.warmStart; Gauss-Seidel orders), before the substep's
// first iteration: where the tet's shape changed little since its last visit, S becomes a share
// of the previous substep's S (frame.warmFirst on the frame's first substep, 0 after a reset or a
// change of substep length; frame.warmRest after), made torque-free at the shape before predict in
// the plain metric, and the tet's corners get w_v S g_v for xpbdPredictWarm.wgsl (or
// xpbdGather.wgsl) to add after predict, which keeps x - x~ = sum_t w S_t g (g is the rest
// shape's). Why a half and why torque-free: neoHookeanWarmStart and WARM_START_SHARE in
// src/sim/constraintsCpu.ts, this snippet's float64 twin. Shared by xpbdNeoHookean.wgsl (warmStart,
// its own dispatch) and xpbdFinalizeDampWarm.wgsl (beside the previous substep's finalize). The
// including kernel declares what lib/neoHookeanBlock.wgsl asks for and `corrections`
// (read_write, 4 per tet).

#include "neoHookeanBlock"

// Largest change of det F and ||F||^2 / 3 since a tet's last visit with which it is warm started
// (WARM_START_MAX_SHAPE_CHANGE in src/sim/constraintsCpu.ts).
const WARM_START_MAX_SHAPE_CHANGE = 0.01;

// Tet t's warm start with `share` of its previous S (select(frame.warmRest, frame.warmFirst,
// substep == 0)).
fn warmStartTet(t: u32, share: f32) {
  let ids = tetCorners(t);
  let w0 = vertexInverseMass(ids.x);
  let w1 = vertexInverseMass(ids.y);
  let w2 = vertexInverseMass(ids.z);
  let w3 = vertexInverseMass(ids.w);
  let c0 = stress[3u * t];
  let c1 = stress[3u * t + 1u];
  var S = mat3x3<f32>(c0.xyz, c1.xyz, stress[3u * t + 2u].xyz) * share;
  let finite = finite3(S[0]) && finite3(S[1]) && finite3(S[2]);
  let m = tetDmInv(t);
  let x0 = vertexPosition(ids.x);
  let F = mat3x3<f32>(vertexPosition(ids.y) - x0, vertexPosition(ids.z) - x0, vertexPosition(ids.w) - x0) * m;
  // The shape's change since the tet's last visit (c0.w = det F, c1.w = ||F||^2 then; 0 after a clear).
  let detF = determinant(F);
  let gT = transpose(m);
  let g0 = -(gT[0] + gT[1] + gT[2]);
  let trB = w0 * dot(g0, g0) + w1 * dot(gT[0], gT[0]) + w2 * dot(gT[1], gT[1]) + w3 * dot(gT[2], gT[2]);
  let stiffnessRatio = trB / (tetConstants(t).x * frame.invH2);
  let shapeKept = stiffnessRatio <= ACCELERATION_MAX_STIFFNESS_RATIO && detF > 0.0 && c0.w > 0.0 && abs(detF - c0.w) <= WARM_START_MAX_SHAPE_CHANGE && abs(frob(F, F) - c1.w) <= 3.0 * WARM_START_MAX_SHAPE_CHANGE;
  if (!(share > 0.0) || !finite || !shapeKept || w0 + w1 + w2 + w3 == 0.0) {
    for (var k = 0u; k < 3u; k++) { stress[3u * t + k] = vec4<f32>(0.0); }
    for (var k = 0u; k < 4u; k++) { corrections[4u * t + k] = vec4<f32>(0.0); }
    return;
  }
  let I = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
  S = keepAngularMomentum(S, F, I);
  stress[3u * t] = vec4<f32>(S[0], 0.0);
  stress[3u * t + 1u] = vec4<f32>(S[1], 0.0);
  stress[3u * t + 2u] = vec4<f32>(S[2], 0.0);
  corrections[4u * t] = vec4<f32>(w0 * (S * g0), 0.0);
  corrections[4u * t + 1u] = vec4<f32>(w1 * (S * gT[0]), 0.0);
  corrections[4u * t + 2u] = vec4<f32>(w2 * (S * gT[1]), 0.0);
  corrections[4u * t + 3u] = vec4<f32>(w3 * (S * gT[2]), 0.0);
}
