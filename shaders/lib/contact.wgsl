// One contact constraint (docs/collisions.md "Contacts"; eq. 6 of paper 000): built by
// shaders/contactsBuild.wgsl from a query and its shortest-path result, solved by
// shaders/contacts.wgsl. 24 words (96 bytes), one per query index. Unused vertex slots hold
// CONTACT_NONE; inactive contacts (no path, skipped, overflowed, degenerate normal) enabled = 0.
//   point  x = sum_i pointWeight_i x_i  (vertex [1]; edge [1 - param, param]; centroid [1/4 x 4])
//   s      s = sum_k triBary_k x_k     (barycentrics of s on its boundary triangle at build time)
//   normal outward unit normal at s; lambdaN the accumulated normal push (a distance);
//   frictionUsed the tangential motion friction already removed this substep; offset the
//   separation the constraint keeps, C = (x - s) . n - offset >= 0: the contact offset delta
//   (SolverParams.contactOffset) for DCD's and CCD's contacts alike.
struct Contact {
  pointVertex: vec4<u32>,
  pointWeight: vec4<f32>,
  triVertex: vec4<u32>,
  triBary: vec4<f32>,
  normal: vec3<f32>,
  lambdaN: f32,
  frictionUsed: f32,
  enabled: u32,
  /** Unused; keeps the record at 24 words (CONTACT_WORDS). */
  reserved: f32,
  offset: f32,
}

const CONTACT_NONE = 0xffffffffu;

// `enabled` of a contact that only the collision round that made it solves: an edge-edge CCD
// contact whose edges' normal cones do not meet (ccdNarrow.wgsl mutualEdgeCone) between surfaces
// that do not face each other (ccdNarrow.wgsl surfacesFace), kept with the edges' common
// perpendicular, which is no separating direction of the surfaces. Solved again in
// the later rounds of SolverParams.collideEvery 'contacts' it braked a frictionless slide; the
// later rounds retire it (ccdNarrow.wgsl retireDetectingRoundOnly; CPU twin contactsCpu.ts
// ACTIVE_DETECTING_ROUND_ONLY). Every kernel that solves contacts treats it as enabled.
const CONTACT_DETECTING_ROUND_ONLY = 2u;

// Mass splitting by use (contacts.wgsl): per vertex, counts hold S_v = the sum of the weights
// (point weight or barycentric) the vertex has in the substep's contacts, in fixed point.
const CONTACT_WEIGHT_UNIT = 65536.0;
// The use word's top bit: the vertex was moved in this pass (contacts.wgsl sweepContacts); uses
// stay below it (32,768 units of weight at one vertex).
const CONTACT_TOUCHED = 0x80000000u;

fn contactWeightUnits(g: f32) -> u32 {
  return max(1u, u32(round(g * CONTACT_WEIGHT_UNIT)));
}

// The vertex's use S_v (at least this contact's weight g, against the fixed point's rounding).
fn contactUse(count: u32, g: f32) -> f32 {
  return max(g, f32(count) / CONTACT_WEIGHT_UNIT);
}

// Uniforms of the contact kernels (src/collision/gpu/contactStage.ts writes them per frame).
struct ContactParams {
  friction: f32,
  listCapacity: u32,
  vertexCount: u32,
  applyRowStride: u32,
  offTets: u32,
  offBoundaryEdges: u32,
  offTriangles: u32,
  offTriangleAcross: u32,
  offVtOffsets: u32,
  offVtList: u32,
  /** The word of a vertex's accumulator words that holds its use S_v (contacts.wgsl): 3 for the main group, 7 for a group of its own (friction's use beside it in 8 or 9). */
  countWord: u32,
  /** The contact offset delta (SolverParams.contactOffset) the built contacts keep. */
  offset: f32,
  /** Capacity of the second list solved in the same dispatch (contacts.wgsl, workgroup y = 1); 0: none. */
  sourceCapacity: u32,
  /** The passes one sweepContacts dispatch runs (contacts.wgsl): SolverParams.contactIterations. */
  sweepPasses: u32,
  /** Capacity of the third list (contacts.wgsl sweepContacts: the group with uses of its own); 0: none. */
  ownCapacity: u32,
  /** CONTACT_BUILD_* bits (contactsBuild.wgsl). */
  buildFlags: u32,
  /** Metres per unit of the fixed-point correction sums (contacts.wgsl addFixed). */
  accumulatorUnit: f32,
  /** The offset layer's opening per build (SolverParams.contactOffsetSpeed; rampedOffset below). */
  offsetRamp: f32,
  /** The first vertex's collider-touch word in the status buffer (lib/colliderTouch.wgsl): the object count. */
  touchBase: u32,
  /** The most pre-existing depth a build removes (SolverParams.depenetrationSpeed; rampedOffset below; 3e38: no limit). */
  depenetration: f32,
  /** The offset a self-contact keeps (src/collision/contactOffset.ts selfContactOffset: at most `offset`). */
  selfOffset: f32,
  /** 1: a normal push marks its vertices CONTACT_PUSHED (SolverParams.sliverLift 'holding-contacts', their only reader); 0: no mark. */
  markPushed: u32,
}

// The separation a contact keeps in this build (SolverParams.contactOffsetSpeed): delta where its
// surfaces start at least delta apart, else their gap at the substep's start, raised to `floor`,
// plus `step`. Shortest-path contacts (their point starts inside) take RAMP_FLOOR_DCD: the layer
// beyond the surface opens at the ramp's speed. CCD contacts (their point starts
// outside) take RAMP_FLOOR_CCD: a negative gap along their normal is the normal's measure (a vertex
// beside a face's plane near its rim), and the contact keeps it where it started: only a start gap
// within one opening below zero (min(step, delta): rounding at a resting face) opens; opening one
// further below pushed its vertex by `step` at every build against the material. Never more than
// `depenetration` past the start gap (SolverParams.depenetrationSpeed): a pre-existing penetration
// goes at that speed. A step or depenetration of 3e38 (the speed 'off') is no limit. Twin:
// src/collision/contactOffset.ts rampedOffset.
const RAMP_FLOOR_DCD = 0.0;
const RAMP_FLOOR_CCD = -3.0e38;
fn rampedOffset(delta: f32, gap0: f32, step: f32, floor: f32, depenetration: f32) -> f32 {
  if (floor <= RAMP_FLOOR_CCD && gap0 < -min(step, delta)) { return gap0; }
  return min(min(delta, max(gap0, floor) + step), gap0 + depenetration);
}
