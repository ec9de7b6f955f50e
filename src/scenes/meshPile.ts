/**
 * N copies of any mesh file (--mesh FILE --copies N, every format the loaders read) stacked in
 * an open box so that they fall onto each other (layout: pile.ts). The material is the drop
 * scene's suggestion for the mesh's height (holds its shape at any scale), with the
 * command line's fields on top. Counts: N x the mesh's vertices and tets.
 */
import { defaultParams } from '../contract/params';
import { suggestedMaterial } from './meshDrop';
import { pileScene } from './pile';
import { resolveChosenMaterial } from './resolvedBudget';
import { boundsOf } from './place';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const MESH_PILE_DEFAULT_COPIES = 4;
const SIZE: SceneSize = {
  label: 'copies', option: 'copies', min: 1, max: 256, step: 1, default: MESH_PILE_DEFAULT_COPIES, small: 2, paper: MESH_PILE_DEFAULT_COPIES,
  note: 'any mesh; the paper piles 600 octopi (Fig. 18) and 16 squishy balls (Fig. 19)',
};

export const meshPile: SceneDefinition = {
  name: 'mesh-pile',
  description: 'N copies (--copies, default 4) of a mesh file (--mesh) dropped onto each other into an open box: N x the mesh\'s vertices and tets.',
  accepts: ['mesh', 'copies'],
  size: SIZE,
  build(options = {}) {
    const mesh = options.mesh;
    if (!mesh) throw new Error('the mesh-pile scene needs a mesh (--mesh FILE)');
    const copies = sizedValue('mesh-pile', SIZE, options);
    const params = defaultParams({ gravity: options.gravity ? [...options.gravity] : [0, -9.81, 0], damping: 0.5, collisions: true, selfCollision: true });
    const b = boundsOf(mesh.positions);
    const material = { ...suggestedMaterial(b.max[1] - b.min[1], Math.hypot(...params.gravity), undefined, options.material?.density), ...options.material };
    const items = Array.from({ length: copies }, (_, i) => ({ name: `${mesh.name} ${i + 1}`, positions: mesh.positions, tets: mesh.tets, material }));
    const setup = pileScene(items, params);
    resolveChosenMaterial(setup, options, 'mesh-pile');
    return setup;
  },
};
