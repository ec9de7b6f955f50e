/**
 * The budget for a material a scene chose itself. The drop and mesh-pile scenes size their
 * stiffness to the mesh (meshDrop.ts suggestedMaterial: E = rho g height / sag), so the pressure
 * wave's reach per substep, kappa, grows as 1 / sqrt(size): a mesh of a few micrometres gets a
 * material its default substeps cannot resolve, and the body settles crushed rather than merely
 * soft (sim/resolution.ts substepsResolving). The impact scenes (shoot, head-on) size it to the
 * speed (impact.ts impactMaterial: E = 10 rho V^2), so kappa grows as the speed over the mesh's
 * smallest element, and a fine mesh shot at 50 m/s gains energy at the impact (the shared 2K
 * octopus: kappa 23.9, 3.8x its energy at 3 iterations). Such a scene raises its own budget to
 * resolve what it chose, as it would pick any other default for the mesh; a stiffness or the
 * count it would raise that the user fixed is left alone (the runner then warns where it is not
 * resolved), and the other count the user fixed is resolved with. Objects pinned whole (the
 * shoot scene's wall) never deform and are not counted.
 */
import { budgetResolving, MAX_RESOLVING_ITERATIONS, MAX_RESOLVING_SUBSTEPS, shortestEdgeOfObjects } from '../sim/resolution';
import type { SceneOptions, SceneSetup } from './types';

/**
 * `lever`: what the scene raises, 'substeps' (the drop scenes: no collisions to pay for per
 * substep) or 'iterations' (the impact scenes; sim/resolution.ts budgetResolving says why).
 */
export function resolveChosenMaterial(setup: SceneSetup, options: SceneOptions, sceneName: string, lever: 'substeps' | 'iterations' = 'substeps'): void {
  if (options.material?.youngsModulus !== undefined || options.step?.[lever] !== undefined) return;
  const model = setup.model;
  const step = { ...setup.params, ...options.step };
  const shortest = shortestEdgeOfObjects(model, true);
  // Substeps the user fixed stay fixed when the iterations alone cannot reach kappa.
  const maxSubsteps = options.step?.substeps ?? MAX_RESOLVING_SUBSTEPS;
  let budget = { substeps: step.substeps, iterations: step.iterations };
  let kappaObject = -1;
  model.materials.forEach((material, o) => {
    const needed = budgetResolving(material, shortest[o], step, lever, MAX_RESOLVING_ITERATIONS, maxSubsteps);
    if (needed.substeps * needed.iterations > budget.substeps * budget.iterations) {
      budget = needed;
      kappaObject = o;
    }
  });
  if (kappaObject < 0) return;
  const material = model.materials[kappaObject];
  const changed = [
    budget.substeps !== step.substeps ? `${budget.substeps} substeps a frame instead of ${step.substeps}` : '',
    budget.iterations !== step.iterations ? `${budget.iterations} iterations instead of ${step.iterations}` : '',
  ].filter((s) => s !== '');
  // More iterations than the scene's own: with collideEvery 'contacts' detection and CCD run after
  // the first, and every later iteration of a stiff material carries points farther after CCD
  // looked. So such a scene also tests the later rounds' motion (SolverParams.ccdEveryRound); a run
  // that gives --ccd-every-round keeps its own (the runner's flags go on top of the scene's params).
  // Measured on the shared 2K octopus head-on at 30 m/s (15 iterations): 21 of 160 substeps ended
  // with a vertex inside the other octopus and frame 3 ended so; with it 5 and none
  // (docs/benchmarks.md "Impact scenes with raised iterations test every round").
  const everyRound = budget.iterations > step.iterations && setup.params.collisions;
  setup.notes = [
    ...(setup.notes ?? []),
    `${sceneName}: ${changed.join(' and ')}: the material chosen for this ${lever === 'iterations' ? 'speed and mesh' : "mesh's size"} ` +
      `(Young's modulus ${material.youngsModulus.toPrecision(2)} Pa, smallest element ${shortest[kappaObject].toPrecision(2)} m) ` +
      `is resolved only from there (--${lever} N or --young E fixes it)` +
      (everyRound ? '; CCD runs in every collision round, the later iterations carrying points after it (--ccd-every-round off: the first round only)' : ''),
  ];
  setup.params = { ...setup.params, substeps: budget.substeps, iterations: budget.iterations, ...(everyRound ? { ccdEveryRound: true } : {}) };
}
