/**
 * Substeps for a material a scene chose itself. The drop and mesh-pile scenes size their
 * stiffness to the mesh (meshDrop.ts suggestedMaterial: E = rho g height / sag), so the pressure
 * wave's reach per substep, kappa, grows as 1 / sqrt(size): a mesh of a few micrometres gets a
 * material its default substeps cannot resolve, and the body settles crushed rather than merely
 * soft (sim/resolution.ts substepsResolving). Such a scene raises its own substeps to resolve
 * what it chose, as it would pick any other default for the mesh; a stiffness or a substep count
 * the user fixed is left alone (the runner then warns where it is not resolved).
 */
import { shortestEdgeOfObjects, substepsResolving } from '../sim/resolution';
import type { SceneOptions, SceneSetup } from './types';

export function resolveChosenMaterial(setup: SceneSetup, options: SceneOptions, sceneName: string): void {
  if (options.material?.youngsModulus !== undefined || options.step?.substeps !== undefined) return;
  const model = setup.model;
  const step = { ...setup.params, ...options.step };
  const shortest = shortestEdgeOfObjects(model);
  let substeps = setup.params.substeps;
  let kappaObject = -1;
  model.materials.forEach((material, o) => {
    const needed = substepsResolving(material, shortest[o], step);
    if (needed > substeps) {
      substeps = needed;
      kappaObject = o;
    }
  });
  if (kappaObject < 0) return;
  const material = model.materials[kappaObject];
  setup.notes = [
    ...(setup.notes ?? []),
    `${sceneName}: ${substeps} substeps a frame instead of ${setup.params.substeps}: the material chosen for this mesh's size ` +
      `(Young's modulus ${material.youngsModulus.toPrecision(2)} Pa, smallest element ${shortest[kappaObject].toPrecision(2)} m) ` +
      `is resolved by ${step.iterations} iterations only from there (--substeps N or --young E fixes either)`,
  ];
  setup.params = { ...setup.params, substeps };
}
