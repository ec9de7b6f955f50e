/** All scenes by name (the runner's --scene and the page's scene menu). */
import { beamTwist } from './beamTwist';
import { cantilever } from './cantilever';
import { cubeStack } from './cubeStack';
import { headOn } from './headOn';
import { meshDrop } from './meshDrop';
import { meshPile } from './meshPile';
import { noodleRecovery } from './noodleRecovery';
import { octopusDrop } from './octopusDrop';
import { octopusPile } from './octopusPile';
import { shoot } from './shoot';
import { squishySqueeze } from './squishySqueeze';
import type { SceneDefinition } from './types';

export const scenes: readonly SceneDefinition[] = [
  octopusDrop,
  squishySqueeze,
  beamTwist,
  cantilever,
  meshDrop,
  octopusPile,
  meshPile,
  cubeStack,
  noodleRecovery,
  shoot,
  headOn,
];

export function findScene(name: string): SceneDefinition {
  const s = scenes.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scene "${name}"; scenes: ${scenes.map((x) => x.name).join(', ')}`);
  return s;
}

export type { ParamChange, SceneDefinition, SceneMesh, SceneOptions, SceneSetup, SceneSpecificOption } from './types';
