/**
 * Any tet mesh raised above a ground plane and dropped: the page's scene for the mesh on
 * screen, and the runner's `drop` scene for a mesh file. On the page the ground sits where the
 * page already draws its grid (the mesh's lowest point as loaded) and the object starts
 * `liftFraction` of its height above it; the runner's scene centres the mesh in x and z and
 * puts the ground at y = 0, so the lowest point is the height above the ground.
 */
import type { Material } from '../sim/material';
import { buildModel } from '../sim/model';
import { defaultParams, type SolverParams } from '../contract/params';
import type { SimSetup } from '../sim/setup';
import { placeAbove } from './place';
import { resolveChosenMaterial } from './resolvedBudget';
import type { SceneDefinition, SceneSetup } from './types';

export interface DropSource {
  /** xyz per vertex. */
  positions: ArrayLike<number>;
  /** 4 vertex ids per tet, positively oriented (as a validated TetMesh has them). */
  tets: ArrayLike<number>;
}

/** Where the object starts and where the ground is (cheap: one pass over the positions). */
export interface DropPlacement {
  /** Height of the ground plane (normal +y): the mesh's lowest point as loaded. */
  groundY: number;
  /** How far the object is raised. */
  lift: number;
  /** Lowest point at the start: groundY + lift. */
  startMinY: number;
  /** Axis-aligned bounds of the starting pose, ground included: [min xyz, max xyz]. */
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export interface DropScene extends DropPlacement {
  setup: SimSetup;
}

/** Fraction of the object's height that it starts above the ground. */
export const DEFAULT_LIFT_FRACTION = 0.5;

/**
 * A material that looks soft but holds its shape at any mesh size: Young's modulus such that
 * the object's own weight strains it by about `sag` (stress at the base ~ density g height,
 * strain = stress / E). The shared meshes range from 1 cm to 20 units, so a fixed modulus
 * would make small ones rigid and large ones collapse.
 */
export function suggestedMaterial(height: number, gravity: number, sag = 0.05, density = 1000): Material {
  const h = height > 0 && Number.isFinite(height) ? height : 1;
  const g = Math.abs(gravity) > 0 ? Math.abs(gravity) : 9.81;
  const youngsModulus = Number(((density * g * h) / sag).toPrecision(2));
  return { youngsModulus, poissonRatio: 0.3, density };
}

function boundsOf(positions: ArrayLike<number>): DropPlacement['bounds'] {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const p = positions[i + k]!;
      if (!Number.isFinite(p)) throw new Error(`drop scene: vertex ${i / 3} has a non-finite coordinate (${p})`);
      if (p < min[k]!) min[k] = p;
      if (p > max[k]!) max[k] = p;
    }
  }
  return { min, max };
}

function checkedBounds(positions: ArrayLike<number>): DropPlacement['bounds'] {
  if (positions.length === 0 || positions.length % 3 !== 0) {
    throw new Error(`drop scene: positions length ${positions.length} is not a positive multiple of 3`);
  }
  return boundsOf(positions);
}

/** The height that a lift fraction refers to: the object's height, or its largest extent when it is flat. */
function liftReference(b: DropPlacement['bounds']): number {
  const height = b.max[1] - b.min[1];
  const extent = Math.max(height, b.max[0] - b.min[0], b.max[2] - b.min[2]);
  // A flat object still falls a visible distance: lift by its largest extent then.
  return height > 1e-9 * extent ? height : extent;
}

export function dropPlacement(positions: ArrayLike<number>, liftFraction = DEFAULT_LIFT_FRACTION): DropPlacement {
  if (!(liftFraction >= 0)) throw new RangeError(`drop scene: liftFraction must be >= 0, got ${liftFraction}`);
  const b = checkedBounds(positions);
  return placementWithLift(b, liftFraction * liftReference(b));
}

/** Like dropPlacement, with the lift given as a distance (the runner's --height). */
export function dropPlacementWithLift(positions: ArrayLike<number>, lift: number): DropPlacement {
  if (!(lift >= 0) || !Number.isFinite(lift)) throw new RangeError(`drop scene: height above the ground must be a finite number >= 0, got ${lift}`);
  return placementWithLift(checkedBounds(positions), lift);
}

function placementWithLift(b: DropPlacement['bounds'], lift: number): DropPlacement {
  const groundY = b.min[1];
  return {
    groundY,
    lift,
    startMinY: groundY + lift,
    bounds: { min: [b.min[0], groundY, b.min[2]], max: [b.max[0], b.max[1] + lift, b.max[2]] },
  };
}

/** The drop scene: the mesh raised by `placement.lift`, a ground plane at `placement.groundY`. */
export function meshDropScene(
  name: string,
  mesh: DropSource,
  material: Material,
  params: SolverParams,
  placement: DropPlacement = dropPlacement(mesh.positions),
): DropScene {
  const positions = new Float64Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = mesh.positions[i]!;
    positions[i + 1] = mesh.positions[i + 1]! + placement.lift;
    positions[i + 2] = mesh.positions[i + 2]!;
  }
  const model = buildModel([{ name, positions, tets: mesh.tets, material }]);
  return {
    ...placement,
    setup: {
      model,
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: placement.groundY }],
      handles: [],
      params: { ...params, gravity: [...params.gravity] },
    },
  };
}

/**
 * The runner's `drop` scene: options.mesh centred in x and z with its lowest point
 * options.height above a ground plane at y = 0 (default: half the object's height), or no
 * ground with options.ground false. The material is suggestedMaterial() for the mesh's height
 * under |options.gravity|, with options.material's fields on top, and substeps raised until
 * that material is resolved (resolvedBudget.ts: a mesh of a few micrometres needs hundreds).
 */
export const meshDrop: SceneDefinition = {
  name: 'drop',
  description: 'A tet mesh file (--mesh) dropped onto a ground plane at y = 0 from --height above it.',
  accepts: ['mesh', 'height', 'ground'],
  build(options = {}) {
    const mesh = options.mesh;
    if (!mesh) throw new Error('the drop scene needs a mesh (--mesh FILE)');
    const centred = placeAbove(mesh.positions, 0);
    const b = checkedBounds(centred);
    const placement = options.height === undefined
      ? placementWithLift(b, DEFAULT_LIFT_FRACTION * liftReference(b))
      : dropPlacementWithLift(centred, options.height);
    const params = defaultParams({ gravity: options.gravity ? [...options.gravity] : [0, -9.81, 0] });
    const g = Math.hypot(...params.gravity);
    const density = options.material?.density;
    const material = { ...suggestedMaterial(b.max[1] - b.min[1], g, undefined, density), ...options.material };
    const scene = meshDropScene(mesh.name, { positions: centred, tets: mesh.tets }, material, params, placement);
    if (options.ground === false) scene.setup.colliders.length = 0;
    const setup: SceneSetup = scene.setup;
    resolveChosenMaterial(setup, options, 'drop');
    return setup;
  },
};
