/**
 * What the page opens with when the link names nothing: the mesh scene's squishy ball, at a
 * size and with solver settings chosen by the adapter. On a GPU: resolution 34 (28,170 tets)
 * with the solver's defaults (20 substeps x 3 iterations), which a laptop GPU runs interactively.
 * On a software adapter or the CPU engine, where the GPU is emulated on the CPU (SwiftShader) or
 * there is none: resolution 22 (5,580 tets; its knobs are coarser, the shape the same) with
 * 5 substeps x 2 iterations (contact passes stay 3; recovery mode from bodies sunk into each other
 * needs 6 at this budget, docs/collisions.md section 3.5), so that a frame takes seconds, not
 * tens of seconds, and the page answers between frames (on SwiftShader the full-size default took
 * 91 s for its first frame and 20-45 s for the next ones). Registry scenes pick their own small
 * size (SceneSize.small). No DOM here.
 */
import type { SolverParams } from '../../contract/params';

export interface MeshSceneDefaults {
  shape: string;
  resolution: number;
  /** On top of the mesh scene's parameters (pageScene.ts MESH_SCENE_DEFAULTS), under the user's. */
  params: Partial<SolverParams>;
  /** Why these: shown under the Scene menu. */
  note: string;
}

export const GPU_MESH_SCENE: Readonly<MeshSceneDefaults> = Object.freeze({
  shape: 'squishyBall',
  resolution: 34,
  params: {},
  note: 'Squishy ball at resolution 34, 20 substeps x 3 iterations: the interactive default on a GPU.',
});

export const SMALL_MESH_SCENE: Readonly<MeshSceneDefaults> = Object.freeze({
  shape: 'squishyBall',
  resolution: 22,
  params: Object.freeze({ substeps: 5, iterations: 2 }),
  note:
    'Small default: squishy ball at resolution 22 (5,580 tets), 5 substeps x 2 iterations (on a GPU: ' +
    'resolution 34, 20 x 3). Raise them in the panel; a link keeps what you set.',
});

/** The defaults for this adapter: small on a software adapter or when the CPU engine simulates. */
export function meshSceneDefaults(small: boolean): Readonly<MeshSceneDefaults> {
  return small ? SMALL_MESH_SCENE : GPU_MESH_SCENE;
}
