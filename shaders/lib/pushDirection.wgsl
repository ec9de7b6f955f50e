// Push directions (SolverParams.sliverLift 'clipped-to-contacts'; CPU twin CpuContacts.pushDirection):
// per vertex three words of the solver's status buffer after its collider-touch words (word
// touchBase + vertexCount + 3 v + axis), the sum of the signed unit normals of the enabled contacts
// between two bodies it is part of after the substep's last round (+n on the point's vertices, -n
// on the triangle's), in fixed point as i32 bits: integer sums, so the order of the atomics does
// not change them. Predict clears them when Frame.pushDirections is 1 (lib/predictVertex.wgsl),
// contacts.wgsl sumPushDirections adds to them, and the sliver lift keeps each corner's gradient off
// their way back (inversionFloor.wgsl liftSliversByColour). Only the direction matters: at most
// 32,767 unit normals a vertex before an axis overflows.

const PUSH_DIRECTION_UNIT: f32 = 65536.0;

// The first of vertex v's three words.
fn pushDirectionWord(touchBase: u32, vertexCount: u32, v: u32) -> u32 {
  return touchBase + vertexCount + 3u * v;
}

// A unit normal n as the three words' increments.
fn pushDirectionBits(n: vec3<f32>) -> vec3<u32> {
  return bitcast<vec3<u32>>(vec3<i32>(round(n * PUSH_DIRECTION_UNIT)));
}

// The summed direction of three words (in PUSH_DIRECTION_UNIT units).
fn pushDirectionOf(bits: vec3<u32>) -> vec3<f32> {
  return vec3<f32>(bitcast<vec3<i32>>(bits));
}

// d with no part along -m (src/collision/cpu/inversionFloor.ts keepGradientOffPush): d when no
// push was summed (m = 0) or d does not go against m.
fn keptOffPush(d: vec3<f32>, m: vec3<f32>) -> vec3<f32> {
  let m2 = dot(m, m);
  let along = dot(d, m);
  if (m2 > 0.0 && along < 0.0) { return d - (along / m2) * m; }
  return d;
}
