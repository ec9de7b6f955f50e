/**
 * What the page simulates, and how it is built: a scene of the registry (src/scenes) at a size,
 * or the page's own mesh scene (the generated shape or imported mesh on screen, dropped; copies
 * of it pile into a box). Built the same way on the page's thread (GPU engine) and in the CPU
 * solver's worker (the scene's scripts are functions, so each side builds its own copy).
 * No DOM or three.js here.
 */
import { findScene, type SceneMesh, type SceneSetup } from '../../scenes/registry';
import { meshPile } from '../../scenes/meshPile';
import { boundsOf } from '../../scenes/place';
import { dropPlacement, meshDropScene, suggestedMaterial } from '../../scenes/meshDrop';
import type { Material } from '../../sim/material';
import { setObjectMaterials } from '../../sim/model';
import { checkParams, defaultParams, type SolverParams } from '../../contract/params';

/** A registry scene, or the mesh on screen (`copies` of it). Plain data: it crosses to the CPU worker. */
export type PageSceneSource =
  | { kind: 'registry'; name: string; size?: number; meshes?: Record<string, SceneMesh> }
  | {
      kind: 'mesh';
      name: string;
      positions: Float32Array;
      tets: Uint32Array;
      copies: number;
      /** The parameters this page starts the mesh scene from (a software adapter's lighter ones), under the user's. */
      defaults?: Partial<SolverParams>;
    };

/** What the user changed on top of the scene: parameters, and material fields per object index. */
export interface SceneOverrides {
  params: Partial<SolverParams>;
  materials: Record<number, Partial<Material>>;
}

export interface PageScene {
  setup: SceneSetup;
  /** The ground plane's height (a +y plane collider), or the lowest point when there is none. */
  groundY: number;
  /** Whether the scene has a ground plane (a +y plane collider). */
  hasGround: boolean;
  /** Lowest y at the start. */
  startMinY: number;
  /** Bounds of the starting positions, ground included. */
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

/**
 * The page's parameters for its mesh scene on top of the solver's (the authors' octopus drop):
 * some velocity damping, because a soft ball solved with few iterations keeps most of its energy
 * and bounces for seconds (measured: 0.24 of a 0.5 drop comes back without damping, 0.06 with 2/s).
 */
export const MESH_SCENE_DEFAULTS: Partial<SolverParams> = { damping: 2 };

/** Height (y extent) of xyz positions. */
export function heightOf(positions: ArrayLike<number>): number {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 1; i < positions.length; i += 3) {
    min = Math.min(min, positions[i]!);
    max = Math.max(max, positions[i]!);
  }
  return max - min;
}

function buildSetup(source: PageSceneSource, overrides: SceneOverrides): SceneSetup {
  if (source.kind === 'registry') {
    const scene = findScene(source.name);
    return scene.build({ size: source.size, meshes: source.meshes });
  }
  const params = defaultParams({ ...MESH_SCENE_DEFAULTS, ...source.defaults, ...overrides.params });
  const material = { ...suggestedMaterial(heightOf(source.positions), params.gravity[1]), ...overrides.materials[0] };
  if (source.copies <= 1) {
    return meshDropScene(source.name, source, material, params, dropPlacement(source.positions)).setup;
  }
  const pile = meshPile.build({
    mesh: { name: source.name, positions: source.positions, tets: source.tets },
    copies: source.copies,
    material,
    gravity: params.gravity,
    // The page sets its own budget (below) and notes an unresolved material itself.
    step: { substeps: params.substeps },
  });
  // The pile's own parameters (collisions and self-collision on) under the mesh scene's defaults
  // and this adapter's budget, as one copy gets them: without this, copies > 1 ran at the pile's
  // damping 0.5 and, on a software adapter, at the solver's 20 x 3 instead of the small 5 x 2.
  // The user's parameters go on top in buildPageScene.
  pile.params = { ...pile.params, ...MESH_SCENE_DEFAULTS, ...source.defaults };
  return pile;
}

/** Builds the scene with the user's parameters and materials on top; throws naming what is wrong. */
export function buildPageScene(source: PageSceneSource, overrides: SceneOverrides): PageScene {
  const setup = buildSetup(source, overrides);
  const params: SolverParams = { ...setup.params, ...overrides.params };
  params.gravity = [...(overrides.params.gravity ?? setup.params.gravity)];
  checkParams(params);
  setup.params = params;
  const model = setup.model;
  const changes: [number, Material][] = [];
  for (const [key, fields] of Object.entries(overrides.materials)) {
    const object = Number(key);
    if (object >= model.objectNames.length) continue; // a link made for a scene with more objects
    changes.push([object, { ...model.materials[object]!, ...fields }]);
  }
  if (changes.length > 0) setObjectMaterials(model, changes);
  return { setup, ...placementOf(setup) };
}

/** Ground height, starting lowest point and bounds of a setup. */
export function placementOf(setup: SceneSetup): Omit<PageScene, 'setup'> {
  const { min, max } = boundsOf(setup.model.restPositions);
  const startMinY = min[1];
  let groundY = startMinY;
  let hasGround = false;
  for (const c of setup.colliders) {
    if (c.kind === 'plane' && c.normal[0] === 0 && c.normal[2] === 0 && c.normal[1] > 0) {
      const offset = typeof c.offset === 'number' ? c.offset : c.offset(0);
      if (offset !== null) {
        groundY = offset / c.normal[1];
        hasGround = true;
      }
    }
  }
  min[1] = Math.min(min[1], groundY);
  return { groundY, hasGround, startMinY, bounds: { min, max } };
}
