/**
 * Two copies of a mesh meeting head-on (issue 9, paper 000 Fig. 12 spirit): the mesh (--mesh,
 * default the shared Cube.t) twice, half its length apart along x, flying toward each other at
 * --speed each (default 30 m/s), the second copy shifted across by 5 % of its size so that the
 * contact is not perfectly face-on. No gravity, no ground. The material is as stiff as the speed
 * asks (impact.ts), and the iterations are raised until it is resolved (resolvedBudget.ts).
 */
import { buildModel } from '../sim/model';
import { defaultParams } from '../contract/params';
import { centredAt, checkSpeed, impactMaterial } from './impact';
import { resolveChosenMaterial } from './resolvedBudget';
import type { SceneDefinition, SceneSetup } from './types';

export const HEAD_ON_DEFAULT_SPEED = 30;

export const headOn: SceneDefinition = {
  name: 'head-on',
  description:
    `Two copies of a mesh (--mesh, default ../shared/meshes/Cube.t: 100 vertices, 234 tets each) half their length apart, flying at each other ` +
    `at --speed each (default ${HEAD_ON_DEFAULT_SPEED} m/s); no gravity. Default: 200 vertices, 468 tets.`,
  accepts: ['mesh', 'speed'],
  defaultMeshFile: '../shared/meshes/Cube.t',
  defaultCounts: { vertices: 200, tets: 468 },
  build(options = {}) {
    const mesh = options.mesh;
    if (!mesh) throw new Error('head-on needs a mesh (--mesh FILE; the runner defaults to ../shared/meshes/Cube.t)');
    const speed = options.speed ?? HEAD_ON_DEFAULT_SPEED;
    checkSpeed('head-on', speed);
    const [lx, ly, lz] = centredAt(mesh.positions, [0, 0, 0]).extent;
    const half = 0.75 * lx;
    const a = centredAt(mesh.positions, [-half, 0, 0]);
    const b = centredAt(mesh.positions, [half, 0.05 * ly, 0.05 * lz]);
    const material = { ...impactMaterial(speed, options.material?.density), ...options.material };
    const model = buildModel([
      { name: `${mesh.name} A`, positions: a.positions, tets: mesh.tets, material, velocity: [speed, 0, 0] },
      { name: `${mesh.name} B`, positions: b.positions, tets: mesh.tets, material, velocity: [-speed, 0, 0] },
    ]);
    const setup: SceneSetup = {
      model,
      colliders: [],
      handles: [],
      params: defaultParams({ gravity: options.gravity ? [...options.gravity] : [0, 0, 0], damping: 0, friction: 0.2, collisions: true, selfCollision: true }),
    };
    resolveChosenMaterial(setup, options, 'head-on', 'iterations');
    return setup;
  },
};
