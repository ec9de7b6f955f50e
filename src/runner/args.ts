/**
 * The headless runner's command line: one table of flags (the usage text is printed from it),
 * strict parsing of each value and its range. Nothing here touches the GPU or the file
 * system, so a bad command fails before any work starts.
 */
import type { SceneSpecificOption } from '../scenes/types';
import type { Material } from '../sim/material';
import { AIR_MESHERS, AIR_SOLVES, COLLIDE_EVERY, COLLIDER_RESPONSES, CONTACT_DISPATCHES, FAR_SIDE_CONTACTS, SLIVER_LIFTS, COLLISION_MODES, CCD_JOB_LATENCIES, CCD_SELF_PAIR_FRAMES, CCD_WORLD_BOXES, MAX_ANDERSON_DEPTH, MAX_JACOBI_RELAXATION, MIN_JACOBI_RELAXATION, PARTITION_BALANCES, PENETRATION_METHODS, SELF_CULLING_MODES, SOLVE_ORDERS, type SolverParams } from '../contract/params';

/** A mistake on the command line; the runner prints it and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Vec3 = [number, number, number];

export interface RunOptions {
  scene: string;
  frames: number;
  /** JSON report file; stdout when absent. */
  out?: string;
  /** CSV file of the frames (src/runner/reportCsv.ts); none when absent. */
  csv?: string;
  /** Folder for VTK frames; none when absent. */
  dump?: string;
  /** Read the state back (JSON state fields, VTK frames) every this many frames, and after the last. */
  every: number;
  /**
   * Frames recorded ahead of the one being read back (1: each frame waits for the previous one,
   * the default; 2: the next frame is submitted while the GPU runs this one). Frames whose state
   * is read back (--every) are waited for before the next is submitted.
   */
  framesInFlight: 1 | 2;
  /** 'gpu' (default): GpuSolver on WebGPU; 'cpu': the float64 CPU reference (every collision stage included), no GPU needed. */
  engine: 'gpu' | 'cpu';
  /** The scene's size (its resolution or copies; checked against the scene's range in sceneSetup.ts). */
  size?: number;
  /** Pick the scene's size whose tet count is nearest this (sceneSetup.ts, tetsSize.ts). */
  tets?: number;
  resolution?: number;
  mesh?: string;
  height?: number;
  ground?: boolean;
  /** Number of objects of the pile and stack scenes. */
  copies?: number;
  /** shoot, head-on: speed in m/s. */
  speed?: number;
  /** Self-collision off for the first F frames, on from frame F (replaces the scene's schedule of it). */
  selfCollisionFrom?: number;
  velocity?: Vec3;
  /** Material fields given on the command line (every object of the scene). */
  material: Partial<Material>;
  /** Solver parameters given on the command line. */
  params: Partial<SolverParams>;
}

export type ParsedCommand = { kind: 'help' } | { kind: 'list' } | { kind: 'run'; options: RunOptions };

interface Flag {
  name: string;
  /** Placeholder of the value; absent for switches (--help, --list). */
  value?: string;
  help: string;
  /** Heading in the usage text; 'scene' flags are checked against the scene's `accepts` list. */
  group: keyof typeof GROUP_TITLES;
}

const GROUP_TITLES = {
  run: 'Run',
  scene: 'Scene (each scene says which it takes; the others are refused)',
  material: 'Material (every object)',
  solver: "Solver (defaults: the scene's values, echoed in the report's params)",
  collisions: "Collisions between and within the bodies (defaults: the scene's; a flag fixes its parameter for the whole run, overriding the scene's schedule)",
  output: 'Output',
} as const;

export const FLAGS: readonly Flag[] = [
  { name: 'help', group: 'run', help: 'print this text and exit' },
  { name: 'list', group: 'run', help: 'print the scene names, one per line, and exit' },
  { name: 'scene', value: 'NAME', group: 'run', help: 'scene to run (--list shows them)' },
  { name: 'frames', value: 'N', group: 'run', help: 'frames to simulate (default 10)' },
  { name: 'engine', value: 'gpu|cpu', group: 'run', help: 'gpu (default): the WebGPU solver; cpu: the float64 CPU reference with every collision stage (CCD, hybrid, shortest path, contacts), no GPU needed; the report names it' },
  { name: 'frames-in-flight', value: '1|2', group: 'run', help: 'frames submitted before the oldest is read back (default 1; 2 overlaps recording with the GPU, except at frames whose state is read, see --every)' },
  { name: 'size', value: 'N', group: 'scene', help: 'the scene\'s size (its resolution or number of objects; ranges in README.md, a value outside is refused with the range); an explicit --resolution or --copies wins' },
  { name: 'tets', value: 'N', group: 'scene', help: "the scene's size whose tet count is nearest N (searched over the size range by building the scene; a count outside the range it reaches is refused with that range); not with --size, --resolution or --copies" },
  { name: 'mesh', value: 'FILE', group: 'scene', help: 'drop, mesh-pile: the mesh file (.t, .msh, .vtk, or a TetGen .node or .ele with its partner beside it); octopus-pile: replaces the shared octopus' },
  { name: 'copies', value: 'N', group: 'scene', help: 'octopus-pile, mesh-pile, cube-stack: number of objects (integer >= 1)' },
  { name: 'height', value: 'H', group: 'scene', help: 'drop, octopus-drop, noodle-recovery: start with the lowest point H above the ground (drop default: half the object\'s height)' },
  { name: 'ground', value: 'on|off', group: 'scene', help: 'drop, octopus-drop, squishy-squeeze: with or without the ground plane y = 0 (default on)' },
  { name: 'speed', value: 'V', group: 'scene', help: 'shoot, head-on: speed of the shot mesh / of each mesh in m/s (> 0; defaults 50 and 30)' },
  { name: 'resolution', value: 'R', group: 'scene', help: 'procedural scenes (octopus-pile: its generated octopi): lattice cubes across the longest side' },
  { name: 'velocity', value: 'x,y,z', group: 'scene', help: 'initial velocity of every vertex (scenes without pinned vertices)' },
  { name: 'young', value: 'E', group: 'material', help: "Young's modulus of every object (> 0)" },
  { name: 'poisson', value: 'NU', group: 'material', help: 'Poisson ratio of every object, in [0, 0.5)' },
  { name: 'density', value: 'RHO', group: 'material', help: 'density of every object (> 0)' },
  { name: 'dt', value: 'S', group: 'solver', help: 'frame time step in seconds (> 0)' },
  { name: 'substeps', value: 'N', group: 'solver', help: 'substeps per frame (integer >= 1)' },
  { name: 'iterations', value: 'N', group: 'solver', help: 'constraint iterations per substep (integer >= 1)' },
  { name: 'order', value: SOLVE_ORDERS.join('|'), group: 'solver', help: 'constraint solve order (partitioned: Gauss-Seidel, one dispatch per pass)' },
  { name: 'relaxation', value: 'W', group: 'solver', help: 'Jacobi relaxation of each constraint step (1 <= W <= 2, 1 = none; above 2 the passes amplify instead of converge, below 1 they leave the material unresolved and the energy rises)' },
  { name: 'partition-balance', value: PARTITION_BALANCES.join('|'), group: 'solver', help: "partitioned order: a tet interior in several passes goes to the pass where its busiest vertex holds the fewest tets (valence, default; fewer serial rounds on a GPU) or to the least loaded pass (count)" },
  { name: 'warm-start', value: 'on|off', group: 'solver', help: 'Gauss-Seidel orders: Neo-Hookean tets start each substep from half the last one\'s stress (default on)' },
  { name: 'vertex-mass-floor', value: 'R', group: 'solver', help: "each vertex's mass is raised to R x the mean lumped mass of the vertices it shares a tet with, taken from them, each of which keeps at least R of its own mass (each object keeps its mass; where the neighbours cannot give enough, the vertex is raised less): a vertex in a few small tets is light against their stiffness, and pressed or kicked the material iterations swing it through them (0 <= R < 1; default 0.1; 0 keeps the lumped masses). The run's log counts the vertices raised" },
  { name: 'sliver-quality', value: 'Q', group: 'solver', help: "tets whose rest quality (6 sqrt(2) V / longest edge^3) is below Q x their object's median keep a millionth of their stiffness: slivers, whose light corners otherwise swing through them at impacts (0 <= Q < 1; default 0.04; 0 keeps every tet's stiffness). The run's log lists them" },
  { name: 'line-search', value: 'on|off', group: 'solver', help: 'Gauss-Seidel orders: Neo-Hookean steps lengthened to their local energy\'s minimum, at most 2x (default on)' },
  { name: 'position-carry', value: 'on|off', group: 'solver', help: 'GPU, Gauss-Seidel orders: each tet correction\'s f32 rounding kept per vertex and added to its next, so the material keeps momentum (default on)' },
  { name: 'anderson-depth', value: 'D', group: 'solver', help: 'Neo-Hookean: Anderson acceleration of the iterations; with 4 or more, from the third of a substep each iterate mixes the latest sweeps, two differences before the sixth iteration and up to D from it; 0-4, default 0 (off); 2-4 run alike up to 6 iterations, 4 converged best from 8 (stiff cantilever, docs/benchmarks.md)' },
  { name: 'anderson-line-search-sweeps', value: 'N', group: 'solver', help: "with --anderson-depth > 0 and --line-search on: the first N sweeps of each accelerated run search each tet's step length, the later ones reuse the length its last search found (the searched length depends on the residual's direction, so near the solution searched sweeps are not smooth and the mixing stalls; stiff cantilever at 16 iterations: 9.9e-8 m from its converged run with 6, 1.5e-7 searching throughout); integer >= 0, default 6; 0: the bounded steps alone; at or above --iterations the search runs in every sweep" },
  { name: 'constraint', value: 'neohookean|springs', group: 'solver', help: 'material constraint' },
  { name: 'gravity', value: 'x,y,z', group: 'solver', help: 'gravity vector, e.g. 0,-9.81,0 (tilt it for a slope against the ground plane)' },
  { name: 'damping', value: 'D', group: 'solver', help: 'damping rate of deformation in 1/s (>= 0): velocity relative to the rigid motion x max(0, 1 - D h) per substep' },
  { name: 'friction', value: 'MU', group: 'solver', help: 'Coulomb friction coefficient of the colliders (>= 0)' },
  { name: 'collider-response', value: 'auto|projection|multiplier', group: 'solver', help: "how the colliders (ground, boxes, bowls) act after each material sweep. projection: a point inside is pushed out and the push is never taken back, so the converged answer at a contact depends on the sweeps' order and Anderson acceleration converges elsewhere there; multiplier: each vertex keeps its push over the substep (an inequality constraint's multiplier) and friction's correction clamped to mu x the push, and a later projection takes back what the point no longer needs: the two Gauss-Seidel orders then agree at a resting cube (2.8e-6 against 8.6e-5 of its 2-unit size) and Anderson acceleration converges to the plain answer; auto (default): multiplier with --anderson-depth > 0, projection otherwise" },
  { name: 'collisions', value: 'on|off', group: 'collisions', help: 'collisions between and within the soft bodies (detection, shortest path, contacts); colliders stay on' },
  { name: 'self-collision', value: 'on|off', group: 'collisions', help: 'self-collision of each object (inter-object contacts stay on)' },
  { name: 'self-collision-from', value: 'F', group: 'collisions', help: 'self-collision off for the first F frames, on from frame F (time F x dt; integer >= 0)' },
  { name: 'recovery', value: 'on|off', group: 'collisions', help: 'recovery mode: every vertex and tet centroid is a query point (paper section 5.2)' },
  { name: 'inter-object', value: 'exact|euclidean', group: 'collisions', help: 'boundary point for inter-object hits: shortest path, or the nearest boundary point (paper Fig. 15)' },
  { name: 'penetration', value: PENETRATION_METHODS.join('|'), group: 'collisions', help: "every DCD contact's target (self and inter-object; CCD unchanged): exact shortest path (default), the rest pose's closest boundary point mapped back (paper Figs. 22-23), or the deformed distance field (Fisher and Lin 2001)" },
  { name: 'collision-mode', value: 'hybrid|dcd|ccd|air', group: 'collisions', help: 'hybrid (default; supplement Alg. 5): DCD + shortest path for points already inside at the substep start, CCD for the others; dcd: DCD + shortest path only; ccd: CCD only; air: the air mesh between the objects (paper 004; every scene: see --air-mesher). Recovery mode runs dcd' },
  { name: 'air-iterations', value: 'N', group: 'collisions', help: "air mode: passes over the air constraints each time they run: after every material iteration by default (--collide-every auto, as paper 004 runs them last within each iteration), once a substep with --collide-every substep (integer >= 1; default 4)" },
  { name: 'air-optimize-every', value: 'F', group: 'collisions', help: 'air mode: air mesh optimisation (edge and multi-face removal) every F frames in a worker (integer >= 0; 0: off; default 4)' },
  { name: 'air-mesher', value: 'auto|lattice|general', group: 'collisions', help: 'air mode: the air mesh generator; lattice: the container lattice of air-boxes; general: Delaunay tetrahedralization with boundary recovery, any objects; auto (default): lattice where the scene has one' },
  { name: 'air-solve', value: AIR_SOLVES.join('|'), group: 'collisions', help: 'air mode: order of the air constraint passes; partitioned (default): Gauss-Seidel swept by workgroups between barriers (1 dispatch a pass up to 4,096 air tets, the coloured order; above, 4-5: the material solve cells); coloured: Gauss-Seidel, one dispatch per colour (40-60 a pass); jacobi: mass-split sums (CPU reference only; converges far slower: docs/benchmarks.md)' },
  { name: 'bvh-rebuild-every', value: 'F', group: 'collisions', help: 'rebuild the surface BVH in a worker every F frames (integer >= 0; 0: never, refit only; default 30)' },
  { name: 'self-culling', value: 'off|plain|enhanced', group: 'collisions', help: "culling of CCD's same-object candidate pairs (paper 002): enhanced (default) dual-cone test, no contact lost; plain: Heo et al.'s without internal edges (misses contacts); off: every pair of the box test" },
  { name: 'self-pair-skin', value: 'F', group: 'collisions', help: "CCD's same-object pairs kept across broad-phase jobs, found on boxes grown by F x the object's own margin and reused while its boxes stay inside them (>= 0; 0: joined afresh every job; default 0.5); never changes a candidate, only the worker job's time" },
  { name: 'collide-every', value: 'auto|substep|iteration|contacts', group: 'collisions', help: "when the collision stages run in a substep: once after the material iterations (substep), or after every material iteration (iteration; the authors' schedule, paper section 5), or detection, shortest path and CCD once after the first iteration and the contact passes after every iteration (contacts; stiff bodies stacked at a long substep keep their energy, at the contact passes' cost only; fast bodies are held where once a substep lets them in; the octopus-box scene's default); auto (the other scenes' default): iteration in recovery mode and air mode, contacts where two or more objects can meet (bodies resting on each other with contacts once a substep gain energy; iteration with --collision-mode dcd, whose contacts start only once a point is inside), substep for one object. The report's counters.collisionRounds gives the rounds a substep, counters.detectionRounds those that detect" },
  { name: 'escaped-to-dcd', value: 'on|off', group: 'collisions', help: 'hybrid: a free point that left the box its CCD candidates were found with gets the DCD test at the substep\'s end, so a crossing CCD could miss is resolved in that substep; its contact is kept only when it pushes the point back against its motion (default on); off: escapes are only counted (counters.ccd.escaped, escapedTested, escapedInside; escapedRejected: contacts dropped by that rule). The CPU engine\'s CCD has exact per-substep boxes, nothing escapes' },
  { name: 'ccd-every-round', value: 'on|off', group: 'collisions', help: "collide-every contacts with CCD (hybrid, ccd): the later rounds, which only solve the contacts again, first run CCD's narrow phase again on the motion from the substep's start, adding the pairs that newly come within the offset, so a free point that the later material iterations carry into another body gets its contact in that substep; the later rounds test only the pairs the detecting round listed within their reach (the octopus-box scene's default: its 3- and 4-octopus boxes then ended no frame with a vertex inside another octopus, at 1.6x the float64 engine's frame time; docs/collisions.md \"CCD in every round, with the facing rule\"; also the default of a scene that raises its iterations for the material it chose, e.g. head-on and shoot with a fine mesh, whose later iterations carry points farther); off (the other scenes' default): CCD in the detecting round only. counters.ccd.laterRoundHits gives the contacts it added, laterRoundListed the pairs listed" },
  { name: 'pin-release', value: 'on|off', group: 'collisions', help: "hybrid: a boundary vertex Pin at the substep's start that detection after the material iterations finds in no tet (the first iteration carried it out) goes to CCD, which holds it outside the faces it left through (exit contacts); off (default): no contact for it in that substep (supplement Alg. 5 as written). counters.pinReleased and counters.ccd.exitContacts say what it did (docs/collisions.md \"A Pin point outside at detection\")" },
  { name: 'ccd-skip-inverted', value: 'on|off', group: 'collisions', help: "CCD leaves out the same-object pairs with a vertex on a boundary triangle whose tet is inverted at the substep's start (paper section 3.5's skip of self queries there, carried over to CCD), so the material can turn the tet back: turning it back moves the two boundary triangles of its fold back through each other, which CCD otherwise stops (a flat tet of the teapot container stayed inverted for good; back within a frame with this on; docs/collisions.md \"An inverted tet held by CCD\"); on by default (the teapot and beam piles' folds go in 3 and 10 frames instead of 38 and 33); off: every pair tested (supplement Alg. 5 as written). counters.ccd.skippedInverted gives the pairs left out" },
  { name: 'pin-by-kind', value: 'on|off', group: 'collisions', help: "hybrid: a point inside a tet at the substep's start (Pin) skips in CCD only the pairs of that tet's kind (its own body, or another), so a vertex pressed into a dent of its own body still meets other bodies through CCD; off (default): every pair of a Pin point is skipped (supplement Alg. 5 as written; in the octopus boxes by kind left more vertices inside other octopi, docs/collisions.md \"Pin by kind\"). counters.ccd.skippedPin gives the pairs a Pin mark took from CCD" },
  { name: 'ccd-edge-interior', value: 'on|off', group: 'collisions', help: "edge-edge CCD searches the edges' interiors (each cut 1 % short of its ends), so a pair first near at a vertex still gets its contact when the edges turn about it and meet mid-edge later in the substep; off (default): whole edges, a pair first near at an end left to that vertex's pairs (head-on octopi at 3-5 m/s: 8x fewer edges through each other with it; at 6 m/s and in the octopus boxes more, docs/collisions.md \"Edges searched inside their ends\"). counters.ccd.edgeEdgeAtEnd gives the pairs at an end: dropped (off) or contacts at an end of the interior (on)" },
  { name: 'ccd-obstacle-growth', value: 'on|off', group: 'collisions', help: 'CCD\'s same-object boxes of a body that may meet a collider or another body within the job\'s horizon grow along their relative speed (a landing body\'s lower part stops while the rest falls on; default on); off: only escapes widen them. The report\'s counters.ccd.selfGrowth gives the largest growth a frame' },
  { name: 'ccd-job-latency', value: 'auto|1|0', group: 'collisions', help: "frames between CCD's broad-phase snapshot and the frame it serves: 1 runs the job beside a frame, its boxes holding two frames' motion; 0 makes the next frame wait for it, its boxes holding one frame's (2-5x fewer pairs in a fast pile); auto (default) takes 0 while the jobs, not the GPU, set the frames' length, and with --frames-in-flight 2 then keeps one frame in flight. counters.ccd.horizon says which" },
  { name: 'ccd-world-boxes', value: 'mean-path|ball', group: 'collisions', help: "the box CCD's broad phase predicts for each boundary vertex over its job's horizon, which the pairs between objects are found with and the GPU checks the vertex against (an escape goes to DCD): ball, the ball of any motion that does not speed the vertex up (|v| H on every side); mean-path (default), that ball clipped to the vertex's body's mean path plus its own deviation and the obstacle growth (a pile falling or landing: 1.7-2.2x fewer pairs between bodies, about as many escapes). counters.ccd.escaped and the candidates say what it did" },
  { name: 'ccd-self-pair-frame', value: 'adaptive|own', group: 'collisions', help: "the frame CCD's broad phase joins each object's own pairs in: adaptive (default) per object the frame with the smaller boxes, its own (a falling body) or the world (a landed body) (both find every pair that can meet); own: always its own frame. counters.ccd.selfWorldFrame says what adaptive did" },
  { name: 'far-side-contacts', value: 'auto|drop|keep', group: 'collisions', help: "shortest-path contacts of a point that has crossed more than half of the part it is in: its exact path leads out through that part's far side, pushing the same way as the contacts of the other part's points around it, and the two settle in a tug of war. drop: a DCD contact is dropped when one of its point vertices is a triangle corner of a shallower DCD contact whose normal points the same way and whose point belongs to the part the dropped contact's point is in (the shallowest corner contact is compared); keep: every contact stays (the paper's rule); auto (default): drop in recovery mode, keep otherwise. On the tangled noodle (float64, collide-every iteration) it left 11 self-penetrating vertices at substep 10 instead of 35. counters.farSideDropped gives the contacts dropped" },
  { name: 'inversion-floor', value: 'F', group: 'collisions', help: "recovery mode: after each collision round's contacts, every tet whose volume fell below F x its rest volume is lifted back to it (a hard volume constraint, 2 Jacobi passes, no velocity added): recovery's pushes turn thin parts' tets inside out, and paper section 3.5 skips the self queries around an inverted boundary tet. Outside recovery the floor holds the sliver tets once a substep (--sliver-floor). 0 <= F < 1; default 0.1; 0: off. On the squishy ball released tangled (float64) it left 470 self-penetrating vertices after 15 substeps instead of 1,215. counters.inversionFloorTets gives the tets lifted" },
  { name: 'sliver-floor', value: 'on|off', group: 'collisions', help: "outside recovery mode, once a substep after its last collision round, the sliver tets (--sliver-quality) whose volume fell below the inversion floor x their rest volume are lifted back to it (no velocity added): a sliver keeps a millionth of its stiffness, so an impact that turns it inside out leaves it so, its faces crossing the surface at its flipped corner. Default on; off: slivers turn back only as their neighbours pull them. counters.inversionFloorTets gives the tets lifted" },
  { name: 'sliver-floor-quality', value: 'Q', group: 'collisions', help: "with --sliver-floor on, the floor also holds the tets whose rest quality is below Q x their object's median though above --sliver-quality (they keep their stiffness): it holds every tet below the larger of the two. Low-quality tets that an impact turns inside out are otherwise left to the material, which does not always turn them back within the frame. 0 <= Q < 1; default 0 (the softened slivers only)" },
  { name: 'sliver-lift', value: 'after-contacts|clipped-to-contacts|holding-contacts|with-contacts', group: 'collisions', help: "where the sliver floor (--sliver-floor) lifts in the substep's last collision round. after-contacts: once, after the round's contacts, the positions and the start positions together: the floor has the last word, but CCD never sees the lift, so a lifted corner or a swung edge can pass through another body. clipped-to-contacts (default): the same, but no corner moves back against the way the last round's active contacts between two bodies push it (the sum of their signed normals), so a lifted corner is not carried back into the body it was pushed out of; contacts within one body leave the lift as it is; on the GPU one small dispatch a substep where two or more objects have slivers. holding-contacts: the same, with every vertex a contact pushed this substep (its point's or triangle's vertex nearest the contact) held still, so only a sliver's free corners move and none is carried back through the body its contact pushed it out of (a sliver whose four corners were all pushed then lifts with them free); no extra dispatch on the GPU. with-contacts: the positions alone, before the round's collision stages (CCD tests the lift as motion) and again before each contact pass after the first, the start positions taking the moves after the contacts (no velocity either way). Two octopi head-on (float64, bench/octopusHeadOn.ts) went through each other several times less with it. GPU: one dispatch more a substep and one more a contact pass after the first, and the one-workgroup sweep of that round's contacts (--contact-dispatch) one pass a dispatch" },
  { name: 'sliver-floor-in-sweeps', value: 'on|off', group: 'collisions', help: "with --sliver-floor on, outside recovery mode: the sliver lift also runs after every material sweep, on the positions alone (one more hard constraint of the material solve, its moves becoming velocity as the material's do), so the stiff tets around a sliver cannot pull it back inside out between the lifts and the lift after the contacts (--sliver-lift) finds little left to move. Without it that lift re-lifts the same slivers in about 95% of substeps, moving corners up to 14-21 mm a substep that CCD never tests (4 octopi in a box, bench/substepPenetration.ts --lift-moves). Default off; GPU: one dispatch of one workgroup more per material iteration where the scene has slivers" },
  { name: 'contact-dispatch', value: 'auto|workgroup|grid', group: 'collisions', help: "how the GPU runs the contact passes: grid (count, solve and apply dispatches a pass) or workgroup (one workgroup sweeps them with barriers: one dispatch for all passes, or one a pass and contact group; the same Jacobi passes); auto (default): workgroup up to 512 contacts a substep in the last frame (where the two cost the same on an H100). The report's counters.dispatchesByPhase.contacts gives what it cost; the CPU engine has one path" },
  { name: 'contact-iterations', value: 'N', group: 'collisions', help: 'Jacobi passes over the contacts per substep (integer >= 1)' },
  { name: 'contact-offset', value: 'D|auto', group: 'collisions', help: 'contact thickness in world units (>= 0): every contact (DCD, CCD, self, between objects, colliders) keeps (x - s) . n >= D, and CCD makes contacts of pairs that come within D; auto (default): 3% of the mean boundary edge between objects, 1% for self-contacts and the colliders, each at most 0.29 of the smallest element edge (CCD measures in the inf-norm, which reaches sqrt(3) D); self-contacts (a point and a triangle of one object) keep at most 0.29 of the smallest element edge, since features of one surface a few elements apart lie within a thicker layer (the run notes it when this binds); where surfaces start nearer than D, --contact-offset-speed opens the layer' },
  { name: 'contact-offset-speed', value: 'V|off', group: 'collisions', help: 'speed (world units per second, > 0) at which contacts open the offset layer where surfaces start nearer than --contact-offset (or inside): each substep lifts them past their start gap by at most V x h, so a large offset does not crush the surface and launch the body (penetration itself goes at --depenetration-speed); default 0.1; off: the layer opens at once' },
  { name: 'depenetration-speed', value: 'V|off', group: 'collisions', help: 'speed (world units per second, > 0) at which contacts remove a penetration that already existed at the start of a substep: at most V x h a substep, without velocity (split impulse), so a point pushed far out of a fold does not crush the tets behind it and launch the body (as the maximum corrective velocity of Rapier and PhysX); the static colliders (ground, boxes, bowls; not a scripted plane, which pushes with its own motion) hold the same speed for a depth a vertex started with; default 1; off: at once; recovery mode always removes it at once' },
  { name: 'impact-substeps', value: 'N|auto', group: 'collisions', help: 'impact-adaptive substeps: a frame whose CCD candidates, or vertices landing on a collider, close faster than a tenth of the mean boundary edge a substep takes up to N substeps (default auto: twice --substeps, at least 24; 0 or N <= --substeps: off); the report gives each frame\'s substeps and closing speed' },
  { name: 'out', value: 'FILE', group: 'output', help: 'write the JSON report there (default: stdout)' },
  { name: 'csv', value: 'FILE', group: 'output', help: 'also write the frames as CSV there (one row per frame, the JSON frame fields as columns)' },
  { name: 'dump', value: 'DIR', group: 'output', help: 'write legacy VTK frames DIR/frame_NNNNNN.vtk (created if missing)' },
  { name: 'every', value: 'K', group: 'output', help: 'read the state back every K frames and after the last (default 1)' },
];

const BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));

export function usageText(sceneNames: readonly string[]): string {
  const width = Math.max(...FLAGS.map((f) => f.name.length + (f.value ? f.value.length + 1 : 0))) + 4;
  const lines = [
    'usage: npm run sim -- --scene NAME [options]',
    '       node scripts/run-ts.mjs scripts/sim.ts --scene NAME [options]',
    '',
    `Runs a scene headless on WebGPU (Dawn), or on the float64 CPU reference (--engine cpu), and`,
    `writes a JSON report naming the engine: per frame, timings and`,
    `(every K frames) energy (kinetic, elastic, gravitational, total), lowest point, centre of`,
    `mass, volume, inverted tets and angular momentum about the centre of mass; with collisions, per frame the`,
    `collision counters (DCD hits by kind, shortest-path queries, contacts, overflows, readbacks).`,
    '',
    `scenes: ${sceneNames.join(', ')}`,
    '',
  ];
  for (const group of Object.keys(GROUP_TITLES) as (keyof typeof GROUP_TITLES)[]) {
    lines.push(`${GROUP_TITLES[group]}:`);
    for (const f of FLAGS) {
      if (f.group !== group) continue;
      const left = `--${f.name}${f.value ? ` ${f.value}` : ''}`;
      lines.push(`  ${left.padEnd(width)}${f.help}`);
    }
  }
  lines.push('', 'Exit status: 0 done, 2 bad option or input file (an air mesh that cannot be built for the scene included), 3 no GPU adapter, GPU device lost, or the device rejected the solver\'s work (--engine gpu).');
  return lines.join('\n');
}

function number(flag: string, text: string): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x)) throw new UsageError(`--${flag} must be a number, got "${text}"`);
  return x;
}

function positiveInteger(flag: string, text: string): number {
  const x = number(flag, text);
  if (!(Number.isInteger(x) && x >= 1)) throw new UsageError(`--${flag} must be an integer >= 1, got "${text}"`);
  return x;
}

function nonNegativeInteger(flag: string, text: string): number {
  const x = number(flag, text);
  if (!(Number.isInteger(x) && x >= 0)) throw new UsageError(`--${flag} must be an integer >= 0, got "${text}"`);
  return x;
}

function onOff(flag: string, text: string): boolean {
  return choice(flag, text, ['on', 'off'] as const) === 'on';
}

function inRange(flag: string, text: string, ok: (x: number) => boolean, range: string): number {
  const x = number(flag, text);
  if (!ok(x)) throw new UsageError(`--${flag} must be ${range}, got ${text}`);
  return x;
}

/**
 * A speed flag (--contact-offset-speed, --depenetration-speed): a number > 0 in world units per
 * second, or 'off' (Infinity: no limit). Benches that take the same flag parse it here too.
 */
export function speedOrOff(flag: string, text: string): number {
  return text === 'off' ? Infinity : inRange(flag, text, (x) => x > 0, "a number > 0 (world units per second) or 'off'");
}

/** 'auto', or a number that passes `ok`; any other text is refused naming both forms. */
function autoOr(flag: string, text: string, ok: (x: number) => boolean, range: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || !ok(x)) throw new UsageError(`--${flag} must be ${range}, got "${text}"`);
  return x;
}

function vector(flag: string, text: string): Vec3 {
  const parts = text.split(',');
  if (parts.length !== 3) throw new UsageError(`--${flag} needs three comma-separated numbers x,y,z, got "${text}"`);
  return parts.map((p) => number(flag, p)) as Vec3;
}

function choice<T extends string>(flag: string, text: string, options: readonly T[]): T {
  if (!(options as readonly string[]).includes(text)) throw new UsageError(`--${flag} must be ${options.join(' or ')}, got "${text}"`);
  return text as T;
}

/** Splits argv into flag values: --name value, --name=value, or a bare switch. */
function readFlags(argv: readonly string[]): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}" (options start with --; see --help)`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const flag = BY_NAME.get(name);
    if (!flag) throw new UsageError(`unknown option --${name} (see --help)`);
    if (out.has(name)) throw new UsageError(`--${name} is given twice`);
    if (!flag.value) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      // A value may be negative ("-9.81") but not another option.
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value (${flag.value})`);
      i++;
    }
    out.set(name, value);
  }
  return out;
}

export function parseRunArgs(argv: readonly string[]): ParsedCommand {
  const flags = readFlags(argv);
  if (flags.has('help')) return { kind: 'help' };
  if (flags.has('list')) return { kind: 'list' };
  const get = (name: string): string | undefined => flags.get(name) as string | undefined;
  const scene = get('scene');
  if (scene === undefined) throw new UsageError('--scene is required (--list shows the scenes, --help the options)');
  const o: RunOptions = { scene, frames: 10, every: 1, framesInFlight: 1, engine: 'gpu', material: {}, params: {} };
  const v = (name: string, parse: (text: string) => void): void => {
    const text = get(name);
    if (text !== undefined) parse(text);
  };
  v('frames', (t) => (o.frames = positiveInteger('frames', t)));
  v('every', (t) => (o.every = positiveInteger('every', t)));
  v('frames-in-flight', (t) => (o.framesInFlight = choice('frames-in-flight', t, ['1', '2'] as const) === '2' ? 2 : 1));
  v('engine', (t) => (o.engine = choice('engine', t, ['gpu', 'cpu'] as const)));
  v('out', (t) => (o.out = t));
  v('csv', (t) => (o.csv = t));
  v('dump', (t) => (o.dump = t));
  v('mesh', (t) => (o.mesh = t));
  v('size', (t) => (o.size = positiveInteger('size', t)));
  v('tets', (t) => (o.tets = positiveInteger('tets', t)));
  v('resolution', (t) => (o.resolution = positiveInteger('resolution', t)));
  v('height', (t) => (o.height = inRange('height', t, (x) => x >= 0, 'a number >= 0')));
  v('ground', (t) => (o.ground = onOff('ground', t)));
  v('copies', (t) => (o.copies = positiveInteger('copies', t)));
  v('speed', (t) => (o.speed = inRange('speed', t, (x) => x > 0, 'a number > 0')));
  v('velocity', (t) => (o.velocity = vector('velocity', t)));
  v('young', (t) => (o.material.youngsModulus = inRange('young', t, (x) => x > 0, 'a number > 0')));
  v('poisson', (t) => (o.material.poissonRatio = inRange('poisson', t, (x) => x >= 0 && x < 0.5, 'in [0, 0.5)')));
  v('density', (t) => (o.material.density = inRange('density', t, (x) => x > 0, 'a number > 0')));
  v('dt', (t) => (o.params.dt = inRange('dt', t, (x) => x > 0, 'a number > 0')));
  v('substeps', (t) => (o.params.substeps = positiveInteger('substeps', t)));
  v('iterations', (t) => (o.params.iterations = positiveInteger('iterations', t)));
  v('order', (t) => (o.params.solveOrder = choice('order', t, SOLVE_ORDERS)));
  v('relaxation', (t) => (o.params.jacobiRelaxation = inRange('relaxation', t, (x) => x >= MIN_JACOBI_RELAXATION && x <= MAX_JACOBI_RELAXATION, `a number in [${MIN_JACOBI_RELAXATION}, ${MAX_JACOBI_RELAXATION}]`)));
  v('partition-balance', (t) => (o.params.partitionBalance = choice('partition-balance', t, PARTITION_BALANCES)));
  v('warm-start', (t) => (o.params.warmStart = onOff('warm-start', t)));
  v('line-search', (t) => (o.params.lineSearch = onOff('line-search', t)));
  v('position-carry', (t) => (o.params.positionCarry = onOff('position-carry', t)));
  v('anderson-depth', (t) => (o.params.andersonDepth = inRange('anderson-depth', t, (x) => Number.isInteger(x) && x >= 0 && x <= MAX_ANDERSON_DEPTH, `an integer in [0, ${MAX_ANDERSON_DEPTH}] (0: off)`)));
  v('anderson-line-search-sweeps', (t) => (o.params.andersonLineSearchSweeps = inRange('anderson-line-search-sweeps', t, (x) => Number.isInteger(x) && x >= 0, 'an integer >= 0')));
  v('vertex-mass-floor', (t) => (o.params.vertexMassFloor = inRange('vertex-mass-floor', t, (x) => x >= 0 && x < 1, 'a number in [0, 1)')));
  v('sliver-quality', (t) => (o.params.sliverQuality = inRange('sliver-quality', t, (x) => x >= 0 && x < 1, 'a number in [0, 1)')));
  v('constraint', (t) => (o.params.constraint = choice('constraint', t, ['neohookean', 'springs'] as const)));
  v('gravity', (t) => (o.params.gravity = vector('gravity', t)));
  v('damping', (t) => (o.params.damping = inRange('damping', t, (x) => x >= 0, 'a number >= 0')));
  v('friction', (t) => (o.params.friction = inRange('friction', t, (x) => x >= 0, 'a number >= 0')));
  v('collider-response', (t) => (o.params.colliderResponse = choice('collider-response', t, COLLIDER_RESPONSES)));
  v('collisions', (t) => (o.params.collisions = onOff('collisions', t)));
  v('self-collision', (t) => (o.params.selfCollision = onOff('self-collision', t)));
  v('self-collision-from', (t) => (o.selfCollisionFrom = nonNegativeInteger('self-collision-from', t)));
  v('recovery', (t) => (o.params.recovery = onOff('recovery', t)));
  v('inter-object', (t) => (o.params.interObject = choice('inter-object', t, ['exact', 'euclidean'] as const)));
  v('penetration', (t) => (o.params.penetration = choice('penetration', t, PENETRATION_METHODS)));
  v('contact-iterations', (t) => (o.params.contactIterations = positiveInteger('contact-iterations', t)));
  v('collision-mode', (t) => (o.params.collisionMode = choice('collision-mode', t, COLLISION_MODES)));
  v('collide-every', (t) => (o.params.collideEvery = choice('collide-every', t, COLLIDE_EVERY)));
  v('contact-dispatch', (t) => (o.params.contactDispatch = choice('contact-dispatch', t, CONTACT_DISPATCHES)));
  v('far-side-contacts', (t) => (o.params.farSideContacts = choice('far-side-contacts', t, FAR_SIDE_CONTACTS)));
  v('inversion-floor', (t) => (o.params.inversionFloor = inRange('inversion-floor', t, (x) => x >= 0 && x < 1, 'a number in [0, 1)')));
  v('sliver-floor', (t) => (o.params.sliverFloor = onOff('sliver-floor', t)));
  v('sliver-lift', (t) => (o.params.sliverLift = choice('sliver-lift', t, SLIVER_LIFTS)));
  v('sliver-floor-in-sweeps', (t) => (o.params.sliverFloorInSweeps = onOff('sliver-floor-in-sweeps', t)));
  v('sliver-floor-quality', (t) => (o.params.sliverFloorQuality = inRange('sliver-floor-quality', t, (x) => x >= 0 && x < 1, 'a number in [0, 1)')));
  v('escaped-to-dcd', (t) => (o.params.escapedToDcd = onOff('escaped-to-dcd', t)));
  v('ccd-every-round', (t) => (o.params.ccdEveryRound = onOff('ccd-every-round', t)));
  v('pin-release', (t) => (o.params.pinRelease = onOff('pin-release', t)));
  v('ccd-skip-inverted', (t) => (o.params.ccdSkipInverted = onOff('ccd-skip-inverted', t)));
  v('pin-by-kind', (t) => (o.params.pinByKind = onOff('pin-by-kind', t)));
  v('ccd-edge-interior', (t) => (o.params.ccdEdgeInterior = onOff('ccd-edge-interior', t)));
  v('ccd-obstacle-growth', (t) => (o.params.ccdObstacleGrowth = onOff('ccd-obstacle-growth', t)));
  v('ccd-world-boxes', (t) => (o.params.ccdWorldBoxes = choice('ccd-world-boxes', t, CCD_WORLD_BOXES)));
  v('ccd-self-pair-frame', (t) => (o.params.ccdSelfPairFrame = choice('ccd-self-pair-frame', t, CCD_SELF_PAIR_FRAMES)));
  v('ccd-job-latency', (t) => (o.params.ccdJobLatency = choice('ccd-job-latency', t, CCD_JOB_LATENCIES)));
  v('air-iterations', (t) => (o.params.airIterations = positiveInteger('air-iterations', t)));
  v('air-optimize-every', (t) => (o.params.airOptimizeFrames = nonNegativeInteger('air-optimize-every', t)));
  v('air-mesher', (t) => (o.params.airMesher = choice('air-mesher', t, AIR_MESHERS)));
  v('air-solve', (t) => (o.params.airSolve = choice('air-solve', t, AIR_SOLVES)));
  v('bvh-rebuild-every', (t) => (o.params.bvhRebuildFrames = nonNegativeInteger('bvh-rebuild-every', t)));
  v('self-pair-skin', (t) => (o.params.selfPairSkin = inRange('self-pair-skin', t, (x) => x >= 0, 'a number >= 0')));
  v('self-culling', (t) => (o.params.selfCulling = choice('self-culling', t, SELF_CULLING_MODES)));
  v('contact-offset', (t) => (o.params.contactOffset = autoOr('contact-offset', t, (x) => x >= 0, "a number >= 0 (world units) or 'auto'")));
  v('contact-offset-speed', (t) => (o.params.contactOffsetSpeed = speedOrOff('contact-offset-speed', t)));
  v('depenetration-speed', (t) => (o.params.depenetrationSpeed = speedOrOff('depenetration-speed', t)));
  v('impact-substeps', (t) => (o.params.impactSubsteps = autoOr('impact-substeps', t, (x) => Number.isInteger(x) && x >= 0, "an integer >= 0 or 'auto'")));
  if (o.engine === 'cpu' && o.framesInFlight === 2) throw new UsageError('--frames-in-flight 2 needs the GPU engine: the CPU engine steps one frame at a time');
  if (o.selfCollisionFrom !== undefined && o.params.selfCollision !== undefined) {
    throw new UsageError('--self-collision and --self-collision-from both set self-collision: give one');
  }
  if (o.tets !== undefined) {
    const other = (['size', 'resolution', 'copies'] as const).find((f) => o[f] !== undefined);
    if (other) throw new UsageError(`--tets and --${other} both set the scene's size: give one`);
  }
  if (o.mesh !== undefined && o.mesh.trim() === '') throw new UsageError('--mesh needs a file name');
  return { kind: 'run', options: o };
}

/** Scene-specific flags given on the command line (checked against the scene's `accepts`). */
export function sceneFlagsGiven(o: RunOptions): SceneSpecificOption[] {
  const given: SceneSpecificOption[] = [];
  if (o.resolution !== undefined) given.push('resolution');
  if (o.mesh !== undefined) given.push('mesh');
  if (o.height !== undefined) given.push('height');
  if (o.ground !== undefined) given.push('ground');
  if (o.copies !== undefined) given.push('copies');
  if (o.speed !== undefined) given.push('speed');
  return given;
}
