import { describe, expect, it } from 'vitest';
import { RestShapeKernel } from '../../src/sim/restShape';
import { computeRestShapeCpu } from '../../src/sim/restShapeCpu';
import { readBuffer, testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';

/**
 * GPU (f32) vs CPU (f64) rest shape on real meshes made by others. Tolerances are relative:
 * the knot's tets are tiny (Dm^-1 entries in the hundreds, volumes ~1e-8).
 */
async function compare(name: string): Promise<void> {
  const ctx = await testGpu();
  const { positions, tets } = loadSharedTetArrays(name);
  const cpu = computeRestShapeCpu(positions, tets);
  const kernel = new RestShapeKernel(ctx.device);
  const out = kernel.run(positions, tets);
  const dmInv = new Float32Array(await readBuffer(ctx, out.dmInv));
  const volume = new Float32Array(await readBuffer(ctx, out.volume));
  const tetCount = tets.length / 4;
  let worstInv = 0;
  let worstVol = 0;
  for (let t = 0; t < tetCount; t++) {
    // Scale of this tet's inverse: its largest entry.
    let scale = 0;
    for (let k = 0; k < 9; k++) scale = Math.max(scale, Math.abs(cpu.dmInv[9 * t + k]));
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 3; i++) {
        const err = Math.abs(dmInv[12 * t + 4 * j + i] - cpu.dmInv[9 * t + 3 * j + i]) / scale;
        worstInv = Math.max(worstInv, err);
      }
      expect(dmInv[12 * t + 4 * j + 3]).toBe(0);
    }
    worstVol = Math.max(worstVol, Math.abs(volume[t] - cpu.volume[t]) / Math.abs(cpu.volume[t]));
  }
  // f32 has a 6e-8 unit roundoff; differences of nearby coordinates lose a few bits more.
  expect(worstInv).toBeLessThan(2e-3);
  expect(worstVol).toBeLessThan(2e-3);
  out.dmInv.destroy();
  out.volume.destroy();
}

describe('rest shape kernel matches the float64 reference', () => {
  it('on octopus_2KFaces.t', () => compare('octopus_2KFaces.t'));
  it('on OverhandKnot.t (0.3 units, tiny tets)', () => compare('OverhandKnot.t'));
});
