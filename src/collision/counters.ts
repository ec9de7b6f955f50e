import type { AirFrameCounters } from './air/airCounters';

/**
 * Per-frame collision counters, the same on the GPU (query-list header words, spb stat sums)
 * and on the CPU reference, reported by the runner's JSON and the page's recorder.
 */
export interface CollisionFrameCounters {
  /** DCD hits by kind of query point and pair (paper section 4; centroids only in recovery mode). */
  dcdHits: { vertexSelf: number; vertexInter: number; edgeSelf: number; edgeInter: number; centroidSelf: number; centroidInter: number };
  /** Shortest-path queries run (hits that fit in the capacity). */
  spbQueries: number;
  /** Sums over the frame's queries: BVH candidates (Q), traversals (Tr), tets visited (Tet) (Table 1). */
  bvhCandidates: number;
  traversals: number;
  tetsVisited: number;
  /** Queries that overflowed the GPU's static stacks and went to the CPU fallback. */
  spbOverflows: number;
  /** Contact constraints applied (queries with a valid path). */
  contacts: number;
  /** Queries with no valid path, and queries skipped (inverted boundary, section 3.5). */
  noPath: number;
  skipped: number;
  /** Shortest-path contacts dropped as pushing through the far side of a part (SolverParams.farSideContacts; cpu/farSideContacts.ts), summed over the builds. */
  farSideDropped: number;
  /** Tets found below the inversion floor (SolverParams.inversionFloor; cpu/inversionFloor.ts) and lifted, summed over the rounds: any tet in recovery mode, the slivers outside it (sliverFloor). */
  inversionFloorTets: number;
  /** Capacity of the contact arrays this frame, and hits beyond it (they grow the capacity for the next frame). */
  contactCapacity: number;
  dropped: number;
  /**
   * Tet-cell entries detection's spatial hash dropped, summed over the frame's builds: its pool
   * was full (GPU engine; each grows the pool for the next frame, up to one storage binding of
   * the device, gpu/spatialHash.ts). A dropped entry can hide a hit in that cell.
   */
  hashDropped: number;
  /** GPU-to-CPU readbacks this frame and their bytes (the per-frame status included). */
  readbacks: number;
  readbackBytes: number;
  /** The collision mode the frame ran ('hybrid', 'dcd' or 'ccd'; recovery mode runs 'dcd'). */
  mode: string;
  /**
   * How its DCD contacts got their targets (SolverParams.penetration: 'exact', 'restClosest' or
   * 'ddf'). With the rest-pose methods, contacts counts the targets made, noPath the queries with
   * none (ddf: depth 0), bvhCandidates the rest-pose (restClosest) or anchor (ddf) BVH candidates;
   * traversals and tetsVisited stay 0.
   */
  penetration: string;
  /** Hybrid (supplement Alg. 5 line 1): boundary points penetrating at their substep's start (Pin), and free ones (Pout), summed over the substeps. */
  pin: number;
  pout: number;
  /**
   * Hybrid: of the points found inside another object's tet at their substep's start, those left
   * Pout because an inverted tet of that object holds them too (a fold: they may lie outside its
   * surface; docs/collisions.md "Pin marks in folds"), summed over the substeps; counted in pout.
   */
  pinInFold: number;
  /**
   * Hybrid with SolverParams.pinRelease: boundary vertices Pin at their substep's start that
   * detection found in no tet (released to CCD, pinMark.ts PIN_RELEASED), summed over the detections.
   */
  pinReleased: number;
  /** Continuous detection (zero when the mode has none). */
  ccd: CcdFrameCounters;
  /** Surface BVH rebuilds installed before this frame (worker job), and the job's time in its worker (ms). */
  bvhRebuilds: number;
  bvhRebuildMs: number;
  /** Failed worker jobs and refused results, with their errors (the frame went on without them). */
  warnings: string[];
  /** Air mode (collision/air/): the air constraints and the mesh optimisation; absent in the other modes. */
  air?: AirFrameCounters;
}

export interface CcdFrameCounters {
  /** Candidate pairs of the frame's broad phase (worker pool), vertex-triangle and edge-edge. */
  candidatesVertexFace: number;
  candidatesEdgeEdge: number;
  /**
   * Pairs of the broad phase left out of the frame's CCD because they did not fit one GPU buffer
   * (collision/gpu/candidateRoom.ts; the counts above are those the GPU tested). Their points get
   * contacts once inside, as in DCD. Always 0 on the CPU engine, which has no such limit.
   */
  candidatesLeftOut: number;
  /**
   * Narrow-phase tests run, summed over the substeps and, with SolverParams.ccdEveryRound, the later
   * rounds; pairs with a Pin point skipped in hybrid mode (counted in the detecting rounds only).
   */
  tests: number;
  skippedPin: number;
  /**
   * Same-object pairs left out at tets inverted at the substep's start (SolverParams.ccdSkipInverted),
   * in the detecting rounds. The CPU engine counts every candidate so marked (it skips before the
   * test); the GPU only those that met within the substep, i.e. the contacts left out (it judges
   * after the root test, ccdNarrow.wgsl, lib/invertedBoundaryFan.wgsl).
   */
  skippedInverted: number;
  /**
   * Of the tests, the pairs whose boxes over the substep's motion (the round's, from its start) were
   * apart by more than any contact the solve accepts, so the solve did not run (GPU:
   * lib/ccd.wgsl ccdMotionBoxesApart; the float64 engine's candidates come from per-substep boxes
   * already, and it counts 0).
   */
  motionBoxesApart: number;
  /** Contacts found by CCD, by kind, summed over the substeps; hits behind the face at the start (no contact made). */
  hitsVertexFace: number;
  hitsEdgeEdge: number;
  backFace: number;
  /**
   * Where the pair's separation passes the triangle's longest edge (edge-edge: both edges; a thick
   * contact offset), hits that are not the surfaces' nearest pair there, so that a nearer pair
   * makes the contact and this one makes none: a vertex beside no feature of the triangle
   * (featureNormal.ts besideFeature), a vertex whose own surface has a point nearer the triangle's
   * (nearestOnPointSide), edges whose normal cones do not meet (mutualCone.ts mutualEdgeCone 'apart').
   */
  offFeature: number;
  /**
   * SolverParams.pinRelease: vertex-face contacts of released vertices with a face whose plane they
   * crossed from behind on their way out (exit contacts, taken at the motion's end), counted in
   * hitsVertexFace too.
   */
  exitContacts: number;
  /**
   * Of the hits, those that the later rounds of collideEvery 'contacts' added (SolverParams.ccdEveryRound:
   * CCD again on the motion from the substep's start, pairs already in contact skipped), summed over the substeps.
   */
  laterRoundHits: number;
  /**
   * Boundary vertices that a later round found farther than the reach (any axis) from where the
   * detecting round's CCD saw them (src/collision/ccd/laterRounds.ts), summed over the later rounds:
   * pairs skipped there as far apart may have been missed. Zero without SolverParams.ccdEveryRound.
   */
  laterRoundBeyondReach: number;
  /**
   * The near lists' lengths, summed over the substeps: the pairs each detecting round found within
   * the later rounds' reach (src/collision/ccd/laterRounds.ts), which the later rounds test again
   * instead of every candidate. Zero without SolverParams.ccdEveryRound.
   */
  laterRoundListed: number;
  /** Edge-edge pairs at an end: over whole edges the hits left to an end's vertex-triangle pairs; with SolverParams.ccdEdgeInterior the contacts made at an end of an edge's searched interior (ccd/interiorEdges.ts; n from the gap between the closest points where it is clear). */
  edgeEdgeAtEnd: number;
  /** Edge-edge hits whose two edges' normal cones do not meet (mutualCone.ts): made with their own normal, perpendicular to both edges. */
  edgeEdgeApart: number;
  /** Contact records available per substep, and contacts beyond them (they grow the capacity). */
  capacity: number;
  dropped: number;
  /** Boundary vertices that left their swept box (the broad phase's motion bound) in some substep; the next boxes widen. */
  escaped: number;
  /**
   * Boundary vertices that left their own-frame box (the boxes pairs within one object were found
   * with: motion relative to the object, broadPhase.ts ownFrameBoxes) in some substep; the next
   * boxes widen too. Zero without self-collision.
   */
  escapedSelf: number;
  /**
   * Objects whose own-frame boxes escaped (flags of bit o % 64, ccdNarrow.wgsl: objects 64 apart
   * share a flag and count together): only theirs widen (ccdSchedule.ts).
   */
  escapedSelfObjects: number;
  /**
   * Hybrid with SolverParams.escapedToDcd: free points (vertices; edges by their ends) tested at
   * their substep's end because they left their box, summed over the substeps, and those found
   * inside another tet there (each got a query, and so a shortest-path contact in that substep).
   */
  escapedTested: number;
  escapedInside: number;
  /**
   * Of the escaped points' contacts (escapedInside), those the contact build dropped because
   * their path pushed the point onward along its motion (contactsBuild.wgsl pushesEscapedOnward).
   * counters.contacts, the paths found, still counts them.
   */
  escapedRejected: number;
  /** The boxes' margin (world units) and the motion horizon (s) of the broad phase used by this frame. */
  margin: number;
  /** The own-frame boxes' margin (pairs within one object; world units; the largest object's): widened by their own escapes. */
  selfMargin: number;
  /** How far the farthest escape of the frame lay outside its world box, and outside its own-frame box (world units, along the axis where it is farthest; 0 without escapes). */
  escapeDistance: number;
  escapeDistanceSelf: number;
  /** The largest growth of the own-frame boxes for obstacles, any vertex, axis and side (world units; SolverParams.ccdObstacleGrowth). */
  selfGrowth: number;
  horizon: number;
  /** The broad-phase job's time in its worker, and the time the frame waited for it before recording (ms). */
  jobMs: number;
  waitMs: number;
  /**
   * Objects whose same-object pairs the job took from the lists kept across jobs, and objects it
   * joined again (SolverParams.selfPairSkin, src/collision/ccd/ownPairCache.ts; both 0 with a skin of 0;
   * an object whose pairs a split job cut into K slices counts K times, each slice keeping its own list).
   */
  selfListsReused: number;
  selfListsRebuilt: number;
  /**
   * Objects whose same-object pairs the job joined on world boxes instead of own-frame boxes
   * (SolverParams.ccdSelfPairFrame 'adaptive', src/collision/ccd/selfPairFrames.ts; 0 with 'own').
   */
  selfWorldFrame: number;
  /**
   * The job's candidate pairs between objects, and how many of the pool's workers they were
   * sliced over (workers/ccdJobs.ts splitParts: one while they are few; both 0 where the engine
   * runs no job, as the CPU reference).
   */
  interPairs: number;
  interSlices: number;
  /**
   * Self-collision culling of the job (paper 002, SolverParams.selfCulling; all 0 without
   * self-collision): same-object candidate pairs of the box test and those left after culling,
   * the culled fraction (1 - after / before), the job's time in the normal cones (and tree
   * rebuilds), in the traversal's node tests and in the pair filter (ms), and the boundary
   * vertices found at this frame's end further from their predicted path than the culling's
   * deviation bound allowed (src/collision/selfCulling/deviationMonitor.ts).
   */
  selfPairsBefore: number;
  selfPairsAfter: number;
  selfCulledFraction: number;
  selfConesMs: number;
  selfTraversalMs: number;
  selfFilterMs: number;
  selfDeviationEscapes: number;
}

export function emptyCcdCounters(): CcdFrameCounters {
  return {
    candidatesVertexFace: 0, candidatesEdgeEdge: 0, candidatesLeftOut: 0, tests: 0, skippedPin: 0, skippedInverted: 0, motionBoxesApart: 0, hitsVertexFace: 0, hitsEdgeEdge: 0, laterRoundHits: 0, laterRoundBeyondReach: 0, laterRoundListed: 0, backFace: 0, offFeature: 0, exitContacts: 0, edgeEdgeAtEnd: 0, edgeEdgeApart: 0,
    capacity: 0, dropped: 0, escaped: 0, escapedSelf: 0, escapedSelfObjects: 0, escapedTested: 0, escapedInside: 0, escapedRejected: 0, margin: 0, selfMargin: 0, escapeDistance: 0, escapeDistanceSelf: 0, selfGrowth: 0, horizon: 0, jobMs: 0, waitMs: 0, selfListsReused: 0, selfListsRebuilt: 0, selfWorldFrame: 0, interPairs: 0, interSlices: 0,
    selfPairsBefore: 0, selfPairsAfter: 0, selfCulledFraction: 0, selfConesMs: 0, selfTraversalMs: 0, selfFilterMs: 0, selfDeviationEscapes: 0,
  };
}

export function emptyCollisionCounters(): CollisionFrameCounters {
  return {
    dcdHits: { vertexSelf: 0, vertexInter: 0, edgeSelf: 0, edgeInter: 0, centroidSelf: 0, centroidInter: 0 },
    spbQueries: 0,
    bvhCandidates: 0,
    traversals: 0,
    tetsVisited: 0,
    spbOverflows: 0,
    contacts: 0,
    noPath: 0,
    skipped: 0,
    farSideDropped: 0,
    inversionFloorTets: 0,
    contactCapacity: 0,
    dropped: 0,
    hashDropped: 0,
    readbacks: 0,
    readbackBytes: 0,
    mode: 'dcd',
    penetration: 'exact',
    pin: 0,
    pout: 0,
    pinInFold: 0,
    pinReleased: 0,
    ccd: emptyCcdCounters(),
    bvhRebuilds: 0,
    bvhRebuildMs: 0,
    warnings: [],
  };
}

/** Total DCD hits of a frame. */
export function totalHits(c: CollisionFrameCounters): number {
  const h = c.dcdHits;
  return h.vertexSelf + h.vertexInter + h.edgeSelf + h.edgeInter + h.centroidSelf + h.centroidInter;
}
