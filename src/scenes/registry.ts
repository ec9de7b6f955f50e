/** All scenes by name (the runner's --scene and the page's scene menu). */
import { beamTwist } from './beamTwist';
import { cantilever } from './cantilever';
import { meshDrop } from './meshDrop';
import { octopusDrop } from './octopusDrop';
import { squishySqueeze } from './squishySqueeze';
import type { SceneDefinition } from './types';

export const scenes: readonly SceneDefinition[] = [octopusDrop, squishySqueeze, beamTwist, cantilever, meshDrop];

export function findScene(name: string): SceneDefinition {
  const s = scenes.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scene "${name}"; scenes: ${scenes.map((x) => x.name).join(', ')}`);
  return s;
}

export type { SceneDefinition, SceneMesh, SceneOptions, SceneSpecificOption } from './types';
