/** All scenes by name (the runner's --scene and the page's scene menu). */
import { airBoxes } from './airBoxes';
import { beamTwist } from './beamTwist';
import { cantilever } from './cantilever';
import { cubeOnCuboid } from './cubeOnCuboid';
import { cubeStack } from './cubeStack';
import { headOn } from './headOn';
import { meshDrop } from './meshDrop';
import { meshPile } from './meshPile';
import { noodleBowl } from './noodleBowl';
import { noodleRecovery } from './noodleRecovery';
import { octopusBox } from './octopusBox';
import { octopusDrop } from './octopusDrop';
import { octopusPile } from './octopusPile';
import { rodKnot } from './rodKnot';
import { rodsTwist } from './rodsTwist';
import { shoot } from './shoot';
import { squishyBowl } from './squishyBowl';
import { squishyHeadOn } from './squishyHeadOn';
import { squishyRecovery } from './squishyRecovery';
import { squishySqueeze } from './squishySqueeze';
import type { SceneDefinition } from './types';

/** The paper's scenes first, in its figure order, then the checks and the mesh-file scenes. */
export const scenes: readonly SceneDefinition[] = [
  octopusDrop,
  octopusBox,
  squishySqueeze,
  squishyHeadOn,
  beamTwist,
  rodsTwist,
  rodKnot,
  squishyRecovery,
  noodleRecovery,
  octopusPile,
  squishyBowl,
  noodleBowl,
  cubeOnCuboid,
  cantilever,
  meshDrop,
  meshPile,
  cubeStack,
  shoot,
  headOn,
  airBoxes,
];

export function findScene(name: string): SceneDefinition {
  const s = scenes.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scene "${name}"; scenes: ${scenes.map((x) => x.name).join(', ')}`);
  return s;
}

export type { ParamChange, SceneDefinition, SceneMesh, SceneOptions, SceneSetup, SceneSize, SceneSpecificOption } from './types';
