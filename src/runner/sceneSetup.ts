/**
 * Builds the scene the command line asks for: checks the scene-specific flags against what
 * the scene reads, then applies the flags every scene takes (material, initial velocity) to
 * the built setup before the solver sees it, and works out the run's parameters: the
 * command line's solver flags (applied by Simulation.setParams, validated there) and the
 * scene's schedule of changes between frames, less the parameters the command line fixed.
 */
import { checkSchedule, withoutParams } from '../scenes/schedule';
import { sizeProblem } from '../scenes/size';
import type { ParamChange, SceneDefinition, SceneMesh, SceneOptions, SceneSetup } from '../scenes/types';
import { setObjectMaterials } from '../sim/model';
import { checkParams, type SolverParams } from '../contract/params';
import { sceneFlagsGiven, UsageError, type RunOptions } from './args';
import { readMeshFile } from './meshFile';
import { sizeForTets, TetsRangeError } from './tetsSize';

export function checkSceneFlags(scene: SceneDefinition, o: RunOptions): void {
  for (const flag of sceneFlagsGiven(o)) {
    if (!scene.accepts.includes(flag)) {
      const takes = scene.accepts.length > 0 ? `it takes ${scene.accepts.map((f) => `--${f}`).join(', ')}` : 'it takes no scene-specific option';
      throw new UsageError(`scene ${scene.name} does not take --${flag}: ${takes}`);
    }
  }
  if (scene.accepts.includes('mesh') && o.mesh === undefined && scene.defaultMeshFile === undefined) throw new UsageError(`scene ${scene.name} needs --mesh FILE`);
  if (o.tets !== undefined && !scene.size) throw new UsageError(`scene ${scene.name} has no size (its size is the mesh it is given), so --tets does not apply`);
  if (o.size !== undefined) {
    const problem = sizeProblem(scene.name, scene.size, o.size);
    if (problem) throw new UsageError(`--size ${o.size}: ${problem}`);
  }
}

/**
 * The shared meshes the scene names (SceneDefinition.meshFiles), read from the project root
 * through the runner's loaders; a missing or bad file is a UsageError naming key and file.
 */
export function readSceneMeshes(scene: SceneDefinition): Record<string, SceneMesh> {
  const out: Record<string, SceneMesh> = {};
  for (const [key, file] of Object.entries(scene.meshFiles ?? {})) {
    try {
      out[key] = readMeshFile(file);
    } catch (e) {
      throw new UsageError(`scene ${scene.name} reads its mesh "${key}" from ${file}: ${(e as Error).message}`);
    }
  }
  return out;
}

/** The mesh file the run reads: --mesh, else the scene's default mesh (scenes that take one); undefined for the others. */
export function meshFileOf(scene: SceneDefinition, o: RunOptions): string | undefined {
  if (o.mesh !== undefined) return o.mesh;
  return scene.accepts.includes('mesh') ? scene.defaultMeshFile : undefined;
}

/**
 * --tets N: the scene's size whose tet count is nearest N (tetsSize.ts), found by building the
 * scene at the sizes the search probes (same options otherwise); `log` hears the choice.
 */
export function sizeForTetsOption(scene: SceneDefinition, o: RunOptions, mesh: SceneMesh | undefined, meshes: Record<string, SceneMesh>, log?: (message: string) => void): number {
  const range = scene.size;
  if (o.tets === undefined || !range) throw new UsageError(`scene ${scene.name}: --tets needs a scene with a size`);
  try {
    const choice = sizeForTets(scene.name, range, o.tets, (size) => {
      const started = performance.now();
      const tets = buildScene(scene, { ...o, tets: undefined, size }, mesh, meshes).model.tetCount;
      // Progress for the long searches (a build of 1M tets takes about 100 s); the quick ones stay quiet.
      const seconds = (performance.now() - started) / 1000;
      if (seconds >= 2) log?.(`--tets ${o.tets}: size ${size} has ${tets} tets (built in ${seconds.toFixed(0)} s to count them)`);
      return tets;
    });
    log?.(`--tets ${o.tets}: size ${choice.size} (${range.label}) has ${choice.tets} tets (${choice.probes} sizes built to find it)`);
    return choice.size;
  } catch (e) {
    if (e instanceof TetsRangeError) throw new UsageError(e.message);
    throw e;
  }
}

/** The step parameters the command line fixed (SceneOptions.step). */
function fixedStep(params: Partial<SolverParams>): SceneOptions['step'] {
  const step: NonNullable<SceneOptions['step']> = {};
  if (params.dt !== undefined) step.dt = params.dt;
  if (params.substeps !== undefined) step.substeps = params.substeps;
  if (params.iterations !== undefined) step.iterations = params.iterations;
  return step;
}

/** `meshes`: the scene's shared meshes (default: read from its meshFiles). With --tets the size is searched first (sizeForTetsOption). */
export function buildScene(scene: SceneDefinition, o: RunOptions, mesh: SceneMesh | undefined, meshes: Record<string, SceneMesh> = readSceneMeshes(scene), log?: (message: string) => void): SceneSetup {
  if (o.tets !== undefined) o = { ...o, tets: undefined, size: sizeForTetsOption(scene, o, mesh, meshes, log) };
  let setup: SceneSetup;
  try {
    setup = scene.build({
      size: o.size,
      meshes,
      resolution: o.resolution,
      mesh,
      height: o.height,
      ground: o.ground,
      copies: o.copies,
      speed: o.speed,
      material: o.material,
      gravity: o.params.gravity,
      step: fixedStep(o.params),
      selfCollisionFrom: o.selfCollisionFrom,
    });
  } catch (e) {
    throw new UsageError(`scene ${scene.name}: ${(e as Error).message}`);
  }
  const model = setup.model;
  if (Object.keys(o.material).length > 0) {
    try {
      setObjectMaterials(model, model.materials.map((m, obj) => [obj, { ...m, ...o.material }] as const));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  if (o.velocity) {
    // "Initial velocity of the whole object" is a rigid translation; with pinned vertices it
    // would not be one (and the pins would fight it), so such scenes refuse it.
    for (let v = 0; v < model.vertexCount; v++) {
      if (model.handleOfVertex[v] >= 0) throw new UsageError(`scene ${scene.name} pins vertices, so --velocity (a whole-object velocity) does not apply`);
    }
    for (let v = 0; v < model.vertexCount; v++) for (let k = 0; k < 3; k++) model.initialVelocities[3 * v + k] = o.velocity[k];
  }
  return setup;
}

/** What the runner sets: parameters before the first frame, and changes between frames. */
export interface RunParams {
  /** Given to Simulation.setParams before the first frame (on top of the scene's params). */
  initial: Partial<SolverParams>;
  /** Applied with Simulation.setParams once `frame` frames are done (scenes/schedule.ts changesAt). */
  schedule: ParamChange[];
}

/**
 * A flag on the command line fixes its parameter for the whole run, so the scene's schedule
 * loses that parameter; --self-collision-from F turns self-collision off at the start and on
 * once F frames are done (from the start when F is 0). Every parameter set of the run is
 * checked, a bad one is a UsageError naming the frame.
 */
export function runParams(setup: SceneSetup, o: RunOptions): RunParams {
  const initial: Partial<SolverParams> = { ...o.params };
  const fixed = Object.keys(o.params) as (keyof SolverParams)[];
  const ours: ParamChange[] = [];
  if (o.selfCollisionFrom !== undefined) {
    fixed.push('selfCollision');
    initial.selfCollision = o.selfCollisionFrom === 0;
    if (o.selfCollisionFrom > 0) ours.push({ frame: o.selfCollisionFrom, params: { selfCollision: true } });
  }
  const schedule = [...withoutParams(setup.schedule ?? [], fixed), ...ours];
  try {
    checkParams({ ...setup.params, ...initial });
    checkSchedule({ ...setup.params, ...initial }, schedule);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { initial, schedule };
}
