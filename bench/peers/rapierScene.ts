/**
 * One of our scene setups (src/scenes) rebuilt in Rapier (npm @dimforge/rapier3d-compat 0.21,
 * its volumetric soft bodies): every object becomes a SoftBody over the same vertices and tets
 * (Neo-Hookean cells, the object's Young's modulus and Poisson ratio, our lumped vertex masses),
 * its outward boundary as the collision surface, self contacts on; the analytic plane colliders
 * become static cuboids. Rapier's own tangle detection and recovery stay at its defaults.
 *
 * Equal work per frame: one world.step() of dt with numSolverIterations = our substeps (Rapier's
 * solver iterations are substeps: each integrates and re-solves, and SoftBodyDesc's
 * additionalSolverIterations is documented as "extra solver substeps") and numInternalPgsIterations
 * + the body's additionalPgsIterations = our iterations per substep; its impact-adaptive extra
 * substeps (softBodiesMaxExtraSubsteps, default 4) off unless asked for.
 */
import type RAPIER_NS from '@dimforge/rapier3d-compat';
import type { Collider } from '../../src/sim/colliders';
import type { SimSetup } from '../../src/sim/setup';
import { outwardSurface } from './surface';

type Rapier = typeof RAPIER_NS;

export interface RapierSceneOptions {
  /** Rapier's impact-adaptive extra substeps (softBodiesMaxExtraSubsteps); 0 keeps the substeps equal to ours. */
  extraSubsteps?: number;
  /** Contact thickness of the particles (SoftBodyDesc.setParticleRadius); Rapier's default when absent. */
  particleRadius?: number;
  /** 'constraints' (Rapier's default: cells as constraints in its PGS solve) or 'fem' (one linear solve per substep). */
  solver?: 'constraints' | 'fem';
}

export interface RapierScene {
  world: InstanceType<Rapier['World']>;
  bodies: InstanceType<Rapier['SoftBody']>[];
  /** Copies every particle position into out (xyz per vertex, our model's vertex order). */
  readPositions(out: Float64Array): void;
  describe(): string;
}

/** Half thickness and half extent of the static boxes standing for our half-space planes. */
const SLAB = 1;
const SPAN = 50;

function planeBox(R: Rapier, c: Extract<Collider, { kind: 'plane' }>, friction: number): InstanceType<Rapier['ColliderDesc']> {
  if (typeof c.offset !== 'number') throw new Error('rapierScene: a scripted plane collider has no Rapier counterpart here');
  const n = c.normal;
  const axis = [0, 1, 2].find((k) => Math.abs(n[k]) === Math.hypot(n[0], n[1], n[2]));
  if (axis === undefined) throw new Error(`rapierScene: plane normal (${n.join(', ')}) is not along an axis; only axis-aligned planes are converted`);
  const s = Math.sign(n[axis]);
  // Our plane keeps points where s x_axis >= offset; the solid slab fills s x_axis in [offset - 2 SLAB, offset].
  const half = [SPAN, SPAN, SPAN];
  half[axis] = SLAB;
  const centre = [0, 0, 0];
  centre[axis] = s * (c.offset - SLAB);
  return R.ColliderDesc.cuboid(half[0], half[1], half[2]).setTranslation(centre[0], centre[1], centre[2]).setFriction(friction);
}

export function buildRapierScene(R: Rapier, setup: SimSetup, options: RapierSceneOptions = {}): RapierScene {
  const { model, params } = setup;
  if (setup.handles.length > 0) throw new Error('rapierScene: scenes with scripted handles are not converted');
  const world = new R.World({ x: params.gravity[0], y: params.gravity[1], z: params.gravity[2] });
  world.timestep = params.dt;
  world.numSolverIterations = params.substeps;
  const ip = world.integrationParameters;
  ip.numInternalPgsIterations = 1;
  ip.softBodiesMaxExtraSubsteps = options.extraSubsteps ?? 0;
  world.integrationParameters = ip;
  for (const c of setup.colliders) {
    if (c.kind !== 'plane') throw new Error(`rapierScene: collider kind ${c.kind} is not converted (planes only)`);
    world.createCollider(planeBox(R, c, params.friction));
  }
  const bodies: InstanceType<Rapier['SoftBody']>[] = [];
  for (let o = 0; o < model.objectNames.length; o++) {
    const v0 = model.objectVertexOffsets[o], v1 = model.objectVertexOffsets[o + 1];
    const t0 = model.objectTetOffsets[o], t1 = model.objectTetOffsets[o + 1];
    const positions = Float32Array.from(model.restPositions.subarray(3 * v0, 3 * v1));
    const tets = model.tets.subarray(4 * t0, 4 * t1);
    const cells = Uint32Array.from(tets, (v) => v - v0);
    const masses = Float32Array.from({ length: v1 - v0 }, (_, i) => 1 / model.invMass[v0 + i]);
    const material = new R.SoftBodyMaterial();
    material.youngModulus = model.materials[o].youngsModulus;
    material.poissonRatio = model.materials[o].poissonRatio;
    let desc = new R.SoftBodyDesc(positions)
      .setCells(cells)
      .setSurface(outwardSurface(tets, v0))
      .setCellModel(R.SoftBodyCellModel.NeoHookean)
      .setSolver(options.solver === 'fem' ? R.SoftBodySolver.Fem : R.SoftBodySolver.Constraints)
      .setMaterial(material)
      .setMasses(masses)
      .setSelfContacts(true)
      .setCanSleep(false)
      .setAdditionalPgsIterations(params.iterations - 1)
      .setSurfaceCollider(R.ColliderDesc.ball(1).setFriction(params.friction));
    if (options.particleRadius !== undefined) desc = desc.setParticleRadius(options.particleRadius);
    const body = world.createSoftBody(desc);
    if (body.numParticles() !== v1 - v0 || body.numCells() !== t1 - t0) {
      throw new Error(`rapierScene: object ${o} (${model.objectNames[o]}) became ${body.numParticles()} particles / ${body.numCells()} cells, expected ${v1 - v0} / ${t1 - t0}`);
    }
    bodies.push(body);
  }
  return {
    world,
    bodies,
    readPositions(out) {
      for (let o = 0; o < bodies.length; o++) {
        const p = bodies[o].particlePositions();
        const v0 = model.objectVertexOffsets[o];
        for (let i = 0; i < p.length; i++) out[3 * v0 + i] = p[i];
      }
    },
    describe() {
      const b = bodies[0];
      const q = world.integrationParameters;
      return `Rapier ${R.version()}: ${bodies.length} soft bodies, ${q.numSolverIterations} substeps (numSolverIterations) x ${q.numInternalPgsIterations} + ${params.iterations - 1} PGS iterations, extra substeps ${q.softBodiesMaxExtraSubsteps}, ${options.solver ?? 'constraints'} solver, Neo-Hookean cells, particle radius ${b.particleRadius().toFixed(4)}, self contacts on, recovery at defaults`;
    },
  };
}
