// Finalize of one vertex (XPBD Alg. 1 line 14 onward): its velocity from the substep's motion,
// and the NaN/Inf guard. Shared by finalize (xpbdIntegrate.wgsl) and the fused finalize + damping
// reduction (xpbdFinalizeDamping.wgsl). The including kernel declares frame, positions, prev,
// velocities (read_write), rest and objectStatus (array<atomic<u32>>). CPU twin: cpuSolver.ts.
#include "vertexObject"

fn finalizeVertex(i: u32) {
  let x = positions[i];
  let p = prev[i];
  var v = (x.xyz - p.xyz) / frame.h;
  if (bitcast<i32>(rest[i].w) < 0 && x.w > 0.0) {
    // Predicted velocity plus the corrections' share, v~ + (x - x~) / h, x~ = p + h v~ exactly
    // as predict formed it: f32 then rounds only the corrections, not the whole substep's
    // displacement (that biased a 20-substep free fall's momentum by 0.9%). CPU twin: cpuSolver.ts.
    let vPred = velocities[i].xyz;
    v = vPred + (x.xyz - (p.xyz + frame.h * vPred)) / frame.h;
  }
  if (!(finite3(x.xyz) && finite3(v))) {
    // Stop the object: restore this vertex (to the substep start, or to rest if that is not
    // finite either); predict freezes the rest of the object from the next substep.
    var back = p.xyz;
    if (!finite3(back)) { back = rest[i].xyz; }
    positions[i] = vec4<f32>(back, 0.0);
    velocities[i] = vec4<f32>(0.0);
    atomicOr(&objectStatus[objectIdBits(p.w)], 1u); // STATUS_STOPPED: bit 1 of src/contract/held.ts's status word
    return;
  }
  velocities[i] = vec4<f32>(v, 0.0);
}
