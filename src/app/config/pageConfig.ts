/**
 * What a link to the page reproduces: the scene and its size, the solver's parameters that
 * differ from the scene's own, per-object materials, the view toggles and the engine. The URL
 * hash holds it (hashConfig.ts); the GUI reads and writes it. No DOM here.
 */
import type { Material } from '../../sim/material';
import type { SolverParams } from '../../contract/params';

export type EngineChoice = 'auto' | 'gpu' | 'cpu';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'gpu', 'cpu'];

/** The page's own scene: a generated shape or an imported mesh, dropped into a box (copies of it). */
export const MESH_SCENE = 'mesh';

export interface ViewSettings {
  /** Blue tint of penetrating surface, deeper = bluer (the frame-end intersection pass). */
  tint: boolean;
  shadows: boolean;
  wireframe: boolean;
  /** Overlays: penetrating points, their shortest paths, CCD contacts. */
  points: boolean;
  paths: boolean;
  ccd: boolean;
  /** BVH boxes of this level (0 = root); -1 = off. */
  bvhLevel: number;
}

export const DEFAULT_VIEW: Readonly<ViewSettings> = Object.freeze({
  tint: true,
  shadows: true,
  wireframe: false,
  points: false,
  paths: false,
  ccd: false,
  bvhLevel: -1,
});

/** The shape the mesh scene generates when no file was imported (the mesh viewer's choice). */
export interface MeshSceneSettings {
  shape?: string;
  resolution?: number;
  copies: number;
  /** The file the mesh on screen was imported from (then shape and resolution are not what is shown); a link cannot carry the file itself. */
  imported?: string;
}

export interface PageConfig {
  /** A registry scene name (src/scenes/registry.ts) or MESH_SCENE. */
  scene: string;
  /** The scene's size (SceneDefinition.size); undefined: the page's default for this adapter. */
  size?: number;
  engine: EngineChoice;
  /** Start running once the scene is built. */
  run: boolean;
  /** Parameters that differ from the scene's (applied on top of them). */
  params: Partial<SolverParams>;
  /** Material fields set per object index (applied on top of the scene's materials). */
  materials: Record<number, Partial<Material>>;
  view: ViewSettings;
  mesh: MeshSceneSettings;
}

export function defaultPageConfig(scene: string): PageConfig {
  return { scene, engine: 'auto', run: false, params: {}, materials: {}, view: { ...DEFAULT_VIEW }, mesh: { copies: 1 } };
}
