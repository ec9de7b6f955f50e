/**
 * The collision benchmark scene (issue 8): octopi of the shared mesh octopus_2KFaces.t (about
 * 1 unit wide) alternating with generated octopi of the same size, stacked with gaps in an
 * open box so that they fall onto each other. --copies sets the number of octopi (the box
 * grows with it, see pile.ts), --resolution the generated ones' lattice, --mesh replaces the
 * shared octopus.
 */
import { generateShape } from '../mesh/procedural/catalog';
import { defaultParams } from '../contract/params';
import { pileScene, type PileItem } from './pile';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

/** The procedural octopus scaled to the shared one's size (about 1 unit across the arms). */
export const PILE_OCTOPUS_SHAPE = { headRadius: 0.18, armLength: 0.6, armBaseRadius: 0.06, armTipRadius: 0.03 };
export const PILE_DEFAULT_COPIES = 4;
export const PILE_OCTOPUS_RESOLUTION = 20;
const SIZE: SceneSize = {
  label: 'octopi', option: 'copies', min: 1, max: 600, step: 1, default: PILE_DEFAULT_COPIES, small: 2, paper: 600,
  note: 'paper Fig. 18: 600 octopi, 3.1M vertices, 8.88M tets (here about 4.7k tets an octopus)',
};
const MATERIAL = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
/** Counts the description states (held by tests/unit/scenes): the generated octopus at the default resolution, the default scene. */
export const PILE_GENERATED_OCTOPUS_COUNTS = { vertices: 1463, tets: 5249 };
const DEFAULT_COUNTS = { vertices: 5294, tets: 18636 };

export const octopusPile: SceneDefinition = {
  name: 'octopus-pile',
  description:
    'Octopi dropped onto each other into an open box: --copies N (default 4, about four layers deep), the shared octopus_2KFaces.t ' +
    '(1184 vertices, 4069 tets; --mesh replaces it) alternating with generated octopi (--resolution, default 20: ' +
    `${PILE_GENERATED_OCTOPUS_COUNTS.vertices} vertices, ${PILE_GENERATED_OCTOPUS_COUNTS.tets} tets). ` +
    `Default: ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets.`,
  accepts: ['copies', 'resolution', 'mesh'],
  size: SIZE,
  defaultMeshFile: '../shared/meshes/octopus_2KFaces.t',
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const mesh = options.mesh;
    if (!mesh) throw new Error('octopus-pile needs the octopus mesh (the runner reads ../shared/meshes/octopus_2KFaces.t, or --mesh FILE)');
    const copies = sizedValue('octopus-pile', SIZE, options);
    const generated = generateShape('octopus', PILE_OCTOPUS_SHAPE, options.resolution ?? PILE_OCTOPUS_RESOLUTION);
    const items: PileItem[] = [];
    for (let i = 0; i < copies; i++) {
      items.push(
        i % 2 === 0
          ? { name: `${mesh.name} ${i / 2 + 1}`, positions: mesh.positions, tets: mesh.tets, material: MATERIAL }
          : { name: `generated octopus ${(i + 1) / 2}`, positions: generated.positions, tets: generated.tets, material: MATERIAL },
      );
    }
    return pileScene(items, defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.2, damping: 0.5, collisions: true, selfCollision: true }));
  },
};
