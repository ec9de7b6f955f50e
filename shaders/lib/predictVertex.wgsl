// Predict of one vertex (DESIGN.md "One time step", XPBD Alg. 1 lines 3-4): keep the substep's
// start in prev, move a handle vertex to its scripted pose at substep slot.a, a free vertex by
// v += h g, x += h v; a stopped object's vertex stays where it was (inverse mass 0). Shared by
// predict (xpbdIntegrate.wgsl) and predict with the warm start's corrections
// (xpbdPredictWarm.wgsl). The including kernel declares frame, slot, positions, prev and
// velocities (read_write), rest, handles and objectStatus (array<atomic<u32>>). CPU twin:
// cpuSolver.ts. It also clears the vertex's collider-touch word for the substep (lib/colliderTouch.wgsl),
// and its push-direction words where the sliver lift reads them (lib/pushDirection.wgsl).
#include "vertexObject"
#include "pushDirection"

fn predictVertex(i: u32) {
  atomicStore(&objectStatus[frame.touchBase + i], 0u);
  if (frame.pushDirections != 0u) {
    let word = pushDirectionWord(frame.touchBase, frame.vertexCount, i);
    atomicStore(&objectStatus[word], 0u);
    atomicStore(&objectStatus[word + 1u], 0u);
    atomicStore(&objectStatus[word + 2u], 0u);
  }
  var x = positions[i];
  let p = prev[i];
  prev[i] = vec4<f32>(x.xyz, p.w);
  let obj = objectIdBits(p.w);
  if ((atomicLoad(&objectStatus[obj]) & 1u) != 0u) { // STATUS_STOPPED (src/contract/held.ts)
    // A stopped object stays frozen where it was last finite.
    positions[i] = vec4<f32>(x.xyz, 0.0);
    velocities[i] = vec4<f32>(0.0);
    return;
  }
  let r = rest[i];
  let hd = bitcast<i32>(r.w);
  if (hd >= 0) {
    let base = (slot.a * frame.handleCount + u32(hd)) * 4u;
    x = vec4<f32>(handles[base].xyz * r.x + handles[base + 1u].xyz * r.y + handles[base + 2u].xyz * r.z + handles[base + 3u].xyz, x.w);
  } else if (x.w > 0.0) {
    let v = velocities[i].xyz + frame.h * frame.gravity;
    velocities[i] = vec4<f32>(v, 0.0);
    x = vec4<f32>(x.xyz + frame.h * v, x.w);
  }
  positions[i] = x;
}
