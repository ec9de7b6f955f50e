// Vertices pressed against a collider (src/contract/colliderTouch.ts): one u32 per vertex in the
// object status buffer, after its object words (word touchBase + v), 0 when no collider pushed the
// vertex this substep, else TOUCH_FLAG with the collider's outward normal packed octahedrally in
// 2 x 15 bits (within 2e-4 rad), and bit 30 CONTACT_PUSHED. Predict clears it, every collider push
// sets it (the last push's normal kept), and the contacts between bodies read it: a vertex they would push into that
// collider moves with inverse mass w (I - b b^T). The including kernel declares objectStatus as
// array<atomic<u32>> (the contacts: status).

const TOUCH_FLAG: u32 = 0x80000000u;
// Bit 30 of the word: a contact between bodies pushed the vertex this substep (shaders/contacts.wgsl
// solveContact sets it; the sliver lift 'holding-contacts' holds such a vertex still,
// shaders/inversionFloor.wgsl). A collider's push keeps it. Twin: CpuContacts.pushed.
const CONTACT_PUSHED: u32 = 0x40000000u;
const TOUCH_STEPS: f32 = 32767.0;

fn touchSignNotZero(v: vec2<f32>) -> vec2<f32> {
  return select(vec2<f32>(-1.0), vec2<f32>(1.0), v >= vec2<f32>(0.0));
}

// Octahedral encoding of a unit normal into the touch word.
fn packTouchNormal(n: vec3<f32>) -> u32 {
  var p = n.xy / (abs(n.x) + abs(n.y) + abs(n.z));
  if (n.z < 0.0) { p = (vec2<f32>(1.0) - abs(p.yx)) * touchSignNotZero(p); }
  let q = vec2<u32>(round(clamp(p * 0.5 + vec2<f32>(0.5), vec2<f32>(0.0), vec2<f32>(1.0)) * TOUCH_STEPS));
  return TOUCH_FLAG | q.x | (q.y << 15u);
}

fn unpackTouchNormal(word: u32) -> vec3<f32> {
  let p = vec2<f32>(f32(word & 0x7fffu), f32((word >> 15u) & 0x7fffu)) / TOUCH_STEPS * 2.0 - vec2<f32>(1.0);
  var n = vec3<f32>(p, 1.0 - abs(p.x) - abs(p.y));
  if (n.z < 0.0) { n = vec3<f32>((vec2<f32>(1.0) - abs(n.yx)) * touchSignNotZero(n.xy), n.z); }
  return normalize(n);
}

// The inverse mass w of a vertex with touch word `word` along a contact normal n, moved by `side`
// (+1 the point's vertices, -1 the triangle's): w (1 - (side n . b)^2) where the push would move it
// into its collider (normal b), else w. Twin: touchInverseMass in src/contract/colliderTouch.ts.
fn touchInverseMass(w: f32, word: u32, n: vec3<f32>, side: f32) -> f32 {
  if ((word & TOUCH_FLAG) == 0u) { return w; }
  let d = side * dot(n, unpackTouchNormal(word));
  return select(w, w * (1.0 - d * d), d < 0.0);
}

// A correction d of such a vertex: its part along the collider's surface where the push goes into
// it (touchInverseMass < w), else d.
fn touchCorrection(d: vec3<f32>, word: u32, n: vec3<f32>, side: f32) -> vec3<f32> {
  if ((word & TOUCH_FLAG) == 0u) { return d; }
  let b = unpackTouchNormal(word);
  if (side * dot(n, b) >= 0.0) { return d; }
  return d - dot(d, b) * b;
}
