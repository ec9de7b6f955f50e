/**
 * A scene's size (SceneSize): checking a value against the scene's range, and the resolution
 * or number of copies a build uses (explicit option > size > the size's default). Shared
 * meshes a scene names in meshFiles: the one under a key, or an error naming key and file.
 */
import type { SceneDefinition, SceneMesh, SceneOptions, SceneSize } from './types';

/** Why `value` is not a valid size of the scene, or undefined when it is. */
export function sizeProblem(scene: string, size: SceneSize | undefined, value: number): string | undefined {
  if (!size) return `scene ${scene} has no size (its size is the mesh it is given)`;
  if (!Number.isInteger(value) || value < size.min || value > size.max || (value - size.min) % size.step !== 0) {
    const steps = size.step === 1 ? 'an integer' : `${size.min} plus a multiple of ${size.step}`;
    return `size ${value} of scene ${scene} (${size.label}) must be ${steps} in [${size.min}, ${size.max}]`;
  }
  return undefined;
}

/** The size's option value for this build: the explicit resolution/copies, else options.size (checked), else the default. */
export function sizedValue(scene: string, size: SceneSize, options: SceneOptions): number {
  const explicit = size.option === 'resolution' ? options.resolution : options.copies;
  if (explicit !== undefined) return explicit;
  if (options.size === undefined) return size.default;
  const problem = sizeProblem(scene, size, options.size);
  if (problem) throw new RangeError(problem);
  return options.size;
}

/** The shared mesh under `key` (SceneDefinition.meshFiles), or an error naming the key and its file. */
export function sceneMesh(scene: Pick<SceneDefinition, 'name' | 'meshFiles'>, options: SceneOptions, key: string): SceneMesh {
  const mesh = options.meshes?.[key];
  if (mesh) return mesh;
  const file = scene.meshFiles?.[key];
  throw new Error(`scene ${scene.name} needs the mesh "${key}"${file ? ` (file ${file})` : ''}: pass it in options.meshes.${key}`);
}
