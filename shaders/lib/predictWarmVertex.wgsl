// Predict of one vertex with the warm start's corrections added (issue 24): predictVertex, then,
// in the same thread, the sum of its tet corners' w_v S g_v that the warm start (warmStart in
// xpbdNeoHookean.wgsl) stored, in xpbdGather.wgsl's order (the same f32 result as predict then
// gather). Shared by predictWarm (xpbdPredictWarm.wgsl) and the finalize that predicts the next
// substep (xpbdFinalizeDampPredict.wgsl). The including kernel declares what predictVertex asks
// for, vertexTets (vertexCount + 1 offsets into the corners, then the corners 4 t + corner:
// src/sim/model.ts vertexTetOffsets / vertexTetCorners) and corrections (4 per tet).
fn predictWarmVertex(i: u32) {
  predictVertex(i);
  let x = positions[i];
  let begin = vertexTets[i];
  let end = vertexTets[i + 1u];
  if (end == begin || x.w == 0.0) { return; }
  let cornerBase = frame.vertexCount + 1u;
  var s = vec3<f32>(0.0);
  for (var j = begin; j < end; j++) { s += corrections[vertexTets[cornerBase + j]].xyz; }
  positions[i] = vec4<f32>(x.xyz + s, x.w);
}
