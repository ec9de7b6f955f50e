/**
 * Test oracle: the volume of {sdf < 0} by stratified (jittered) sampling of the SDF over a
 * box, independent of any mesh.
 */
import type { Bounds, Sdf } from '../../../src/mesh/procedural/sdf';
import { rng } from '../../support/random';

export function sdfVolume(sdf: Sdf, bounds: Bounds, samplesPerAxis: number, seed = 1): number {
  const r = rng(seed);
  const n = samplesPerAxis;
  const ex = [0, 1, 2].map((k) => bounds.max[k] - bounds.min[k]);
  let inside = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < n; k++) {
        const x = bounds.min[0] + ((i + r()) * ex[0]) / n;
        const y = bounds.min[1] + ((j + r()) * ex[1]) / n;
        const z = bounds.min[2] + ((k + r()) * ex[2]) / n;
        if (sdf(x, y, z) < 0) inside++;
      }
    }
  }
  return (inside / n ** 3) * ex[0] * ex[1] * ex[2];
}
