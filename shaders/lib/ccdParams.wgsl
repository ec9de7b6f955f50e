// The CCD narrow phase's uniforms (src/collision/gpu/ccdStage.ts beginFrame writes them, PARAM_WORDS
// words): shaders/ccdNarrow.wgsl and the later rounds' dispatch size, shaders/ccdNearArgs.wgsl.
struct CcdParams {
  vfCount: u32,
  eeCount: u32,
  boundaryVertexCount: u32,
  rowStride: u32,
  flags: u32,            // CCD_SKIP_PIN
  capacity: u32,         // contact records
  vertexCount: u32,
  separation: f32,
  offTriangles: u32,
  offBoundaryEdges: u32,
  offBoundaryVertices: u32,
  offEdgeTriangles: u32,
  offTriangleAcross: u32,
  offVtOffsets: u32,
  offVtList: u32,
  /** The offset layer's opening per build (SolverParams.contactOffsetSpeed; contact.wgsl rampedOffset). */
  offsetRamp: f32,
  /** CCD_MARK_ROUNDS / CCD_LATER_ROUND: how far a vertex may move in the later rounds (collision/ccd/laterRounds.ts). */
  laterReach: f32,
  /** The float in `boxes` where the detecting round's positions start (4 per vertex). */
  roundZeroAt: u32,
  /** The most pre-existing depth a build removes (SolverParams.depenetrationSpeed; contact.wgsl rampedOffset). */
  depenetration: f32,
  offTets: u32,
  offTriangleTet: u32,
  /** The separation (and offset) of a pair of one object (contactOffset.ts selfContactOffset: at most `separation`). */
  selfSeparation: f32,
  /** The near list's room (pairs; CCD_MARK_ROUNDS): more near pairs than this and the later rounds scan every candidate. */
  nearCapacity: u32,
  /** The word in `candidates` where the near list starts (after the capacity's pairs). */
  nearAt: u32,
  /** The word in `candidates` where ccdSweep's list of the pairs left to solve starts (after the near list's room). */
  solveAt: u32,
}

// The near list's length in this substep (the pairs the detecting round found within the later
// rounds' reach, CCD_MARK_ROUNDS): word 1 of the edge-edge list's header, whose readers read only
// word 0 (the count), and cleared with it by each detecting round.
const CCD_NEAR_COUNT = 1u;
// The later rounds' indirect grid (ccdNearArgs.wgsl) is x = min(workgroups, 65535) wide, so a row
// of it holds this many invocations (threadIndex's rowStride there).
const CCD_LATER_ROW_STRIDE = 65535u * 64u;
