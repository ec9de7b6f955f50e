/**
 * A mesh shot at a fixed thin wall (issue 9's tunnelling test, paper 000 Fig. 9 spirit): the
 * mesh (--mesh, default the shared Cube.t) flies along +x at --speed (default 50 m/s) toward a
 * wall at x = 0 whose thickness is 2 % of the mesh's length along x, three times its largest
 * extent across, every vertex pinned (a fixed handle). Both are as stiff as the speed asks
 * (impact.ts), and the iterations are raised until the shot body resolves that stiffness
 * (resolvedBudget.ts). It starts half its length away from the
 * wall. No gravity and no ground (--gravity adds gravity). With DCD alone and per-substep motion
 * beyond the wall's thickness the mesh passes through; CCD catches the first contact.
 */
import { hexGridBox } from '../mesh/procedural/hexGridBox';
import { fixedHandle } from '../sim/handles';
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { centredAt, checkSpeed, impactMaterial } from './impact';
import { resolveChosenMaterial } from './resolvedBudget';
import type { SceneDefinition, SceneMesh, SceneSetup } from './types';
import type { Material } from '../sim/material';
import type { SimSetup } from '../sim/setup';

export const SHOOT_DEFAULT_SPEED = 50;
/** Wall cells across its face (each split into 6 tets; one cell through the thickness). */
export const WALL_CELLS = 6;
const WALL_THICKNESS_RATIO = 0.02;

/**
 * The shoot scene's setup. `alignedGrid`: the wall's grid not shifted, so the mesh's edges lie on
 * its grid lines (vertex-on-vertex and edge-on-edge hits: issue 19's degenerate alignment, which
 * tests/unit/collision/alignedShoot.test.ts and bench/alignedShoot.ts run).
 */
export function shootSetup(mesh: SceneMesh, speed: number, gravity?: readonly number[], alignedGrid = false, materialFields: Partial<Material> = {}): SimSetup {
  checkSpeed('shoot', speed);
  const probe = centredAt(mesh.positions, [0, 0, 0]);
  const [lx, ly, lz] = probe.extent;
  const across = 3 * Math.max(lx, ly, lz);
  const thickness = WALL_THICKNESS_RATIO * lx;
  const body = centredAt(mesh.positions, [-(thickness / 2 + lx / 2 + lx / 2), 0, 0]);
  // The wall's grid is shifted off the mesh's axes (a fraction of a cell) so that the mesh's
  // edges do not lie on the wall's grid lines: a generic hit, not a vertex-on-vertex one.
  const cell = across / WALL_CELLS;
  const wall = hexGridBox([thickness, across, across], [1, WALL_CELLS, WALL_CELLS], alignedGrid ? [0, 0, 0] : [0, 0.37 * cell, 0.21 * cell]);
  const wallVertices = wall.positions.length / 3;
  const material = { ...impactMaterial(speed, materialFields.density), ...materialFields };
  const model = buildModel([
    { name: mesh.name, positions: body.positions, tets: mesh.tets, material, velocity: [speed, 0, 0] },
    { name: 'wall', positions: wall.positions, tets: wall.tets, material, handleOfVertex: new Int32Array(wallVertices) },
  ]);
  return {
    model,
    colliders: [],
    handles: [fixedHandle],
    params: defaultParams({ gravity: gravity ? [gravity[0], gravity[1], gravity[2]] : [0, 0, 0], damping: 0, friction: 0.2, collisions: true, selfCollision: true }),
  };
}

export const shoot: SceneDefinition = {
  name: 'shoot',
  description:
    `A mesh (--mesh, default ../shared/meshes/Cube.t: 100 vertices, 234 tets) shot at --speed (default ${SHOOT_DEFAULT_SPEED} m/s) ` +
    `at a fixed thin wall (${WALL_CELLS}x${WALL_CELLS}x1 cells, ${6 * WALL_CELLS * WALL_CELLS} tets, 2 % of the mesh's length thick); no gravity. ` +
    `Default: ${100 + 2 * (WALL_CELLS + 1) ** 2} vertices, ${234 + 6 * WALL_CELLS * WALL_CELLS} tets.`,
  accepts: ['mesh', 'speed'],
  defaultMeshFile: '../shared/meshes/Cube.t',
  defaultCounts: { vertices: 100 + 2 * (WALL_CELLS + 1) ** 2, tets: 234 + 6 * WALL_CELLS * WALL_CELLS },
  build(options = {}) {
    const mesh = options.mesh;
    if (!mesh) throw new Error('shoot needs a mesh (--mesh FILE; the runner defaults to ../shared/meshes/Cube.t)');
    const setup: SceneSetup = shootSetup(mesh, options.speed ?? SHOOT_DEFAULT_SPEED, options.gravity, false, options.material);
    resolveChosenMaterial(setup, options, 'shoot', 'iterations');
    return setup;
  },
};
