// Contact solve (docs/collisions.md "Contact response", eq. 6 of paper 000): params
// contactIterations x (countContacts and solveContacts: one invocation per contact; applyContacts:
// one per vertex). Two contact lists share one count and one solve dispatch: workgroup y = 0 runs
// the first (list, contacts: DCD's), y = 1 the second (list2, contacts2: CCD's vertex-triangle
// contacts, which share the per-vertex uses), so a pass is 3 dispatches for both
// (src/collision/gpu/contactStage.ts sizes x for the longer list, contactsArgs.wgsl). Or
// (SolverParams.contactDispatch 'workgroup') sweepContacts runs every pass of both groups in one
// workgroup: one dispatch a substep. Pure Jacobi: C = (x - s) . n and the tangential motion d are evaluated at the
// positions before the pass; each contact's corrections are accumulated per vertex and applied
// after. A contact moves its point vertices by + w_i wp_i n dlambda and its triangle's vertices
// by - w_k b_k n dlambda (XPBD with infinite stiffness, generalized inverse mass
// denom = sum wp_i^2 w_i + sum b_k^2 w_k): sum_i m_i dx_i = n dlambda (sum wp - sum b) = 0, so
// momentum is conserved per contact. Vertices shared by many contacts would be pushed once per
// contact: each step is scaled by denom / denomSplit (mass splitting, Tonge et al. 2012, in the
// denominator only, so the corrections keep the true inverse masses and momentum stays exact),
// with the mass of v split among its contacts in proportion to its weight g_v in each (its use):
// a contact gets g_v / S_v of it, S_v = sum of v's weights over the substep's contacts, so
// denomSplit = sum g_v^2 w_v S_v / g_v = sum g_v w_v S_v. With unit weights S_v is the count of
// contacts at v (Tonge's split); a vertex alone in its contact keeps its full step; a triangle
// under twenty points takes about a twentieth of each. Only contacts violated at the pass's start
// count (countContacts, every pass): a satisfied contact pushes nothing, and counting it thinned
// the steps of those that must push. Splitting by count instead let a vertex's
// tiny barycentric weights in other contacts (0.006 of a triangle another object's vertex
// touched) thin its own contact's step: a cube shot at a wall went through it.
// Friction as the colliders' (Macklin et al. 2014 section 6.1): the relative tangential motion
// over the substep is removed up to friction x the accumulated normal push. Its share is split by
// a use of its own, F_v, over the contacts violated or that pushed this substep (lambdaN > 0):
// a resting contact pushed to its gap in the first pass is no longer violated but its friction
// still acts, and counted only in S_v, K of them at a vertex each cancelled the whole slide
// (docs/collisions.md "Static friction between bodies"). The share is over-relaxed
// (FRICTION_RELAXATION) and capped at the whole slide.
// Accumulators: fixed-point sums in atomic<u32> (addFixed below; WGSL has no float atomics).
#include "threadIndex"
#include "positions"
#include "vertexObject"
#include "queryList"
#include "contact"
#include "contactSeparation"
#include "colliderTouch"
#include "pushDirection"

@group(0) @binding(0) var<uniform> params: ContactParams;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> list: QueryListR;
@group(0) @binding(4) var<storage, read_write> contacts: array<Contact>;
// Per vertex ACC_WORDS words: the pass's correction of x (0-2) and of the start position (4-6),
// in fixed point, in word params.countWord (3 or 7) S_v and in frictionWord(countWord) (8 or 9)
// F_v, both in fixed point (contact.wgsl): filled by countContacts, read by solveContacts, zeroed
// with the corrections by applyContacts.
@group(0) @binding(5) var<storage, read_write> acc: array<atomic<u32>>;
// Per object: bit 0 stopped; bits 1, 2 held now / in the previous substep (src/contract/held.ts).
@group(0) @binding(6) var<storage, read_write> status: array<atomic<u32>>;
// The second list (workgroup y = 1): its header (count at QL_COUNT) and contacts.
@group(0) @binding(7) var<storage, read> list2: QueryListR;
@group(0) @binding(8) var<storage, read_write> contacts2: array<Contact>;
// The third list (sweepContacts only): a group with uses of its own (word SWEEP_OWN_COUNT_WORD),
// solved after the first two in each pass (CCD's edge-edge contacts). The grid dispatches bind such
// a group as `list` with params.countWord = 7 instead.
@group(0) @binding(9) var<storage, read> list3: QueryListR;
@group(0) @binding(10) var<storage, read_write> contacts3: array<Contact>;

const SWEEP_OWN_COUNT_WORD = 7u;
// Accumulator words per vertex (src/collision/gpu/contactStage.ts ACCUMULATOR_WORDS).
const ACC_WORDS = 10u;
// Macklin et al. 2014's over-relaxation of a contact's share of the slide
// (src/collision/cpu/contactsCpu.ts FRICTION_RELAXATION).
const FRICTION_RELAXATION = 1.5;
// A pushed vertex's least weight in its contact (src/collision/cpu/contactsCpu.ts PUSHED_WEIGHT).
const PUSHED_WEIGHT = 0.5;

const STATUS_HELD_NOW: u32 = 2u;
const STATUS_HELD_BEFORE: u32 = 4u;

// A sticking contact between objects a and b: each is held now if the other was held before
// (src/contract/held.ts holdThroughContact).
fn holdThroughContact(a: u32, b: u32) {
  if (a == b) { return; }
  if ((atomicLoad(&status[b]) & STATUS_HELD_BEFORE) != 0u) { atomicOr(&status[a], STATUS_HELD_NOW); }
  if ((atomicLoad(&status[a]) & STATUS_HELD_BEFORE) != 0u) { atomicOr(&status[b], STATUS_HELD_NOW); }
}

// Contacts in list y (0: list, 1: list2) this substep.
fn listCount(y: u32) -> u32 {
  if (y == 0u) { return min(list.header[QL_COUNT], params.listCapacity); }
  if (y == 1u) { return min(list2.header[QL_COUNT], params.sourceCapacity); }
  return min(list3.header[QL_COUNT], params.ownCapacity);
}

// The accumulator word holding S_v for the contacts of list y.
fn useWord(y: u32) -> u32 {
  if (y == 2u) { return SWEEP_OWN_COUNT_WORD; }
  return params.countWord;
}

// The word holding F_v (friction's use) beside use word `word`: 8 for the main group, 9 for a group of its own.
fn frictionWord(word: u32) -> u32 {
  return select(8u, 9u, word == SWEEP_OWN_COUNT_WORD);
}

fn loadContact(y: u32, i: u32) -> Contact {
  if (y == 0u) { return contacts[i]; }
  if (y == 1u) { return contacts2[i]; }
  return contacts3[i];
}

// Edge-edge contacts' points follow their edges (docs/collisions.md "Edge-edge contacts follow
// their edges"; CPU twin CpuContacts.followEdgePoints): where the two edges' lines are nearest at
// parameters inside both edges at the positions now, those parameters become the points' weights;
// nearly parallel edges (|u x v|^2 <= 1e-6 |u|^2 |v|^2) or lines nearest beyond an end keep them.
// Fixed at the time of impact's parameters, the points of two edges that turn and slide within the
// substep meet the contact while the edges pass through each other elsewhere along them. An
// edge-edge contact is the one with two point and two triangle vertices (ccdNarrow.wgsl).
fn followEdgePoints(c: Contact) -> Contact {
  var f = c;
  if (c.triVertex[2] != CONTACT_NONE || c.triVertex[1] == CONTACT_NONE || c.pointVertex[1] == CONTACT_NONE || c.pointVertex[2] != CONTACT_NONE) { return f; }
  let a0 = vertexPosition(c.pointVertex[0]);
  let b0 = vertexPosition(c.triVertex[0]);
  let u = vertexPosition(c.pointVertex[1]) - a0;
  let v = vertexPosition(c.triVertex[1]) - b0;
  let r = a0 - b0;
  let uu = dot(u, u);
  let uv = dot(u, v);
  let vv = dot(v, v);
  let ur = dot(u, r);
  let vr = dot(v, r);
  let m = cross(u, v);
  let den = dot(m, m);
  if (!(den > EDGE_FOLLOW_MIN_SIN2 * uu * vv)) { return f; }
  let sa = (uv * vr - vv * ur) / den;
  let sb = (uu * vr - uv * ur) / den;
  if (!(sa >= 0.0 && sa <= 1.0 && sb >= 0.0 && sb <= 1.0)) { return f; }
  f.pointWeight = vec4<f32>(1.0 - sa, sa, 0.0, 0.0);
  f.triBary = vec4<f32>(1.0 - sb, sb, 0.0, 0.0);
  return f;
}

const EDGE_FOLLOW_MIN_SIN2: f32 = 1e-6;

// The followed weights of edge-edge contact i of list y (countContact), for this pass's solve and
// the next passes and rounds.
fn storeWeights(y: u32, i: u32, c: Contact) {
  if (y == 0u) {
    contacts[i].pointWeight = c.pointWeight;
    contacts[i].triBary = c.triBary;
  } else if (y == 1u) {
    contacts2[i].pointWeight = c.pointWeight;
    contacts2[i].triBary = c.triBary;
  } else {
    contacts3[i].pointWeight = c.pointWeight;
    contacts3[i].triBary = c.triBary;
  }
}

// The solve's running sums of contact i of list y.
fn storeSums(y: u32, i: u32, c: Contact) {
  if (y == 0u) {
    contacts[i].lambdaN = c.lambdaN;
    contacts[i].frictionUsed = c.frictionUsed;
  } else if (y == 1u) {
    contacts2[i].lambdaN = c.lambdaN;
    contacts2[i].frictionUsed = c.frictionUsed;
  } else {
    contacts3[i].lambdaN = c.lambdaN;
    contacts3[i].frictionUsed = c.frictionUsed;
  }
}

fn countOf(v: u32, word: u32) -> u32 {
  return atomicLoad(&acc[ACC_WORDS * v + word]) & ~CONTACT_TOUCHED;
}

// The corrections are summed in fixed point (issue 19: deterministic sums). The Jacobi pass adds
// every contact's share to its vertices' words with atomics, in whatever order the threads run;
// f32 sums in that order (a compare-exchange loop) rounded differently from run to run and between
// the grid and the swept dispatch (1e-7 a pass, growing in piles), while integer sums do not depend
// on the order. A unit is ACCUMULATOR_UNIT_RATIO of the mean boundary edge (contactStage.ts): about
// 2.4e-7 of an edge per unit, sums up to 512 edges; one share is clamped to a quarter of that so
// that no single add wraps.
const FIXED_SHARE_LIMIT: f32 = 536870912.0; // 2^29 units

fn addFixed(word: u32, value: f32) {
  let scaled = value / params.accumulatorUnit;
  // Under half a unit (and NaN) adds nothing.
  if (!(abs(scaled) >= 0.5)) { return; }
  let units = clamp(round(scaled), -FIXED_SHARE_LIMIT, FIXED_SHARE_LIMIT);
  // Two's complement: adding the u32 bits of a negative i32 subtracts.
  atomicAdd(&acc[word], bitcast<u32>(i32(units)));
}

fn fixedSum(word: u32) -> f32 {
  return f32(bitcast<i32>(atomicLoad(&acc[word]))) * params.accumulatorUnit;
}

// Words ACC_WORDS v + 0..2: the correction of x; + 4..6: of the start position (split impulse).
fn addCorrection(v: u32, d: vec3<f32>) {
  if (d.x != 0.0) { addFixed(ACC_WORDS * v, d.x); }
  if (d.y != 0.0) { addFixed(ACC_WORDS * v + 1u, d.y); }
  if (d.z != 0.0) { addFixed(ACC_WORDS * v + 2u, d.z); }
}

fn addStartCorrection(v: u32, d: vec3<f32>) {
  if (d.x != 0.0) { addFixed(ACC_WORDS * v + 4u, d.x); }
  if (d.y != 0.0) { addFixed(ACC_WORDS * v + 5u, d.y); }
  if (d.z != 0.0) { addFixed(ACC_WORDS * v + 6u, d.z); }
}

// The contact's C at the current positions (the pass's start).
fn contactGap(c: Contact) -> f32 {
  return contactSeparation(c) - c.offset;
}

// Each pass first (contact i of list y): the use S_v of every vertex in the contacts violated
// now, and friction's use F_v in those violated or that pushed earlier in the substep.
fn countContact(y: u32, i: u32) {
  let stored = loadContact(y, i);
  if (stored.enabled == 0u) { return; }
  // The followed weights are stored here, once a pass; the solve after this count reads them.
  let c = followEdgePoints(stored);
  if (any(c.pointWeight != stored.pointWeight) || any(c.triBary != stored.triBary)) { storeWeights(y, i, c); }
  let violated = contactGap(c) < 0.0;
  if (!violated && !(c.lambdaN > 0.0)) { return; }
  let word = useWord(y);
  let fword = frictionWord(word);
  for (var k = 0u; k < 4u; k++) {
    if (c.pointVertex[k] == CONTACT_NONE || c.pointWeight[k] == 0.0) { continue; }
    let units = contactWeightUnits(c.pointWeight[k]);
    atomicAdd(&acc[ACC_WORDS * c.pointVertex[k] + fword], units);
    if (violated) { atomicAdd(&acc[ACC_WORDS * c.pointVertex[k] + word], units); }
  }
  for (var k = 0u; k < 3u; k++) {
    if (c.triBary[k] == 0.0) { continue; }
    let units = contactWeightUnits(c.triBary[k]);
    atomicAdd(&acc[ACC_WORDS * c.triVertex[k] + fword], units);
    if (violated) { atomicAdd(&acc[ACC_WORDS * c.triVertex[k] + word], units); }
  }
}

@compute @workgroup_size(64)
fn countContacts(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x >= listCount(gid.y)) { return; }
  countContact(gid.y, gid.x);
}

// The Jacobi step of contact i of list y; `mark`: flag the vertices it moves (CONTACT_TOUCHED in
// their use word) for sweepContacts' apply, which visits the contacts' vertices, not all vertices.
fn solveContact(y: u32, i: u32, mark: bool) {
  // Its edge-edge weights were followed and stored by this pass's count (countContact).
  var c = loadContact(y, i);
  if (c.enabled == 0u) { return; }
  let word = useWord(y);
  let fword = frictionWord(word);
  var x = vec3<f32>(0.0);
  var xPrev = vec3<f32>(0.0);
  var s = vec3<f32>(0.0);
  var sPrev = vec3<f32>(0.0);
  var denom = 0.0;
  var denomSplit = 0.0;
  var denomFriction = 0.0;
  let normal = c.normal;
  // Inverse masses along n: a vertex this contact would push into a collider it rests on has
  // less (lib/colliderTouch.wgsl; src/contract/colliderTouch.ts).
  var pointTouch = array<u32, 4>(0u, 0u, 0u, 0u);
  var triTouch = array<u32, 3>(0u, 0u, 0u);
  for (var k = 0u; k < 4u; k++) {
    let v = c.pointVertex[k];
    let w = c.pointWeight[k];
    if (v == CONTACT_NONE || w == 0.0) { continue; }
    x += w * vertexPosition(v);
    xPrev += w * prev[v].xyz;
    pointTouch[k] = atomicLoad(&status[params.touchBase + v]);
    let wv = touchInverseMass(vertexInverseMass(v), pointTouch[k], normal, 1.0);
    denom += w * w * wv;
    denomSplit += contactUse(countOf(v, word), w) * w * wv;
    denomFriction += contactUse(countOf(v, fword), w) * w * wv;
  }
  for (var k = 0u; k < 3u; k++) {
    let v = c.triVertex[k];
    let b = c.triBary[k];
    if (b == 0.0) { continue; }
    s += b * vertexPosition(v);
    sPrev += b * prev[v].xyz;
    triTouch[k] = atomicLoad(&status[params.touchBase + v]);
    let wv = touchInverseMass(vertexInverseMass(v), triTouch[k], normal, -1.0);
    denom += b * b * wv;
    denomSplit += contactUse(countOf(v, word), b) * b * wv;
    denomFriction += contactUse(countOf(v, fword), b) * b * wv;
  }
  if (!(denom > 0.0)) { return; }
  let scale = denom / denomSplit;
  let C = dot(x - s, normal) - c.offset;
  // corr: the correction of the relative position x - s per unit generalized inverse mass.
  var corr = vec3<f32>(0.0);
  // Split impulse (as src/collision/cpu/contactsCpu.ts): the part of the push that removes depth
  // the contact had at the substep's start moves the start positions too: no velocity from it.
  var startCorr = vec3<f32>(0.0);
  if (C < 0.0) {
    let dlambda = -C / denom * scale;
    let push = dlambda * denom;
    c.lambdaN += push;
    corr = normal * dlambda;
    // The depth still there at the start positions, which earlier passes' split parts have
    // already moved out: subtracting what was recovered as well would count it twice.
    let depth0 = c.offset - dot(xPrev - sPrev, normal);
    let q = min(push, depth0);
    if (q > 0.0) {
      startCorr = normal * (dlambda * q / push);
    }
  }
  let d = (x - xPrev) - (s - sPrev);
  let dt = d - dot(d, normal) * normal;
  let slide = length(dt);
  // This contact's share of the slide (by F_v, over-relaxed, at most all of it), limited by its
  // Coulomb budget (lambdaN already holds its scaled pushes).
  let share = min(1.0, FRICTION_RELAXATION * denom / denomFriction);
  let cut = min(slide * share, params.friction * c.lambdaN - c.frictionUsed);
  if (cut > 0.0 && slide > 0.0) {
    corr -= dt * (cut / (slide * denom));
    c.frictionUsed += cut;
  }
  storeSums(y, i, c);
  // Pushed this substep and friction budget left (sticking): it holds (src/contract/held.ts).
  if (c.lambdaN > 0.0 && params.friction * c.lambdaN - c.frictionUsed > 0.0) {
    holdThroughContact(vertexObject(c.pointVertex.x), vertexObject(c.triVertex.x));
  }
  if (all(corr == vec3<f32>(0.0))) { return; }
  // A normal push marks its vertices nearest the contact (weight >= PUSHED_WEIGHT) for the sliver
  // lift 'holding-contacts' (lib/colliderTouch.wgsl; CpuContacts.pushed), its only reader.
  let pushed = C < 0.0 && params.markPushed != 0u;
  for (var k = 0u; k < 4u; k++) {
    let v = c.pointVertex[k];
    let w = c.pointWeight[k];
    if (v == CONTACT_NONE || w == 0.0) { continue; }
    if (pushed && w >= PUSHED_WEIGHT) { atomicOr(&status[params.touchBase + v], CONTACT_PUSHED); }
    addCorrection(v, touchCorrection(vertexInverseMass(v) * w * corr, pointTouch[k], normal, 1.0));
    addStartCorrection(v, touchCorrection(vertexInverseMass(v) * w * startCorr, pointTouch[k], normal, 1.0));
    if (mark) { atomicOr(&acc[ACC_WORDS * v + word], CONTACT_TOUCHED); }
  }
  for (var k = 0u; k < 3u; k++) {
    let b = c.triBary[k];
    if (b == 0.0) { continue; }
    let v = c.triVertex[k];
    if (pushed && b >= PUSHED_WEIGHT) { atomicOr(&status[params.touchBase + v], CONTACT_PUSHED); }
    addCorrection(v, touchCorrection(-vertexInverseMass(v) * b * corr, triTouch[k], normal, -1.0));
    addStartCorrection(v, touchCorrection(-vertexInverseMass(v) * b * startCorr, triTouch[k], normal, -1.0));
    if (mark) { atomicOr(&acc[ACC_WORDS * v + word], CONTACT_TOUCHED); }
  }
}

@compute @workgroup_size(64)
fn solveContacts(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x >= listCount(gid.y)) { return; }
  solveContact(gid.y, gid.x, false);
}

// Adds vertex v's accumulated corrections to its position and start position and zeroes them
// (the use word is the caller's).
fn applyVertex(v: u32) {
  let o = ACC_WORDS * v;
  let d = vec3<f32>(fixedSum(o), fixedSum(o + 1u), fixedSum(o + 2u));
  if (any(d != vec3<f32>(0.0))) {
    positions[v] = vec4<f32>(positions[v].xyz + d, positions[v].w);
    atomicStore(&acc[o], 0u);
    atomicStore(&acc[o + 1u], 0u);
    atomicStore(&acc[o + 2u], 0u);
  }
  let d0 = vec3<f32>(fixedSum(o + 4u), fixedSum(o + 5u), fixedSum(o + 6u));
  if (any(d0 != vec3<f32>(0.0))) {
    prev[v] = vec4<f32>(prev[v].xyz + d0, prev[v].w);
    atomicStore(&acc[o + 4u], 0u);
    atomicStore(&acc[o + 5u], 0u);
    atomicStore(&acc[o + 6u], 0u);
  }
}

@compute @workgroup_size(64)
fn applyContacts(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.applyRowStride);
  if (v >= params.vertexCount) { return; }
  applyVertex(v);
  atomicStore(&acc[ACC_WORDS * v + params.countWord], 0u);
  atomicStore(&acc[ACC_WORDS * v + frictionWord(params.countWord)], 0u);
}

// sweepContacts' apply for vertex v of a contact: the one invocation that takes v's use word
// with its CONTACT_TOUCHED flag (the exchange zeroes it) applies v; the others find 0. Every
// contact's vertices come here, so friction's use is zeroed here too.
fn applyTouched(v: u32, word: u32) {
  atomicStore(&acc[ACC_WORDS * v + frictionWord(word)], 0u);
  if ((atomicExchange(&acc[ACC_WORDS * v + word], 0u) & CONTACT_TOUCHED) != 0u) { applyVertex(v); }
}

const SWEEP_LANES = 256u;
var<workgroup> sweepCounts: vec3<u32>;

// One Jacobi pass of a group in the sweep: count, solve, apply over its contacts, items
// [0, total) of lists (first, first + 1) with the first list's `split` items first. Storage
// barriers (an execution barrier of the workgroup that also orders its storage accesses) between
// the phases; `total` and `split` are uniform across the workgroup, as the barriers require.
fn sweepGroup(lane: u32, first: u32, split: u32, total: u32) {
  for (var i = lane; i < total; i += SWEEP_LANES) {
    if (i < split) { countContact(first, i); } else { countContact(first + 1u, i - split); }
  }
  storageBarrier();
  for (var i = lane; i < total; i += SWEEP_LANES) {
    if (i < split) { solveContact(first, i, true); } else { solveContact(first + 1u, i - split, true); }
  }
  storageBarrier();
  let word = useWord(first);
  for (var i = lane; i < total; i += SWEEP_LANES) {
    var c: Contact;
    if (i < split) { c = loadContact(first, i); } else { c = loadContact(first + 1u, i - split); }
    if (c.enabled == 0u) { continue; }
    for (var k = 0u; k < 4u; k++) {
      if (c.pointVertex[k] != CONTACT_NONE) { applyTouched(c.pointVertex[k], word); }
    }
    for (var k = 0u; k < 3u; k++) {
      if (c.triVertex[k] != CONTACT_NONE) { applyTouched(c.triVertex[k], word); }
    }
  }
  storageBarrier();
}

// Every contact pass (params.sweepPasses) of every group in one workgroup: the main group (list,
// list2: DCD's contacts and the source sharing their uses), then the group with uses of its own
// (list3), in each pass: the same Jacobi passes as the count / solve / apply dispatches, in one
// dispatch instead of 3 or 6 a pass (issue 24: dependent dispatches). Apply visits the contacts'
// vertices instead of every vertex; a vertex no contact moved has nothing to apply.
@compute @workgroup_size(256)
fn sweepContacts(@builtin(local_invocation_index) lane: u32) {
  if (lane == 0u) { sweepCounts = vec3<u32>(listCount(0u), listCount(1u), listCount(2u)); }
  let n = workgroupUniformLoad(&sweepCounts);
  for (var k = 0u; k < params.sweepPasses; k++) {
    sweepGroup(lane, 0u, n.x, n.x + n.y);
    if (n.z > 0u) { sweepGroup(lane, 2u, n.z, n.z); }
  }
}

// Adds `bits` (pushDirectionBits of a signed normal) to vertex v's push direction.
fn addPushDirection(v: u32, bits: vec3<u32>) {
  let word = pushDirectionWord(params.touchBase, params.vertexCount, v);
  atomicAdd(&status[word], bits.x);
  atomicAdd(&status[word + 1u], bits.y);
  atomicAdd(&status[word + 2u], bits.z);
}

// The sliver lift 'clipped-to-contacts' (lib/pushDirection.wgsl), once after the substep's last
// round's passes, in one workgroup over the bound lists: each enabled contact between two bodies
// adds its normal to its point's vertices' push directions and subtracts it from its triangle's,
// those with a weight > 0 (CPU twin CpuContacts.sumPushDirections). Predict cleared the words.
@compute @workgroup_size(256)
fn sumPushDirections(@builtin(local_invocation_index) lane: u32) {
  for (var y = 0u; y < 3u; y++) {
    let n = listCount(y);
    for (var i = lane; i < n; i += SWEEP_LANES) {
      let c = loadContact(y, i);
      if (c.enabled == 0u || vertexObject(c.pointVertex.x) == vertexObject(c.triVertex.x)) { continue; }
      let bits = pushDirectionBits(c.normal);
      for (var k = 0u; k < 4u; k++) {
        if (c.pointVertex[k] != CONTACT_NONE && c.pointWeight[k] != 0.0) { addPushDirection(c.pointVertex[k], bits); }
      }
      for (var k = 0u; k < 3u; k++) {
        if (c.triBary[k] != 0.0) { addPushDirection(c.triVertex[k], vec3<u32>(0u) - bits); }
      }
    }
  }
}
