/** Solver parameters (Warp's Control): everything a user may change between frames. */

/**
 * 'partitioned': Gauss-Seidel in the partitioned order (partitionedColouring.ts), one dispatch
 * per pass (4) instead of one per colour (30-44); 'gauss-seidel': one dispatch per global
 * colour; 'jacobi': every constraint from the same positions, then a gather (2 dispatches).
 */
/** eps_i of supplement Alg. 2 (relative to h^2) and eps_r of Alg. 4 (a cosine): the shortest path's defaults (spb/settings.ts reads them). */
export const DEFAULT_EPS_I = 1e-6;
export const DEFAULT_EPS_R = 1e-4;

export type SolveOrder = 'partitioned' | 'gauss-seidel' | 'jacobi';
export const SOLVE_ORDERS: readonly SolveOrder[] = ['partitioned', 'gauss-seidel', 'jacobi'];
/** How the partitioned order places an element interior in several passes (src/mesh/partitionedColouring.ts PartitionOptions.balance). */
export type PartitionBalance = 'valence' | 'count';
/** Largest SolverParams.andersonDepth (the GPU kernel's fixed-size arrays: src/sim/andersonAcceleration.ts). */
export const MAX_ANDERSON_DEPTH = 4;
/**
 * Runs of fewer material iterations between two collision rounds are not Anderson-accelerated
 * (their first mix would be their last output; sim/andersonAcceleration.ts says why).
 */
export const MIN_MIXING_SWEEPS = 4;
export const PARTITION_BALANCES: readonly PartitionBalance[] = ['valence', 'count'];
export type ConstraintType = 'neohookean' | 'springs';
/** How a point inside another object finds its boundary point (paper Fig. 15). */
export type InterObjectMode = 'exact' | 'euclidean';
/**
 * Which detection finds the contacts (paper 000 section 4, Fig. 9; supplement Alg. 5):
 * 'hybrid' DCD at the substep's start splits boundary points into penetrating (Pin) and free
 * (Pout); after the material solve, DCD + shortest path for Pin and CCD for Pout.
 * 'dcd' DCD + shortest path for every point; 'ccd' CCD only (no shortest path).
 * 'air' the air mesh of paper 004 (collision/air/): one unilateral volume constraint per air
 * tet between the objects instead of detection and contacts (the colliders stay).
 */
export type CollisionMode = 'hybrid' | 'dcd' | 'ccd' | 'air';
export type AirMesher = 'auto' | 'lattice' | 'general';
export const AIR_MESHERS: readonly AirMesher[] = ['auto', 'lattice', 'general'];
export type AirSolve = 'partitioned' | 'coloured' | 'jacobi';
export const AIR_SOLVES: readonly AirSolve[] = ['partitioned', 'coloured', 'jacobi'];
export const COLLISION_MODES: readonly CollisionMode[] = ['hybrid', 'dcd', 'ccd', 'air'];
/**
 * When the collision stages run within a substep: once after the material iterations
 * ('substep', DESIGN.md's time step) or after every material iteration ('iteration', as the
 * authors' implementation: paper 000 section 5 says it copied the positions to the CPU for
 * detection and contacts at every iteration). 'contacts': detection, the shortest path and CCD
 * once, after the first material iteration, and the contact passes on those contacts after every
 * iteration (the contacts coupled with the material at the cost of their passes only; as
 * position-based solvers that detect once a step and project contacts in every iteration).
 * 'auto': 'iteration' in recovery and air mode, 'contacts' where two or more objects can meet
 * ('iteration' with DCD only), 'substep' for one object (effectiveCollideEvery).
 */
export type CollideEvery = 'auto' | 'substep' | 'iteration' | 'contacts';
export const COLLIDE_EVERY: readonly CollideEvery[] = ['auto', 'substep', 'iteration', 'contacts'];

/**
 * What becomes of a shortest-path contact that pushes the wrong way
 * (src/collision/cpu/contactsCpu.ts dropFarSide, shaders/contactsBuild.wgsl): a point that has
 * crossed more than half of the part it is in has its exact shortest path out through that part's
 * far side. It then pushes the same way as the contacts of the other part's points around it,
 * whose triangles it is a corner of, and the Jacobi passes settle between the two
 * (docs/collisions.md "Far-side contacts"). 'drop': a DCD contact is dropped when one of its point
 * vertices is a triangle corner of a shallower DCD contact whose normal points the same way
 * (positive dot product); of the contacts having that vertex as a corner, the shallowest is the one
 * compared. 'keep': every contact stays (the paper's rule). 'auto' (default): 'drop' in recovery
 * mode (effectiveFarSideContacts), where whole parts overlap; 'keep' otherwise.
 */
export type FarSideContacts = 'auto' | 'drop' | 'keep';
export const FAR_SIDE_CONTACTS: readonly FarSideContacts[] = ['auto', 'drop', 'keep'];
/** Where the sliver floor lifts, outside recovery (SolverParams.sliverLift). */
export type SliverLift = 'after-contacts' | 'clipped-to-contacts' | 'holding-contacts' | 'with-contacts';
export const SLIVER_LIFTS: readonly SliverLift[] = ['after-contacts', 'clipped-to-contacts', 'holding-contacts', 'with-contacts'];

/**
 * How the colliders (ground planes, boxes, bowls) act on a vertex after each material sweep
 * (src/sim/colliderMultiplier.ts, shaders/lib/colliderProjection.wgsl). 'projection' (default):
 * a point below the grown surface is pushed out and nothing is kept but friction's budget, so a
 * push is never taken back and the converged state at a contact depends on the sweeps' path (two
 * Gauss-Seidel orders end 4.35e-5 apart on a 2-unit cube, Anderson acceleration converges to a
 * third answer). 'multiplier': the contact is an inequality constraint with a multiplier kept per
 * vertex over the substep, the normal push lambda >= 0; each projection moves the point by
 * max(-lambda, depth - allowance) along the normal, so it takes back what is no longer needed,
 * friction's accumulated tangential correction is clamped to mu x the push that is an impulse
 * (Coulomb's cone, also taken back when lambda falls), and the split impulse's start shift follows
 * lambda. Anderson acceleration mixes lambda and the friction correction with the state
 * (docs/collisions.md "The colliders' multiplier"). 'auto' (default): 'multiplier' where Anderson
 * acceleration is on (andersonDepth > 0), whose answer at a contact is wrong without it, and
 * 'projection' otherwise, whose plain sweeps converge a little faster at a contact
 * (effectiveColliderResponse).
 */
export type ColliderResponse = 'auto' | 'projection' | 'multiplier';
export const COLLIDER_RESPONSES: readonly ColliderResponse[] = ['auto', 'projection', 'multiplier'];

/** What 'auto' stands for: 'multiplier' with Anderson acceleration, 'projection' without. */
export function effectiveColliderResponse(p: Pick<SolverParams, 'colliderResponse' | 'andersonDepth'>): Exclude<ColliderResponse, 'auto'> {
  return p.colliderResponse === 'auto' ? (p.andersonDepth > 0 ? 'multiplier' : 'projection') : p.colliderResponse;
}

/** How a Gauss-Seidel Neo-Hookean step is lengthened: false, not at all (the bounded step); 'search', the line search; 'reuse', the length the tet's last search found. */
export type StepLengthening = false | 'search' | 'reuse';

/**
 * How the Gauss-Seidel Neo-Hookean steps of sweep `sweep` (0-based within its run of
 * iterations) are lengthened: not at all without lineSearch; by the line search ('search'); in
 * a run Anderson acceleration mixes (`accelerated`), from sweep andersonLineSearchSweeps on, by
 * the length each tet's last search found ('reuse'). Both engines' material solves ask it per sweep.
 */
export function lineSearchInSweep(p: Pick<SolverParams, 'lineSearch' | 'andersonLineSearchSweeps'>, accelerated: boolean, sweep: number): StepLengthening {
  if (!p.lineSearch) return false;
  return accelerated && sweep >= p.andersonLineSearchSweeps ? 'reuse' : 'search';
}

/** The rest quality (a fraction of the object's median) below which the sliver floor holds a tet: the softened slivers always, and sliverFloorQuality's tets when it is higher. */
export function sliverFloorThreshold(p: Pick<SolverParams, 'sliverQuality' | 'sliverFloorQuality'>): number {
  return Math.max(p.sliverQuality, p.sliverFloorQuality);
}

/** What 'auto' stands for: 'drop' in recovery mode, 'keep' otherwise. */
export function effectiveFarSideContacts(p: Pick<SolverParams, 'farSideContacts' | 'recovery'>): Exclude<FarSideContacts, 'auto'> {
  return p.farSideContacts === 'auto' ? (p.recovery ? 'drop' : 'keep') : p.farSideContacts;
}

/**
 * How the GPU dispatches the contact passes (src/collision/gpu/contactStage.ts): 'grid' three
 * dispatches a pass and contact group (count, solve, apply over every vertex), each over the whole
 * list; 'workgroup' one dispatch of one workgroup that sweeps count, solve and apply with storage
 * barriers between them (all passes in one dispatch when no group of its own follows), the same
 * Jacobi passes; 'auto' 'workgroup' while the last frame's contacts a substep stay at most
 * CONTACT_SWEEP_AUTO_LIMIT. The CPU reference has one path (the same physics).
 */
export type ContactDispatch = 'auto' | 'workgroup' | 'grid';
export const CONTACT_DISPATCHES: readonly ContactDispatch[] = ['auto', 'workgroup', 'grid'];
/**
 * 'auto' sweeps the contacts in one workgroup up to this many contacts a substep (DCD's and CCD's,
 * from the last frame read back). Measured on an NVIDIA H100 in Dawn (Vulkan, native), the contacts
 * phase's GPU time a substep: the sweep 0.05 ms with no contacts, 0.19 ms at 239, 0.34 ms at 1,032,
 * 1.06 ms at 3,935; the grid dispatches 0.20-0.28 ms throughout (bench/contactDispatch.ts,
 * docs/benchmarks.md). They meet between about 360 and 510 contacts (the grid's own time varies
 * 0.21-0.24 ms there). A browser's larger cost per dispatch would move the meeting point up (not
 * measured).
 */
export const CONTACT_SWEEP_AUTO_LIMIT = 512;

/** Whether the contact passes run in one workgroup (ContactDispatch), given the last frame's contacts a substep (undefined: none known yet). */
export function contactSweep(mode: ContactDispatch, recentContactsPerSubstep: number | undefined): boolean {
  if (mode !== 'auto') return mode === 'workgroup';
  return (recentContactsPerSubstep ?? 0) <= CONTACT_SWEEP_AUTO_LIMIT;
}

/**
 * How a penetrating point gets its contact target (paper 000 section 5.5, Figs. 22-23; Fisher
 * and Lin 2001). Every DCD query of the time step is answered by one of them (CCD contacts do
 * not use a target):
 *   'exact'        the shortest path to the boundary of the deformed, possibly self-intersecting
 *                  mesh (src/spb, paper 000): the nearest boundary point a valid path reaches;
 *   'restClosest'  the point mapped to the rest pose by its barycentrics in its tet, the closest
 *                  boundary point of the rest mesh, mapped back to the current pose through its
 *                  triangle (src/penetration/restClosest.ts): the "popular approach" paper 000 section 5.5 rejects;
 *   'ddf'          the deformed distance field of Fisher and Lin 2001 (src/penetration/deformedDistance.ts): the
 *                  rest pose's inward distance and direction at the tet's vertices, interpolated
 *                  in the tet's current shape (eqs. 3-5), target s = x + depth * direction.
 */
export type PenetrationMethod = 'exact' | 'restClosest' | 'ddf';
export const PENETRATION_METHODS: readonly PenetrationMethod[] = ['exact', 'restClosest', 'ddf'];

/**
 * Culling of same-object CCD candidate pairs (paper 002, src/collision/selfCulling/): 'off' keeps
 * every pair of the box test; 'plain' is Heo et al.'s BVH dual-cone method without internal
 * boundary edges (section 4; it misses contacts, kept to show that); 'enhanced' is paper 002's
 * enhanced dual-cone method (section 5), which misses none.
 */
export type SelfCullingMode = 'off' | 'plain' | 'enhanced';
export const SELF_CULLING_MODES: readonly SelfCullingMode[] = ['off', 'plain', 'enhanced'];
/** SolverParams.ccdSelfPairFrame: the frame CCD's broad phase joins same-object pairs in (collision/ccd/selfPairFrames.ts). */
export type CcdSelfPairFrame = 'own' | 'adaptive';
export const CCD_SELF_PAIR_FRAMES: readonly CcdSelfPairFrame[] = ['own', 'adaptive'];
/** SolverParams.ccdWorldBoxes: how CCD's broad phase predicts each vertex's world box (collision/ccd/meanPathBoxes.ts). */
export type CcdWorldBoxes = 'ball' | 'mean-path';
export const CCD_WORLD_BOXES: readonly CcdWorldBoxes[] = ['ball', 'mean-path'];
/** SolverParams.ccdJobLatency: frames between CCD's broad-phase snapshot and the frame it serves (collision/ccd/ccdSchedule.ts). */
export type CcdJobLatency = 'auto' | '0' | '1';
export const CCD_JOB_LATENCIES: readonly CcdJobLatency[] = ['auto', '0', '1'];

export interface SolverParams {
  /** Frame time step (s). */
  dt: number;
  substeps: number;
  /** Material iterations per substep. */
  iterations: number;
  gravity: [number, number, number];
  /**
   * Damping rate (1/s) of deformation: per object, the velocity relative to its rigid motion
   * (v_cm + omega x r) is scaled by max(0, 1 - damping * h) per substep (Müller et al. 2007,
   * section 3.5); rigid motion (fall, throw, spin) is not slowed. Objects with handles are
   * damped as a whole.
   */
  damping: number;
  solveOrder: SolveOrder;
  /** Jacobi only: (over-)relaxation of every constraint step, multiplier and corrections alike; 1 = none; in [MIN_JACOBI_RELAXATION, MAX_JACOBI_RELAXATION]. */
  jacobiRelaxation: number;
  /**
   * Gauss-Seidel orders, Neo-Hookean: each substep starts from half the previous substep's
   * stress multipliers (made torque-free at the predicted shape) instead of zero, so a body's
   * standing stress is not rebuilt from nothing every substep (constraintsCpu.ts
   * neoHookeanWarmStart). Half, not all: a larger share grows in stiff bodies the iterations do
   * not converge. Two more dispatches per substep. Jacobi always starts from zero.
   */
  warmStart: boolean;
  /**
   * Gauss-Seidel orders, Neo-Hookean: each tet's step is lengthened to the minimum of its local
   * energy along the step (exact Hessian, at most 2x), kept only when the exact energy is no
   * higher than at the bounded step (neoHookeanStepLength.ts). Jacobi's steps are never lengthened.
   */
  lineSearch: boolean;
  /**
   * GPU engine, Gauss-Seidel orders, Neo-Hookean: each tet correction's f32 rounding at its
   * vertex's coordinate is kept per vertex and added to the vertex's next correction
   * (shaders/lib/positionCarry.wgsl), so the material keeps momentum to f32 rounding of a
   * substep instead of losing it at every visit (head-on pair: 6.5 instead of 61 kg m/s of
   * 480,000). Off: the plain f32 add, 128 bytes a tet visit less to read and write.
   */
  positionCarry: boolean;
  /**
   * Neo-Hookean: Anderson acceleration of the material iterations (src/sim/andersonAcceleration.ts;
   * Walker and Ni 2011, Peng et al. 2018): with 4 iterations or more, from the third on, each
   * iterate (positions and multipliers) is the combination of the last depth + 1 sweeps' outputs
   * whose combined residual is least; 3 iterations or fewer run as without it. 0 = off; 1-4 =
   * how many differences it remembers. The mixes before the sixth iteration use the two latest,
   * later ones all of them (andersonSchedule), so 2, 3 and 4 run alike up to 6 iterations and a
   * deeper history serves the longer runs (stiff cantilever, each against its own converged run:
   * 12 iterations 1.4e-6 m at 2, 8.1e-7 at 4; docs/benchmarks.md "Anderson depth that grows"). Costs a pass over the state per iteration (GPU: 1 dispatch an
   * iteration, 2 from the third, 1 a round; nothing below 4 iterations) and (3 + 2 depth) floats
   * per state float.
   */
  andersonDepth: number;
  /**
   * In a run that Anderson acceleration mixes (andersonDepth > 0, MIN_MIXING_SWEEPS or more
   * iterations between collision rounds), how many sweeps search lineSearch's step length; the
   * later ones reuse the length each tet's last search found (lineSearchInSweep). The search
   * scales a tet's step by t* = <R, L B> / curvature, a ratio of two quadratic forms of the tet's
   * residual R: it depends on R's direction, not its size, so a searched sweep is not
   * differentiable at its fixed point, and the secant model the mixing fits does not hold there.
   * With a fixed length per tet the sweep is smooth again and keeps the search's longer steps.
   * Stiff cantilever (float64, depth 4, worst vertex against its own 64 iterations, at 8 / 12 /
   * 16 / 24 iterations): searched throughout 1.0e-5 / 8.1e-7 / 1.5e-7 / 3.3e-8; 6 (default)
   * 1.1e-5 / 7.3e-7 / 9.9e-8 / 7.1e-10, every count within 2x of the solver before the stability
   * fix (docs/benchmarks.md "Anderson acceleration: searched lengths reused"). Integer >= 0; 0
   * reuses nothing searched (the bounded steps alone); at or above the iterations, the search in
   * every sweep, as before.
   */
  andersonLineSearchSweeps: number;
  constraint: ConstraintType;
  /** Mass-spring compliance (m/N) of every edge. */
  springCompliance: number;
  /**
   * Coulomb coefficient of the colliders, static and kinetic (Macklin et al. 2014, section
   * 6.1): a contact's tangential motion over the substep is cancelled up to friction x the
   * normal push accumulated over the substep, so a block sticks where tan(slope) < friction.
   */
  friction: number;
  /**
   * Collisions between and within the soft bodies (paper 000 section 4): discrete detection
   * after the material solve, the shortest path to the boundary for every penetrating point,
   * and the contact constraint (x - s) . n >= 0 of eq. 6 with the colliders' Coulomb friction.
   */
  collisions: boolean;
  /** Self-intersections of one object (section 3.4); inter-object contacts stay on when false. */
  selfCollision: boolean;
  /** Recovery mode (section 5.2): every vertex and every tet centroid is a query point. */
  recovery: boolean;
  /** 'exact': shortest path to boundary; 'euclidean': nearest boundary point of the other object (Fig. 15). */
  interObject: InterObjectMode;
  /**
   * How every DCD contact (self and inter-object) gets its target (paper 000 Figs. 22-23;
   * src/penetration/methods.ts): 'exact' the shortest path to the boundary; 'restClosest' the
   * rest pose's closest boundary point mapped back; 'ddf' Fisher and Lin's deformed distance
   * field. CCD contacts are unchanged; interObject 'euclidean' applies with 'exact' only.
   */
  penetration: PenetrationMethod;
  /** Jacobi passes over the contact constraints per substep. */
  contactIterations: number;
  /** 'hybrid' (default), 'dcd' or 'ccd'; recovery mode turns CCD off (section 5.2): see effectiveCollisionMode. */
  collisionMode: CollisionMode;
  /**
   * Frames between rebuilds of the shortest path's surface BVH in a worker (0: never; the GPU
   * refits it every substep in between). A refit keeps the tree's shape, which degrades as the
   * bodies deform (src/bvh/README.md).
   */
  bvhRebuildFrames: number;
  /** Air mode (paper 004 eq. 2): passes over the air tets' constraints per substep, after the material iterations. */
  airIterations: number;
  /** Air mode: air mesh optimisation (section 3.3: edge and multi-face removal) every this many frames in a worker; 0 = off. */
  airOptimizeFrames: number;
  /** Air mode: the air mesher; 'auto': the container's lattice where the scene has one (air-boxes), else the general (Delaunay + boundary recovery) one. */
  airMesher: AirMesher;
  /** Air mode: order of the eq. 2 passes: 'partitioned' (default; Gauss-Seidel swept by workgroups: the coloured order in one dispatch a pass up to 4,096 air tets, the material solve's cells above), 'coloured' (Gauss-Seidel, one dispatch per colour) or 'jacobi' (mass-split sums; the CPU reference only: measured far slower to converge, the GPU stage runs 'partitioned' for it). */
  airSolve: AirSolve;
  /** Infeasible-region culling of the shortest path (paper 000 section 3.6; it never changes an answer, only the work). */
  culling: boolean;
  /** eps_i of supplement Alg. 2: the exit-face sign test counts as zero within epsI x h^2 (src/spb/settings.ts exitFace). */
  epsI: number;
  /** eps_r of supplement Alg. 4, as a cosine: culled only when p is that far inside the infeasible half-space (settings.ts culling). */
  epsR: number;
  /**
   * Culling of CCD's same-object candidate pairs in the broad phase (paper 002): 'enhanced' drops
   * the pairs within a BVH node whose surface cannot touch itself (enhanced dual-cone test, no
   * contact lost); 'plain' Heo et al.'s dual-cone test without internal edges (misses contacts);
   * 'off' keeps every pair of the box test (src/collision/selfCulling/).
   */
  selfCulling: SelfCullingMode;
  /**
   * CCD's same-object pairs are kept from one broad-phase job to the next (a Verlet list,
   * src/collision/ccd/ownPairCache.ts): found on own-frame boxes grown by this fraction of the
   * object's own margin, and reused, tested against the boxes of now, while every box stays inside
   * its grown one. 0: every object joined afresh every job. It never changes a candidate, only the
   * job's time (docs/benchmarks.md "CCD's broad phase: pairs kept across jobs").
   */
  selfPairSkin: number;
  /**
   * Contact thickness delta (world units): every contact, DCD or CCD, self or between objects or
   * with a collider, is solved to (x - s) . n >= delta, and CCD reports pairs that come within delta
   * during the substep's motion (speculative contacts: they act only where the solve would end
   * nearer than delta). 'auto': CONTACT_OFFSET_AUTO_RATIO (3 %) of the scene's mean boundary edge
   * between objects, CONTACT_OFFSET_AUTO_SELF_RATIO (1 %) for self-contacts and the colliders,
   * each at most CONTACT_OFFSET_AUTO_CAP of its shortest element edge (src/collision/contactOffset.ts,
   * docs/collisions.md "Contact offset" and "Contact offset by kind"). Self-contacts (a point and a
   * triangle of one object) keep at most that cap at any setting (selfContactOffset): features of
   * one surface a few elements apart lie within a thicker layer, and their contacts would push the
   * surface against itself.
   */
  contactOffset: number | 'auto';
  /**
   * The speed (world units per second) at which a contact opens the offset layer where its
   * surfaces start nearer than delta (or inside): each contact, built or projected n times a
   * substep of length h, keeps min(delta, max(gap at the substep's start, 0) + speed h / n) instead
   * of delta (src/collision/contactOffset.ts rampedOffset). Pushing such a surface out to delta in
   * one substep crushed its tets and the material launched the body (two cubes 5 mm apart with
   * delta a whole element: 56x their energy); the ramp lets the body follow the layer at this speed
   * at most. Penetration itself goes at depenetrationSpeed (the surface is the floor, the ramp only
   * lifts past it). Infinity: the layer opens at once, as before. docs/collisions.md "Contact offset".
   */
  contactOffsetSpeed: number;
  /**
   * The speed (world units per second) at which a contact removes depth its surfaces already had
   * at the substep's start (a pre-existing penetration): each build of a substep of length h, built
   * n times, removes at most speed h / n of it (src/collision/contactOffset.ts rampedOffset), the
   * rest in the substeps after. The split impulse removes that depth without velocity, but only at
   * the contact's own vertices: a point pushed 30-40 mm out of a folded cube in one substep crushed
   * the tets behind it, and the material turned their energy into motion (without the limit the
   * landing cube's energy law broke in 7 of 36 stiff-spring drops; docs/collisions.md
   * "Depenetration speed"). Rapier's
   * maximum corrective velocity and PhysX's maximum depenetration velocity bound the same thing.
   * The static colliders (ground, boxes, bowls; not a plane with a scripted offset, which pushes
   * with its own motion) remove a depth a vertex started the substep with at the same speed
   * (src/sim/colliders.ts colliderLayerAllowance): a 10 cm cube placed 2 cm into the ground left
   * it at 4.4 m/s, now at about the speed. Recovery mode (section 5.2) is exempt: it untangles at
   * once. Infinity: at once.
   */
  depenetrationSpeed: number;
  /**
   * Impact-adaptive substeps (src/collision/ccd/impactSubsteps.ts): the most substeps a frame may
   * take when its CCD candidates, or its vertices landing on a collider (src/sim/colliderClosingSpeed.ts),
   * close faster than IMPACT_TRAVEL_RATIO mean boundary edges a substep (more substeps only for that frame; Rapier's extra CCD substeps do the same). 0, or
   * any value <= substeps: off, every frame takes `substeps`. 'auto' (the default):
   * max(IMPACT_SUBSTEPS_AUTO.floor, IMPACT_SUBSTEPS_AUTO.factor x substeps), effectiveImpactSubsteps.
   * Each frame reports the substeps it took and the closing speed that chose them.
   */
  impactSubsteps: number | 'auto';
  /**
   * Collision rounds per substep (CollideEvery): 'iteration' runs detection, the shortest path,
   * CCD and the contacts after each material iteration, 'substep' once after all of them, 'auto'
   * (default) 'iteration' in recovery and air mode, 'contacts' with two or more objects ('iteration'
   * with collisionMode 'dcd') and 'substep' for one (effectiveCollideEvery).
   * Measured on the tangled U-strip (CPU reference,
   * selfRecovery.test.ts): once a substep left it tangled until substep 15, every iteration
   * resolved it by substep 8 (paper Fig. 17: within 10), docs/collisions.md "Recovery".
   * 'contacts' detects once and solves the contacts after every iteration: stiff bodies stacked at
   * a long substep then keep their energy as 'iteration' does (two cubes at E 1e6, dt 0.1, 20 x 6:
   * +1.5 % against +80 % once a substep), with no detection rounds added, and fast tentacle tips
   * are held where once a substep let them into another octopus; but it brakes frictionless slides
   * over internal edges (docs/collisions.md "Contacts after every iteration").
   */
  collideEvery: CollideEvery;
  /** How the GPU dispatches the contact passes (ContactDispatch): 'auto' (default), 'workgroup' or 'grid'. */
  contactDispatch: ContactDispatch;
  /** Shortest-path contacts that push a point out through the far side of a part it has crossed (FarSideContacts): 'auto' (default), 'drop' or 'keep'. */
  farSideContacts: FarSideContacts;
  /**
   * Recovery mode: after each collision round's contacts, every tet whose volume fell below
   * this fraction of its rest volume is lifted back to it; outside recovery, the sliver tets once a
   * substep (sliverFloor). A hard volume constraint, Jacobi over the tets, INVERSION_FLOOR_PASSES passes, split impulse: positions and start positions move
   * together, no velocity (src/collision/cpu/inversionFloor.ts, shaders/inversionFloor.wgsl).
   * Recovery's strong pushes invert tets (a quarter of the squishy ball's in one substep), and the
   * self queries of the boundary around an inverted tet are skipped (paper 000 section 3.5: "the
   * only way ... is to resolve the inversion itself"), so without it those inversions held most of
   * what recovery left (docs/collisions.md "The inversion floor"). Default 0.1; 0: off.
   */
  inversionFloor: number;
  /**
   * Outside recovery mode, the inversion floor holds the sliver tets (below sliverQuality): once a
   * substep, after its last collision round's contacts, every sliver whose volume fell below
   * inversionFloor x its rest volume is lifted back to it (the same hard volume constraint, split
   * impulse, no velocity). A sliver keeps a millionth of its stiffness (SLIVER_STIFFNESS), so once
   * an impact turns it inside out nothing turns it back: in the default octopus box, tets 4049, 4068
   * and 3317 of the shared octopus stayed inverted 2-5 frames, their faces crossing the triangles
   * at their flipped corner (docs/collisions.md "Softened slivers stay inverted"). Acts where
   * collisions run, with inversionFloor > 0 and sliverQuality > 0; recovery mode floors every tet
   * in every round instead. Default true.
   */
  sliverFloor: boolean;
  /**
   * With sliverFloor, the floor also holds the tets above the softened slivers whose rest quality
   * is still below this fraction of their object's median: it holds every tet below
   * max(sliverQuality, sliverFloorQuality). Such a tet keeps its full stiffness, but at an impact
   * the material iterations do not always turn it back before the frame ends: in 56 frames of the
   * default octopus box, tet 2255 of the shared octopus (relative quality 0.045) ended 10 frames
   * inverted (docs/benchmarks.md "The floor's own quality threshold"). Same range as sliverQuality;
   * default 0 (the floor holds the softened slivers only).
   */
  sliverFloorQuality: number;
  /**
   * Where the sliver floor (sliverFloor) lifts, in the substep's last collision round.
   * 'after-contacts': once, after the round's contacts, the positions and the start positions
   * together, so the floor has the last word; CCD, which tests the motion from the start positions,
   * never sees the lift, and a lifted corner or a swung edge can pass through another body with no
   * contact: every frame end of two octopi head-on with a vertex inside the other was a sliver
   * corner the contacts had pushed out and this lift carried back in. 'clipped-to-contacts'
   * (default since 2026-12-07): as 'after-contacts', but each corner's volume gradient loses its
   * part against m, the sum of the signed normals of the last round's active contacts between two
   * bodies that the corner is part of (g <- g - min(0, g . m^) m^, in the denominator too), so the
   * lift cannot carry a corner back into the body those contacts push it out of, while contacts
   * within one body leave it as 'after-contacts' does. 15 head-on runs went from 674 edge-substeps
   * through the other octopus and 2 frame ends with a vertex inside it to none; on the GPU one
   * dispatch of one workgroup a substep, in a model of two or more objects with slivers
   * (docs/collisions.md "The sliver lift clipped to the contacts' pushes"). 'holding-contacts': as
   * 'after-contacts', but every vertex that a contact pushed in the substep is held still (inverse
   * mass 0 in the lift), so only a sliver's free corners move; the slivers still below the floor
   * after that (their four corners all pushed) are lifted again with every corner free
   * (docs/collisions.md "The sliver lift holding the contacts' corners"). 'with-contacts': the positions alone, before the round's collision stages
   * (so CCD tests the lift as motion) and again before each of its contact passes after the first
   * (so the contacts answer what the lift moved), the start positions taking the moves after the
   * contacts (still no velocity). Two octopi head-on (bench/octopusHeadOn.ts, float64) went through
   * each other several times less with it; on the GPU it costs a dispatch more a substep and one
   * more a contact pass after the first, and the one-workgroup sweep of the contacts runs one pass
   * a dispatch in that round (docs/collisions.md "The sliver lift with the contacts").
   */
  sliverLift: SliverLift;
  /**
   * With sliverFloor, outside recovery: the sliver lift also runs after every material sweep (after
   * the colliders' projection, before Anderson acceleration mixes the sweep), on the positions
   * alone, as one more hard constraint of the material solve: a sliver whose softened material lets
   * the stiff tets around it pull it back inside out is held at the floor while the material
   * converges, so sliverLift's lift after the contacts finds little left to do. Without it the lift
   * after the contacts re-lifted the same slivers in about 95 % of substeps, its corner moves up to
   * 14-21 mm a substep in the 4-octopus box, which CCD never tests (docs/collisions.md "The floor
   * inside the material sweeps"). Like a material constraint's, its moves become velocity. On the
   * GPU one dispatch of one workgroup more per material iteration, in scenes with slivers. Default
   * false.
   */
  sliverFloorInSweeps: boolean;
  /** How the colliders act on a vertex (ColliderResponse): 'auto' (default), 'projection' or 'multiplier'. */
  colliderResponse: ColliderResponse;
  /**
   * Hybrid mode: a Pout point (free at the substep's start, so CCD's) whose start or end position
   * left the box the frame's CCD candidates were found with (its world box, or with self-collision
   * its own-frame box) may have crossed a surface with no candidate; true (default) tests it at
   * the substep's end as DCD tests a Pin point, so the substep that escaped already gets its
   * shortest-path contact (issue 19: before, it waited for the next substep, or the next frame's
   * wider boxes). Such a contact is kept only when it pushes the point back against its motion
   * relative to the surface (contactsBuild.wgsl): a point that escaped at speed may be past the
   * middle of a thin part, where the shortest path leads out of the far side (without that rule the
   * 4 cm wall shot at 50 m/s, tests/gpu/ccdTunnelling.test.ts, had 5 vertices inside). True
   * (default); false: escapes are only counted (and widen the next jobs' boxes).
   */
  escapedToDcd: boolean;
  /**
   * collideEvery 'contacts' with CCD (hybrid, ccd): the later rounds, which only solve the contacts
   * again, first run CCD's narrow phase again over the frame's candidates, on the motion from the
   * substep's start to after their material iterations, and add the pairs that newly come within
   * the offset (a pair that already has a CCD contact in the substep, or was farther apart at the
   * detecting round than the later rounds can close, collision/ccd/laterRounds.ts, is skipped).
   * Without it a free point that the later iterations carry into another body gets its contact only
   * in the next substep (a squeezed cube springing into another: 1.1 mm inside at the substep's
   * end, none with it; tests/unit/collision/ccdEveryRound.test.ts). False (default), true where a
   * scene raises its iterations for the material it chose (scenes/resolvedBudget.ts: the shared 2K
   * octopus head-on at 30 m/s, 15 iterations, ended frame 3 with a vertex inside the other without
   * it, none with it) and in the octopus-box scene: since apart edge pairs between facing
   * surfaces keep their contacts, the 56-frame float64 runs of 3 and 4 octopi end no frame with a vertex inside another octopus with
   * it, 2 each without (5 octopi: 4 frames against 3). It costs 1.6x the reference's frame time and,
   * once the pile lands, 1.8-2.1x the narrow phase's GPU time (one dispatch a later round over every
   * candidate: 260.7 -> 551.7 ms a frame over 20 M candidates on the H100, measured before the facing
   * rule). docs/collisions.md "CCD in every round" and "CCD in every round, with the facing rule".
   */
  ccdEveryRound: boolean;
  /**
   * Hybrid (supplement Alg. 5): a point found inside a tet at the substep's start (Pin) skips in
   * CCD only the pairs of the kind of that tet: a point inside its own body (a dent, a fold)
   * still meets other bodies through CCD, and a point inside another body still meets its own.
   * Alg. 5 takes every pair of a Pin point from CCD, so a self-intersecting body shot at a thin
   * slab ends with edges through it (tests/unit/collision/pinByKind.test.ts), and two octopi
   * head-on at 5-6 m/s pass 7 % more edges through each other (bench/octopusHeadOn.ts). False
   * (default): Alg. 5 as written, because in the octopus boxes (six single 56-frame float64 runs
   * of 3, 4 and 5 octopi) it ended 14 vertex-frames inside another octopus against 8 without it.
   * docs/collisions.md "Pin by kind".
   */
  pinByKind: boolean;
  /**
   * Hybrid (supplement Alg. 5): a boundary vertex that was Pin at the substep's start but that
   * detection, after the material iterations, finds in no tet (the first iteration carried it
   * out) is released (pinMark.ts PIN_RELEASED): CCD tests its pairs, and a face whose plane it
   * crossed from behind to in front on its way out becomes an exit contact taken at the end of
   * the motion, its offset opening from the gap there, which holds it outside in the later rounds.
   * Alg. 5 as written leaves such a point with neither a shortest-path contact (no tet holds it)
   * nor CCD (it is Pin), so the later iterations could carry it back in, deeper than it started
   * (traced on the 4-octopus box: 3.9 and 6.0 mm). False: Alg. 5 as written.
   * docs/collisions.md "A Pin point outside at detection".
   */
  pinRelease: boolean;
  /**
   * CCD leaves out the same-object pairs that have a vertex on a boundary triangle whose tet is
   * inverted at the substep's start (paper section 3.5, which skips the self queries there, carried
   * over to CCD): the vertex of a vertex-face pair or a corner of its triangle, an end of either
   * edge of an edge-edge pair. Pairs between objects are tested as always. Why: turning an
   * inverted tet back moves the two boundary triangles of the fold it makes back through each
   * other, and CCD takes that for a collision and stops it, so the material never turns it back
   * (a flat boundary tet of the teapot container held at -0.21 of its volume for good; turned back
   * within a frame in DCD mode or with this on: docs/collisions.md "An inverted tet held by CCD",
   * bench/heldInversion.ts). True by default since 2026-12-04: the teapot and beam piles' folds
   * went in 3 and 10 frames instead of 38 and 33, the octopus boxes stayed within their spread
   * (docs/collisions.md "An inverted tet held by CCD", its "On by default"). False: every pair is
   * tested (supplement Alg. 5 as written). counters.ccd.skippedInverted gives the pairs left out.
   */
  ccdSkipInverted: boolean;
  /**
   * Edge-edge CCD searches the edges' interiors (src/collision/ccd/interiorEdges.ts): each edge cut
   * 1 % short of its ends, so the first time is the first time two points inside both edges come
   * within the separation, and a pair first near at a vertex still gets its contact when the
   * edges turn about that vertex and meet mid-edge later in the substep (an edge tipped through a
   * ridge: tests/unit/collision/interiorEdges.test.ts). False (default): whole edges, and a pair
   * whose closest points lie at an end when first near is left to that vertex's vertex-triangle
   * pairs. Two octopi head-on at 3-5 m/s each pass 27 edge-substeps through each other over ten
   * runs against 209, but at 6 m/s 194 against 98, and in four octopus boxes (single 56-frame
   * float64 runs) 12 vertex-frames ended inside another octopus against 5 (bench/octopusHeadOn.ts;
   * docs/collisions.md "Edges searched inside their ends").
   */
  ccdEdgeInterior: boolean;
  /**
   * CCD's own-frame boxes (pairs within one object) of a body that may meet a collider or another
   * body within the job's horizon grow along their relative speed (collision/ccd/obstacleGrowth.ts):
   * a landing body's vertices stop while its own frame falls on, which the boxes did not hold; on
   * the H100 the shared octopus's landing escaped them thousands of times a frame and the
   * escapes' doubling took its job from 15 ms to 1.1 s. True (default); false: only escapes widen
   * the boxes (the counters' ccd.selfGrowth says what it added).
   */
  ccdObstacleGrowth: boolean;
  /**
   * The frame CCD's broad phase joins the pairs within one object in (collision/ccd/selfPairFrames.ts):
   * 'adaptive' (default) per object and job the frame whose boxes are smaller, its own (mean motion
   * removed: a falling body) or the world (a body that landed: its stopped part has margin-sized
   * world boxes; a pair that can meet overlaps in every frame, so either is complete); 'own':
   * always the own frame (the counter ccd.selfWorldFrame says what 'adaptive' did).
   */
  ccdSelfPairFrame: CcdSelfPairFrame;
  /**
   * How CCD's broad phase predicts each boundary vertex's world box over the job's horizon, the box
   * the pairs between objects are found with and the GPU checks the vertex against
   * (collision/ccd/meanPathBoxes.ts): 'ball' the ball of every motion that does not speed the
   * vertex up (its gravity arc grown by |v| H on every side); 'mean-path' (default) that ball clipped
   * to its object's mean path plus its own deviation from it and the obstacle growth: on the
   * 4-octopus box's landed pile 1.7-2.2x fewer pairs between octopi, with about as many vertices
   * leaving their box (docs/collisions.md "World boxes clipped to the mean path").
   */
  ccdWorldBoxes: CcdWorldBoxes;
  /**
   * When CCD's broad-phase job runs (collision/ccd/ccdSchedule.ts): '1' starts it from a frame's
   * end state for the frame after next, so it runs in the worker pool beside a frame of GPU work,
   * and its boxes hold two frames' motion; '0' starts it for the next frame, which waits for it,
   * and its boxes hold one frame's motion (2-5x fewer pairs in a pile landing at 4-7 m/s). 'auto'
   * (default) runs '1' and goes to '0' while frames wait for their jobs more than they overlap them
   * (a job longer than the frame), back when a job would fit behind a frame again; at 0 it asks a
   * loop that submits ahead (the page) for one frame in flight (GpuSolver.framesInFlightWanted).
   * The counters' ccd.horizon says which (dt or 2 dt).
   */
  ccdJobLatency: CcdJobLatency;
  /**
   * Sliver tets (mesh/tetQuality.ts): a tet whose rest quality (6 sqrt(2) V / l_max^3) is below
   * this fraction of its object's median keeps a millionth of its stiffness (sim/model.ts
   * SLIVER_STIFFNESS). A sliver's stiffness over its corners' masses is out of all proportion, and
   * at an impact its light corners swing through it: in the shared octopus, tets 4049 and 3317
   * held 77 J of elastic energy at the drop's landing, twice what the drop released. Its volume
   * (and mass) is a few millionths of the body's, so the body's response does not change. Default
   * 0.04 (the shared octopus: 17 of 4,069 tets); 0 keeps every tet's stiffness.
   */
  sliverQuality: number;
  /**
   * Light vertices raised (src/sim/vertexMassFloor.ts): each vertex's mass is at least this fraction
   * of the mean lumped mass of the vertices it shares a tet with, the difference taken from them
   * (each object keeps its mass); a donor keeps at least this fraction of its own lumped mass, and
   * where the neighbours cannot give enough the vertex is raised less (never a negative mass). A vertex in a few small tets (the shared octopus's tentacle tips:
   * 0.22 g among neighbours of 11-32 g) is light against its tets' stiffness: pressed by a contact
   * or kicked, the material iterations swing it through its tets and their energy grows without
   * bound (the undamped octopus box: +90 J at frame 48; the tip kicked at 3 m/s: 1 mJ to 88 J).
   * Default 0.1 (the shared octopus: 8 of 1,184 vertices raised); 0 keeps the lumped masses.
   */
  vertexMassFloor: number;
  /**
   * The partitioned order's pass rule (src/mesh/partitionedColouring.ts): 'valence' (default), an
   * element interior in several passes goes to the pass where its busiest vertex holds the fewest
   * elements, which halves an iteration's serial rounds (material GPU time -19 to -40 % on an H100,
   * docs/benchmarks.md "Solve orders on an H100"); 'count', to the least loaded pass. The model's
   * partition is rebuilt when it changes; the GPU solver takes it when it is built (the page
   * rebuilds its engine on a change).
   */
  partitionBalance: PartitionBalance;
}

/** The mode the stages run: recovery mode turns CCD off (paper 000 section 5.2), so it runs DCD for every point; air mode has no recovery mode. */
export function effectiveCollisionMode(p: Pick<SolverParams, 'collisionMode' | 'recovery'>): CollisionMode {
  return p.collisionMode === 'air' ? 'air' : p.recovery ? 'dcd' : p.collisionMode;
}

/**
 * Collision rounds in one substep for these parameters and a model of `objects` objects: the
 * material iterations are split into this many runs, each followed by the collision stages (1:
 * the collision stages once, after all the iterations); collisions off: 1. Air mode's volume
 * constraints are its collision stage.
 */
export function effectiveCollisionRounds(p: Pick<SolverParams, 'collideEvery' | 'recovery' | 'iterations' | 'collisions' | 'collisionMode'>, objects: number): number {
  if (!p.collisions) return 1;
  return effectiveCollideEvery(p, objects) === 'substep' ? 1 : p.iterations;
}

/**
 * The schedule 'auto' stands for, in a model of `objects` objects: 'iteration' in recovery mode
 * (the tangled strip comes apart in 8 substeps instead of 15); 'contacts' where two or more
 * objects can meet; 'substep' for one. Bodies resting on each other whose contacts are solved once
 * after the material gain energy: the material restores the surface the contacts dented, and the
 * dent comes back as speed (three stacked cubes at their own 20 x 3 with damping and friction off:
 * +44 % of the energy released, four +24 %; with 'contacts' never above the running minimum;
 * docs/collisions.md "Contacts after every iteration by default between bodies"). It also held
 * octopus piles better (one vertex inside another octopus at the end of one frame of 40, 0.09 mm,
 * where once a substep left 1-3 at the end of 3 frames). One object keeps 'substep': its self
 * contacts did not gain energy where measured (the noodle in its bowl), and the octopus drop is
 * issue 24's dispatch budget (the later rounds add the contact passes and a CCD dispatch). What
 * 'contacts' leaves: a point that the later iterations carry into a surface waits for the next
 * substep's detection (SolverParams.ccdEveryRound tests it in every round). Air mode takes
 * 'iteration' (its constraint passes after every material iteration, where paper 004 section 3.2
 * runs them, "last within each iteration"; 'contacts' there is the same, it detects nothing):
 * once a substep, three stacked cubes with damping and friction off gained 8.9 J, 32 % of the
 * energy released (float64; after every iteration never above the running minimum; docs/collisions.md
 * "Air mode: its constraints after every iteration"). With DCD only
 * (collisionMode 'dcd') bodies get 'iteration': DCD makes a contact only for a point already
 * inside, so under 'contacts' a point the later iterations carry in has none until the next
 * substep, and stacked bodies gained energy again (float64, damping and friction off: three cubes
 * +4.0 J, 18 % of the energy released, four +4.9 J, 2 %; with 'iteration' never above the running
 * minimum, and four +0.5 J, 0.2 %; docs/collisions.md "DCD between bodies: detection after every
 * iteration"). Hybrid and CCD need not: CCD's contacts start before the surfaces meet.
 */
export function effectiveCollideEvery(p: Pick<SolverParams, 'collideEvery' | 'recovery' | 'collisionMode'>, objects: number): Exclude<CollideEvery, 'auto'> {
  if (p.collideEvery !== 'auto') return p.collideEvery;
  if (p.recovery || p.collisionMode === 'air') return 'iteration';
  if (objects < 2) return 'substep';
  return p.collisionMode === 'dcd' ? 'iteration' : 'contacts';
}

/**
 * How many of a substep's collision rounds (effectiveCollisionRounds) detect: all of them, or
 * with collideEvery 'contacts' only the first (air mode, which detects nothing, runs its
 * constraint passes in every round); the later rounds solve that round's contacts again
 * (their records stay, each pass reads the positions of now). Contacts are built once per
 * detecting round (the offset ramp's builds, contactOffset.ts offsetRampStep).
 */
export function effectiveDetectionRounds(p: Pick<SolverParams, 'collideEvery' | 'recovery' | 'iterations' | 'collisions' | 'collisionMode'>, objects: number): number {
  return effectiveCollideEvery(p, objects) === 'contacts' && p.collisionMode !== 'air' ? 1 : effectiveCollisionRounds(p, objects);
}

/**
 * The first material iteration of collision round `round` of `rounds` (of `iterations` a substep):
 * round r runs iterations [firstIterationOfRound(r), firstIterationOfRound(r + 1)). The CPU
 * reference and the GPU's material stage split them the same way.
 */
export function firstIterationOfRound(round: number, rounds: number, iterations: number): number {
  return Math.floor((round * iterations) / rounds);
}

/**
 * impactSubsteps 'auto': up to twice the frame's substeps, and at least 24. Measured on the octopus
 * pile (docs/collisions.md "Impact-adaptive substeps", bench/peers.ts, brute-force counter):
 * at 4 x 4 a cap of 8 left 30.4 penetrating vertices a frame and 11 at the end, 16 left 1.8 and 0
 * (Rapier at its defaults 5.6 and 0), 24 left 0.5 and 0 with one vertex inside the other octopus in
 * one frame; octopus-box at its 5 x 5: 16 left 1-2 vertices inside the other octopus in 2 of 40
 * frames, 24 none; at the pile's 20 x 3, no cap left vertices inside the other
 * octopus at the end of frames 30-34 (up to 6), a cap of 40 none between them (1 self vertex at
 * most), at 1.4x the frame time over the run.
 */

/** The speed settings whose Infinity ('off') a report writes as the text 'off'. */
const SPEEDS_OFF_AS_TEXT = ['contactOffsetSpeed', 'depenetrationSpeed'] as const satisfies readonly (keyof SolverParams)[];

/**
 * JSON.stringify's replacer for reports that hold parameters: a speed of SPEEDS_OFF_AS_TEXT at
 * 'off' (Infinity, which JSON would write as null) is written 'off'; paramsFromJson reads it back.
 */
export function paramsJsonReplacer(key: string, value: unknown): unknown {
  return (SPEEDS_OFF_AS_TEXT as readonly string[]).includes(key) && value === Infinity ? 'off' : value;
}

/**
 * Parameters read from a report's JSON: contactOffsetSpeed and depenetrationSpeed 'off' become
 * Infinity, and a report written before a setting existed ran without it (the layer opened, and
 * depth went, at once), so its absence reads as Infinity too.
 */
export function paramsFromJson<T extends Record<string, unknown>>(p: T): T {
  let q: Record<string, unknown> = p;
  for (const key of SPEEDS_OFF_AS_TEXT) {
    if (!(key in q) || q[key] === 'off') q = { ...q, [key]: Infinity };
  }
  return q as T;
}

/**
 * The Jacobi relaxation's range (SolverParams.jacobiRelaxation; Macklin et al. 2014 over-relax
 * between 1 and 2). Successive over-relaxation converges only below 2, and the measured runs agree
 * (docs/benchmarks.md "The runner's flags against the laws"): two Cube.t copies dropped with
 * `--order jacobi`, 3 iterations, kept the energy law at 1, 1.9 and 2; broke it at 2.5 (+25 % of
 * what was released) and 3 (+60 %), and at 10 exploded in free fall (1.4e12 J, 15 km/s after 6
 * frames). Under-relaxed, the passes leave the landing cube compressed far past its stiffness: +30 %
 * at 0.5, 8x what was released at 0.25, +149 kJ at 0.1.
 */
export const MIN_JACOBI_RELAXATION = 1;
export const MAX_JACOBI_RELAXATION = 2;

/** SolverParams.contactOffsetSpeed's default (world units per second); chosen in docs/collisions.md "Contact offset". */
export const CONTACT_OFFSET_SPEED_DEFAULT = 0.1;

/** The depenetration speed a substep uses: none in recovery mode (section 5.2 untangles at once), else SolverParams.depenetrationSpeed. */
export function effectiveDepenetrationSpeed(p: Pick<SolverParams, 'recovery' | 'depenetrationSpeed'>): number {
  return p.recovery ? Infinity : p.depenetrationSpeed;
}

/** SolverParams.depenetrationSpeed's default (world units per second); chosen in docs/collisions.md "Depenetration speed". */
export const DEPENETRATION_SPEED_DEFAULT = 1;

export const IMPACT_SUBSTEPS_AUTO = Object.freeze({ factor: 2, floor: 24 });

/** The most substeps a frame may take on impact for these parameters (impactSubsteps resolved; <= substeps: off). */
export function effectiveImpactSubsteps(p: Pick<SolverParams, 'substeps' | 'impactSubsteps'>): number {
  return p.impactSubsteps === 'auto' ? Math.max(IMPACT_SUBSTEPS_AUTO.floor, IMPACT_SUBSTEPS_AUTO.factor * p.substeps) : p.impactSubsteps;
}

/** Defaults follow the authors' octopus drop: dt 1/60, 20 substeps x 3 iterations, friction 0.2. */
export function defaultParams(overrides: Partial<SolverParams> = {}): SolverParams {
  return {
    dt: 1 / 60,
    substeps: 20,
    iterations: 3,
    gravity: [0, -9.81, 0],
    damping: 0,
    solveOrder: 'partitioned',
    jacobiRelaxation: 1,
    warmStart: true,
    lineSearch: true,
    positionCarry: true,
    andersonDepth: 0,
    andersonLineSearchSweeps: 6,
    constraint: 'neohookean',
    springCompliance: 1e-4,
    friction: 0.2,
    collisions: true,
    selfCollision: true,
    recovery: false,
    interObject: 'exact',
    penetration: 'exact',
    contactIterations: 3,
    collisionMode: 'hybrid',
    bvhRebuildFrames: 30,
    airIterations: 4,
    airOptimizeFrames: 4,
    airMesher: 'auto',
    airSolve: 'partitioned',
    culling: true,
    epsI: DEFAULT_EPS_I,
    epsR: DEFAULT_EPS_R,
    selfCulling: 'enhanced',
    selfPairSkin: 0.5,
    contactOffset: 'auto',
    contactOffsetSpeed: CONTACT_OFFSET_SPEED_DEFAULT,
    depenetrationSpeed: DEPENETRATION_SPEED_DEFAULT,
    impactSubsteps: 'auto',
    collideEvery: 'auto',
    contactDispatch: 'auto',
    farSideContacts: 'auto',
    inversionFloor: 0.1,
    sliverFloor: true,
    sliverFloorQuality: 0,
    sliverLift: 'clipped-to-contacts',
    sliverFloorInSweeps: false,
    colliderResponse: 'auto',
    escapedToDcd: true,
    ccdEveryRound: false,
    pinByKind: false,
    pinRelease: false,
    ccdSkipInverted: true,
    ccdEdgeInterior: false,
    ccdObstacleGrowth: true,
    ccdSelfPairFrame: 'adaptive',
    ccdWorldBoxes: 'mean-path',
    ccdJobLatency: 'auto',
    sliverQuality: 0.04,
    vertexMassFloor: 0.1,
    partitionBalance: 'valence',
    ...overrides,
  };
}

/** Rejects parameter values the solver cannot use, naming the field. */
export function checkParams(p: SolverParams): void {
  const positive: (keyof SolverParams)[] = ['dt', 'substeps', 'iterations'];
  for (const k of positive) if (!(Number(p[k]) > 0)) throw new RangeError(`solver parameter ${k} must be positive, got ${String(p[k])}`);
  if (!Number.isInteger(p.substeps) || !Number.isInteger(p.iterations)) throw new RangeError('substeps and iterations must be integers');
  if (!(p.damping >= 0)) throw new RangeError(`damping must be >= 0, got ${p.damping}`);
  if (!(p.friction >= 0)) throw new RangeError(`friction must be >= 0, got ${p.friction}`);
  if (!(p.springCompliance >= 0)) throw new RangeError(`springCompliance must be >= 0, got ${p.springCompliance}`);
  if (!SOLVE_ORDERS.includes(p.solveOrder)) throw new RangeError(`solveOrder must be one of ${SOLVE_ORDERS.join(', ')}, got ${String(p.solveOrder)}`);
  if (!(p.jacobiRelaxation >= MIN_JACOBI_RELAXATION && p.jacobiRelaxation <= MAX_JACOBI_RELAXATION)) throw new RangeError(`jacobiRelaxation must be in [${MIN_JACOBI_RELAXATION}, ${MAX_JACOBI_RELAXATION}] (above, the Jacobi passes amplify instead of converge; below, they leave the material unresolved and the energy rises), got ${p.jacobiRelaxation}`);
  if (!Number.isInteger(p.contactIterations) || p.contactIterations < 1) throw new RangeError(`contactIterations must be an integer >= 1, got ${p.contactIterations}`);
  if (p.interObject !== 'exact' && p.interObject !== 'euclidean') throw new RangeError(`interObject must be 'exact' or 'euclidean', got ${String(p.interObject)}`);
  if (!PENETRATION_METHODS.includes(p.penetration)) throw new RangeError(`penetration must be one of ${PENETRATION_METHODS.join(', ')}, got ${String(p.penetration)}`);
  if (!Number.isInteger(p.bvhRebuildFrames) || p.bvhRebuildFrames < 0) throw new RangeError(`bvhRebuildFrames must be an integer >= 0 (0: never), got ${p.bvhRebuildFrames}`);
  if (!COLLIDE_EVERY.includes(p.collideEvery)) throw new RangeError(`collideEvery must be one of ${COLLIDE_EVERY.join(', ')}, got ${String(p.collideEvery)}`);
  if (!COLLIDER_RESPONSES.includes(p.colliderResponse)) throw new RangeError(`colliderResponse must be one of ${COLLIDER_RESPONSES.join(', ')}, got ${String(p.colliderResponse)}`);
  if (!SLIVER_LIFTS.includes(p.sliverLift)) throw new RangeError(`sliverLift must be one of ${SLIVER_LIFTS.join(', ')}, got ${String(p.sliverLift)}`);
  if (!FAR_SIDE_CONTACTS.includes(p.farSideContacts)) throw new RangeError(`farSideContacts must be one of ${FAR_SIDE_CONTACTS.join(', ')}, got ${String(p.farSideContacts)}`);
  if (!(Number.isFinite(p.inversionFloor) && p.inversionFloor >= 0 && p.inversionFloor < 1)) throw new RangeError(`inversionFloor (a fraction of each tet's rest volume) must be in [0, 1), got ${String(p.inversionFloor)}`);
  if (!CONTACT_DISPATCHES.includes(p.contactDispatch)) throw new RangeError(`contactDispatch must be one of ${CONTACT_DISPATCHES.join(', ')}, got ${String(p.contactDispatch)}`);
  if (!COLLISION_MODES.includes(p.collisionMode)) throw new RangeError(`collisionMode must be one of ${COLLISION_MODES.join(', ')}, got ${String(p.collisionMode)}`);
  if (typeof p.warmStart !== 'boolean') throw new RangeError(`warmStart must be true or false, got ${String(p.warmStart)}`);
  if (typeof p.sliverFloor !== 'boolean') throw new RangeError(`sliverFloor must be true or false, got ${String(p.sliverFloor)}`);
  if (typeof p.sliverFloorInSweeps !== 'boolean') throw new RangeError(`sliverFloorInSweeps must be true or false, got ${String(p.sliverFloorInSweeps)}`);
  if (!(Number.isFinite(p.sliverFloorQuality) && p.sliverFloorQuality >= 0 && p.sliverFloorQuality < 1)) throw new RangeError(`sliverFloorQuality (a fraction of the object's median tet quality) must be in [0, 1), got ${String(p.sliverFloorQuality)}`);
  if (typeof p.escapedToDcd !== 'boolean') throw new RangeError(`escapedToDcd must be true or false, got ${String(p.escapedToDcd)}`);
  if (typeof p.ccdEveryRound !== 'boolean') throw new RangeError(`ccdEveryRound must be true or false, got ${String(p.ccdEveryRound)}`);
  if (typeof p.pinRelease !== 'boolean') throw new RangeError(`pinRelease must be true or false, got ${String(p.pinRelease)}`);
  if (typeof p.ccdSkipInverted !== 'boolean') throw new RangeError(`ccdSkipInverted must be true or false, got ${String(p.ccdSkipInverted)}`);
  if (typeof p.pinByKind !== 'boolean') throw new RangeError(`pinByKind must be true or false, got ${String(p.pinByKind)}`);
  if (typeof p.ccdEdgeInterior !== 'boolean') throw new RangeError(`ccdEdgeInterior must be true or false, got ${String(p.ccdEdgeInterior)}`);
  if (typeof p.ccdObstacleGrowth !== 'boolean') throw new RangeError(`ccdObstacleGrowth must be true or false, got ${String(p.ccdObstacleGrowth)}`);
  if (!PARTITION_BALANCES.includes(p.partitionBalance)) throw new RangeError(`partitionBalance must be one of ${PARTITION_BALANCES.join(', ')}, got ${String(p.partitionBalance)}`);
  if (!(Number.isFinite(p.vertexMassFloor) && p.vertexMassFloor >= 0 && p.vertexMassFloor < 1)) throw new RangeError(`vertexMassFloor (a fraction of the mean mass of a vertex's tet neighbours) must be in [0, 1), got ${String(p.vertexMassFloor)}`);
  if (!(Number.isFinite(p.sliverQuality) && p.sliverQuality >= 0 && p.sliverQuality < 1)) throw new RangeError(`sliverQuality (a fraction of the object's median tet quality) must be in [0, 1), got ${String(p.sliverQuality)}`);
  if (!CCD_JOB_LATENCIES.includes(p.ccdJobLatency)) throw new RangeError(`ccdJobLatency must be one of ${CCD_JOB_LATENCIES.join(', ')}, got ${String(p.ccdJobLatency)}`);
  if (!CCD_WORLD_BOXES.includes(p.ccdWorldBoxes)) throw new RangeError(`ccdWorldBoxes must be one of ${CCD_WORLD_BOXES.join(', ')}, got ${String(p.ccdWorldBoxes)}`);
  if (!CCD_SELF_PAIR_FRAMES.includes(p.ccdSelfPairFrame)) throw new RangeError(`ccdSelfPairFrame must be one of ${CCD_SELF_PAIR_FRAMES.join(', ')}, got ${String(p.ccdSelfPairFrame)}`);
  if (!Number.isInteger(p.andersonDepth) || p.andersonDepth < 0 || p.andersonDepth > MAX_ANDERSON_DEPTH) throw new RangeError(`andersonDepth must be an integer in [0, ${MAX_ANDERSON_DEPTH}] (0: off), got ${String(p.andersonDepth)}`);
  if (!Number.isInteger(p.andersonLineSearchSweeps) || p.andersonLineSearchSweeps < 0) throw new RangeError(`andersonLineSearchSweeps must be an integer >= 0, got ${String(p.andersonLineSearchSweeps)}`);
  if (typeof p.lineSearch !== 'boolean') throw new RangeError(`lineSearch must be true or false, got ${String(p.lineSearch)}`);
  if (typeof p.positionCarry !== 'boolean') throw new RangeError(`positionCarry must be true or false, got ${String(p.positionCarry)}`);
  if (!Number.isInteger(p.airIterations) || p.airIterations < 1) throw new RangeError(`airIterations must be an integer >= 1, got ${p.airIterations}`);
  if (!Number.isInteger(p.airOptimizeFrames) || p.airOptimizeFrames < 0) throw new RangeError(`airOptimizeFrames must be an integer >= 0 (0: off), got ${p.airOptimizeFrames}`);
  if (!AIR_MESHERS.includes(p.airMesher)) throw new RangeError(`airMesher must be one of ${AIR_MESHERS.join(', ')}, got ${String(p.airMesher)}`);
  if (!AIR_SOLVES.includes(p.airSolve)) throw new RangeError(`airSolve must be one of ${AIR_SOLVES.join(', ')}, got ${String(p.airSolve)}`);
  if (typeof p.culling !== 'boolean') throw new RangeError(`culling must be true or false, got ${String(p.culling)}`);
  if (!(p.epsI > 0 && p.epsI < 1)) throw new RangeError(`epsI (eps_i of Alg. 2, relative to h^2) must be in (0, 1), got ${p.epsI}`);
  if (!(p.epsR >= 0 && p.epsR < 1)) throw new RangeError(`epsR (eps_r of Alg. 4, a cosine) must be in [0, 1), got ${p.epsR}`);
  if (p.gravity.length !== 3 || !p.gravity.every(Number.isFinite)) throw new RangeError('gravity must be 3 finite numbers');
  if (!(Number.isFinite(p.selfPairSkin) && p.selfPairSkin >= 0)) throw new RangeError(`selfPairSkin must be a finite number >= 0 (0: no reuse), got ${p.selfPairSkin}`);
  if (!SELF_CULLING_MODES.includes(p.selfCulling)) throw new RangeError(`selfCulling must be one of ${SELF_CULLING_MODES.join(', ')}, got ${String(p.selfCulling)}`);
  if (p.contactOffset !== 'auto' && !(typeof p.contactOffset === 'number' && p.contactOffset >= 0 && Number.isFinite(p.contactOffset))) throw new RangeError(`contactOffset must be 'auto' or a finite number >= 0 (world units), got ${String(p.contactOffset)}`);
  if (!(p.contactOffsetSpeed > 0)) throw new RangeError(`contactOffsetSpeed must be a number > 0 (world units per second; Infinity: the offset opens at once), got ${String(p.contactOffsetSpeed)}`);
  if (!(p.depenetrationSpeed > 0)) throw new RangeError(`depenetrationSpeed must be a number > 0 (world units per second; Infinity: depth goes at once), got ${String(p.depenetrationSpeed)}`);
  if (p.impactSubsteps !== 'auto' && !(Number.isInteger(p.impactSubsteps) && p.impactSubsteps >= 0)) throw new RangeError(`impactSubsteps must be 'auto' or an integer >= 0 (0: off), got ${String(p.impactSubsteps)}`);
}
