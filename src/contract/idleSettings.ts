/**
 * Settings that change nothing under the others: a setting of a stage or an order that the
 * parameters do not run (the Jacobi relaxation with a Gauss-Seidel order, air settings outside air
 * mode, Anderson acceleration where no run of iterations is long enough to mix, a GPU-only setting
 * on the CPU engine), each with the reason in words. The runner names such a flag in a note
 * (runner/idleFlags.ts) and the page greys such a control (app/simulationPanel.ts), so that a
 * comparison a user means to make is not silently the same run twice. Each rule is checked
 * against the CPU engine in tests/unit/runner/idleFlags.test.ts (an idle setting leaves the run
 * bit for bit).
 */
import { effectiveCollideEvery, effectiveCollisionMode, effectiveCollisionRounds, MIN_MIXING_SWEEPS, sliverFloorThreshold, type SolverParams } from './params';

export type EngineKind = 'gpu' | 'cpu';

export interface IdleRule {
  key: keyof SolverParams;
  /** Why the setting does nothing under p (in a model of `objects` objects), or null where it acts. */
  idle(p: SolverParams, engine: EngineKind, objects: number): string | null;
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

/** The inversion floor runs in the shortest-path collision stages (every mode but air). */
const noFloor = (p: SolverParams): string | null => collisionsOff(p) ?? (effectiveCollisionMode(p) === 'air' ? 'air mode has no inversion floor' : null);

const notAir = (p: SolverParams): string | null => collisionsOff(p) ?? (p.collisionMode === 'air' ? null : `the collision mode is ${p.collisionMode}, not air`);

const gaussSeidelNeoHookean = (what: string) => (p: SolverParams): string | null =>
  p.constraint !== 'neohookean' ? `${what} Neo-Hookean tets and the constraint is ${p.constraint}` : p.solveOrder === 'jacobi' ? `${what} Neo-Hookean tets in the Gauss-Seidel orders and the order is jacobi` : null;

/** The longest run of material iterations between two collision rounds (the acceleration restarts at each). */
function longestRun(p: SolverParams, objects: number): number {
  const rounds = effectiveCollisionRounds(p, objects);
  return Math.ceil(p.iterations / rounds);
}

/** Why Anderson acceleration mixes nothing here: no run of iterations between collision rounds reaches MIN_MIXING_SWEEPS (null when one does). */
function runsTooShortToMix(p: SolverParams, objects: number): string | null {
  const run = longestRun(p, objects);
  return run < MIN_MIXING_SWEEPS ? `the acceleration mixes runs of at least ${MIN_MIXING_SWEEPS} iterations between collision rounds, and this run's are ${run}` : null;
}

const GPU_BROAD_PHASE = "the CPU engine finds CCD's candidates from each substep's own motion, with no worker job";

export const IDLE_SETTINGS: readonly IdleRule[] = [
  { key: 'jacobiRelaxation', idle: (p) => (p.solveOrder === 'jacobi' ? null : `it scales Jacobi steps and the solve order is ${p.solveOrder}`) },
  { key: 'partitionBalance', idle: (p) => (p.solveOrder === 'partitioned' ? null : `it places tets in the partitioned order's passes and the solve order is ${p.solveOrder}`) },
  { key: 'warmStart', idle: gaussSeidelNeoHookean('it starts') },
  { key: 'lineSearch', idle: gaussSeidelNeoHookean('it lengthens the steps of') },
  { key: 'positionCarry', idle: (p, engine) => (engine === 'cpu' ? 'the CPU engine keeps positions in float64' : gaussSeidelNeoHookean('it keeps the rounding of')(p)) },
  {
    key: 'andersonDepth',
    idle: (p, _engine, objects) => {
      // With --collider-response auto it also switches the colliders to 'multiplier' (effectiveColliderResponse): not idle then.
      if (p.andersonDepth === 0 || p.colliderResponse === 'auto') return null;
      if (p.constraint !== 'neohookean') return `it accelerates Neo-Hookean tets and the constraint is ${p.constraint}`;
      return runsTooShortToMix(p, objects);
    },
  },
  {
    key: 'andersonLineSearchSweeps',
    idle: (p, _engine, objects) => {
      if (p.andersonDepth === 0) return 'Anderson acceleration is off (anderson-depth 0)';
      if (!p.lineSearch) return 'the line search is off';
      const nh = gaussSeidelNeoHookean('it reuses the searched step lengths of')(p);
      if (nh) return nh;
      const short = runsTooShortToMix(p, objects);
      if (short) return short;
      const run = longestRun(p, objects);
      return run <= p.andersonLineSearchSweeps ? `this run's ${run} iterations between collision rounds all search their step lengths` : null;
    },
  },
  { key: 'contactDispatch', idle: (p, engine) => (engine === 'cpu' ? 'the CPU engine has one contact path' : collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode makes no contacts' : null)) },
  { key: 'selfCollision', idle: collisionsOff },
  { key: 'recovery', idle: (p) => collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode has no recovery mode' : null) },
  { key: 'collisionMode', idle: (p) => collisionsOff(p) ?? (p.recovery && p.collisionMode !== 'air' && p.collisionMode !== 'dcd' ? 'recovery mode runs DCD for every point' : null) },
  { key: 'collideEvery', idle: (p) => collisionsOff(p) },
  { key: 'contactIterations', idle: (p) => collisionsOff(p) ?? (p.collisionMode === 'air' ? 'air mode makes no contacts' : null) },
  { key: 'interObject', idle: noDcd },
  { key: 'penetration', idle: noDcd },
  { key: 'farSideContacts', idle: noDcd },
  { key: 'inversionFloor', idle: (p) => noFloor(p) ?? (p.recovery || (p.sliverFloor && sliverFloorThreshold(p) > 0) ? null : 'it acts in recovery mode, or on the sliver tets with sliver-floor on') },
  { key: 'sliverFloor', idle: (p) => noFloor(p) ?? (p.recovery ? 'recovery mode floors every tet' : p.inversionFloor > 0 ? (sliverFloorThreshold(p) > 0 ? null : 'sliver-quality and sliver-floor-quality are 0: the floor holds no tet') : 'the inversion floor is 0') },
  { key: 'sliverLift', idle: sliverLiftIdle },
  { key: 'sliverFloorInSweeps', idle: sliverLiftIdle },
  {
    key: 'sliverFloorQuality',
    idle: (p) =>
      noFloor(p) ??
      (p.recovery ? 'recovery mode floors every tet' : !p.sliverFloor ? 'sliver-floor is off' : !(p.inversionFloor > 0) ? 'the inversion floor is 0' : p.sliverFloorQuality <= p.sliverQuality ? 'it is not above sliver-quality, whose slivers the floor holds anyway' : null),
  },
  { key: 'escapedToDcd', idle: (p, engine) => (engine === 'cpu' ? "nothing escapes the CPU engine's CCD (exact boxes every substep)" : noCcd(p) ?? (effectiveCollisionMode(p) === 'hybrid' ? null : 'it acts in hybrid mode')) },
  { key: 'ccdEveryRound', idle: (p, _engine, objects) => noCcd(p) ?? (effectiveCollideEvery(p, objects) === 'contacts' ? null : `it acts with collide-every contacts and this run's is ${effectiveCollideEvery(p, objects)}`) },
  { key: 'pinRelease', idle: (p) => noCcd(p) ?? (effectiveCollisionMode(p) === 'hybrid' ? null : 'it acts in hybrid mode') },
  { key: 'pinByKind', idle: (p) => noCcd(p) ?? (effectiveCollisionMode(p) === 'hybrid' ? null : 'it acts in hybrid mode') },
  { key: 'ccdSkipInverted', idle: (p) => noSelfCcd(p) },
  { key: 'ccdEdgeInterior', idle: (p) => noCcd(p) },
  // The growth widens the own-frame boxes, and the world boxes clipped to the mean path.
  { key: 'ccdObstacleGrowth', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : p.ccdWorldBoxes === 'mean-path' ? noCcd(p) : noSelfCcd(p)) },
  { key: 'ccdWorldBoxes', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noCcd(p)) },
  { key: 'ccdJobLatency', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noCcd(p)) },
  { key: 'selfCulling', idle: (p, engine) => (engine === 'cpu' ? GPU_BROAD_PHASE : noSelfCcd(p)) },
  { key: 'selfPairSkin', idle: noSelfCcd },
  { key: 'ccdSelfPairFrame', idle: noSelfCcd },
  { key: 'airIterations', idle: notAir },
  { key: 'airOptimizeFrames', idle: notAir },
  { key: 'airMesher', idle: notAir },
  { key: 'airSolve', idle: notAir },
];

/** The settings among `keys` that change nothing under p in a model of `objects` objects, with the reason. */
export function idleSettings(keys: readonly (keyof SolverParams)[], p: SolverParams, engine: EngineKind, objects: number): Map<keyof SolverParams, string> {
  const idle = new Map<keyof SolverParams, string>();
  for (const rule of IDLE_SETTINGS) {
    if (!keys.includes(rule.key)) continue;
    const reason = rule.idle(p, engine, objects);
    if (reason !== null) idle.set(rule.key, reason);
  }
  return idle;
}

/** Why the sliver lift's settings (sliverLift, sliverFloorInSweeps) change nothing, or null. */
function sliverLiftIdle(p: SolverParams): string | null {
  return noFloor(p) ??
    (p.recovery ? 'recovery mode floors every tet after every round' : !p.sliverFloor ? 'sliver-floor is off' : !(p.inversionFloor > 0) ? 'the inversion floor is 0' : sliverFloorThreshold(p) > 0 ? null : 'sliver-quality and sliver-floor-quality are 0: the floor holds no tet');
}
