/** A scene: a named recipe that builds a solver setup (objects, colliders, handles, parameters). */
import type { SimSetup } from '../sim/setup';

export interface SceneOptions {
  /** Procedural mesh resolution (lattice cubes across the longest side); scene default when absent. */
  resolution?: number;
}

export interface SceneDefinition {
  name: string;
  description: string;
  build(options?: SceneOptions): SimSetup;
}
