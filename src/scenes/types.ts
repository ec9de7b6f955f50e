/** A scene: a named recipe that builds a solver setup (objects, colliders, handles, parameters). */
import type { Material } from '../sim/material';
import type { SimSetup } from '../sim/setup';

/** A tet mesh given to a scene (xyz per vertex, 4 positively oriented vertex ids per tet). */
export interface SceneMesh {
  name: string;
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
}

export interface SceneOptions {
  /** Procedural mesh resolution (lattice cubes across the longest side); scene default when absent. */
  resolution?: number;
  /** The mesh to simulate (scenes that take a mesh file). */
  mesh?: SceneMesh;
  /** Height of the object's lowest point above the ground at the start. */
  height?: number;
  /** false: leave the ground plane out. */
  ground?: boolean;
  /**
   * Hints every scene may read and none must: the material fields the user fixed and the
   * gravity that will be used (the drop scene sizes its suggested stiffness with them). The
   * runner applies both to every scene after build.
   */
  material?: Partial<Material>;
  gravity?: readonly [number, number, number];
}

/** Options that only some scenes read; each scene lists those it does in `accepts`. */
export type SceneSpecificOption = 'resolution' | 'mesh' | 'height' | 'ground';

export interface SceneDefinition {
  name: string;
  description: string;
  /** The scene-specific options build() reads; the runner refuses the others with a message. */
  accepts: readonly SceneSpecificOption[];
  build(options?: SceneOptions): SimSetup;
}
