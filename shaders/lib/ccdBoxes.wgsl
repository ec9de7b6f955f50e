// The boxes a frame's CCD candidates were found with (collision/ccd/broadPhase.ts through
// ccdSchedule.ts; CcdStage uploads them with the candidates), as floats of one buffer:
//   [6 v, 6 v + 6)                          vertex v's world box (lo xyz, hi xyz)
//   [6 (n + v), 6 (n + v) + 6)              its own-frame box (pairs within one object)
//   [12 n + 4 o, 12 n + 4 o + 4)            object o's reference vertex (bits) and its position
//                                            at the snapshot the own-frame boxes are relative to
// (n vertices). A point outside its box at the substep's start or end has escaped: the
// candidates may miss its crossings. Read by the CCD narrow phase (which counts escapes) and by
// detection (which tests escaped free points at the substep's end, SolverParams.escapedToDcd).
// The including kernel declares `boxes: array<f32>` (read).

fn outsideCcdBox(p: vec3<f32>, o: u32) -> bool {
  return any(p < vec3<f32>(boxes[o], boxes[o + 1u], boxes[o + 2u])) || any(p > vec3<f32>(boxes[o + 3u], boxes[o + 4u], boxes[o + 5u]));
}

// Vertex v, at `start` and `end`, left its world box.
fn leftWorldBox(v: u32, start: vec3<f32>, end: vec3<f32>) -> bool {
  return outsideCcdBox(start, 6u * v) || outsideCcdBox(end, 6u * v);
}

// How far p lies outside the box at float o, along the axis where it lies farthest (0 inside): the
// margin that would have held it (counters.ccd.escapeDistance).
fn distanceOutsideCcdBox(p: vec3<f32>, o: u32) -> f32 {
  let below = vec3<f32>(boxes[o], boxes[o + 1u], boxes[o + 2u]) - p;
  let above = p - vec3<f32>(boxes[o + 3u], boxes[o + 4u], boxes[o + 5u]);
  let out = max(max(below, above), vec3<f32>(0.0));
  return max(out.x, max(out.y, out.z));
}

// How far vertex v, at `start` and `end`, lies outside its world box (0 inside).
fn worldBoxExcess(v: u32, start: vec3<f32>, end: vec3<f32>) -> f32 {
  return max(distanceOutsideCcdBox(start, 6u * v), distanceOutsideCcdBox(end, 6u * v));
}

// The reference vertex of object o's own-frame boxes.
fn ownFrameReference(o: u32, vertexCount: u32) -> u32 {
  return bitcast<u32>(boxes[12u * vertexCount + 4u * o]);
}

// Vertex v of object o left its own-frame box: each of its positions moved back by the reference
// vertex's displacement since the snapshot (referenceStart / referenceEnd: the reference vertex
// at the substep's start and end).
fn leftOwnFrameBox(v: u32, o: u32, vertexCount: u32, start: vec3<f32>, end: vec3<f32>, referenceStart: vec3<f32>, referenceEnd: vec3<f32>) -> bool {
  let r = 12u * vertexCount + 4u * o;
  let at = vec3<f32>(boxes[r + 1u], boxes[r + 2u], boxes[r + 3u]);
  let box = 6u * (vertexCount + v);
  return outsideCcdBox(start - (referenceStart - at), box) || outsideCcdBox(end - (referenceEnd - at), box);
}

// How far vertex v of object o lies outside its own-frame box (0 inside), its positions moved back
// as in leftOwnFrameBox.
fn ownFrameBoxExcess(v: u32, o: u32, vertexCount: u32, start: vec3<f32>, end: vec3<f32>, referenceStart: vec3<f32>, referenceEnd: vec3<f32>) -> f32 {
  let r = 12u * vertexCount + 4u * o;
  let at = vec3<f32>(boxes[r + 1u], boxes[r + 2u], boxes[r + 3u]);
  let box = 6u * (vertexCount + v);
  return max(distanceOutsideCcdBox(start - (referenceStart - at), box), distanceOutsideCcdBox(end - (referenceEnd - at), box));
}
