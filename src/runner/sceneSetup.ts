/**
 * Builds the scene the command line asks for: checks the scene-specific flags against what
 * the scene reads, then applies the flags every scene takes (material, initial velocity) to
 * the built setup before the solver sees it. Solver parameters are applied by
 * Simulation.setParams (validated there).
 */
import type { SceneDefinition, SceneMesh } from '../scenes/types';
import { setObjectMaterial } from '../sim/model';
import type { SimSetup } from '../sim/setup';
import { sceneFlagsGiven, UsageError, type RunOptions } from './args';

export function checkSceneFlags(scene: SceneDefinition, o: RunOptions): void {
  for (const flag of sceneFlagsGiven(o)) {
    if (!scene.accepts.includes(flag)) {
      const takes = scene.accepts.length > 0 ? `it takes ${scene.accepts.map((f) => `--${f}`).join(', ')}` : 'it takes no scene-specific option';
      throw new UsageError(`scene ${scene.name} does not take --${flag}: ${takes}`);
    }
  }
  if (scene.accepts.includes('mesh') && o.mesh === undefined) throw new UsageError(`scene ${scene.name} needs --mesh FILE`);
}

export function buildScene(scene: SceneDefinition, o: RunOptions, mesh: SceneMesh | undefined): SimSetup {
  let setup: SimSetup;
  try {
    setup = scene.build({
      resolution: o.resolution,
      mesh,
      height: o.height,
      ground: o.ground,
      material: o.material,
      gravity: o.params.gravity,
    });
  } catch (e) {
    throw new UsageError(`scene ${scene.name}: ${(e as Error).message}`);
  }
  const model = setup.model;
  if (Object.keys(o.material).length > 0) {
    for (let obj = 0; obj < model.materials.length; obj++) {
      try {
        setObjectMaterial(model, obj, { ...model.materials[obj], ...o.material });
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
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
