/** The procedural beam (2 x 0.25 x 0.25) with its end bands (3% of its length) given handles. */
import { generateShape, type ShapeParams } from '../mesh/procedural/catalog';
import { buildModel, type Model } from '../sim/model';
import { boundsOf } from './place';
import type { SceneSize } from './types';

/** The beam scenes' size: the lattice resolution of the 2 x 0.25 x 0.25 beam. */
export function beamSize(note: string): SceneSize {
  return { label: 'lattice resolution', option: 'resolution', min: 8, max: 240, step: 1, default: 40, small: 16, paper: 40, note };
}
/** Counts at the default resolution 40 (held by tests/unit/scenes). */
export const BEAM_DEFAULT_COUNTS = { vertices: 3326, tets: 13700 };

/** Handle 0 holds the left end; with `pinRight`, handle 1 holds the right end. `extents`: the beam shape's sizeX/Y/Z (default 2 x 0.25 x 0.25). */
export function pinnedBeamModel(resolution: number | undefined, pinRight: boolean, extents: Partial<ShapeParams> = {}): Model {
  const shape = generateShape('beam', extents, resolution);
  const b = boundsOf(shape.positions);
  const n = shape.positions.length / 3;
  const handleOfVertex = new Int32Array(n);
  const band = 0.03 * (b.max[0] - b.min[0]);
  for (let v = 0; v < n; v++) {
    const x = shape.positions[3 * v];
    handleOfVertex[v] = x < b.min[0] + band ? 0 : pinRight && x > b.max[0] - band ? 1 : -1;
  }
  return buildModel([
    { name: 'beam', positions: shape.positions, tets: shape.tets, material: { youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 }, handleOfVertex },
  ]);
}
