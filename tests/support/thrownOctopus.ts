import type { SolverParams } from '../../src/contract/params';
import { meshDrop } from '../../src/scenes/meshDrop';
import type { SimSetup } from '../../src/sim/setup';
import { loadSharedTetArrays } from './sharedMeshes';

/**
 * The shared octopus (octopus_2KFaces.t, a real mesh made by others, 20 sliver tets) 1 cm above the
 * ground, thrown down at `speed` m/s, with no damping and `params` on top: its lowest tentacle tips
 * land in the first frame. The impact scene of the sliver tests.
 */
export function thrownOctopus(params: Partial<SolverParams>, speed = 5): SimSetup {
  const mesh = loadSharedTetArrays('octopus_2KFaces.t');
  const setup = meshDrop.build({ mesh: { name: 'octopus_2KFaces.t', positions: mesh.positions, tets: mesh.tets }, height: 0.01 });
  setup.params = { ...setup.params, damping: 0, ...params };
  const v0 = setup.model.initialVelocities as Float64Array;
  for (let i = 0; i < setup.model.vertexCount; i++) v0[3 * i + 1] = -speed;
  return setup;
}
