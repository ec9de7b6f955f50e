/**
 * Flags the user gave that change nothing in this run, and why: a setting of a stage or an
 * order that the run does not use (`--relaxation` with a Gauss-Seidel order, `--air-iterations`
 * outside air mode, `--anderson-depth` where no run of iterations is long enough to mix, a
 * GPU-only setting on the CPU engine). The runner accepts them, as the page keeps a control's
 * value while its stage is off, and says so in a note, so that a comparison the user meant to make
 * is not silently the same run twice. A flag counts as idle only when it is idle in every
 * parameter set of the run (a scene's schedule may turn its stage on later).
 */
import { effectiveCollideEvery, effectiveCollisionMode, effectiveCollisionRounds, type SolverParams } from '../contract/params';
import { MIN_MIXING_SWEEPS } from '../sim/andersonAcceleration';

export type RunEngine = 'gpu' | 'cpu';

interface IdleRule {
  flag: string;
  key: keyof SolverParams;
  /** Why the setting does nothing under p, or null where it acts. */
  idle(p: SolverParams, engine: RunEngine): string | null;
}

const collisionsOff = (p: SolverParams): string | null => (p.collisions ? null : 'collisions are off');

/** DCD and its contacts (the shortest path, the penetration method) run in hybrid and dcd mode. */
const noDcd = (p: SolverParams): string | null => {
  const mode = effectiveCollisionMode(p);
  return collisionsOff(p) ?? (mode === 'ccd' || mode === 'air' ? `collision mode ${mode} runs no DCD` : null);
};

/** CCD runs in hybrid and ccd mode, outside recovery mode (which runs DCD for every point). */
const noCcd = (p: SolverParams): string | null => {
  const off = collisionsOff(p);
  if (off) return off;
  const mode = effectiveCollisionMode(p);
  if (mode !== 'dcd' && mode !== 'air') return null;
  return p.recovery && p.collisionMode !== 'air' ? 'recovery mode runs DCD for every point, no CCD' : `collision mode ${mode} runs no CCD`;
};

const noSelfCcd = (p: SolverParams): string | null => noCcd(p) ?? (p.selfCollision ? null : 'self-collision is off');

const notAir = (p: SolverParams): string | null => collisionsOff(p) ?? (p.collisionMode === 'air' ? null : `the collision mode is ${p.collisionMode}, not air`);

const gaussSeidelNeoHookean = (what: string) => (p: SolverParams): string | null =>
  p.constraint !== 'neohookean' ? `${what} Neo-Hookean tets and the constraint is ${p.constraint}` : p.solveOrder === 'jacobi' ? `${what} Neo-Hookean tets in the Gauss-Seidel orders and the order is jacobi` : null;

/** The longest run of material iterations between two collision rounds (the acceleration restarts at each). */
function longestRun(p: SolverParams): number {
  const rounds = effectiveCollisionRounds(p);
  return Math.ceil(p.iterations / rounds);
}

const GPU_BROAD_PHASE = "the CPU engine finds CCD's candidates from each substep's own motion, with no worker job";

export const IDLE_RULES: readonly IdleRule[] = [
  { flag: 'relaxation', key: 'jacobiRelaxation', idle: (p) => (p.solveOrder === 'jacobi' ? null : `it scales Jacobi steps and the solve order is ${p.solveOrder}`) },
  { flag: 'partition-balance', key: 'partitionBalance', idle: (p) => (p.solveOrder === 'partitioned' ? null : `it places tets in the partitioned order's passes and the solve order is ${p.solveOrder}`) },
  { flag: 'warm-start', key: 'warmStart', idle: gaussSeidelNeoHookean('it starts') },
  { flag: 'line-search', key: 'lineSearch', idle: gaussSeidelNeoHookean('it lengthens the steps of') },
  {
    flag: 'anderson-depth', key: 'andersonDepth',
    idle: (p) => {
      // With --collider-response auto it also switches the colliders to 'multiplier' (effectiveColliderResponse): not idle then.
      if (p.andersonDepth === 0 || p.colliderResponse === 'auto') return null;
      if (p.constraint !== 'neohookean') return `it accelerates Neo-Hookean tets and the constraint is ${p.constraint}`;
      const run = longestRun(p);
      return run < MIN_MIXING_SWEEPS ? `it mixes runs of at least ${MIN_MIXING_SWEEPS} iterations between collision rounds, and this run's are ${run}` : null;
    },
  },
  { flag: 'contact-dispatch', key: 'contactDispatch', idle: (p, engine) => (engine === 'cpu' ? 'the CPU engine has one contact path' : collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode makes no contacts' : null)) },
  { flag: 'self-collision', key: 'selfCollision', idle: collisionsOff },
  { flag: 'recovery', key: 'recovery', idle: (p) => collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode has no recovery mode' : null) },
  { flag: 'collision-mode', key: 'collisionMode', idle: (p) => collisionsOff(p) ?? (p.recovery && p.collisionMode !== 'air' && p.collisionMode !== 'dcd' ? 'recovery mode runs DCD for every point' : null) },
  { flag: 'collide-every', key: 'collideEvery', idle: (p) => collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode runs its constraints once a substep' : null) },
  { flag: 'contact-iterations', key: 'contactIterations', idle: (p) => collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode makes no contacts' : null) },
  { flag: 'inter-object', key: 'interObject', idle: noDcd },
  { flag: 'penetration', key: 'penetration', idle: noDcd },
  { flag: 'far-side-contacts', key: 'farSideContacts', idle: noDcd },
  { flag: 'inversion-floor', key: 'inversionFloor', idle: (p) => noDcd(p) ?? (p.recovery ? null : 'it acts in recovery mode, which is off') },
  { flag: 'escaped-to-dcd', key: 'escapedToDcd', idle: (p, engine) => (engine === 'cpu' ? "nothing escapes the CPU engine's CCD (exact boxes every substep)" : noCcd(p) ?? (effectiveCollisionMode(p) === 'hybrid' ? null : 'it acts in hybrid mode')) },
  { flag: 'ccd-every-round', key: 'ccdEveryRound', idle: (p) => noCcd(p) ?? (effectiveCollideEvery(p) === 'contacts' ? null : `it acts with collide-every contacts and this run's is ${effectiveCollideEvery(p)}`) },
  { flag: 'ccd-obstacle-growth', key: 'ccdObstacleGrowth', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noSelfCcd(p)) },
  { flag: 'ccd-job-latency', key: 'ccdJobLatency', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noCcd(p)) },
  { flag: 'self-culling', key: 'selfCulling', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noSelfCcd(p)) },
  { flag: 'self-pair-skin', key: 'selfPairSkin', idle: noSelfCcd },
  { flag: 'ccd-self-pair-frame', key: 'ccdSelfPairFrame', idle: noSelfCcd },
  { flag: 'air-iterations', key: 'airIterations', idle: notAir },
  { flag: 'air-optimize-every', key: 'airOptimizeFrames', idle: notAir },
  { flag: 'air-mesher', key: 'airMesher', idle: notAir },
  { flag: 'air-solve', key: 'airSolve', idle: notAir },
];

/**
 * Notes for the flags in `given` (the parameters the command line set) that are idle in every one
 * of `runs` (the run's parameter sets: the first frame's, then after each scheduled change).
 */
export function idleFlagNotes(given: Partial<SolverParams>, runs: readonly SolverParams[], engine: RunEngine): string[] {
  const notes: string[] = [];
  for (const rule of IDLE_RULES) {
    if (given[rule.key] === undefined || runs.length === 0) continue;
    const reasons = runs.map((p) => rule.idle(p, engine));
    if (reasons.every((r) => r !== null)) notes.push(`--${rule.flag} changes nothing in this run: ${reasons[0]}`);
  }
  return notes;
}

/** The run's parameter sets: the first frame's, then the parameters after each scheduled change, in frame order. */
export function runParameterSets(first: SolverParams, schedule: readonly { frame: number; params: Partial<SolverParams> }[]): SolverParams[] {
  const sets = [first];
  let p = first;
  for (const change of [...schedule].sort((a, b) => a.frame - b.frame)) {
    p = { ...p, ...change.params };
    sets.push(p);
  }
  return sets;
}
