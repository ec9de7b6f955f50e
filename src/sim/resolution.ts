/**
 * Whether a solver setting can resolve a material: the stiffness number kappa = c h / dx, the
 * number of smallest elements a pressure wave (c = sqrt((lambda_L + 2 mu_L) / rho)) crosses
 * in one substep h. XPBD is stable at any kappa, but a Gauss-Seidel sweep carries a
 * correction about one element, so with fewer iterations than kappa the solve does not
 * converge: the body acts softer than its Young's modulus and stiff impacts leave elastic
 * transients (src/sim/README.md, "Stiffness and convergence"; measured on a 10 cm cube
 * dropped 5 cm: kappa 0.9 with 3 iterations and kappa 29 with 30 converge, kappa 3.7 with 3
 * and kappa 29 with 10 do not). With contacts solved once a substep, after the material, the
 * iterations do not help: stiff bodies in contact gain energy once kappa passes about 1 (two cubes
 * at kappa 4.6: +86 % in a frame with 3 iterations, +80 % with 6, none at kappa 1), so the warning
 * there adds the substeps that bring kappa to 1 (docs/collisions.md "A second energy entry").
 */
import { lameFromYoung, type Material } from './material';
import type { Model } from './model';
import { effectiveCollisionRounds, type SolverParams } from '../contract/params';

export interface MaterialResolution {
  /** c h / dx. */
  kappa: number;
  /** Pressure wave speed (m/s). */
  waveSpeed: number;
  /** Shortest tet edge (m). */
  shortestEdge: number;
  /** Null when the iterations resolve kappa; otherwise what to change, in words. */
  warning: string | null;
}

/**
 * Shortest rest edge of each object of a model (from its edge list). `deformingOnly`: only the
 * edges with a free end (an edge between two pinned vertices never deforms, so no pressure wave
 * crosses it); an object pinned whole then gets Infinity, i.e. kappa 0: the shoot scene's wall,
 * thin and stiff, otherwise read as unresolved on every run.
 */
export function shortestEdgeOfObjects(model: Model, deformingOnly = false): Float64Array {
  const shortest = new Float64Array(model.objectNames.length).fill(Infinity);
  for (let e = 0; e < model.edgeCount; e++) {
    const a = model.edges[2 * e];
    if (deformingOnly && model.handleOfVertex[a] >= 0 && model.handleOfVertex[model.edges[2 * e + 1]] >= 0) continue;
    const o = model.vertexObject[a];
    shortest[o] = Math.min(shortest[o], model.edgeRestLength[e]);
  }
  return shortest;
}

/**
 * When the parameters solve contacts (collisions on; air mode's constraints are its contacts): 'once' a substep after all
 * the material iterations (one collision round), or 'coupled' after every iteration ('contacts',
 * 'iteration'); null when they are off or the parameters do not say.
 */
function contactSchedule(p: ResolutionParams): 'once' | 'coupled' | null {
  if (p.collisions !== true || p.collideEvery === undefined || p.recovery === undefined || p.collisionMode === undefined) return null;
  return effectiveCollisionRounds({ ...p, collisions: true, collideEvery: p.collideEvery, recovery: p.recovery, collisionMode: p.collisionMode }, p.objects ?? 1) === 1 ? 'once' : 'coupled';
}

/**
 * The step and, where known, the collision schedule (contactSchedule) and the scene's number of
 * objects, which 'auto' reads (effectiveCollideEvery; taken as 1 where not given).
 */
export type ResolutionParams = Pick<SolverParams, 'dt' | 'substeps' | 'iterations'> & Partial<Pick<SolverParams, 'collisions' | 'collideEvery' | 'recovery' | 'collisionMode'>> & { objects?: number };

export function materialResolution(material: Material, shortestEdge: number, params: ResolutionParams): MaterialResolution {
  const { mu, lambda } = lameFromYoung(material.youngsModulus, material.poissonRatio);
  const waveSpeed = Math.sqrt((lambda + 2 * mu) / material.density);
  const h = params.dt / params.substeps;
  const kappa = (waveSpeed * h) / shortestEdge;
  let warning: string | null = null;
  const contacts = contactSchedule(params);
  const bodies = (params.objects ?? 1) >= 2;
  const contactIterations = Math.ceil(CONTACT_ITERATIONS_PER_KAPPA * kappa);
  if (kappa > params.iterations) {
    const substeps = Math.ceil((params.substeps * kappa) / params.iterations);
    const iterations = Math.ceil(kappa);
    warning =
      `Young's modulus ${material.youngsModulus} Pa is stiffer than ${params.substeps} substeps x ${params.iterations} iterations resolve: ` +
      `a pressure wave crosses ${kappa.toFixed(1)} of the smallest elements (${shortestEdge.toPrecision(2)} m) per substep. ` +
      `The material stays stable, but the body acts softer than set and impacts leave brief elastic transients; ` +
      `use about ${substeps} substeps or ${iterations} iterations to resolve it.`;
    if (contacts === 'once') {
      // Contacts solved after the material dent the surface layer, and a stiff material gives the
      // dent back as speed: two stiff cubes stacked at kappa 4.6 gained 86 % of their energy in a
      // frame, still 80 % with 6 iterations, none at kappa 1 (docs/collisions.md "A second energy
      // entry"). The octopus box at kappa 10.8 (from its few shortest edges) loses energy every
      // frame, hence "can". Contacts after every iteration (collideEvery 'contacts') held it with
      // kappa + 1 iterations or fewer: +1.5 % at kappa 4.6 x 6, +0.1 % at 2.3 x 3, none at 9.2 x 8
      // (docs/collisions.md "Contacts after every iteration").
      warning +=
        ` Where stiff bodies rest on each other, contacts solved once a substep can gain energy as the material restores the surface they dent, ` +
        `and more iterations do not stop it: about ${Math.ceil(params.substeps * kappa)} substeps (the wave within one element a substep) do, ` +
        `or the contacts solved after every iteration (collide-every contacts) with about ${contactIterations} iterations.`;
    } else if (contacts === 'coupled') {
      // Coupled with the material, contacts held three stacked cubes' energy within 1 % over 40
      // frames from about 3 iterations per element the wave crosses (kappa 1.0, 1.5, 2.5: 3, 5,
      // 8 iterations; fewer: +12 %, +3.4 %, +8.5 %); two cubes over 3 frames held within 2 % from
      // kappa + 1 (docs/collisions.md "Contacts need about 3 iterations per element crossed").
      warning += ` Where stiff bodies rest on each other, their contacts can gain energy below about ${contactIterations} iterations.`;
    }
  } else if (bodies && contacts === 'coupled' && params.iterations < CONTACT_ITERATIONS_PER_KAPPA * kappa) {
    // The material converges, but not the contacts coupled with it: bodies resting on each other
    // gain energy (docs/collisions.md "Contacts need about 3 iterations per element crossed").
    const substeps = Math.ceil((params.substeps * CONTACT_ITERATIONS_PER_KAPPA * kappa) / params.iterations);
    warning =
      `Bodies resting on each other can gain energy through their contacts at ${params.substeps} substeps x ${params.iterations} iterations: ` +
      `a pressure wave crosses ${kappa.toFixed(1)} of the smallest elements (${shortestEdge.toPrecision(2)} m) per substep, and contacts solved with the material ` +
      `hold stacked bodies' energy from about ${CONTACT_ITERATIONS_PER_KAPPA} iterations per element crossed; use about ${contactIterations} iterations or ${substeps} substeps.`;
  } else if (bodies && contacts === 'once') {
    // Once a substep, bodies resting on each other gained energy at every kappa measured, down to
    // 0.62 (docs/collisions.md "Contacts after every iteration by default between bodies").
    warning =
      `Bodies resting on each other can gain energy through contacts solved once a substep, after the material, which gives back as speed the surface they dent ` +
      `(three stacked cubes at a wave of 0.8 elements a substep: +44 % of the energy they released); the contacts solved after every iteration (collide-every contacts, the default between bodies) ` +
      `with about ${contactIterations} iterations hold it.`;
  }
  return { kappa, waveSpeed, shortestEdge, warning };
}

/**
 * Iterations a substep, per element a pressure wave crosses in it (kappa), from which contacts solved
 * with the material (collideEvery 'contacts' or 'iteration') held three stacked cubes' energy within
 * 1 % of what they released over 40 frames (float64, damping and friction off; resolution 4, kappa
 * 2.47 / 1.54 / 1.03 at 5 / 8 / 12 substeps: 8 / 5 / 3 iterations held, 6 / 4 / 2 rose 8.5 / 3.4 /
 * 12 %).
 */
export const CONTACT_ITERATIONS_PER_KAPPA = 3;

/** The most substeps a scene raises its own budget to (substepsResolving); beyond it the run warns instead. */
export const MAX_RESOLVING_SUBSTEPS = 500;

/**
 * The substeps at which `params.iterations` resolve a material (kappa <= iterations): at least
 * params.substeps, at most `max`. For scenes that choose a mesh's material from its size (the
 * drop and mesh-pile scenes' suggestedMaterial: E = rho g height / sag): kappa grows as
 * 1 / sqrt(size) there (c ~ sqrt(g height), elements ~ size), so a small mesh gets a material its
 * default 20 substeps do not resolve, and far beyond the iterations the body does not just act
 * softer: Cube.t scaled to 2 um (kappa 38 at 20 x 3) settled on the ground with its centre of
 * mass at a tenth of its height and 12x the drop's energy in strain, at 2 x 10^-5 m (kappa 12)
 * at 0.31 of its start height (0.49 resolved) with 2.4x (docs/benchmarks.md "Small meshes").
 * ceil(substeps x kappa / iterations) brings kappa to the iterations (kappa ~ h).
 */
export function substepsResolving(material: Material, shortestEdge: number, params: ResolutionParams, max = MAX_RESOLVING_SUBSTEPS): number {
  const { kappa } = materialResolution(material, shortestEdge, params);
  if (!(kappa > params.iterations)) return params.substeps;
  return Math.max(params.substeps, Math.min(max, Math.ceil((params.substeps * kappa) / params.iterations)));
}

/** The most iterations a scene raises its own budget to (budgetResolving 'iterations'); substeps take the rest. */
export const MAX_RESOLVING_ITERATIONS = 30;

/**
 * The budget at which a material is resolved (kappa <= iterations), raising one lever:
 * 'substeps' as substepsResolving; 'iterations' up to ceil(kappa), at most `maxIterations`, and
 * past that the substeps for what is left (kappa ~ h). Iterations are the cheaper lever where
 * collisions run: each substep pays for detection, the shortest-path queries and CCD whatever its
 * iterations, and the impact-adaptive substeps scale with the substeps ('auto': twice them). On the
 * shared 2K octopus shot at 50 m/s (kappa 23.9 at 20 x 3) 24 iterations held the energy that 3
 * and 10 gained (docs/benchmarks.md "Impact scenes resolve the material they choose").
 */
export function budgetResolving(
  material: Material,
  shortestEdge: number,
  params: ResolutionParams,
  lever: 'substeps' | 'iterations',
  maxIterations = MAX_RESOLVING_ITERATIONS,
  maxSubsteps = MAX_RESOLVING_SUBSTEPS,
): { substeps: number; iterations: number } {
  if (lever === 'substeps') return { substeps: substepsResolving(material, shortestEdge, params, maxSubsteps), iterations: params.iterations };
  const { kappa } = materialResolution(material, shortestEdge, params);
  if (!(kappa > params.iterations)) return { substeps: params.substeps, iterations: params.iterations };
  const iterations = Math.max(params.iterations, Math.min(maxIterations, Math.ceil(kappa)));
  const substeps = Math.max(params.substeps, Math.min(maxSubsteps, Math.ceil((params.substeps * kappa) / iterations)));
  return { substeps, iterations };
}
