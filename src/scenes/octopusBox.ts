/**
 * Octopi dropped into an open box (paper 000 Fig. 9: 8 octopi, to compare CCD only, DCD
 * with the shortest path only, and the hybrid; the page's collision-mode switch): N copies
 * of the shared octopus_2KFaces.t (1184 vertices, 4069 tets, about 1 unit wide; the paper's
 * octopus of Zhou and Jacobson 2016) stacked as pile.ts lays them out. Step: paper 000
 * Table 1's row for Fig. 9, h = 3.3e-3 s x 5 iterations, i.e. 5 substeps x 5 iterations at
 * dt 1/60 (the real-time budget); friction 0.2. Contacts solved after every material iteration
 * (collideEvery 'contacts'): at this long substep tentacle tips cross a thin tentacle of another
 * octopus by 2.4 mm a substep, and contacts solved once after all five iterations let them in.
 * On the float64 CPU reference (40 frames of 3 or 4 octopi, every run made), once a substep ended
 * up to 3 frames with vertices inside another octopus (up to 5.5 mm), 'contacts' at most one (0.09
 * mm), at 4 extra contact sweeps a substep (docs/collisions.md "Contacts after every iteration").
 * Five contact passes a round instead of three: where the settled pile tangles tentacles of three
 * octopi at the ground (600 contacts a substep, a vertex in up to 37 of them), three Jacobi passes
 * left 1-6 vertices inside another octopus at the end of frames 48-57 (up to 8 mm) on the CPU
 * reference, five none (docs/collisions.md "Contact passes in a tangled pile").
 * Far-side contacts dropped (SolverParams.farSideContacts 'drop'; 'auto' keeps them outside
 * recovery mode): a Pin point that an impact carried more than halfway through a tentacle has its
 * shortest path out through the tentacle's far side. On the float64 CPU reference, 56 frames each,
 * the frames ending with a vertex inside another octopus went from 4 to 1 (3 octopi), 2 to 0 (4)
 * and 2 to 1 (5), the vertices so counted from 24 to 3, the deepest from 3.8 to 1.7 mm
 * (docs/collisions.md "Far-side contacts"), at 2 more dispatches a substep.
 * CCD in every round (SolverParams.ccdEveryRound): the later rounds' material iterations carry a
 * free point into another octopus within the substep, after the detecting round's CCD, and the
 * contact passes that follow do not see it: on the float64 reference both vertices that ended a
 * frame of the default box inside another octopus entered so in the frame's last substep, with the
 * contacts they had satisfied. With CCD again in each later round, 56 frames each, the frames ending
 * with a vertex inside another octopus went from 2 to 0 (3 octopi), 2 to 0 (4) and 3 to 4 (5; 3 to
 * 7 vertices), at 1.6x the reference's frame time and 7 more dispatches a substep on the GPU (CCD
 * and the retiring of apart pairs in each of the 4 later rounds, where the first retired alone)
 * (docs/collisions.md "CCD in every round, with the facing rule").
 */
import { defaultParams } from '../contract/params';
import { pileScene } from './pile';
import { sceneMesh, sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

const SIZE: SceneSize = {
  label: 'octopi', option: 'copies', min: 1, max: 256, step: 1, default: 4, small: 2, paper: 8,
  note: 'paper Fig. 9: 8 octopi',
};
const OCTOPUS = { vertices: 1184, tets: 4069 };
const MATERIAL = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };

export const octopusBox: SceneDefinition = {
  name: 'octopus-box',
  description:
    `Copies of the shared octopus (${OCTOPUS.vertices} vertices, ${OCTOPUS.tets} tets each; --copies N, default ${SIZE.default}) dropped into an open box. ` +
    `Default: ${SIZE.default * OCTOPUS.vertices} vertices, ${SIZE.default * OCTOPUS.tets} tets.`,
  accepts: ['copies'],
  size: SIZE,
  meshFiles: { octopus: '../shared/meshes/octopus_2KFaces.t' },
  defaultCounts: { vertices: SIZE.default * OCTOPUS.vertices, tets: SIZE.default * OCTOPUS.tets },
  build(options = {}) {
    const mesh = sceneMesh(octopusBox, options, 'octopus');
    const n = sizedValue('octopus-box', SIZE, options);
    const items = Array.from({ length: n }, (_, i) => ({ name: `octopus ${i + 1}`, positions: mesh.positions, tets: mesh.tets, material: MATERIAL }));
    const pile = pileScene(items, defaultParams({ dt: 1 / 60, substeps: 5, iterations: 5, friction: 0.2, damping: 0.5, collisions: true, selfCollision: true, collideEvery: 'contacts', ccdEveryRound: true, contactIterations: 5, farSideContacts: 'drop' }));
    return { model: pile.model, colliders: pile.colliders, handles: [], params: pile.params };
  },
};
