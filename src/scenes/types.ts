/** A scene: a named recipe that builds a solver setup (objects, colliders, handles, parameters). */
import type { Material } from '../sim/material';
import type { SolverParams } from '../contract/params';
import type { SimSetup } from '../sim/setup';

/** A tet mesh given to a scene (xyz per vertex, 4 positively oriented vertex ids per tet). */
export interface SceneMesh {
  name: string;
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
}

/**
 * A scene's size: one number the page's slider sets and the runner's --size takes, mapped
 * onto the scene's resolution or number of copies (an explicit resolution or copies wins).
 * Every integer in [min, max] builds a valid, non-empty mesh.
 */
export interface SceneSize {
  /** Slider label, e.g. "lattice resolution" or "octopi". */
  label: string;
  option: 'resolution' | 'copies';
  min: number;
  max: number;
  step: number;
  /** Runs at interactive rates on a laptop GPU. */
  default: number;
  /** What the page picks on a software adapter or the CPU engine. */
  small: number;
  /** The value nearest the paper's scale (within [min, max]). */
  paper: number;
  /** What the paper had, e.g. "paper Fig. 18: 600 octopi, 8.88M tets". */
  note: string;
}

export interface SceneOptions {
  /** The scene's size (SceneDefinition.size): its resolution or copies when those are absent. */
  size?: number;
  /** Meshes the scene names in SceneDefinition.meshFiles, by key. */
  meshes?: Record<string, SceneMesh>;
  /** Procedural mesh resolution (lattice cubes across the longest side); scene default when absent. */
  resolution?: number;
  /** The mesh to simulate (scenes that take a mesh file). */
  mesh?: SceneMesh;
  /** Height of the object's lowest point above the ground at the start. */
  height?: number;
  /** false: leave the ground plane out. */
  ground?: boolean;
  /** Number of objects (the pile and stack scenes). */
  copies?: number;
  /** Speed of the fast-impact scenes (shoot, head-on), m/s. */
  speed?: number;
  /**
   * Hints every scene may read and none must: the material fields the user fixed and the
   * gravity that will be used (the drop scene sizes its suggested stiffness with them). The
   * runner applies both to every scene after build.
   */
  material?: Partial<Material>;
  gravity?: readonly [number, number, number];
  /**
   * Hint: the step parameters the user fixed (the runner's --dt, --substeps, --iterations). A
   * scene that chooses its material from the mesh's size raises its substeps until that material
   * is resolved (scenes/resolvedBudget.ts), with these in place of its own; a fixed substep count
   * is left as it is.
   */
  step?: Partial<Pick<SolverParams, 'dt' | 'substeps' | 'iterations'>>;
  /**
   * Hint: the frame from which the user switches self-collision on (the runner's
   * --self-collision-from). The noodle scene switches recovery mode on at the same frame.
   */
  selfCollisionFrom?: number;
}

/** Options that only some scenes read; each scene lists those it does in `accepts`. */
export type SceneSpecificOption = 'resolution' | 'mesh' | 'height' | 'ground' | 'copies' | 'speed';

/**
 * A parameter change between frames: `params` are set (Simulation.setParams) once `frame`
 * frames have been simulated, so frame `frame` (counting from 0) is the first to use them
 * (time frame x dt).
 */
export interface ParamChange {
  frame: number;
  params: Partial<SolverParams>;
}

/** What a scene builds: the solver's setup plus, optionally, parameter changes over time. */
export interface SceneSetup extends SimSetup {
  /** Changes applied between frames, in any order (see ParamChange). */
  schedule?: ParamChange[];
  /** What the scene chose for this run and why, in words (the runner logs each as a note). */
  notes?: string[];
}

export interface SceneDefinition {
  name: string;
  description: string;
  /** The scene-specific options build() reads; the runner refuses the others with a message. */
  accepts: readonly SceneSpecificOption[];
  /**
   * Mesh file the runner reads when the scene takes a mesh and none is given (path relative to
   * the project root, where the runner runs); without it a scene that takes a mesh needs one.
   */
  defaultMeshFile?: string;
  /** The scene's size slider; absent when the size is the given mesh's (drop, shoot, head-on). */
  size?: SceneSize;
  /**
   * Shared meshes the scene builds from: key -> file path relative to the project root (the
   * runner reads them; the page fetches the same base names). build() gets them in options.meshes.
   */
  meshFiles?: Record<string, string>;
  /** Vertex and tet counts with the default options (and the default mesh); the tests hold scenes to them. */
  defaultCounts?: { vertices: number; tets: number };
  build(options?: SceneOptions): SceneSetup;
}
