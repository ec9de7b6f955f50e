/**
 * The runner's note on flags the user gave that change nothing in this run
 * (contract/idleSettings.ts gives the rules and reasons). The runner accepts such flags, as the
 * page keeps a control's value while its stage is off, and says so. A flag counts as idle only
 * when it is idle in every parameter set of the run (a scene's schedule may turn its stage on
 * later).
 */
import { IDLE_SETTINGS, type EngineKind } from '../contract/idleSettings';
import type { SolverParams } from '../contract/params';

/** The command-line flag of each setting a rule covers (runner/args.ts). */
const FLAG_OF: Partial<Record<keyof SolverParams, string>> = {
  jacobiRelaxation: 'relaxation', partitionBalance: 'partition-balance', warmStart: 'warm-start', lineSearch: 'line-search', positionCarry: 'position-carry',
  andersonDepth: 'anderson-depth', andersonLineSearchSweeps: 'anderson-line-search-sweeps', contactDispatch: 'contact-dispatch', selfCollision: 'self-collision', recovery: 'recovery',
  collisionMode: 'collision-mode', collideEvery: 'collide-every', contactIterations: 'contact-iterations', interObject: 'inter-object',
  penetration: 'penetration', farSideContacts: 'far-side-contacts', inversionFloor: 'inversion-floor', sliverFloor: 'sliver-floor', sliverFloorQuality: 'sliver-floor-quality', sliverLift: 'sliver-lift', sliverFloorInSweeps: 'sliver-floor-in-sweeps', escapedToDcd: 'escaped-to-dcd',
  ccdEveryRound: 'ccd-every-round', pinByKind: 'pin-by-kind', pinRelease: 'pin-release', ccdSkipInverted: 'ccd-skip-inverted', ccdEdgeInterior: 'ccd-edge-interior', ccdObstacleGrowth: 'ccd-obstacle-growth', ccdJobLatency: 'ccd-job-latency', selfCulling: 'self-culling',
  selfPairSkin: 'self-pair-skin', ccdSelfPairFrame: 'ccd-self-pair-frame', ccdWorldBoxes: 'ccd-world-boxes', airIterations: 'air-iterations', airOptimizeFrames: 'air-optimize-every',
  airMesher: 'air-mesher', airSolve: 'air-solve',
};

/**
 * Notes for the flags in `given` (the parameters the command line set) that are idle in every one
 * of `runs` (the run's parameter sets: the first frame's, then after each scheduled change), for a
 * scene of `objects` objects.
 */
export function idleFlagNotes(given: Partial<SolverParams>, runs: readonly SolverParams[], engine: EngineKind, objects: number): string[] {
  const notes: string[] = [];
  for (const rule of IDLE_SETTINGS) {
    if (given[rule.key] === undefined || runs.length === 0) continue;
    const reasons = runs.map((p) => rule.idle(p, engine, objects));
    if (reasons.every((r) => r !== null)) notes.push(`--${FLAG_OF[rule.key] ?? String(rule.key)} changes nothing in this run: ${reasons[0]}`);
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
