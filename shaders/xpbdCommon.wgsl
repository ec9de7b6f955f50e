// Shared by every XPBD kernel (prepended by src/sim/gpuKernels.ts). Frame constants are
// written once per frame; Slot is a 256-byte-aligned dynamic uniform: a colour range
// (start, count, rowStride) for Gauss-Seidel dispatches or the substep index.

struct Frame {
  gravity: vec3<f32>,
  h: f32,                // substep length
  damp: f32,             // deformation velocity factor max(0, 1 - damping * h) (xpbdRigidDamping.wgsl)
  friction: f32,         // Coulomb coefficient (static = kinetic) of the colliders
  invH2: f32,            // 1 / h^2: compliance alpha becomes alpha / h^2 (XPBD eq. 4)
  relaxation: f32,       // Jacobi: scale of the averaged correction
  springAlphaTilde: f32, // spring compliance / h^2
  vertexCount: u32,
  tetCount: u32,
  edgeCount: u32,
  colliderCount: u32,
  handleCount: u32,
  vertexStride: u32,     // invocations per grid row of a per-vertex dispatch
  elementStride: u32,    // same for a per-tet or per-edge (Jacobi) dispatch
  lineSearch: u32,       // 1: Gauss-Seidel Neo-Hookean steps lengthened (stepLength in xpbdNeoHookean.wgsl)
  warmFirst: f32,        // share of the previous substep's Neo-Hookean multipliers the frame's first substep starts from (0: cold)
  warmRest: f32,         // the same for the frame's other substeps
  colliderRamp: f32,     // the colliders' offset ramp per projection (colliderProjection.wgsl colliderLayerAllowance)
  touchBase: u32,        // the first vertex's collider-touch word in objectStatus (the object count; lib/colliderTouch.wgsl)
  colliderMultiplier: u32, // 1: the colliders keep a multiplier per vertex (SolverParams.colliderResponse 'multiplier'; lib/colliderProjection.wgsl)
  colliderDepenetration: f32, // the depth a start had in a static collider that one projection may remove (colliderProjection.wgsl colliderLayerAllowance)
  positionCarry: u32,    // 1: the material's in-place adds keep their rounding (SolverParams.positionCarry; lib/positionCarry.wgsl)
  pushDirections: u32,   // 1: predict clears the vertices' push-direction words (SolverParams.sliverLift 'clipped-to-contacts'; lib/pushDirection.wgsl)
}

struct Slot {
  a: u32, // colour start, or substep index
  b: u32, // colour count
  c: u32, // colour rowStride
  d: u32,
}

// True when all three components are finite (exponent bits not all ones); written on the
// bits because compilers may fold x != x away.
fn finite3(v: vec3<f32>) -> bool {
  let e = bitcast<vec3<u32>>(v) & vec3<u32>(0x7f800000u);
  return all(e != vec3<u32>(0x7f800000u));
}

// Jacobi step of a constraint block shared by meanCount blocks at its vertices, theta its
// geometric share of its diagonal: 1 / meanCount when stiff, 1 when inertia dominates.
// CPU twin and reasoning: jacobiStepScale in src/sim/constraintsCpu.ts.
fn jacobiStepScale(meanCount: f32, theta: f32) -> f32 {
  return 1.0 / (1.0 + max(0.0, meanCount - 1.0) * theta);
}
